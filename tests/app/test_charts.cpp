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
    snap->schedule.info["timeline"] = nlohmann::ordered_json::array(
        {{{"layer", 0}, {"receive_start", 0.0}, {"receive_end", 0.0}, {"compute_end", 4.0}},
         {{"layer", 1}, {"receive_start", 0.0}, {"receive_end", 1.0}, {"compute_end", 4.0}}});
    snap->schedule.info["speedup"] = {1.0, 1.8, 2.4, 2.8};
    snap->schedule.info["bound"] = 3.2;
    charts.setSnapshot(snap);
    CHECK(charts.chartCount() == 3);
    CHECK_FALSE(charts.isHidden());
    charts.setSnapshot(nullptr);
    CHECK(charts.chartCount() == 0);
}
