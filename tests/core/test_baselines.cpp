// Baseline broadcasts: hand-computed TCD values on 4×4 and 2×2×2, checker invariants.
#include "topocast/algorithms/baselines.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

using namespace topocast;

namespace {
Metrics checked(const Schedule& s, bool contentionFree)
{
    ValidateOptions o;
    o.forbidStepContention = contentionFree;
    const Validation v = validate(s, o);
    INFO((v.violations.empty() ? std::string() : v.violations.front()));
    CHECK(v.ok());
    return computeMetrics(s);
}
} // namespace

TEST_CASE("recursive doubling: TCD by hand on 4×4 and 2×2×2", "[baseline]")
{
    // 4×4: step 1 one send of 2 hops, step 2 two of 1, step 3 four of 2, step 4 eight of 1 = 20,
    // the same from every source (each send covers half of the current box).
    const Topology t = Topology::mesh({4, 4});
    for (NodeId src{}; src < t.nodeCount(); ++src) {
        const Metrics m = checked(recursiveDoublingBroadcast(t, src), true);
        CHECK(m.steps == 4);
        CHECK(m.tcd == 20);
        CHECK(m.tcdPerStep == std::vector<std::uint64_t>{2, 2, 8, 8});
    }
    // 2×2×2: 1 + 2 + 4 sends of one hop each = 7.
    const Topology c = Topology::mesh({2, 2, 2});
    CHECK(checked(recursiveDoublingBroadcast(c, NodeId{5}), true).tcd == 7);
    CHECK_THROWS_WITH(recursiveDoublingBroadcast(Topology::mesh({6, 6}), NodeId{0}),
                      Catch::Contains("power of two; got 6×6"));
}

TEST_CASE("binomial (MPICH order): TCD by hand on 4×4 and 2×2×2", "[baseline]")
{
    const Topology t = Topology::mesh({4, 4});
    // From (0,0): 0→8 (2 hops); 0→4, 8→12 (1 each); 0→2, 4→6, 8→10, 12→14 (2 each); 8 × 1 hop = 20.
    Metrics m = checked(binomialBroadcast(t, t.id({0, 0})), true);
    CHECK(m.steps == 4);
    CHECK(m.tcdPerStep == std::vector<std::uint64_t>{2, 2, 8, 8});
    CHECK(m.tcd == 20);
    // From (1,1) (rank 5): (1,1)→(1,3) 2; (1,1)→(1,2) 1, (1,3)→(1,0) 3; four sends of 2 in x;
    // step 4: four 1-hop sends and (3,1)→(0,2) 4, (3,2)→(0,3) 4, (3,3)→(0,0) 6, (3,0)→(0,1) 4.
    m = checked(binomialBroadcast(t, t.id({1, 1})), false);
    CHECK(m.tcdPerStep == std::vector<std::uint64_t>{2, 4, 8, 22});
    CHECK(m.tcd == 36);
    // 2×2×2 from 0: 1 + 2 + 4 = 7; from (1,1,0) = rank 3: 1 + (2 + 2) + (3 + 2 + 3 + 2) = 15.
    const Topology c = Topology::mesh({2, 2, 2});
    CHECK(checked(binomialBroadcast(c, NodeId{0}), true).tcd == 7);
    CHECK(checked(binomialBroadcast(c, c.id({1, 1, 0})), false).tcd == 15);
    // Not a power of two: ⌈log2 N⌉ steps and N − 1 transfers.
    const Schedule odd = binomialBroadcast(Topology::mesh({5, 3}), NodeId{7});
    CHECK(odd.stepCount() == 4);
    CHECK(odd.size() == 14);
    checked(odd, false);
}

TEST_CASE("binomial on a torus contends where wrap-around routes overlap", "[baseline][metrics]")
{
    // 5×5 torus from (0,0), rank order x fastest. In step 4, (0,0)→(2,0) and (4,0)→(1,1) (which
    // wraps 4→0→1 in x) both use the channel (0,0)→(1,0).
    const Topology t = Topology::torus({5, 5});
    const Schedule s = binomialBroadcast(t, t.id({0, 0}));
    const Metrics m = computeMetrics(s);
    REQUIRE(m.contentions.size() == 1);
    CHECK(m.contentions[0].step == 4);
    CHECK(t.channelName(m.contentions[0].channel) == "(0,0)→(1,0)");
    CHECK(m.contentionUses == 2);
    CHECK(m.tcd == 42);
    CHECK_FALSE(validate(s).ok());
    ValidateOptions o;
    o.forbidStepContention = false;
    CHECK(validate(s, o).ok());
}

TEST_CASE("BFS broadcast: all-port, one level per step", "[baseline]")
{
    const Topology t = Topology::mesh({4, 4});
    Metrics m = checked(bfsBroadcast(t, t.id({0, 0})), true);
    CHECK(m.steps == 6);
    CHECK(m.tcd == 15);
    m = checked(bfsBroadcast(t, t.id({1, 1})), true);
    CHECK(m.steps == 4);
    CHECK(m.tcd == 15);
    const Metrics c = checked(bfsBroadcast(Topology::mesh({2, 2, 2}), NodeId{0}), true);
    CHECK(c.steps == 3);
    CHECK(c.tcd == 7);
    CHECK(c.maxSendsPerNodeStep == 3);
    const Metrics h = checked(bfsBroadcast(Topology::hypercube(6), NodeId{9}), true);
    CHECK(h.steps == 6);
    CHECK(h.tcd == 63);
    CHECK(checked(bfsBroadcast(Topology::torus({7, 7}), NodeId{24}), true).steps == 6);
}

TEST_CASE("every baseline is valid on every small topology and source", "[baseline]")
{
    for (const char* spec : {"mesh:4x4", "mesh:2x2x2", "mesh:8", "torus:4x4", "hypercube:4", "mesh:4x2x2x2"}) {
        const Topology t = Topology::parse(spec);
        for (NodeId src{}; src < t.nodeCount(); src = NodeId{src + 3}) {
            INFO(spec << " from " << t.nodeName(src));
            for (const char* name : {"binomial", "recursive-doubling", "bfs"}) {
                const Schedule s = buildSchedule(name, t, src, {});
                ValidateOptions o;
                o.forbidStepContention = false;
                CHECK(validate(s, o).ok());
                CHECK(s.size() == t.nodeCount() - 1);
            }
        }
    }
}

TEST_CASE("registry: unknown or inapplicable algorithms are explained", "[registry][bad-input]")
{
    CHECK_THROWS_WITH(findAlgorithm("fastest"),
                      Catch::Contains("unknown algorithm 'fastest'") && Catch::Contains("binomial"));
    CHECK_THROWS_WITH(buildSchedule("recursive-doubling", Topology::mesh({6, 6}), NodeId{0}, {}),
                      Catch::Contains("power of two"));
    CHECK_THROWS_WITH(buildSchedule("bfs", Topology::mesh({4, 4}), NodeId{16}, {}),
                      Catch::Contains("outside the 4×4 mesh"));
    const Schedule yx = buildSchedule("binomial", Topology::mesh({4, 4}), NodeId{0}, Params{{"order", "yx"}});
    CHECK(yx.dimensionOrder == DimensionOrder{1, 0});
    CHECK_THROWS_WITH(buildSchedule("binomial", Topology::mesh({4, 4}), NodeId{0}, Params{{"order", "xyz"}}),
                      Catch::Contains("not a permutation"));
}
