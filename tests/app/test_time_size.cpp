// The Time vs size dock (panels/timesizepanel.h, window/timesizedock.h): the times it charts are
// core's sweep for the scenario, the scenario's algorithm is the thick curve, its message size
// the marker; dragging the marker and clicking a curve with the mouse change the scenario in the
// window, and a sweep too long for the dock is refused with the command that runs it.
#include "cli_runner.h"
#include "helpers.h"
#include "mainwindow.h"
#include "panels/scenariopanel.h"
#include "panels/timesizepanel.h"
#include "session/session.h"

#include "panels/metricsmodel.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/sweep.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/model/units.h"
#include "topocast/text/numbers.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace topocast;
using namespace topocast::app;

namespace {

Scenario allreduce(const char* topology, const char* algorithm, std::uint64_t message)
{
    Scenario s = test::scenario(topology, algorithm);
    s.params.set("pattern", "allreduce");
    NetworkModel m;
    m.message = message;
    s.network = m;
    return s;
}

/// Presses at `from`, moves to `to` and releases there, as a mouse does.
void drag(QWidget* viewport, QPoint from, QPoint to)
{
    QTest::mousePress(viewport, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), viewport->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton,
                     {});
    QCoreApplication::sendEvent(viewport, &move);
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, to);
}

} // namespace

TEST_CASE("time vs size: the chart is core's sweep, the scenario's algorithm thick and its size marked",
          "[app][timesize]")
{
    TimeSizePanel panel;
    panel.resize(1100, 520);
    panel.show();
    QSignalSpy finished(&panel, &TimeSizePanel::finished);
    panel.setScenario(allreduce("torus:4x4", "ring", 1024));
    REQUIRE(finished.wait(30000));
    REQUIRE(panel.ready());
    const SweepTable& t = *panel.table();
    CHECK(t.algorithms == std::vector<std::string>{"ring", "bucket", "rabenseifner", "recursive-doubling"});
    CHECK(t.rows.size() == 28);
    // The same times as the CLI's sweep of the same request.
    SweepRequest request = t.request;
    const SweepTable again = runSweep(request, sweepSchedules(request));
    for (std::size_t i = 0; i < t.rows.size(); ++i)
        CHECK(t.rows[i].times == again.rows[i].times);
    CHECK(panel.highlighted() == QStringLiteral("ring"));
    CHECK(panel.markerSize() == 1024);
    // One line per algorithm, the bound and the marker; the scenario's drawn thickest.
    const auto series = panel.chartView()->chart()->series();
    REQUIRE(series.size() == 6);
    const auto* ring = qobject_cast<QLineSeries*>(series[0]);
    const auto* bucket = qobject_cast<QLineSeries*>(series[1]);
    REQUIRE((ring && bucket));
    CHECK(ring->pen().widthF() > 2 * bucket->pen().widthF() - 1);
    CHECK(ring->name() == QStringLiteral("ring"));
    CHECK(series[4]->name() == QStringLiteral("the bound"));
    // The caption says what the marker's size gives, the winner and the scenario's own.
    CHECK(panel.captionText().contains(QStringLiteral("At M = 1 KiB: recursive-doubling is fastest")));
    CHECK(panel.captionText().contains(QStringLiteral("ring, the scenario's")));
    CHECK(panel.captionText().contains(QStringLiteral("overtakes")));

    // A size that is not a power of two is timed too, and marked where it is.
    panel.setScenario(allreduce("torus:4x4", "bucket", 3000));
    REQUIRE(finished.wait(30000));
    CHECK(panel.table()->rows.size() == 29);
    CHECK(panel.captionText().contains(QStringLiteral("At M = 3000 B")));
    CHECK(panel.highlighted() == QStringLiteral("bucket"));
}

TEST_CASE("time vs size: dragging the marker chooses a size, clicking a curve an algorithm", "[app][timesize]")
{
    TimeSizePanel panel;
    panel.resize(1100, 520);
    panel.show();
    QSignalSpy finished(&panel, &TimeSizePanel::finished);
    panel.setScenario(allreduce("torus:8x8", "ring", 1024));
    REQUIRE(finished.wait(30000));
    QWidget* viewport = panel.chartView()->viewport();

    QSignalSpy size(&panel, &TimeSizePanel::messageSizeChosen);
    drag(viewport, panel.viewportPoint(QStringLiteral("marker"), 1024),
         panel.viewportPoint(QStringLiteral("marker"), 1 << 20));
    REQUIRE(size.count() == 1);
    CHECK(size.front().front().value<std::uint64_t>() == std::uint64_t{1} << 20);
    // Pressed away from the marker, nothing is dragged.
    drag(viewport, panel.viewportPoint(QStringLiteral("marker"), 1 << 24),
         panel.viewportPoint(QStringLiteral("marker"), 8));
    CHECK(size.count() == 1);

    QSignalSpy chosen(&panel, &TimeSizePanel::algorithmChosen);
    QTest::mouseClick(viewport, Qt::LeftButton, {}, panel.viewportPoint(QStringLiteral("recursive-doubling"), 1 << 26));
    REQUIRE(chosen.count() == 1);
    CHECK(chosen.front().front().toString() == QStringLiteral("recursive-doubling"));
}

