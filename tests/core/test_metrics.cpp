// Schedule figures that the front ends show instead of recomputing them: the informed
// step of every node and the channel loads of every step.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/model/error.h"
#include "topocast/model/routing.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace topocast;

namespace {

/// The loads after `step` counted afresh from the routes of steps 1..step (the recount the app
/// used to make on every step change): the reference ChannelLoadHistory must agree with.
ChannelLoads recount(const Schedule& s, std::uint32_t step)
{
    const Topology& topo = s.topology();
    ChannelLoads out;
    const auto slots = static_cast<std::size_t>(topo.channelSlots());
    out.step.assign(slots, 0);
    out.cumulative.assign(slots, 0);
    out.lastTag.assign(slots, -1);
    const std::uint32_t last = std::min(step, s.stepCount());
    for (std::uint32_t st = 1; st <= last; ++st)
        for (const Transfer& t : s.stepTransfers(StepNo{st}))
            forEachChannel(topo, t.from, t.to, t.route, s.dimensionOrder, [&](ChannelId ch) {
                out.cumulative[ch] += 1;
                out.lastTag[ch] = static_cast<std::int32_t>(t.tag);
                if (st == last && ++out.step[ch] == 2)
                    ++out.contendedNow;
            });
    return out;
}

void checkEveryStep(const Schedule& s)
{
    const ChannelLoadHistory history(s);
    REQUIRE(history.stepCount() == s.stepCount());
    // Forwards, backwards and jumping: each position on its own, whatever came before.
    std::vector<std::uint32_t> order;
    for (std::uint32_t k = 0; k <= s.stepCount() + 1; ++k)
        order.push_back(k);
    for (std::uint32_t k = s.stepCount() + 1; k-- > 0;)
        order.push_back(k);
    order.push_back(s.stepCount() / 2);
    order.push_back(0);
    ChannelLoads reused;
    for (const std::uint32_t k : order) {
        INFO("step " << k);
        const ChannelLoads want = recount(s, k);
        const ChannelLoads got = history.at(k);
        CHECK(got.step == want.step);
        CHECK(got.cumulative == want.cumulative);
        CHECK(got.lastTag == want.lastTag);
        CHECK(got.contendedNow == want.contendedNow);
        history.loadsAt(k, reused);
        CHECK(reused.cumulative == want.cumulative);
        CHECK(reused.step == want.step);
    }
    const std::vector<std::uint32_t> total = cumulativeChannelLoad(s);
    CHECK(history.at(s.stepCount()).cumulative == total);
}

Schedule finalized(Schedule s)
{
    s.finalize();
    return s;
}

} // namespace

