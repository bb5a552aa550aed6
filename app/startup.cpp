#include "startup.h"

#include "scene/sceneview.h"
#include "session.h"

#include "topocast/error.h"

#include <Qt3DExtras/Qt3DWindow>

#include <QImage>
#include <QRegularExpression>

namespace topocast::app {

QString setupRenderer()
{
    if (qEnvironmentVariableIsEmpty("QT3D_RENDERER"))
        qputenv("QT3D_RENDERER", "opengl");
    return QString::fromLocal8Bit(qgetenv("QT3D_RENDERER"));
}

bool haveDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

QString noDisplayMessage()
{
    return QStringLiteral(
        "topocast: no display found (DISPLAY and WAYLAND_DISPLAY are unset).\n"
        "  Run it under a virtual X server:  xvfb-run -a -s \"-screen 0 1600x1000x24\" topocast\n"
        "  or render one view to a file:     xvfb-run -a topocast --screenshot out.png\n"
        "  or use the headless front end:    topocast-cli schedule --topology mesh:8x8x8 --algorithm cang-wu");
}

std::optional<QSize> parseSize(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^(\\d{2,4})[xX](\\d{2,4})$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    const int w = m.captured(1).toInt(), h = m.captured(2).toInt();
    if (w < 16 || h < 16 || w > 8192 || h > 8192)
        return std::nullopt;
    return QSize(w, h);
}

int renderScreenshot(const ScreenshotOptions& options, QString& error)
{
    Scenario scenario = defaultScenario();
    if (!options.scenarioFile.isEmpty()) {
        try {
            scenario = loadScenario(options.scenarioFile.toStdString());
        } catch (const Error& e) {
            error = QString::fromStdString(e.what());
            return 2;
        }
    }
    Session session;
    QString failure;
    QObject::connect(&session, &Session::failed, [&failure](const QString& m) { failure = m; });
    if (!session.setScenarioNow(scenario, true)) {
        error = failure;
        return 2;
    }
    const SnapshotPtr snap = session.snapshot();
    SceneView scene;
    scene.window()->resize(options.size);
    scene.window()->show();
    scene.setSnapshot(snap);
    scene.setMode(options.mode);
    const int steps = static_cast<int>(snap->stepCount());
    if (options.step > steps) {
        error = QStringLiteral("--step %1 is past the last step %2").arg(options.step).arg(steps);
        return 2;
    }
    scene.setStep(options.step < 0 ? steps : options.step);
    scene.setFraction(1.0f);
    scene.resetView();
    const QImage image = scene.captureFrame();
    if (image.isNull()) {
        error = QStringLiteral("no frame was rendered (no OpenGL context?); try xvfb-run -a and QT3D_RENDERER=opengl");
        return 2;
    }
    if (!image.save(options.output)) {
        error = QStringLiteral("cannot write %1").arg(options.output);
        return 2;
    }
    return 0;
}

} // namespace topocast::app
