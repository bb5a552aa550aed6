// topocast: parses the command line and shows the window (everything else is in topocast_app).
#include "commands.h"
#include "compare/compareview.h"
#include "handoff.h"
#include "launch/startup.h"
#include "mainwindow.h"
#include "panels/layercharts.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "window/gettingstarted.h"
#include "window/lessonsmenu.h"
#include "window/linksdock.h"

#include "topocast/analysis/source_map.h"
#include "topocast/drawing/colour.h"
#include "topocast/io/scenario_file.h"
#include "topocast/model/error.h"
#include "topocast/version.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QImage>
#include <QSettings>
#include <QStringList>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

using namespace topocast;
using namespace topocast::app;

namespace {

/// "plain|contention|…|data" with `separator` between the names (colour::kColourModes).
QString colourModeNames(const QString& separator)
{
    QStringList names;
    for (const colour::ColourMode& m : colour::kColourModes)
        names << QLatin1String(m.name);
    return names.join(separator);
}

/// The command-line options of the window program.
struct Options {
    QCommandLineOption scenario{QStringLiteral("scenario"), QStringLiteral("scenario JSON file to open"),
                                QStringLiteral("FILE")};
    QCommandLineOption step{QStringLiteral("step"),
                            QStringLiteral("timeline step to show (default: last for --screenshot)"),
                            QStringLiteral("N")};
    QCommandLineOption mode{
        QStringLiteral("mode"),
        QStringLiteral("colouring: ") + colourModeNames(QStringLiteral(", ")) +
            QStringLiteral(" (default: the scenario's own, its view.mode; plain where it names none)"),
        QStringLiteral("MODE")};
    QCommandLineOption shot{QStringLiteral("screenshot"), QStringLiteral("render the view once into OUT.png and exit"),
                            QStringLiteral("OUT.png")};
    QCommandLineOption size{QStringLiteral("size"), QStringLiteral("screenshot size WxH (default 1200x800)"),
                            QStringLiteral("WxH"), QStringLiteral("1200x800")};
    QCommandLineOption paused{QStringLiteral("paused"), QStringLiteral("start with the timeline paused")};
    QCommandLineOption defaultScenario{QStringLiteral("default"),
                                       QStringLiteral("start on the default scenario, not the last one")};
    QCommandLineOption present{QStringLiteral("present"),
                               QStringLiteral("start in presentation mode (full screen, large fonts, high contrast)")};
    QCommandLineOption windowShot{QStringLiteral("window-screenshot"),
                                  QStringLiteral("show the whole window once, save it into OUT.png and exit"),
                                  QStringLiteral("OUT.png")};
    QCommandLineOption charts{
        QStringLiteral("export-charts"),
        QStringLiteral("write the scenario's divisible-load charts as DIR/topocast-<chart>.png and .svg and exit"),
        QStringLiteral("DIR")};
    QCommandLineOption measured{QStringLiteral("measured"),
                                QStringLiteral("topocast-mpi measured-times JSON to show beside the schedule"),
                                QStringLiteral("FILE")};
    QCommandLineOption schedule{
        QStringLiteral("schedule"),
        QStringLiteral("open a schedule JSON, a student's CSV, an MSCCL XML or a GOAL program (on the scenario's "
                       "network) and list the rules it breaks (File ▸ Open schedule)"),
        QStringLiteral("FILE")};
    QCommandLineOption compare{
        QStringLiteral("compare"),
        QStringLiteral("scenario JSON shown beside --scenario in the split view (View ▸ Compare); same network"),
        QStringLiteral("FILE")};
    QCommandLineOption mapMetric{
        QStringLiteral("map-metric"),
        QStringLiteral("what the source map (--mode source-map) shows: tcd|steps|max_link_load|contention|time"),
        QStringLiteral("METRIC")};
    QCommandLineOption simulated{
        QStringLiteral("simulated"),
        QStringLiteral("start in simulated time (View ▸ Simulated time): the schedule played as SimGrid simulates it "
                       "on the scenario's network, the Links dock open")};
    QCommandLineOption fraction{QStringLiteral("fraction"),
                                QStringLiteral("with --step and --window-screenshot: how far the step's messages have "
                                               "gone, 0..1 (default 1: the step at rest)"),
                                QStringLiteral("F")};
    QCommandLineOption tour{QStringLiteral("tour"),
                            QStringLiteral("open Help ▸ Getting started (it opens by itself on the first start)")};
    QCommandLineOption lesson{QStringLiteral("lesson"),
                              QStringLiteral("open lesson N of File ▸ Lessons: its Lesson panel and its first scenario "
                                             "(topocast-cli lessons lists them)"),
                              QStringLiteral("N")};
    QCommandLineOption layout{
        QStringLiteral("layout"),
        QStringLiteral("drawing for --screenshot: cube|flat for a hypercube (flat: n ≤ 6, binary addresses), "
                       "tower|planes for a 3-D mesh or torus; default: the scenario's view.layout"),
        QStringLiteral("LAYOUT")};
};

void declareOptions(QCommandLineParser& parser, const Options& o)
{
    parser.setApplicationDescription(
        QStringLiteral("Collective-communication schedules on meshes, tori and hypercubes, in 3-D."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QStringLiteral("a scenario file to open, as --scenario FILE (what the desktop entry passes on a double-click)"),
        QStringLiteral("[FILE]"));
    parser.addOptions({o.layout, o.compare, o.scenario, o.step, o.mode, o.shot, o.size, o.paused, o.defaultScenario,
                       o.present, o.windowShot, o.charts, o.measured, o.schedule, o.mapMetric, o.simulated, o.fraction,
                       o.lesson, o.tour});
}

/// --step: -1 when not given; false (after the message) when it is not a step number.
bool parseStepOption(const QCommandLineParser& parser, const Options& o, int& step)
{
    step = -1;
    if (parser.isSet(o.step)) {
        bool ok = false;
        step = parser.value(o.step).toInt(&ok);
        if (!ok || step < 0) {
            std::fprintf(stderr, "topocast: --step %s is not a step number (0, 1, 2, …)\n",
                         qPrintable(parser.value(o.step)));
            return false;
        }
    }
    return true;
}

/// --screenshot: renders the 3-D view once into a PNG.
int runScreenshot(const QCommandLineParser& parser, const Options& o, int step, ViewMode mode)
{
    const auto size = parseSize(parser.value(o.size));
    if (!size) {
        std::fprintf(stderr, "topocast: --size %s is not WxH (e.g. 1200x800, 16..8192)\n",
                     qPrintable(parser.value(o.size)));
        return 2;
    }
    // Without --mode, the scenario's own colour mode, as the window opens it.
    const std::optional<ViewMode> given = parser.isSet(o.mode) ? std::optional<ViewMode>(mode) : std::nullopt;
    QString error;
    const int rc =
        renderScreenshot({parser.value(o.scenario), step, given, parser.value(o.shot), *size, parser.value(o.layout)},
                         error, parser.value(o.compare));
    if (rc != 0)
        std::fprintf(stderr, "topocast: %s\n", qPrintable(error));
    return rc;
}

/// --export-charts: writes the scenario's divisible-load charts.
int exportCharts(const QCommandLineParser& parser, const Options& o)
{
    try {
        const Scenario sc =
            parser.isSet(o.scenario) ? loadScenario(parser.value(o.scenario).toStdString()) : defaultScenario();
        LayerCharts charts;
        charts.setSnapshot(buildSnapshot(sc));
        if (charts.chartCount() == 0)
            throw Error("this scenario has no charts (only divisible-load scenarios do)");
        for (const QString& f : charts.saveCharts(parser.value(o.charts), QStringLiteral("topocast")))
            std::printf("wrote %s\n", qPrintable(f));
    } catch (const Error& e) {
        std::fprintf(stderr, "topocast: %s\n", e.what());
        return 2;
    }
    return 0;
}

/// `topocast FILE` is `topocast --scenario FILE`: the file is handed over as that option, so every
/// use of --scenario sees it. False (with the message printed) for two files, or a file and
/// --scenario.
bool takeScenarioArgument(QCommandLineParser& parser, const Options& o)
{
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty())
        return true;
    if (files.size() > 1 || parser.isSet(o.scenario)) {
        std::fprintf(stderr, "topocast: open one scenario file at a time (FILE or --scenario FILE); got %s\n",
                     qPrintable((parser.isSet(o.scenario) ? QStringList{parser.value(o.scenario)} + files : files)
                                    .join(QStringLiteral(", "))));
        return false;
    }
    QStringList args = QCoreApplication::arguments();
    args.removeAt(args.lastIndexOf(files.front()));
    args.removeAll(QStringLiteral("--"));
    args << QStringLiteral("--scenario") << files.front();
    parser.process(args);
    return true;
}

/// Opens the start-up scenario: --compare, --scenario, the last one (unless --default) or the
/// default. Returns the exit code when the program must stop, else 0.
int openStartScenario(MainWindow& window, const QCommandLineParser& parser, const Options& o)
{
    Scenario scenario = defaultScenario();
    bool fromFile = false;
    if (parser.isSet(o.compare)) {
        try {
            fromFile = window.openCompare(loadComparePair(parser.value(o.scenario), parser.value(o.compare)));
        } catch (const Error& e) {
            std::fprintf(stderr, "topocast: %s\n", e.what());
            return 2;
        }
    } else if (parser.isSet(o.scenario)) {
        fromFile = window.openScenario(parser.value(o.scenario));
    } else if (!parser.isSet(o.defaultScenario)) {
        const QString last = QSettings().value(QStringLiteral("lastScenario")).toString();
        if (!last.isEmpty()) {
            try {
                scenario = scenarioFromText(last.toStdString(), "the last scenario");
                window.startAsItself(scenario); // where the user left it: its step and colour mode
            } catch (const std::exception&) {
                scenario = defaultScenario(); // a stale or damaged setting: start fresh
            }
        }
    }
    if (!fromFile && !window.session()->setScenarioNow(scenario, true))
        window.session()->setScenarioNow(defaultScenario(), true);
    return 0;
}

/// --measured and --schedule, once the start-up scenario is computed. Returns the exit code when
/// the program must stop (a file that does not open, with --window-screenshot), else 0.
int openMeasuredAndSchedule(MainWindow& window, const QCommandLineParser& parser, const Options& o)
{
    if (parser.isSet(o.measured)) {
        waitUntilIdle({window.session()}); // the measured file is checked against the computed schedule
        if (!window.openMeasured(parser.value(o.measured))) {
            std::fprintf(stderr, "topocast: %s\n", qPrintable(window.errorText()));
            if (parser.isSet(o.windowShot))
                return 2;
        }
    }
    if (parser.isSet(o.schedule)) {
        waitUntilIdle({window.session()}); // shown after the start-up scenario, not overtaken by it
        if (!window.openSchedule(parser.value(o.schedule))) {
            std::fprintf(stderr, "topocast: %s\n", qPrintable(window.errorText()));
            if (parser.isSet(o.windowShot))
                return 2;
        }
    }
    return 0;
}

/// --window-screenshot: shows the whole window once and saves it.
int saveWindowScreenshot(MainWindow& window, const QCommandLineParser& parser, const Options& o, int step)
{
    if (const auto size = parseSize(parser.value(o.size)))
        window.resize(*size);
    // The scenario file is computed asynchronously: choose the step once its schedule is in.
    waitUntilIdle({window.session(), window.compareView()->session(0), window.compareView()->session(1)}, 120000);
    window.timeline()->pause();
    window.timeline()->setStep(step >= 0 ? step : window.timeline()->stepCount());
    if (parser.isSet(o.simulated) && !waitForSimulation(window, 120000))
        std::fprintf(stderr, "topocast: simulated time: %s\n", qPrintable(simulationStatus(window)));
    if (parser.isSet(o.fraction)) {
        bool ok = false;
        const double f = parser.value(o.fraction).toDouble(&ok);
        if (!ok || !(f >= 0 && f <= 1)) {
            std::fprintf(stderr, "topocast: --fraction %s is not a number from 0 to 1\n",
                         qPrintable(parser.value(o.fraction)));
            return 2;
        }
        window.timeline()->setFraction(static_cast<float>(f));
    }
    runEventLoopFor(1500); // the window lays itself out and the 3-D view draws
    const QImage image = window.grabWindow();
    if (image.isNull() || !image.save(parser.value(o.windowShot))) {
        std::fprintf(stderr, "topocast: could not render or write %s\n", qPrintable(parser.value(o.windowShot)));
        return 2;
    }
    return 0;
}

/// The window: opens what the command line names and runs until it closes.
int runWindow(QApplication& app, const QCommandLineParser& parser, const Options& o, int step, ViewMode mode)
{
    MainWindow window;
    if (parser.isSet(o.mapMetric)) {
        try {
            window.session()->setSourceMapMetric(parseSourceMapMetric(parser.value(o.mapMetric).toStdString()));
        } catch (const Error& e) {
            std::fprintf(stderr, "topocast: --map-metric: %s\n", e.what());
            return 2;
        }
    }
    window.show();
    if (const int rc = openStartScenario(window, parser, o); rc != 0)
        return rc;
    if (const int rc = openMeasuredAndSchedule(window, parser, o); rc != 0)
        return rc;
    if (parser.isSet(o.lesson)) {
        bool ok = false;
        const int n = parser.value(o.lesson).toInt(&ok);
        if (!ok || n < 1 || !openLesson(window.parts(), static_cast<std::size_t>(n - 1))) {
            const std::optional<LessonBook> book = appLessons();
            std::fprintf(stderr, "topocast: --lesson %s: there is no such lesson; File ▸ Lessons has 1 to %d\n",
                         qPrintable(parser.value(o.lesson)), book ? static_cast<int>(book->lessons.size()) : 0);
            return 2;
        }
    }
    auto* planes = window.findChild<QAction*>(QStringLiteral("planesAction"));
    auto* compareAction = window.findChild<QAction*>(QStringLiteral("compareAction"));
    if (parser.isSet(o.tour))
        (new GettingStarted(window.parts(), planes, compareAction))->show();
    else if (!parser.isSet(o.windowShot) && !parser.isSet(o.scenario) && !parser.isSet(o.lesson) &&
             !parser.isSet(o.schedule) && parser.positionalArguments().isEmpty())
        openTourOnFirstStart(window.parts(), planes, compareAction); // a plain first start
    if (parser.isSet(o.mode)) // else the scenario's own colour mode (openScenario)
        window.setViewMode(mode);
    if (parser.isSet(o.present))
        window.setPresentationMode(true);
    if (parser.isSet(o.simulated))
        setSimulatedTime(window, true);
    if (parser.isSet(o.windowShot))
        return saveWindowScreenshot(window, parser, o, step);
    if (step >= 0) {
        // The scenario computes off the GUI thread: its step once its schedule is in.
        waitUntilIdle({window.session(), window.compareView()->session(0), window.compareView()->session(1)}, 120000);
        window.timeline()->setStep(step);
    } else if (!parser.isSet(o.paused))
        window.timeline()->play();
    return app.exec();
}

} // namespace