TEST_CASE("time vs size: the window's dock changes the scenario it follows", "[app][timesize][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(allreduce("torus:4x4", "ring", 1024)));
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("timeSizeDock"));
    REQUIRE(dock);
    CHECK(dock->isHidden()); // View ▸ Time vs size (F9) shows it
    CHECK(dock->toggleViewAction()->shortcut() == QKeySequence(Qt::Key_F9));
    auto* panel = qobject_cast<TimeSizePanel*>(dock->widget());
    REQUIRE(panel);
    w.resize(1600, 1000);
    w.show();
    QSignalSpy finished(panel, &TimeSizePanel::finished);
    dock->toggleViewAction()->trigger();
    REQUIRE(finished.wait(30000));
    REQUIRE(panel->ready());

    QWidget* viewport = panel->chartView()->viewport();
    drag(viewport, panel->viewportPoint(QStringLiteral("marker"), 1024),
         panel->viewportPoint(QStringLiteral("marker"), 1 << 16));
    REQUIRE(waitUntilIdle({w.session()}, 30000));
    REQUIRE(w.session()->scenario().network);
    CHECK(w.session()->scenario().network->message == std::uint64_t{1} << 16);
    CHECK(test::waitFor([&] { return panel->markerSize() == std::uint64_t{1} << 16; }));

    QTest::mouseClick(viewport, Qt::LeftButton, {}, panel->viewportPoint(QStringLiteral("bucket"), 64));
    REQUIRE(waitUntilIdle({w.session()}, 30000));
    CHECK(w.session()->scenario().algorithm == "bucket");
    CHECK(w.session()->snapshot()->schedule.pattern() == Pattern::Allreduce); // bucket's first pattern: no parameter
    CHECK(test::waitFor([&] { return panel->highlighted() == QStringLiteral("bucket"); }));
}

TEST_CASE("time vs size: a sweep too long for the dock is refused with the command that runs it", "[app][timesize]")
{
    TimeSizePanel panel;
    panel.setMaxSeconds(1e-9); // the dock's 20 s, scaled down to a sweep a test can afford
    panel.show();
    QSignalSpy finished(&panel, &TimeSizePanel::finished);
    panel.setScenario(allreduce("torus:4x4", "bucket", 1024));
    REQUIRE(finished.wait(30000));
    CHECK_FALSE(panel.ready());
    CHECK(panel.captionText().contains(QStringLiteral("too long for the dock")));
    CHECK(panel.captionText().contains(QStringLiteral("topocast-cli sweep --topology torus:4x4 --pattern allreduce")));
}

TEST_CASE("time vs size: the scenario panel shows the network model and edits it with units", "[app][timesize][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(allreduce("torus:4x4", "ring", 1024)));
    ScenarioPanel* panel = w.scenarioPanel();
    REQUIRE(panel->networkField(QStringLiteral("message")));
    CHECK(panel->networkField(QStringLiteral("message"))->text() == QStringLiteral("1KiB"));
    CHECK(panel->networkField(QStringLiteral("bandwidth"))->text() == QStringLiteral("12.5GB/s"));
    CHECK(panel->networkPresetBox()->currentText() == QStringLiteral("cluster"));

    // A size with its unit becomes the scenario's.
    panel->networkField(QStringLiteral("message"))->setText(QStringLiteral("64KiB"));
    w.applyPanel();
    REQUIRE(waitUntilIdle({w.session()}, 30000));
    CHECK(w.session()->scenario().network->message == 65536);

    // Without a unit: refused with the reason, the scenario kept.
    panel->networkField(QStringLiteral("latency"))->setText(QStringLiteral("3"));
    w.applyPanel();
    CHECK(w.errorText().contains(QStringLiteral("has no unit")));
    CHECK(w.session()->scenario().network->latency == Approx(1e-6));

    // Another preset brings its values, the size stays.
    panel->networkPresetBox()->setCurrentText(QStringLiteral("loggopsim"));
    CHECK(panel->networkField(QStringLiteral("latency"))->text() == QStringLiteral("2500ns"));
    w.applyPanel();
    REQUIRE(waitUntilIdle({w.session()}, 30000));
    REQUIRE(w.session()->scenario().network);
    CHECK(w.session()->scenario().network->preset == "loggopsim");
    CHECK(w.session()->scenario().network->message == 65536);
}

