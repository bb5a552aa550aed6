#include "launch/startup.h"

#include "export/animationexport.h"
#include "export/compareexport.h"
#include "session/output.h"
#include "session/snapshot.h"

#include "topocast/io/scenario_file.h"
#include "topocast/model/error.h"

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

Scenario loadComparePair(const QString& scenarioFile, const QString& compareFile)
{
    const Scenario a = scenarioFile.isEmpty() ? defaultScenario() : loadScenario(scenarioFile.toStdString());
    const Scenario b = loadScenario(compareFile.toStdString());
    try {
        return withCompare(a, b);
    } catch (const Error& e) {
        throw Error("--compare " + compareFile.toStdString() + ": " + e.what());
    }
}

int renderScreenshot(const ScreenshotOptions& options, QString& error, const QString& compareFile)
{
    try {
        Scenario scenario = !compareFile.isEmpty()           ? loadComparePair(options.scenarioFile, compareFile)
                            : options.scenarioFile.isEmpty() ? defaultScenario()
                                                             : loadScenario(options.scenarioFile.toStdString());
        if (!options.layout.isEmpty()) {
            const auto drawing = parseHypercubeDrawing(options.layout.toStdString());
            if (!drawing && !parseGridDrawing(options.layout.toStdString()))
                throw Error("--layout " + options.layout.toStdString() +
                            " is not one of cube, flat (hypercubes), tower, planes (3-D meshes and tori)");
            if (drawing && *drawing == HypercubeDrawing::Flat && scenario.topology.isHypercube() &&
                scenario.topology.dims() > kFlatHypercubeMaxDims)
                throw Error("--layout flat: the " + scenario.topology.displayName() +
                            " has n = " + std::to_string(scenario.topology.dims()) + "; the flat drawing is for n ≤ 6");
            scenario.view.layout = options.layout.toStdString();
        }
        const ViewMode mode = options.mode.value_or(
            parseViewMode(QString::fromStdString(scenarioViewMode(scenario))).value_or(ViewMode::Plain));
        if (scenario.compare) {
            const CompareSnapshotPtr cmp = buildCompareSnapshot(scenario);
            ViewSettings view;
            view.size = options.size;
            view.mode = mode;
            const int step = options.step < 0 ? static_cast<int>(cmp->comparison.steps) : options.step;
            savePng(renderComparePicture(cmp, view, step), options.output);
            return 0;
        }
        const SnapshotPtr snap = buildSnapshot(scenario, {.allowFallback = true});
        ViewSettings view;
        view.size = options.size;
        view.mode = mode;
        const int step = options.step < 0 ? static_cast<int>(snap->stepCount()) : options.step;
        savePng(renderPicture(snap, view, step), options.output);
    } catch (const Error& e) {
        error = QString::fromStdString(e.what());
        return 2;
    }
    return 0;
}

} // namespace topocast::app