TEST_CASE("informedSteps: the step each node first holds data", "[metrics]")
{
    GIVEN("a hand-made broadcast on a 4x4 mesh with a node nothing reaches")
    {
        Schedule s(Topology::mesh({4, 4}), NodeId{5}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{5}, NodeId{6}, StepNo{1});
        s.add(NodeId{6}, NodeId{7}, StepNo{2});
        s.add(NodeId{5}, NodeId{4}, StepNo{2});
        s.add(NodeId{4}, NodeId{6}, StepNo{3}); // 6 again, later: its first step stays 1
        s.add(NodeId{7}, NodeId{5}, StepNo{3}); // back to the source: it stays 0
        s.finalize();
        const auto steps = informedSteps(s);
        THEN("source 0, first receipts, kNeverInformed elsewhere")
        {
            CHECK(steps[5] == 0);
            CHECK(steps[6] == 1);
            CHECK(steps[7] == 2);
            CHECK(steps[4] == 2);
            CHECK(steps[0] == kNeverInformed);
            const auto first = firstInformers(s);
            CHECK(first[5] == kNoTransfer);
            CHECK(s.transfers()[first[6]].step == 1);
            CHECK(first[0] == kNoTransfer);
        }
    }
    GIVEN("an allgather: every node starts with its own block")
    {
        const Schedule s = buildSchedule("sbt", Topology::hypercube(3), NodeId{0}, Params{{"pattern", "allgather"}});
        THEN("every node is informed at step 0")
        {
            const auto steps = informedSteps(s);
            CHECK(std::all_of(steps.begin(), steps.end(), [](std::uint32_t v) { return v == 0; }));
        }
    }
    GIVEN("bfs on a torus: a node's step is its distance from the source")
    {
        const Topology topo = Topology::torus({5, 4});
        const Schedule s = buildSchedule("bfs", topo, NodeId{7}, Params{});
        const auto steps = informedSteps(s);
        for (NodeId v{}; v < topo.nodeCount(); ++v)
            CHECK(steps[v] == static_cast<std::uint32_t>(topo.distance(NodeId{7}, v)));
    }
    GIVEN("a schedule that is not finalized")
    {
        Schedule s(Topology::mesh({4}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{0}, NodeId{1}, StepNo{1});
        THEN("it is refused")
        {
            CHECK_THROWS_AS(informedSteps(s), Error);
        }
    }
}

TEST_CASE("channel load history: every step's loads equal a recount of steps 1..k", "[metrics][channels]")
{
    SECTION("a contended hand-made broadcast on a 4x4 mesh")
    {
        Schedule s(Topology::mesh({4, 4}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{0}, NodeId{1}, StepNo{1});
        s.add(NodeId{0}, NodeId{3}, StepNo{2});
        s.add(NodeId{1}, NodeId{2}, StepNo{2});
        s.finalize();
        checkEveryStep(s);
        CHECK(ChannelLoadHistory(s).at(2).contendedNow == 1);
    }
    SECTION("library schedules: meshes, tori (wrap routes), hypercube trees with tags")
    {
        const auto [spec, algorithm] = GENERATE(table<std::string, std::string>({
            {"mesh:8x8", "binomial"},
            {"mesh:4x4x4", "recursive-doubling"},
            {"torus:5x5", "bfs"},
            {"torus:7x7", "tsay-wang"},
            {"mesh:8x8", "cang-wu"},
            {"hypercube:4", "nesbt"},
            {"hypercube:4", "sbnt"},
        }));
        INFO(spec << " " << algorithm);
        const Topology topo = Topology::parse(spec);
        Params params;
        if (algorithm == "sbnt")
            params = Params{{"pattern", "scatter"}};
        checkEveryStep(buildSchedule(algorithm, topo, NodeId{3}, params));
    }
    SECTION("many checkpoints: a long schedule on a short line")
    {
        // mesh:4 has 8 channel slots; 40 steps of 6 channel uses each pass a checkpoint every
        // two steps, and the tags change from step to step.
        Schedule s(Topology::mesh({4}), NodeId{0}, Pattern::Broadcast, PortModel::AllPort);
        for (std::uint32_t step = 1; step <= 40; ++step) {
            s.add(NodeId{0}, NodeId{3}, StepNo{step}, {}, 0, step % 3);
            s.add(NodeId{3}, NodeId{0}, StepNo{step}, {}, 0, step % 5);
            if (step % 7 == 0)
                s.add(NodeId{1}, NodeId{3}, StepNo{step}, {}, 0, 9); // contention on 1→2, 2→3
        }
        s.finalize();
        const ChannelLoadHistory history(s);
        CHECK(history.checkpointCount() >= 15);
        CHECK(history.severalTags());
        checkEveryStep(s);
    }
}

TEST_CASE("channel load history: memory grows with the channel uses, not steps × channels", "[metrics][channels]")
{
    // 16x16 mesh: 1024 channel slots. 300 steps of one 1-hop transfer each: a dense per-step
    // table would take 300 × 1024 × 4 B = 1.2 MB; the history holds 300 uses and no checkpoint.
    Schedule s(Topology::mesh({16, 16}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    for (std::uint32_t step = 1; step <= 300; ++step)
        s.add(NodeId{step % 2 ? 0 : 1}, NodeId{step % 2 ? 1 : 0}, StepNo{step});
    s.finalize();
    const ChannelLoadHistory history(s);
    CHECK(history.checkpointCount() == 0);
    CHECK_FALSE(history.severalTags());
    CHECK(history.memoryBytes() < 300 * 24);
    CHECK(history.at(300).cumulative[Topology::mesh({16, 16}).channel(NodeId{0}, 0, +1)] == 150);

    // Σ hops uses between two checkpoints: at most one checkpoint per channel-slots uses.
    const Schedule big = buildSchedule("bfs", Topology::mesh({32, 32}), NodeId{0}, Params{});
    const ChannelLoadHistory h(big);
    const auto slots = Topology::mesh({32, 32}).channelSlots();
    CHECK(h.checkpointCount() <= big.size() / slots + 1);
    CHECK(h.memoryBytes() < 2 * (big.size() * 12 + (big.stepCount() + 1) * 8) + h.checkpointCount() * slots * 4);
}

TEST_CASE("channel load history: empty schedules and refusals", "[metrics][channels][bad-input]")
{
    const ChannelLoadHistory none;
    CHECK(none.stepCount() == 0);
    CHECK(none.at(3).cumulative.empty());
    const Schedule empty =
        finalized(Schedule(Topology::mesh({4, 4}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort));
    const ChannelLoadHistory h(empty);
    CHECK(h.stepCount() == 0);
    CHECK(h.at(0).cumulative == std::vector<std::uint32_t>(64, 0)); // 16 nodes × 4 ports
    Schedule raw(Topology::mesh({4}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    raw.add(NodeId{0}, NodeId{1}, StepNo{1});
    CHECK_THROWS_WITH(ChannelLoadHistory(raw), Catch::Contains("not finalized"));
}
