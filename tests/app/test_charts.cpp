#include "helpers.h"
#include "panels/layercharts.h"
#include "session/session.h"
#include "session/snapshot.h"

#include "topocast/algorithms/figures.h"

#include <catch2/catch.hpp>

#include <QChart>
#include <QValueAxis>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("layer charts: load, Gantt and speedup charts appear from divisible-load figures", "[app][charts]")
{
    LayerCharts charts;
    auto plain = buildSnapshot(test::scenario("mesh:4x4", "bfs"));
    charts.setSnapshot(plain);
    CHECK(charts.chartCount() == 0);
    CHECK(charts.isHidden());

    auto snap = std::make_shared<Snapshot>(*plain);
    DivisibleLoadFigures f;
    f.model.alpha = {0.4, 0.3, 0.2, 0.1};
    f.model.bound = 3.2;
    DivisibleLoadTimelineRow r0, r1;
    r0.layer = 0;
    r0.computeEnd = 4.0;
    r1.layer = 1;
    r1.receiveEnd = 1.0;
    r1.computeBegin = 1.0;
    r1.computeEnd = 4.0;
    f.timeline.finishTime = 4.0;
    f.timeline.rows = {r0, r1};
    f.speedupByLayers = {1.0, 1.8, 2.4, 2.8};
    snap->schedule.figures = std::make_shared<const AlgorithmFigures>(AlgorithmFigures{f});
    charts.setSnapshot(snap);
    CHECK(charts.chartCount() == 3);
    CHECK_FALSE(charts.isHidden());
    charts.setSnapshot(nullptr);
    CHECK(charts.chartCount() == 0);
}

TEST_CASE("layer charts: a divisible-load preset shows all three charts", "[app][charts]")
{
    Scenario s = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/divisible-scatter3.json");
    s.topology = Topology::mesh({8, 8, 8});
    s.source = s.topology.id({0, 1, 2}); // (y, z) in 0..4 × 1..5 fits the 3-layer pattern
    s.params.set("layers", "3");
    const SnapshotPtr snap = buildSnapshot(s);
    LayerCharts charts;
    charts.setSnapshot(snap);
    CHECK(charts.chartCount() == 3);
}

TEST_CASE("layer charts: follow a session by themselves", "[app][charts]")
{
    Session session;
    LayerCharts charts;
    charts.follow(&session); // no window in between
    Scenario s = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/divisible-scatter3.json");
    s.topology = Topology::mesh({8, 8, 8});
    s.source = s.topology.id({0, 1, 2});
    s.params.set("layers", "3");
    REQUIRE(session.setScenarioNow(s));
    CHECK(charts.chartCount() == 3);
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    CHECK(charts.chartCount() == 0); // no divisible-load figures: no charts
}

TEST_CASE("layer charts: the Gantt chart's time axis is in the unit that shows its digits", "[app][charts]")
{
    // 16×16×16 from the preset: the layers finish within milliseconds, which read "0.00" in seconds.
    const SnapshotPtr snap =
        buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/divisible-scatter3.json"));
    LayerCharts charts;
    charts.setSnapshot(snap);
    QChart* gantt = charts.chart(QStringLiteral("gantt"));
    REQUIRE(gantt);
    auto* x = qobject_cast<QValueAxis*>(gantt->axes(Qt::Horizontal).value(0));
    REQUIRE(x);
    INFO(x->titleText().toStdString() << ": " << x->min() << " to " << x->max());
    CHECK(x->titleText() != QStringLiteral("time (s)"));
    CHECK(x->max() >= 1.0);
    CHECK(x->max() < 1000.0);
}
