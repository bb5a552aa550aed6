// The source map shows any metric's landscape (core computeLandscape through the
// session), with a metric chooser, a colour bar with numbers and a histogram in the side panel.
#include "helpers.h"
#include "mainwindow.h"
#include "panels/landscapepanel.h"
#include "scene/scenestyle.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "session/snapshot.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QComboBox>
#include <QSignalSpy>

#include <cmath>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("source map: a snapshot holds the chosen metric from every source, as 16 schedule builds give it",
          "[app][landscape]")
{
    const Scenario sc = test::scenario("mesh:4x4", "binomial", NodeId{0});
    for (const LandscapeMetric metric : allLandscapeMetrics()) {
        INFO(toString(metric));
        const SnapshotPtr snap = buildSnapshot(sc, false, nullptr, nullptr, metric);
        CHECK(snap->landscapeMetric == metric);
        CHECK(snap->landscapeMetrics == allLandscapeMetrics());
        REQUIRE(snap->landscape.size() == 16);
        for (NodeId v{}; v < 16; ++v) {
            const Schedule s = buildSchedule("binomial", sc.topology, v, Params{});
            CHECK(snap->landscape[v] == landscapeValue(s, metric));
        }
        if (metric == LandscapeMetric::Steps)
            CHECK(snap->landscape == std::vector<double>(16, 4.0));  // ⌈log2 16⌉ from every source
    }
    // TCD also feeds the optimum (the metrics table's gap): 20, from (0,0) and (0,2).
    const SnapshotPtr tcd = buildSnapshot(sc);
    REQUIRE(tcd->optimum);
    CHECK(*tcd->optimum == 20);
}

TEST_CASE("source map panel: metric chooser, colour bar ticks, histogram and summary", "[app][landscape]")
{
    LandscapePanel panel;
    QSignalSpy chosen(&panel, &LandscapePanel::metricChosen);
    panel.setSnapshot(buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    CHECK(panel.metricBox()->count() == 5);
    CHECK(panel.metricBox()->currentText() == QStringLiteral("TCD"));
    CHECK(chosen.count() == 0);  // filling the box is not a choice
    // binomial on mesh:4x4: TCD 20..42, two sources each at 20, 22, 26, 28, 34, 36, 40, 42.
    REQUIRE(panel.bins().size() == 23);
    CHECK(panel.bins().front().count == 2);
    CHECK(panel.ticks() == landscapeTicks(20, 42, LandscapeMetric::Tcd, LandscapePanel::kTicks));
    CHECK(panel.summaryText().startsWith(QStringLiteral("TCD from 16 of 16 sources: min 20 (2 sources), max 42")));
    CHECK(panel.summaryText().contains(QStringLiteral("this source 20")));
    panel.chooseMetric(LandscapeMetric::MaxLinkLoad);
    REQUIRE(chosen.count() == 1);
    CHECK(chosen.first().first().value<LandscapeMetric>() == LandscapeMetric::MaxLinkLoad);
    // No map: an allgather has no source to vary.
    Scenario all = test::scenario("hypercube:3", "nesbt", NodeId{0});
    all.params.set("pattern", "allgather");
    panel.setSnapshot(buildSnapshot(all));
    CHECK(panel.bins().empty());
    CHECK(panel.summaryText().startsWith(QStringLiteral("no source map")));
}

TEST_CASE("source map panel: follows a session by itself, and asks it for the metric chosen", "[app][landscape]")
{
    Session session;
    LandscapePanel panel;
    panel.follow(&session);  // no window in between
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    REQUIRE(panel.bins().size() == 23);  // as in the test above: TCD 20..42
    QSignalSpy ready(&session, &Session::scheduleReady);
    panel.chooseMetric(LandscapeMetric::Steps);
    REQUIRE(ready.wait(10000));
    CHECK(session.landscapeMetric() == LandscapeMetric::Steps);
    CHECK(panel.summaryText().startsWith(QStringLiteral("steps from 16 of 16 sources")));
}

TEST_CASE("source map: choosing a metric in the window recomputes the map, and hover names it", "[app][landscape][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    w.setViewMode(ViewMode::TcdMap);
    CHECK(w.landscapePanel()->isVisibleTo(&w));
    QSignalSpy ready(w.session(), &Session::scheduleReady);
    w.landscapePanel()->chooseMetric(LandscapeMetric::Time);
    REQUIRE(test::waitFor([&] { return ready.count() == 1; }, 30000));
    const SnapshotPtr snap = w.session()->snapshot();
    CHECK(snap->landscapeMetric == LandscapeMetric::Time);
    CHECK(snap->scenario.source == 5);
    REQUIRE(snap->landscape.size() == 16);
    const Schedule s = buildSchedule("binomial", snap->topology(), NodeId{3}, Params{});
    CHECK(snap->landscape[3] == landscapeValue(s, LandscapeMetric::Time));
    CHECK(w.landscapePanel()->summaryText().startsWith(QStringLiteral("time from 16 of 16 sources: min ")));
    CHECK(w.landscapePanel()->summaryText().contains(QStringLiteral("µs")));
    w.setViewMode(ViewMode::Plain);
    CHECK_FALSE(w.landscapePanel()->isVisibleTo(&w));
}

TEST_CASE("source map: frame colours follow the metric, from low to high on the cividis scale", "[app][landscape]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{5}), false, nullptr, nullptr,
                                           LandscapeMetric::Tcd);
    const auto channels = drawnChannels(snap->topology());
    const FrameStyle f = frameStyle(*snap, channels, 0, ViewMode::TcdMap, true, Palette::normal());
    // TCD 42 from (3,1) and (3,3): the top of the scale; 20 at (0,0): the optimum colour.
    CHECK(f.nodeColour[snap->topology().id({3, 1})] == landscapeColour({20, 42}, 42));
    CHECK(f.nodeColour[0] == Palette::normal().optimum);
    CHECK(f.nodeColour[5] == Palette::normal().source);
    CHECK_FALSE(landscapeColour({20, 42}, 20) == landscapeColour({20, 42}, 42));
}

TEST_CASE("source map: the lowest and highest sources are drawn in different colours", "[app][landscape][gl]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{5}), false, nullptr, nullptr,
                                           LandscapeMetric::Tcd);
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::TcdMap);
    scene.setStep(0);
    const QImage img = scene.captureFrame();
    REQUIRE_FALSE(img.isNull());
    const NodeId low{0}, high = snap->topology().id({3, 1});  // TCD 20 and 42
    const QPointF pl = scene.nodeOnScreen(low), ph = scene.nodeOnScreen(high);
    const QColor cl = img.pixelColor(pl.toPoint()), ch = img.pixelColor(ph.toPoint());
    INFO("low " << cl.name().toStdString() << " high " << ch.name().toStdString());
    CHECK(std::abs(cl.blue() - ch.blue()) > 60);  // the optimum's white against cividis' yellow top
}