int main(int argc, char* argv[])
{
    // `topocast render …` and `topocast handout …`: the CLI's drawing commands live here, with Qt;
    // the Qt-free topocast-cli hands them over to this program (cli/handoff.cpp).
    if (std::vector<std::string> args(argv + 1, argv + argc);
        cli::drawsWithApp(cli::commandOf(args)) || cli::plotsPng(args)) {
        cli::Io io{std::cout, std::cerr};
        return cli::run(args, io);
    }
    // --version needs no window (a machine without a display may ask it too).
    if (std::any_of(argv + 1, argv + argc, [](std::string_view a) { return a == "--version" || a == "-v"; })) {
        std::printf("topocast %s\n", kVersion);
        return 0;
    }
    // So does --help (help2man writes the manual page from it at build time, with no display).
    if (std::any_of(argv + 1, argv + argc,
                    [](std::string_view a) { return a == "--help" || a == "-h" || a == "-?" || a == "--help-all"; })) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationVersion(QString::fromLatin1(kVersion));
        QCommandLineParser parser;
        const Options o;
        declareOptions(parser, o);
        parser.process(app); // prints the help and exits
        return 0;
    }
    if (!haveDisplay()) {
        std::fprintf(stderr, "%s\n", qPrintable(noDisplayMessage()));
        return 1;
    }
    const QString renderer = setupRenderer();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("topocast"));
    QApplication::setApplicationName(QStringLiteral("topocast"));
    QApplication::setApplicationVersion(QString::fromLatin1(kVersion));
    QApplication::setDesktopFileName(QStringLiteral("org.topocast.Topocast")); // the desktop entry: its icon and name
    // The desktop entry's SVG (drawn at any size by Qt SVG's icon engine, which libqt6svg6 ships).
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/topocast.svg")));

    QCommandLineParser parser;
    const Options o;
    declareOptions(parser, o);
    parser.process(app);
    if (!takeScenarioArgument(parser, o))
        return 2;
    qInfo("topocast: Qt3D renderer: %s; OpenGL: %s; multisampling: %d×", qPrintable(renderer),
          qPrintable(SceneCapture::glRenderer()), SceneCapture::surfaceSamples());

    const auto mode = parseViewMode(parser.isSet(o.mode) ? parser.value(o.mode) : QStringLiteral("plain"));
    if (!mode) {
        std::fprintf(stderr, "topocast: --mode %s is not one of %s\n", qPrintable(parser.value(o.mode)),
                     qPrintable(colourModeNames(QStringLiteral(", "))));
        return 2;
    }
    int step = -1;
    if (!parseStepOption(parser, o, step))
        return 2;
    if (parser.isSet(o.shot))
        return runScreenshot(parser, o, step, *mode);
    if (parser.isSet(o.charts))
        return exportCharts(parser, o);
    return runWindow(app, parser, o, step, *mode);
}
