// The app tests' main: one QApplication for every test, then Catch2. [gl] tests are left out,
// with a message, when no OpenGL context can be made.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "helpers.h"
#include "startup.h"

#include <QApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>

#include <cstdio>
#include <string>
#include <vector>

namespace {
bool g_gl = false;
}

bool topocast::app::test::glAvailable() { return g_gl; }

int main(int argc, char* argv[])
{
    topocast::app::setupRenderer();
    if (!topocast::app::haveDisplay())
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("topocast-tests"));
    QApplication::setApplicationName(QStringLiteral("topocast-tests"));

    {
        QOffscreenSurface surface;
        surface.create();
        QOpenGLContext context;
        g_gl = QGuiApplication::platformName() != QLatin1String("offscreen") && context.create() &&
               context.makeCurrent(&surface);
    }
    std::vector<std::string> args(argv, argv + argc);
    if (!g_gl) {
        std::fprintf(stderr, "topocast_app_tests: no OpenGL context on platform '%s': the [gl] tests are LEFT OUT "
                             "(run under xvfb-run -a -s \"-screen 0 1600x1000x24\" with QT3D_RENDERER=opengl)\n",
                     qPrintable(QGuiApplication::platformName()));
        // Catch2 joins several test-spec arguments with OR; with a user spec we AND "~[gl]" to it.
        bool hasSpec = false;
        for (std::size_t i = 1; i < args.size(); ++i)
            if (!args[i].empty() && args[i][0] != '-') {
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
