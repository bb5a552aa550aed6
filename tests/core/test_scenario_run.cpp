// runScenario: a scenario computed in core, as the app, and any front end, shows it — the schedule,
// the source map and the optimum it gives, checked against a brute force over every source;
// progress and cancellation.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/model/error.h"
#include "topocast/scenario/run.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace topocast;

namespace {

Scenario binomialOn(const char* topology, NodeId source)
{
    Scenario s;
    s.topology = Topology::parse(topology);
    s.algorithm = "binomial";
    s.source = source;
    s.params = Params{};
    return s;
}

} // namespace

TEST_CASE("runScenario: the source map and its optimum are the brute force's over every source", "[scenario]")
{
    const Scenario sc = binomialOn("mesh:4x4", NodeId{5});
    // The brute force: the binomial broadcast's TCD from each of the 16 sources.
    std::vector<std::uint64_t> tcd;
    for (std::uint32_t v = 0; v < 16; ++v)
        tcd.push_back(computeMetrics(buildSchedule("binomial", sc.topology, NodeId{v}, Params{})).tcd);
    const std::uint64_t best = *std::min_element(tcd.begin(), tcd.end());
    std::vector<NodeId> bestSources;
    for (std::uint32_t v = 0; v < 16; ++v)
        if (tcd[v] == best)
            bestSources.push_back(NodeId{v});

    ScenarioRun run;
    runScenario(sc, run);
    CHECK(run.schedule.source() == NodeId{5});
    CHECK(run.metrics.tcd == tcd[5]);
    REQUIRE(run.sourceMap.size() == 16);
    for (std::uint32_t v = 0; v < 16; ++v)
        CHECK(run.sourceMap[v] == static_cast<double>(tcd[v]));
    REQUIRE(run.optimum);
    CHECK(*run.optimum == best);
    CHECK_FALSE(run.optimumFromFigures);
    CHECK(run.optimumSources == bestSources);
    CHECK(run.networkTime.has_value());
    CHECK(*run.networkTime >= run.networkBound.total); // never below its bound
    CHECK(run.fallback.empty());

    // The map of another metric: the optimum is still the least TCD, from a map of TCDs of its own.
    ScenarioRun steps;
    runScenario(sc, steps, {.metric = SourceMapMetric::Steps});
    CHECK(steps.sourceMapMetric == SourceMapMetric::Steps);
    CHECK(steps.sourceMap == std::vector<double>(16, 4.0)); // ⌈log2 16⌉ from every source
    REQUIRE(steps.optimum);
    CHECK(*steps.optimum == best);
    CHECK(steps.optimumSources == bestSources);

    // Another source of the same network borrows the map and the layout: one schedule more.
    ScenarioRun next;
    runScenario(binomialOn("mesh:4x4", NodeId{0}), next, {.previous = &run});
    CHECK(next.sourceMap == run.sourceMap);
    CHECK(next.positions == run.positions);
    CHECK(next.optimumSources == bestSources);
    CHECK(next.metrics.tcd == tcd[0]);
}

TEST_CASE("runScenario: the algorithm's own optimum, a fallback, progress and cancellation", "[scenario]")
{
    // Cang-Wu knows its optimum (OD_k, at the eyes): the map's least TCD agrees with it.
    Scenario cw;
    cw.topology = Topology::parse("mesh:8x8");
    cw.algorithm = "cang-wu";
    cw.source = NodeId{0};
    cw.params.set("mode", "optimal");
    ScenarioRun run;
    RunProgress progress;
    runScenario(cw, run, {.progress = &progress});
    CHECK(progress.stage == RunProgress::Done);
    CHECK(runStageText(progress) == "done");
    REQUIRE(run.optimum);
    CHECK(run.optimumFromFigures);
    REQUIRE_FALSE(run.sourceMap.empty());
    CHECK(*std::min_element(run.sourceMap.begin(), run.sourceMap.end()) == static_cast<double>(*run.optimum));
    CHECK_FALSE(run.optimumSources.empty());

    // An algorithm this build lacks: the fallback runs and says so.
    Scenario missing = binomialOn("mesh:4x4", NodeId{0});
    missing.algorithm = "no-such-algorithm";
    CHECK_THROWS_AS(runScenario(missing, run), Error);
    ScenarioRun fallback;
    runScenario(missing, fallback, {.allowFallback = true});
    CHECK(fallback.scenario.algorithm == "recursive-doubling");
    CHECK(fallback.fallback == "no-such-algorithm is not available in this build; showing recursive-doubling");

    // Cancelled before it starts: RunCancelled, not an Error.
    RunProgress cancelled;
    cancelled.cancelled = true;
    ScenarioRun none;
    CHECK_THROWS_AS(runScenario(binomialOn("mesh:4x4", NodeId{0}), none, {.progress = &cancelled}), RunCancelled);
    RunProgress map;
    map.stage = RunProgress::SourceMap;
    map.mapTotal = 512;
    map.mapDone = 39;
    CHECK(runStageText(map) == "source map: source 40 of 512");
}
