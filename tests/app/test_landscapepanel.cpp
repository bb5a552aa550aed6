// The source map shows any metric's landscape (core computeLandscape through the
// session), with a metric chooser, a colour bar with numbers and a histogram in the side panel.
#include "helpers.h"
#include "mainwindow.h"
#include "panels/landscapepanel.h"
#include "panels/metricsmodel.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"
#include "window/hovertips.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QComboBox>
#include <QSignalSpy>

#include <algorithm>
#include <cmath>
#include <string>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("source map: a snapshot holds the chosen metric from every source, as 16 schedule builds give it",
          "[app][landscape]")
{
    const Scenario sc = test::scenario("mesh:4x4", "binomial", NodeId{0});
    for (const LandscapeMetric metric : allLandscapeMetrics()) {
        INFO(toString(metric));
        const SnapshotPtr snap = buildSnapshot(sc, {.metric = metric});
        CHECK(snap->landscapeMetric == metric);
        CHECK(snap->landscapeMetrics == allLandscapeMetrics());
        REQUIRE(snap->landscape.size() == 16);
        for (NodeId v{}; v < 16; ++v) {
            const Schedule s = buildSchedule("binomial", sc.topology, v, Params{});
            CHECK(snap->landscape[v] == landscapeValue(s, metric));
        }
        if (metric == LandscapeMetric::Steps)
            CHECK(snap->landscape == std::vector<double>(16, 4.0)); // ⌈log2 16⌉ from every source
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
    CHECK(chosen.count() == 0); // filling the box is not a choice
    // binomial on mesh:4x4: TCD 20..42, two sources each at 20, 22, 26, 28, 34, 36, 40, 42.
    REQUIRE(panel.bins().size() == 23);
    CHECK(panel.bins().front().count == 2);
    // The colour bar's scale runs over the values above the best (22..42); the best has its own box.
    CHECK(panel.ticks() == landscapeTicks(22, 42, LandscapeMetric::Tcd, LandscapePanel::kTicks));
    CHECK(panel.summaryText().startsWith(QStringLiteral("TCD from 16 of 16 sources: best 20 (2 sources), max 42")));
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
    panel.follow(&session); // no window in between
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    REQUIRE(panel.bins().size() == 23); // as in the test above: TCD 20..42
    QSignalSpy ready(&session, &Session::scheduleReady);
    panel.chooseMetric(LandscapeMetric::Steps);
    REQUIRE(ready.wait(10000));
    CHECK(session.landscapeMetric() == LandscapeMetric::Steps);
    CHECK(panel.summaryText().startsWith(QStringLiteral("steps from 16 of 16 sources")));
}

TEST_CASE("source map: choosing a metric in the window recomputes the map, and hover names it",
          "[app][landscape][window]")
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
    CHECK(w.landscapePanel()->summaryText().startsWith(QStringLiteral("time from 16 of 16 sources: best ")));
    CHECK(w.landscapePanel()->summaryText().contains(QStringLiteral("µs")));
    w.setViewMode(ViewMode::Plain);
    CHECK_FALSE(w.landscapePanel()->isVisibleTo(&w));
}

TEST_CASE("source map: frame colours follow the metric, from low to high on the cividis scale", "[app][landscape]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{5}));
    const auto channels = drawnChannels(snap->topology());
    const FrameStyle f = frameStyle(*snap, channels, 0, ViewMode::TcdMap, true, Palette::normal());
    // TCD 42 from (3,1) and (3,3): the top of the scale; 20 at (0,0): the optimum colour.
    CHECK(f.nodeColour[snap->topology().id({3, 1})] == landscapeColour({20, 42}, 42));
    CHECK(f.nodeColour[0] == Palette::normal().optimum);
    // The scale starts above the best: the least TCD above 20 (22) is the bar's dark blue end.
    const SourceMapScale scale = sourceMapScale(snap->landscape);
    CHECK(scale.best == 20);
    CHECK(scale.low == 22);
    CHECK(scale.high == 42);
    CHECK(scale.bestCount == 2);
    for (std::size_t v = 0; v < 16; ++v)
        if (snap->landscape[v] == 22 && v != 5)
            CHECK(f.nodeColour[v] == Rgba::from(colour::mapColour(colour::ColourMap::Cividis, 0.0)));
    CHECK(f.nodeColour[5] == Palette::normal().source);
    CHECK_FALSE(landscapeColour({20, 42}, 20) == landscapeColour({20, 42}, 42));
}

TEST_CASE("source map: the lowest and highest sources are drawn in different colours", "[app][landscape][gl]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{5}));
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::TcdMap);
    scene.setStep(0);
    const QImage img = scene.captureFrame();
    REQUIRE_FALSE(img.isNull());
    const NodeId low{0}, high = snap->topology().id({3, 1}); // TCD 20 and 42
    const QPointF pl = scene.nodeOnScreen(low), ph = scene.nodeOnScreen(high);
    const QColor cl = img.pixelColor(pl.toPoint()), ch = img.pixelColor(ph.toPoint());
    INFO("low " << cl.name().toStdString() << " high " << ch.name().toStdString());
    CHECK(std::abs(cl.blue() - ch.blue()) > 60); // the optimum's white against cividis' yellow top
}

