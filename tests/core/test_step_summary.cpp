// Per-step figures for the handout pages: core summarizeSteps.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/step_summary.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

using namespace topocast;

TEST_CASE("step summary: Cang-Wu 4x4x4 from the eye doubles the informed nodes, one hop a send", "[step-summary]")
{
    // resources/scenarios/cang-wu-4x4x4-eye.json: Algorithm 3 from the eye (1,1,1), OD = 63 with
    // every send one hop (docs/papers/mesh-tcd.md): step k makes 2^(k−1) one-hop sends.
    const Scenario sc = loadScenario(std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/cang-wu-4x4x4-eye.json");
    const Schedule s = buildSchedule(sc.algorithm, sc.topology, sc.source, sc.params);
    const Metrics m = computeMetrics(s);
    const auto steps = summarizeSteps(s, m);
    REQUIRE(steps.size() == 6);
    std::uint64_t sends = 1;
    for (const StepSummary& st : steps) {
        INFO("step " << st.step);
        CHECK(st.transfers == sends);
        CHECK(st.receivers == sends);
        CHECK(st.tcd == sends);
        CHECK(st.maxHops == 1);
        CHECK(st.informedSoFar == 2 * sends);
        CHECK(st.tcdSoFar == 2 * sends - 1);
        CHECK(st.contendedChannels == 0);
        CHECK_FALSE(st.label.empty());
        sends *= 2;
    }
    CHECK(steps.back().tcdSoFar == 63);
    CHECK(describeStepSummary(steps[2], 64) ==
          "4 transfers to 4 nodes, 4 hops (TCD so far 7, longest route 1 hop), 8 of 64 nodes hold data, no channel "
          "contended");
}

TEST_CASE("step summary: a hand-made contention is counted in its step", "[step-summary]")
{
    // Step 1 (0,0)→(1,0); step 2 (0,0)→(3,0) and (1,0)→(2,0) share the channel (1,0)→(2,0).
    const Topology topo = Topology::mesh({4, 4});
    Schedule s(topo, NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    s.add(NodeId{0}, NodeId{1}, StepNo{1});
    s.add(NodeId{0}, NodeId{3}, StepNo{2});
    s.add(NodeId{1}, NodeId{2}, StepNo{2});
    s.finalize();
    const auto steps = summarizeSteps(s, computeMetrics(s));
    REQUIRE(steps.size() == 2);
    CHECK(steps[0] == StepSummary{StepNo{1}, "", 1, 1, 1, 1, 2, 1, 0});
    CHECK(steps[1] == StepSummary{StepNo{2}, "", 2, 2, 4, 5, 4, 3, 1});
    CHECK(describeStepSummary(steps[1], 16) ==
          "2 transfers to 2 nodes, 4 hops (TCD so far 5, longest route 3 hops), 4 of 16 nodes hold data, 1 channel "
          "contended");
    Schedule open(topo, NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    open.add(NodeId{0}, NodeId{1}, StepNo{1});
    CHECK_THROWS_AS(summarizeSteps(open, Metrics{}), Error);
}
