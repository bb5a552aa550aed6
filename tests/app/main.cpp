// The app tests' main: one QApplication for every test, then Catch2.
//
// Two ways to run it (tests/app/CMakeLists.txt registers both with ctest):
//  - `topocast_app_tests "~[gl]…"`: the tests that need no OpenGL, on Qt's offscreen platform when
//    there is no display;
//  - `topocast_app_tests --gl "[gl]…"` under xvfb-run: the GL run. It forces the xcb platform
//    (whatever QT_QPA_PLATFORM says: an `offscreen` inherited from the environment would give no
//    GL context) and *fails* when no OpenGL context can be made, so the GL tests can never pass by
//    running none. Without --gl, [gl] tests are left out with a message when there is no context.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "helpers.h"
#include "launch/startup.h"

#include <QApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {
bool g_gl = false;

bool makeGlContext()
{
    if (QGuiApplication::platformName() == QLatin1String("offscreen"))
        return false;
    QOffscreenSurface surface;
    surface.create();
    QOpenGLContext context;
    return context.create() && context.makeCurrent(&surface);
}
} // namespace

bool topocast::app::test::glAvailable()
{
    return g_gl;
}

int main(int argc, char* argv[])
{
    std::vector<std::string> args(argv, argv + argc);
    const auto glFlag = std::find(args.begin() + 1, args.end(), "--gl");
    const bool requireGl = glFlag != args.end();
    if (requireGl)
        args.erase(glFlag);

    topocast::app::setupRenderer();
    if (requireGl) {
        if (qEnvironmentVariableIsEmpty("DISPLAY")) {
            std::fprintf(stderr, "topocast_app_tests --gl: DISPLAY is unset; run it under "
                                 "xvfb-run -a -s \"-screen 0 1600x1000x24\"\n");
            return 3;
        }
        qputenv("QT_QPA_PLATFORM", "xcb");
    } else if (!topocast::app::haveDisplay()) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("topocast-tests"));
    QApplication::setApplicationName(QStringLiteral("topocast-tests"));

    g_gl = makeGlContext();
    if (!g_gl && requireGl) {
        std::fprintf(stderr,
                     "topocast_app_tests --gl: no OpenGL context could be made on platform '%s' "
                     "(QT3D_RENDERER=%s): the GL tests cannot run\n",
                     qPrintable(QGuiApplication::platformName()), qgetenv("QT3D_RENDERER").constData());
        return 3;
    }
    if (!g_gl) {
        std::fprintf(stderr,
                     "topocast_app_tests: no OpenGL context on platform '%s': the [gl] tests are LEFT OUT "
                     "(run under xvfb-run -a -s \"-screen 0 1600x1000x24\" with --gl)\n",
                     qPrintable(QGuiApplication::platformName()));
        // Catch2 joins several test-spec arguments with OR; with a user spec we AND "~[gl]" to it.
        // Catch2's options that take a value: their value is not a test spec.
        static const std::vector<std::string> valued = {"-w",
                                                        "--warn",
                                                        "-r",
                                                        "--reporter",
                                                        "-o",
                                                        "--out",
                                                        "-d",
                                                        "--durations",
                                                        "-f",
                                                        "--input-file",
                                                        "-x",
                                                        "--abort-x",
                                                        "-v",
                                                        "--verbosity",
                                                        "-c",
                                                        "--section",
                                                        "-n",
                                                        "--name",
                                                        "--order",
                                                        "--rng-seed",
                                                        "--use-colour",
                                                        "--wait-for-keypress",
                                                        "--benchmark-samples",
                                                        "--benchmark-resamples",
                                                        "--benchmark-confidence-interval",
                                                        "--benchmark-warmup-time"};
        bool hasSpec = false;
        for (std::size_t i = 1; i < args.size(); ++i)
            if (!args[i].empty() && args[i][0] != '-' &&
                std::find(valued.begin(), valued.end(), args[i - 1]) == valued.end()) {
                args[i] += "~[gl]";
                hasSpec = true;
            }
        if (!hasSpec)
            args.emplace_back("~[gl]");
    }
    std::vector<char*> cargs;
    for (auto& a : args)
        cargs.push_back(a.data());
    return Catch::Session().run(static_cast<int>(cargs.size()), cargs.data());
}
