#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"

#include <catch2/catch.hpp>

using namespace topocast;

namespace {

bool mentions(const Validation& v, const std::string& text)
{
    for (const auto& s : v.violations)
        if (s.find(text) != std::string::npos)
            return true;
    return false;
}

Schedule path4Broadcast()
{
    // 0 → 2 in step 1; 0 → 1 and 2 → 3 in step 2 (a 1-D recursive doubling).
    Schedule s(Topology::mesh({4}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    s.add(NodeId{0}, NodeId{2}, StepNo{1});
    s.add(NodeId{0}, NodeId{1}, StepNo{2});
    s.add(NodeId{2}, NodeId{3}, StepNo{2});
    s.finalize();
    return s;
}

} // namespace

TEST_CASE("checker: deliberate contention vector of docs/papers/mesh-tcd.md §1.4", "[validate][metrics]")
{
    const Topology t = Topology::mesh({4, 4});
    Schedule s(t, t.id({0, 0}), Pattern::Broadcast, PortModel::AllPort);
    s.add(t.id({0, 0}), t.id({3, 0}), StepNo{1});
    s.add(t.id({1, 0}), t.id({2, 0}), StepNo{1});
    s.finalize();
    const Metrics m = computeMetrics(s);
    REQUIRE(m.contentions.size() == 1);
    CHECK(t.channelName(m.contentions[0].channel) == "(1,0)→(2,0)");
    CHECK(m.contentions[0].step == 1);
    CHECK(m.contentions[0].transfers == std::vector<std::size_t>{0, 1});
    CHECK(m.contentionUses == 2);
    CHECK(m.maxStepLoad == 2);

    // Opposite directions on one link are two channels: no contention.
    Schedule ok(t, t.id({1, 0}), Pattern::Broadcast, PortModel::AllPort);
    ok.add(t.id({1, 0}), t.id({2, 0}), StepNo{1});
    ok.add(t.id({2, 0}), t.id({1, 0}), StepNo{1});
    ok.finalize();
    CHECK(computeMetrics(ok).contentionUses == 0);
}

TEST_CASE("checker accepts a correct broadcast and computes its metrics", "[validate][metrics]")
{
    const Schedule s = path4Broadcast();
    const Validation v = validate(s);
    CHECK(v.ok());
    const Metrics m = computeMetrics(s);
    CHECK(m.steps == 2);
    CHECK(m.tcd == 4);
    CHECK(m.tcdPerStep == std::vector<std::uint64_t>{2, 2});
    CHECK(m.maxLinkLoad == 2); // channel 0→1 carries step 1 (0→2) and step 2 (0→1)
    CHECK(m.depthContendedChannels == 1);
    CHECK(m.maxStepLoad == 1);
    CHECK(m.maxSendsPerNodeStep == 1);
    CHECK(m.maxHops == 2);
}

TEST_CASE("checker rejects broken broadcasts with readable sentences", "[validate]")
{
    SECTION("a node sends before it holds the message")
    {
        Schedule s(Topology::mesh({4}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{0}, NodeId{1}, StepNo{2});
        s.add(NodeId{1}, NodeId{2}, StepNo{1});
        s.add(NodeId{2}, NodeId{3}, StepNo{3});
        const Validation v = validate(s);
        CHECK_FALSE(v.ok());
        CHECK(mentions(v, "step 1: (1) sends to (2) but does not hold the message yet (it receives it in step 2)"));
    }
    SECTION("on a hypercube, findings name nodes by the binary addresses the picture labels")
    {
        Schedule s(Topology::hypercube(3), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{0}, NodeId{1}, StepNo{2});
        s.add(NodeId{1}, NodeId{3}, StepNo{1});
        s.add(NodeId{0}, NodeId{2}, StepNo{1});
        const Validation v = validate(s);
        CHECK_FALSE(v.ok());
        CHECK(mentions(v, "step 1: 001 sends to 011 but does not hold the message yet (it receives it in step 2)"));
    }
    SECTION("a node receives twice and another never")
    {
        Schedule s(Topology::mesh({4}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{0}, NodeId{1}, StepNo{1});
        s.add(NodeId{0}, NodeId{2}, StepNo{2});
        s.add(NodeId{1}, NodeId{2}, StepNo{2});
        const Validation v = validate(s);
        CHECK(mentions(v, "(2) receives the message again from (1)"));
        CHECK(mentions(v, "1 of 4 nodes never receive the message (first: (3))"));
        CHECK(mentions(v, "(2) receives more than once under the one-port model"));
    }
    SECTION("the source receives")
    {
        Schedule s(Topology::mesh({2}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{0}, NodeId{1}, StepNo{1});
        s.add(NodeId{1}, NodeId{0}, StepNo{2});
        CHECK(mentions(validate(s), "(0) (the source) receives the message again"));
    }
    SECTION("one-port: two sends in one step")
    {
        Schedule s(Topology::mesh({3}), NodeId{1}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{1}, NodeId{0}, StepNo{1});
        s.add(NodeId{1}, NodeId{2}, StepNo{1});
        const Validation v = validate(s);
        CHECK(v.violationCount == 1);
        CHECK(mentions(v, "step 1: (1) sends more than once under the one-port model"));
        s.setPortModel(PortModel::AllPort);
        CHECK(validate(s).ok());
    }
    SECTION("all-port: two messages injected on one channel")
    {
        const Topology t = Topology::mesh({4});
        Schedule s(t, NodeId{0}, Pattern::Broadcast, PortModel::AllPort);
        s.add(NodeId{0}, NodeId{1}, StepNo{1});
        s.add(NodeId{0}, NodeId{2}, StepNo{1});
        s.add(NodeId{2}, NodeId{3}, StepNo{2});
        const Validation v = validate(s);
        CHECK(mentions(v, "(0) injects two messages on channel (0)→(1)"));
        CHECK(mentions(v, "2 transfers share the directed channel (0)→(1)"));
    }
    SECTION("step 0, self-sends and cyclic routes off a mesh")
    {
        Schedule s(Topology::mesh({4}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
        s.add(NodeId{0}, NodeId{0}, StepNo{1});
        s.add(Transfer{NodeId{0}, NodeId{1}, StepNo{0}});
        s.add(Transfer{NodeId{1}, NodeId{3}, StepNo{2}, RouteSpec::cyclic(0, -1)});
        const Validation v = validate(s);
        CHECK(mentions(v, "has step 0; steps start at 1"));
        CHECK(mentions(v, "(0) sends to itself"));
        CHECK(mentions(v, "would leave the 4-node line"));
    }
    SECTION("a violation limit caps the list but not the count")
    {
        Schedule s(Topology::mesh({64}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
        for (NodeId v{2}; v < 64; ++v)
            s.add(NodeId{v - 1}, NodeId{v}, StepNo{1}); // 62 senders that hold nothing
        ValidateOptions o;
        o.maxViolations = 5;
        const Validation v = validate(s, o);
        CHECK(v.violations.size() == 5);
        CHECK(v.violationCount > 60);
    }
}

TEST_CASE("checker follows blocks of personalized and all-to-all patterns", "[validate]")
{
    const Topology t = Topology::mesh({4});
    SECTION("scatter along a path: every node ends with its own block")
    {
        Schedule s(t, NodeId{0}, Pattern::Scatter, PortModel::OnePort);
        const Block b1{0, 1, 0}, b2{0, 2, 0}, b3{0, 3, 0};
        const std::uint32_t p123 = s.addPayload(std::vector<Block>{b1, b2, b3});
        const std::uint32_t p23 = s.addPayload(std::vector<Block>{b2, b3});
        const std::uint32_t p3 = s.addPayload(std::vector<Block>{b3});
        s.add(NodeId{0}, NodeId{1}, StepNo{1}, {}, p123, 0, 3);
        s.add(NodeId{1}, NodeId{2}, StepNo{2}, {}, p23, 0, 2);
        s.add(NodeId{2}, NodeId{3}, StepNo{3}, {}, p3, 0, 1);
        CHECK(validate(s).ok());

        Schedule early = s;
        early.mutableTransfers()[2].step = StepNo{2}; // 2 forwards block 3 in the step it receives it
        CHECK(
            mentions(validate(early), "step 2: (2) sends the block from (0) for (3) to (3) but does not hold it yet"));

        Schedule missing(t, NodeId{0}, Pattern::Scatter, PortModel::OnePort);
        missing.add(NodeId{0}, NodeId{1}, StepNo{1}, {}, missing.addPayload(std::vector<Block>{b1, b2}));
        missing.add(NodeId{1}, NodeId{2}, StepNo{2}, {}, missing.addPayload(std::vector<Block>{b2}));
        CHECK(mentions(validate(missing),
                       "1 of 4 nodes do not end with all their data (first: (3) has 0 of its 1 blocks)"));
    }
    SECTION("all-to-all exchange on two nodes: one-port exchange yes, half duplex no")
    {
        const Topology two = Topology::mesh({2});
        Schedule s(two, NodeId{0}, Pattern::Alltoall, PortModel::OnePortExchange);
        s.add(NodeId{0}, NodeId{1}, StepNo{1}, {}, s.addPayload(std::vector<Block>{{0, 1, 0}}));
        s.add(NodeId{1}, NodeId{0}, StepNo{1}, {}, s.addPayload(std::vector<Block>{{1, 0, 0}}));
        CHECK(validate(s).ok());
        s.setPortModel(PortModel::HalfDuplex);
        CHECK(mentions(validate(s), "under the half-duplex model"));
    }
    SECTION("allgather on a 3-node path with two parts per message")
    {
        const Topology three = Topology::mesh({3});
        Schedule s(three, NodeId{0}, Pattern::Allgather, PortModel::AllPort);
        s.parts = 1;
        // Step 1: ends send to the middle; step 2: the middle forwards each end's message on.
        s.add(NodeId{0}, NodeId{1}, StepNo{1}, {}, s.addPayload(std::vector<Block>{{0, Block::kAll, 0}}));
        s.add(NodeId{2}, NodeId{1}, StepNo{1}, {}, s.addPayload(std::vector<Block>{{2, Block::kAll, 0}}));
        s.add(NodeId{1}, NodeId{0}, StepNo{2}, {},
              s.addPayload(std::vector<Block>{{1, Block::kAll, 0}, {2, Block::kAll, 0}}));
        s.add(NodeId{1}, NodeId{2}, StepNo{2}, {},
              s.addPayload(std::vector<Block>{{1, Block::kAll, 0}, {0, Block::kAll, 0}}));
        CHECK(validate(s).ok());
        Schedule wrong = s;
        wrong.add(NodeId{0}, NodeId{1}, StepNo{3}, {},
                  0); // payload 0 = the source's (0's) message, which 1 already has
        CHECK(mentions(validate(wrong), "(1) receives the block from (0) again"));
    }
}