namespace {
SnapshotPtr cangWu8x8Map()
{
    const Scenario sc = loadScenario(std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/cang-wu-8x8.json");
    return buildSnapshot(sc);
}
} // namespace

TEST_CASE("source map: one best-sources figure, 12 sources of TCD 69 on the Cang-Wu 8×8, in the table, legend, panel "
          "and hover",
          "[app][landscape]")
{
    // Issue: the metrics table listed 4 best sources (the paper's eyes), the map "min 69 (12
    // sources)"; the legend called the dark blue "low TCD (69)" while every 69 was white; the
    // hover on (7,7) said "layer 9" and "holds 0 of the 1 blocks".
    const SnapshotPtr snap = cangWu8x8Map();
    REQUIRE(snap->landscape.size() == 64);
    const SourceMapScale scale = sourceMapScale(snap->landscape);
    CHECK(scale.best == 69);
    CHECK(scale.bestCount == 12);
    CHECK(scale.low == 70);
    CHECK(scale.high == 79);
    const Palette pal = Palette::normal();
    const auto legend = legendEntries(snap.get(), ViewMode::TcdMap, pal);
    auto entry = [&](const QString& text) {
        return std::find_if(legend.begin(), legend.end(), [&](const auto& e) { return e.second == text; });
    };
    REQUIRE(entry(QStringLiteral("best TCD (69), 12 sources")) != legend.end());
    CHECK(entry(QStringLiteral("best TCD (69), 12 sources"))->first == pal.optimum.toColor());
    REQUIRE(entry(QStringLiteral("low TCD (70)")) != legend.end());
    CHECK(entry(QStringLiteral("low TCD (70)"))->first == landscapeColour({0, 1}, 0).toColor());
    REQUIRE(entry(QStringLiteral("high TCD (79)")) != legend.end());

    LandscapePanel panel;
    panel.setSnapshot(snap);
    CHECK(panel.summaryText().contains(QStringLiteral("best 69 (12 sources), max 79")));

    MetricsModel metrics;
    metrics.setSnapshot(snap);
    QString best, optimum;
    for (int r = 0; r < metrics.rowCount(); ++r) {
        const QString name = metrics.index(r, MetricsModel::NameColumn).data().toString();
        const QString value = metrics.index(r, MetricsModel::ValueColumn).data().toString();
        best = name == QStringLiteral("Best sources (source map)") ? value : best;
        optimum = name == QStringLiteral("Best TCD over all sources") ? value : optimum;
    }
    CHECK(best == QStringLiteral("12: (2,2), (3,2), (4,2), (5,2), …"));
    CHECK(optimum == QStringLiteral("69"));

    const QString tip = nodeHoverText(*snap, snap->topology().id({7, 7}), 0, false);
    INFO(tip.toStdString());
    CHECK(tip.startsWith(QStringLiteral("(7,7)\nas the source: TCD 79 (best 69)\n")));
    CHECK(tip.contains(QStringLiteral("\n9 hops from the source (2,3)\n")));
    CHECK(tip.contains(QStringLiteral("receives the message in step ")));
    CHECK_FALSE(tip.contains(QStringLiteral("layer")));
    CHECK_FALSE(tip.contains(QStringLiteral("block")));
    const std::uint32_t at = snap->informedStep[snap->topology().id({7, 7})];
    CHECK(nodeHoverText(*snap, snap->topology().id({7, 7}), static_cast<int>(at), false)
              .contains(QStringLiteral("receives the message in this step (%1)").arg(at)));
    CHECK(nodeHoverText(*snap, snap->topology().id({7, 7}), static_cast<int>(at) + 1, false)
              .contains(QStringLiteral("holds the message since step %1").arg(at)));
    CHECK(nodeHoverText(*snap, snap->schedule.source(), 0, true)
              .contains(QStringLiteral("holds the message from the start\nthe source\nclick to mark")));
}

TEST_CASE("source map: the nodes are drawn in the colour bar's colours, the best ones in their own (pixels sampled)",
          "[app][landscape][gl]")
{
    const SnapshotPtr snap = cangWu8x8Map();
    SceneView scene;
    scene.window()->resize(900, 700);
    scene.window()->show();
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::TcdMap);
    scene.setStep(0);
    const QImage img = scene.captureFrame();
    REQUIRE_FALSE(img.isNull());
    const auto bar = legendBar(snap.get(), ViewMode::TcdMap, true, scene.palette());
    REQUIRE(bar);
    REQUIRE(bar->stops.size() == 17);
    const SourceMapScale scale = sourceMapScale(snap->landscape);
    auto near = [](const QColor& want) {
        return [want](QColor c) {
            return std::abs(c.red() - want.red()) < 40 && std::abs(c.green() - want.green()) < 40 &&
                   std::abs(c.blue() - want.blue()) < 40;
        };
    };
    int checked = 0;
    for (NodeId v{}; v < 64; ++v) {
        if (v == snap->schedule.source())
            continue;
        const double x = snap->landscape[v];
        // The bar's colour at the node's value; the best: the legend's own colour.
        const QColor want =
            x == scale.best
                ? scene.palette().optimum.toColor()
                : bar->stops[static_cast<std::size_t>(std::lround((x - bar->min) / (bar->max - bar->min) * 16))];
        INFO(snap->topology().nodeName(v) << " TCD " << x << " want " << want.name().toStdString());
        CHECK(test::pixelNear(img, scene.nodeOnScreen(v), 2, near(want)));
        if (x == scale.best) // not the bar's low end: the best stands apart
            CHECK_FALSE(test::pixelNear(img, scene.nodeOnScreen(v), 1, near(bar->stops.front())));
        ++checked;
    }
    CHECK(checked == 63);
}
