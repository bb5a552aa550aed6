// The source map shows any metric's source map (core computeSourceMap through the
// session), with a metric chooser, a colour bar with numbers and a histogram in the side panel.
#include "helpers.h"
#include "mainwindow.h"
#include "panels/metricsmodel.h"
#include "panels/sourcemappanel.h"
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
          "[app][source-map]")
{
    const Scenario sc = test::scenario("mesh:4x4", "binomial", NodeId{0});
    for (const SourceMapMetric metric : allSourceMapMetrics()) {
        INFO(toString(metric));
        const SnapshotPtr snap = buildSnapshot(sc, {.metric = metric});
        CHECK(snap->sourceMapMetric == metric);
        CHECK(snap->sourceMapMetrics == allSourceMapMetrics());
        REQUIRE(snap->sourceMap.size() == 16);
        for (NodeId v{}; v < 16; ++v) {
            const Schedule s = buildSchedule("binomial", sc.topology, v, Params{});
            CHECK(snap->sourceMap[v] == sourceMapValue(s, metric));
        }
        if (metric == SourceMapMetric::Steps)
            CHECK(snap->sourceMap == std::vector<double>(16, 4.0)); // ⌈log2 16⌉ from every source
    }
    // TCD also feeds the optimum (the metrics table's gap): 20, from (0,0) and (0,2).
    const SnapshotPtr tcd = buildSnapshot(sc);
    REQUIRE(tcd->optimum);
    CHECK(*tcd->optimum == 20);
}