TEST_CASE("time vs size: the metrics table gives the time on the scenario's network and its distance from the bound",
          "[app][timesize][window]")
{
    MainWindow w(false);
    const Scenario s = allreduce("torus:8x8", "ring", 4096);
    REQUIRE(w.session()->setScenarioNow(s));
    const Schedule schedule = buildSchedule("ring", s.topology, NodeId{0}, {{"pattern", "allreduce"}});
    const double ns = timeSchedule(schedule, *s.network).total;
    const TimeBound bound = timeBound(schedule, *s.network);
    CHECK(w.metricsModel()->value(QStringLiteral("network_time")) == QString::fromStdString(formatSeconds(ns * 1e-9)));
    // The ring's 126 start-ups: 40.5 times the bound, said as such rather than as "3.95e+03 %".
    CHECK(w.metricsModel()->value(QStringLiteral("network_above_bound")) ==
          QString::fromStdString(formatSignificant(ns / bound.total, 3)) + QStringLiteral(" × the bound"));
    CHECK(ns / bound.total > 10);
    REQUIRE(w.session()->setScenarioNow(allreduce("torus:8x8", "rabenseifner", 1 << 20)));
    const Schedule rab = buildSchedule("rabenseifner", s.topology, NodeId{0}, {{"pattern", "allreduce"}});
    NetworkModel mib = *s.network;
    mib.message = 1 << 20;
    const double rabNs = timeSchedule(rab, mib).total;
    CHECK(w.metricsModel()->value(QStringLiteral("network_above_bound")) ==
          QString::fromStdString(formatSignificant(100 * (rabNs / timeBound(rab, mib).total - 1), 3)) +
              QStringLiteral(" %"));
    // The row names the size it is for.
    const int row = [&] {
        for (int r = 0; r < w.metricsModel()->rowCount(); ++r)
            if (w.metricsModel()->index(r, 0).data().toString().contains(QStringLiteral("LogGP, M = 1 MiB")))
                return r;
        return -1;
    }();
    CHECK(row >= 0);
}

TEST_CASE("time vs size: sweep --plot FILE.png draws the SVG chart into a PNG twice its size", "[app][timesize]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::string png = dir.filePath(QStringLiteral("allreduce.png")).toStdString();
    const auto r = topocast::testing::runCli({"sweep", "-t", "torus:8x8", "--pattern", "allreduce", "--plot", png});
    INFO(r.err);
    REQUIRE(r.status == 0);
    const QImage image(QString::fromStdString(png));
    REQUIRE(image.width() == 2400);
    REQUIRE(image.height() == 1520);
    // What a reader sees: a white page, the ring's blue and recursive doubling's pink lines, the
    // winners' dots in recursive doubling's pink (small sizes) and Rabenseifner's green (large).
    CHECK(image.pixelColor(5, 5) == QColor(Qt::white));
    const auto has = [&](QColor c) {
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                if (image.pixelColor(x, y) == c)
                    return true;
        return false;
    };
    CHECK(has(QColor(0x00, 0x72, 0xB2)));
    CHECK(has(QColor(0xCC, 0x79, 0xA7)));
    CHECK(has(QColor(0x00, 0x9E, 0x73)));
}

TEST_CASE("time vs size: a network model from a file (the fit of measured times) goes into the scenario",
          "[app][timesize][window]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("measured-network.json"));
    {
        QFile f(file);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(R"({"network": {"preset": "custom", "bandwidth": "5GB/s", "latency": "3us", "hop_latency": "0",
                    "overhead": "400ns", "gap": "0", "routing": "cut-through", "ports": "one-port",
                    "rendezvous": "64KiB", "receive": "rdma", "message": "1KiB"}})");
    }
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(allreduce("torus:4x4", "ring", 1 << 20)));
    ScenarioPanel* panel = w.scenarioPanel();
    panel->loadNetwork(file);
    CHECK(panel->networkField(QStringLiteral("bandwidth"))->text() == QStringLiteral("5GB/s"));
    CHECK(panel->networkField(QStringLiteral("message"))->text() == QStringLiteral("1MiB")); // the scenario's size kept
    w.applyPanel();
    REQUIRE(waitUntilIdle({w.session()}, 30000));
    REQUIRE(w.session()->scenario().network);
    CHECK(w.session()->scenario().network->latency == Approx(3e-6));
    CHECK(w.session()->scenario().network->perByte == Approx(1 / 5e9));
    CHECK(w.session()->scenario().network->message == std::uint64_t{1} << 20);
    // A file that is not a network model is refused naming it.
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    {
        QFile f(bad);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(R"({"network": {"bandwidth": "5"}})");
    }
    CHECK_THROWS_WITH(panel->loadNetwork(bad), Catch::Contains("bad.json") && Catch::Contains("no unit"));
}
