// topocast: parses the command line and shows the window (everything else is in topocast_app).
#include "commands.h"
#include "compareview.h"
#include "handoff.h"
#include "layercharts.h"
#include "mainwindow.h"
#include "session.h"
#include "scene/sceneview.h"
#include "startup.h"
#include "timeline.h"

#include "topocast/error.h"
#include "topocast/landscape.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QImage>
#include <QSettings>
#include <QTextStream>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

using namespace topocast;
using namespace topocast::app;

int main(int argc, char* argv[])
{
    // `topocast render …` and `topocast handout …`: the CLI's drawing commands live here, with Qt;
    // the Qt-free topocast-cli hands them over to this program (cli/handoff.cpp).
    if (std::vector<std::string> args(argv + 1, argv + argc); cli::drawsWithApp(cli::commandOf(args))) {
        cli::Io io{std::cout, std::cerr};
        return cli::run(args, io);
    }
    if (!haveDisplay()) {
        std::fprintf(stderr, "%s\n", qPrintable(noDisplayMessage()));
        return 1;
    }
    const QString renderer = setupRenderer();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("topocast"));
    QApplication::setApplicationName(QStringLiteral("topocast"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Collective-communication schedules on meshes, tori and hypercubes, in 3-D."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption scenarioOpt(QStringLiteral("scenario"), QStringLiteral("scenario JSON file to open"), QStringLiteral("FILE"));
    const QCommandLineOption stepOpt(QStringLiteral("step"), QStringLiteral("timeline step to show (default: last for --screenshot)"), QStringLiteral("N"));
    const QCommandLineOption modeOpt(QStringLiteral("mode"), QStringLiteral("colouring: plain|contention|heatmap|tcdmap|layers|trees"), QStringLiteral("MODE"), QStringLiteral("plain"));
    const QCommandLineOption shotOpt(QStringLiteral("screenshot"), QStringLiteral("render the view once into OUT.png and exit"), QStringLiteral("OUT.png"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"), QStringLiteral("screenshot size WxH (default 1200x800)"), QStringLiteral("WxH"), QStringLiteral("1200x800"));
    const QCommandLineOption pausedOpt(QStringLiteral("paused"), QStringLiteral("start with the timeline paused"));
    const QCommandLineOption defaultOpt(QStringLiteral("default"), QStringLiteral("start on the default scenario, not the last one"));
    const QCommandLineOption presentOpt(QStringLiteral("present"), QStringLiteral("start in presentation mode (full screen, large fonts, high contrast)"));
    const QCommandLineOption windowShotOpt(QStringLiteral("window-screenshot"), QStringLiteral("show the whole window once, save it into OUT.png and exit"), QStringLiteral("OUT.png"));
    const QCommandLineOption chartsOpt(QStringLiteral("export-charts"), QStringLiteral("write the scenario's divisible-load charts as DIR/topocast-<chart>.png and .svg and exit"), QStringLiteral("DIR"));
    const QCommandLineOption measuredOpt(QStringLiteral("measured"), QStringLiteral("topocast-mpi measured-times JSON to show beside the schedule"), QStringLiteral("FILE"));
    const QCommandLineOption scheduleOpt(QStringLiteral("schedule"), QStringLiteral("open a schedule JSON or a student's CSV and list the rules it breaks (File ▸ Open schedule)"), QStringLiteral("FILE"));
    const QCommandLineOption compareOpt(QStringLiteral("compare"), QStringLiteral("scenario JSON shown beside --scenario in the split view (View ▸ Compare); same network"), QStringLiteral("FILE"));
    const QCommandLineOption mapMetricOpt(QStringLiteral("map-metric"), QStringLiteral("what the source map (--mode tcdmap) shows: tcd|steps|max_link_load|contention|time"), QStringLiteral("METRIC"));
    const QCommandLineOption layoutOpt(QStringLiteral("layout"), QStringLiteral("hypercube drawing for --screenshot: cube|flat (flat: n ≤ 6, binary addresses); default: the scenario's view.layout"), QStringLiteral("LAYOUT"));
    parser.addOptions({layoutOpt, compareOpt, scenarioOpt, stepOpt, modeOpt, shotOpt, sizeOpt, pausedOpt, defaultOpt, presentOpt, windowShotOpt, chartsOpt, measuredOpt, scheduleOpt, mapMetricOpt});
    parser.process(app);
    qInfo("topocast: Qt3D renderer: %s; OpenGL: %s; multisampling: %d×", qPrintable(renderer),
          qPrintable(SceneView::glRenderer()), SceneView::surfaceSamples());

    const auto mode = parseViewMode(parser.value(modeOpt));
    if (!mode) {
        std::fprintf(stderr, "topocast: --mode %s is not one of plain, contention, heatmap, tcdmap, layers, trees\n", qPrintable(parser.value(modeOpt)));
        return 2;
    }
    int step = -1;
    if (parser.isSet(stepOpt)) {
        bool ok = false;
        step = parser.value(stepOpt).toInt(&ok);
        if (!ok || step < 0) {
            std::fprintf(stderr, "topocast: --step %s is not a step number (0, 1, 2, …)\n", qPrintable(parser.value(stepOpt)));
            return 2;
        }
    }
    if (parser.isSet(shotOpt)) {
        const auto size = parseSize(parser.value(sizeOpt));
        if (!size) {
            std::fprintf(stderr, "topocast: --size %s is not WxH (e.g. 1200x800, 16..8192)\n", qPrintable(parser.value(sizeOpt)));
            return 2;
        }
        QString error;
        const int rc = renderScreenshot({parser.value(scenarioOpt), step, *mode, parser.value(shotOpt), *size, parser.value(layoutOpt)}, error,
                                        parser.value(compareOpt));
        if (rc != 0)
            std::fprintf(stderr, "topocast: %s\n", qPrintable(error));
        return rc;
    }

    if (parser.isSet(chartsOpt)) {
        try {
            const Scenario sc = parser.isSet(scenarioOpt) ? loadScenario(parser.value(scenarioOpt).toStdString()) : defaultScenario();
            LayerCharts charts;
            charts.setSnapshot(buildSnapshot(sc));
            if (charts.chartCount() == 0)
                throw Error("this scenario has no charts (only divisible-load scenarios do)");
            for (const QString& f : charts.saveCharts(parser.value(chartsOpt), QStringLiteral("topocast")))
                std::printf("wrote %s\n", qPrintable(f));
        } catch (const Error& e) {
            std::fprintf(stderr, "topocast: %s\n", e.what());
            return 2;
        }
        return 0;
    }

    MainWindow window;
    window.setViewMode(*mode);
    if (parser.isSet(mapMetricOpt)) {
        try {
            window.session()->setLandscapeMetric(parseLandscapeMetric(parser.value(mapMetricOpt).toStdString()));
        } catch (const Error& e) {
            std::fprintf(stderr, "topocast: --map-metric: %s\n", e.what());
            return 2;
        }
    }
    window.show();
    Scenario scenario = defaultScenario();
    bool fromFile = false;
    if (parser.isSet(compareOpt)) {
        try {
            fromFile = window.openCompare(loadComparePair(parser.value(scenarioOpt), parser.value(compareOpt)));
        } catch (const Error& e) {
            std::fprintf(stderr, "topocast: %s\n", e.what());
            return 2;
        }
    } else if (parser.isSet(scenarioOpt)) {
        fromFile = window.openScenario(parser.value(scenarioOpt));
    } else if (!parser.isSet(defaultOpt)) {
        const QString last = QSettings().value(QStringLiteral("lastScenario")).toString();
        if (!last.isEmpty()) {
            try {
                scenario = scenarioFromJson(nlohmann::json::parse(last.toStdString()));
            } catch (const std::exception&) {
                scenario = defaultScenario();  // a stale or damaged setting: start fresh
            }
        }
    }
    if (!fromFile && !window.session()->setScenarioNow(scenario, true))
        window.session()->setScenarioNow(defaultScenario(), true);
    if (parser.isSet(measuredOpt)) {
        waitUntilIdle({window.session()});  // the measured file is checked against the computed schedule
        if (!window.openMeasured(parser.value(measuredOpt))) {
            std::fprintf(stderr, "topocast: %s\n", qPrintable(window.errorText()));
            if (parser.isSet(windowShotOpt))
                return 2;
        }
    }
    if (parser.isSet(scheduleOpt)) {
        waitUntilIdle({window.session()});  // shown after the start-up scenario, not overtaken by it
        if (!window.openSchedule(parser.value(scheduleOpt))) {
            std::fprintf(stderr, "topocast: %s\n", qPrintable(window.errorText()));
            if (parser.isSet(windowShotOpt))
                return 2;
        }
    }
    if (parser.isSet(presentOpt))
        window.setPresentationMode(true);
    if (parser.isSet(windowShotOpt)) {
        if (const auto size = parseSize(parser.value(sizeOpt)))
            window.resize(*size);
        // The scenario file is computed asynchronously: choose the step once its schedule is in.
        waitUntilIdle({window.session(), window.compareView()->session(0), window.compareView()->session(1)}, 120000);
        window.timeline()->pause();
        window.timeline()->setStep(step >= 0 ? step : window.timeline()->stepCount());
        runEventLoopFor(1500);  // the window lays itself out and the 3-D view draws
        const QImage image = window.grabWindow();
        if (image.isNull() || !image.save(parser.value(windowShotOpt))) {
            std::fprintf(stderr, "topocast: could not render or write %s\n", qPrintable(parser.value(windowShotOpt)));
            return 2;
        }
        return 0;
    }
    if (step >= 0)
        window.timeline()->setStep(step);
    else if (!parser.isSet(pausedOpt))
        window.timeline()->play();
    return app.exec();
}
