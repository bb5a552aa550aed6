#include "helpers.h"
#include "layercharts.h"
#include "snapshot.h"

#include <catch2/catch.hpp>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("layer charts: load, Gantt and speedup charts appear from schedule.info", "[app][charts]")
{
    LayerCharts charts;
    auto plain = buildSnapshot(test::scenario("mesh:4x4", "bfs"));
    charts.setSnapshot(plain);
    CHECK(charts.chartCount() == 0);
    CHECK(charts.isHidden());

    auto snap = std::make_shared<Snapshot>(*plain);
    snap->schedule.info["alpha"] = {0.4, 0.3, 0.2, 0.1};
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    rows.push_back({{"layer", 0}, {"receive_begin", 0.0}, {"receive_end", 0.0}, {"compute_begin", 0.0}, {"compute_end", 4.0}});
    rows.push_back({{"layer", 1}, {"receive_begin", 0.0}, {"receive_end", 1.0}, {"compute_begin", 1.0}, {"compute_end", 4.0}});
    snap->schedule.info["timeline"] = {{"finish_time", 4.0}, {"rows", rows}};
    snap->schedule.info["speedup"] = {1.0, 1.8, 2.4, 2.8};
    snap->schedule.info["bound"] = 3.2;
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
    s.source = s.topology.id({0, 1, 2});  // (y, z) in 0..4 × 1..5 fits the 3-layer pattern
    s.params.set("layers", "3");
    const SnapshotPtr snap = buildSnapshot(s);
    LayerCharts charts;
    charts.setSnapshot(snap);
    CHECK(charts.chartCount() == 3);
}