TEST_CASE("source map panel: metric chooser, colour bar ticks, histogram and summary", "[app][source-map]")
{
    SourceMapPanel panel;
    QSignalSpy chosen(&panel, &SourceMapPanel::metricChosen);
    panel.setSnapshot(buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    CHECK(panel.metricBox()->count() == 5);
    CHECK(panel.metricBox()->currentText() == QStringLiteral("TCD"));
    CHECK(chosen.count() == 0); // filling the box is not a choice
    // binomial on mesh:4x4: TCD 20..42, two sources each at 20, 22, 26, 28, 34, 36, 40, 42.
    REQUIRE(panel.bins().size() == 23);
    CHECK(panel.bins().front().count == 2);
    // The colour bar's scale runs over the values above the best (22..42); the best has its own box.
    CHECK(panel.ticks() == sourceMapTicks(22, 42, SourceMapMetric::Tcd, SourceMapPanel::kTicks));
    CHECK(panel.summaryText().startsWith(QStringLiteral("TCD from 16 of 16 sources: best 20 (2 sources), max 42")));
    CHECK(panel.summaryText().contains(QStringLiteral("this source 20")));
    panel.chooseMetric(SourceMapMetric::MaxLinkLoad);
    REQUIRE(chosen.count() == 1);
    CHECK(chosen.first().first().value<SourceMapMetric>() == SourceMapMetric::MaxLinkLoad);
    // No map: an allgather has no source to vary.
    Scenario all = test::scenario("hypercube:3", "nesbt", NodeId{0});
    all.params.set("pattern", "allgather");
    panel.setSnapshot(buildSnapshot(all));
    CHECK(panel.bins().empty());
    CHECK(panel.summaryText().startsWith(QStringLiteral("no source map")));
}

TEST_CASE("source map panel: follows a session by itself, and asks it for the metric chosen", "[app][source-map]")
{
    Session session;
    SourceMapPanel panel;
    panel.follow(&session); // no window in between
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    REQUIRE(panel.bins().size() == 23); // as in the test above: TCD 20..42
    QSignalSpy ready(&session, &Session::scheduleReady);
    panel.chooseMetric(SourceMapMetric::Steps);
    REQUIRE(ready.wait(10000));
    CHECK(session.sourceMapMetric() == SourceMapMetric::Steps);
    CHECK(panel.summaryText().startsWith(QStringLiteral("steps from 16 of 16 sources")));
}

TEST_CASE("source map: choosing a metric in the window recomputes the map, and hover names it",
          "[app][source-map][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    w.setViewMode(ViewMode::SourceMap);
    CHECK(w.sourceMapPanel()->isVisibleTo(&w));
    QSignalSpy ready(w.session(), &Session::scheduleReady);
    w.sourceMapPanel()->chooseMetric(SourceMapMetric::Time);
    REQUIRE(test::waitFor([&] { return ready.count() == 1; }, 30000));
    const SnapshotPtr snap = w.session()->snapshot();
    CHECK(snap->sourceMapMetric == SourceMapMetric::Time);
    CHECK(snap->scenario.source == 5);
    REQUIRE(snap->sourceMap.size() == 16);
    const Schedule s = buildSchedule("binomial", snap->topology(), NodeId{3}, Params{});
    CHECK(snap->sourceMap[3] == sourceMapValue(s, SourceMapMetric::Time));
    CHECK(w.sourceMapPanel()->summaryText().startsWith(QStringLiteral("time from 16 of 16 sources: best ")));
    CHECK(w.sourceMapPanel()->summaryText().contains(QStringLiteral("µs")));
    w.setViewMode(ViewMode::Plain);
    CHECK_FALSE(w.sourceMapPanel()->isVisibleTo(&w));
}

TEST_CASE("source map: frame colours follow the metric, from low to high on the cividis scale", "[app][source-map]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{5}));
    const auto channels = drawnChannels(snap->topology());
    const FrameStyle f = frameStyle(*snap, channels, 0, ViewMode::SourceMap, true, Palette::normal());
    // TCD 42 from (3,1) and (3,3): the top of the scale; 20 at (0,0): the optimum colour.
    CHECK(f.nodeColour[snap->topology().id({3, 1})] == sourceMapColour({20, 42}, 42));
    CHECK(f.nodeColour[0] == Palette::normal().optimum);
    // The scale starts above the best: the least TCD above 20 (22) is the bar's dark blue end.
    const SourceMapScale scale = sourceMapScale(snap->sourceMap);
    CHECK(scale.best == 20);
    CHECK(scale.low == 22);
    CHECK(scale.high == 42);
    CHECK(scale.bestCount == 2);
    for (std::size_t v = 0; v < 16; ++v)
        if (snap->sourceMap[v] == 22 && v != 5)
            CHECK(f.nodeColour[v] == Rgba::from(colour::mapColour(colour::ColourMap::Cividis, 0.0)));
    CHECK(f.nodeColour[5] == Palette::normal().source);
    CHECK_FALSE(sourceMapColour({20, 42}, 20) == sourceMapColour({20, 42}, 42));
}

TEST_CASE("source map: the lowest and highest sources are drawn in different colours", "[app][source-map][gl]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{5}));
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::SourceMap);
    scene.setStep(0);
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    const NodeId low{0}, high = snap->topology().id({3, 1}); // TCD 20 and 42
    const QPointF pl = scene.camera().nodeOnScreen(low), ph = scene.camera().nodeOnScreen(high);
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
          "[app][source-map]")
{
    // Issue: the metrics table listed 4 best sources (the paper's eyes), the map "min 69 (12
    // sources)"; the legend called the dark blue "low TCD (69)" while every 69 was white; the
    // hover on (7,7) said "layer 9" and "holds 0 of the 1 blocks".
    const SnapshotPtr snap = cangWu8x8Map();
    REQUIRE(snap->sourceMap.size() == 64);
    const SourceMapScale scale = sourceMapScale(snap->sourceMap);
    CHECK(scale.best == 69);
    CHECK(scale.bestCount == 12);
    CHECK(scale.low == 70);
    CHECK(scale.high == 79);
    const Palette pal = Palette::normal();
    const auto legend = legendEntries(snap.get(), ViewMode::SourceMap, pal);
    auto entry = [&](const QString& text) {
        return std::find_if(legend.begin(), legend.end(), [&](const auto& e) { return e.second == text; });
    };
    REQUIRE(entry(QStringLiteral("best TCD (69), 12 sources")) != legend.end());
    CHECK(entry(QStringLiteral("best TCD (69), 12 sources"))->first == pal.optimum.to<QColor>());
    REQUIRE(entry(QStringLiteral("low TCD (70)")) != legend.end());
    CHECK(entry(QStringLiteral("low TCD (70)"))->first == sourceMapColour({0, 1}, 0).to<QColor>());
    REQUIRE(entry(QStringLiteral("high TCD (79)")) != legend.end());

    SourceMapPanel panel;
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
          "[app][source-map][gl]")
{
    const SnapshotPtr snap = cangWu8x8Map();
    SceneView scene;
    scene.window()->resize(900, 700);
    scene.window()->show();
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::SourceMap);
    scene.setStep(0);
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    const auto bar = legendBar(snap.get(), ViewMode::SourceMap, true, scene.choice().palette());
    REQUIRE(bar);
    REQUIRE(bar->stops.size() == 17);
    const SourceMapScale scale = sourceMapScale(snap->sourceMap);
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
        const double x = snap->sourceMap[v];
        // The bar's colour at the node's value; the best: the legend's own colour.
        const QColor want =
            x == scale.best
                ? scene.choice().palette().optimum.to<QColor>()
                : bar->stops[static_cast<std::size_t>(std::lround((x - bar->min) / (bar->max - bar->min) * 16))];
        INFO(snap->topology().nodeName(v) << " TCD " << x << " want " << want.name().toStdString());
        CHECK(test::pixelNear(img, scene.camera().nodeOnScreen(v), 2, near(want)));
        if (x == scale.best) // not the bar's low end: the best stands apart
            CHECK_FALSE(test::pixelNear(img, scene.camera().nodeOnScreen(v), 1, near(bar->stops.front())));
        ++checked;
    }
    CHECK(checked == 63);
}
