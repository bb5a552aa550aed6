// The reductions and the ring: ring all-gather, reduce-scatter and
// all-reduce on Hamiltonian cycles, the binomial reduce and gather, the checker's rules for
// partial results (schedules mutated to break them), and what each node holds against a
// brute-force replay with a std::set of contributions per node and chunk.
// Cost formulas: Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication
// Operations in MPICH", IJHPCA 19(1), 2005, §3 (ring all-gather (N−1)α + (N−1)Mβ, ring
// reduce-scatter and all-reduce, the lower bound 2(N−1)/N·M of data per node for all-reduce).
#include "cli_runner.h"

#include "topocast/algorithms/baselines.h"
#include "topocast/algorithms/collectives.h"
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/reduction.h"
#include "topocast/analysis/replay.h"
#include "topocast/analysis/source_map.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

using namespace topocast;
using topocast::testing::CliRun;
using topocast::testing::runCli;

namespace {

Schedule ringOf(const char* topology, const char* pattern)
{
    Params p;
    p.set("pattern", pattern);
    return buildSchedule("ring", Topology::parse(topology), NodeId{0}, p);
}

Schedule collectiveOf(const char* algorithm, const char* topology, const char* pattern)
{
    Params p;
    p.set("pattern", pattern);
    return buildSchedule(algorithm, Topology::parse(topology), NodeId{0}, p);
}

Schedule binomialOf(const char* topology, std::uint32_t root, const char* pattern)
{
    Params p;
    p.set("pattern", pattern);
    return buildSchedule("binomial", Topology::parse(topology), NodeId{root}, p);
}

/// The most data one node receives (Σ Transfer::size), in units of M.
double busiestReceive(const Schedule& s)
{
    std::vector<double> got(s.topology().nodeCount(), 0.0);
    for (const Transfer& t : s.transfers())
        got[t.to] += t.size;
    return *std::max_element(got.begin(), got.end());
}

bool hasFinding(const Validation& v, FindingKind kind, const std::string& text)
{
    return std::any_of(v.findings.begin(), v.findings.end(),
                       [&](const Finding& f) { return f.kind == kind && f.text.find(text) != std::string::npos; });
}

/// `s` with the first transfer of `step` sent again one step later.
Schedule repeatedOnce(Schedule s, StepNo step)
{
    Transfer again = s.transfers()[s.stepBegin(step)];
    again.step = StepNo{step + 1};
    s.add(again);
    s.finalize();
    return s;
}

/// Brute force: every node's partial of every chunk as a std::set, the step's sends read before
/// its receives; a receive adds a disjoint partial or replaces one it contains.
using PartialSets = std::vector<std::vector<std::set<std::uint32_t>>>; // [node][chunk]
std::vector<PartialSets> bruteForcePartials(const Schedule& s)
{
    const std::uint32_t n = s.topology().nodeCount();
    const std::uint64_t chunks = chunkCount(s);
    PartialSets state(n, std::vector<std::set<std::uint32_t>>(chunks));
    for (std::uint32_t v = 0; v < n; ++v)
        for (auto& c : state[v])
            c.insert(v);
    std::vector<PartialSets> byStep{state};
    for (StepNo step : steps(s)) {
        const PartialSets before = state;
        for (const Transfer& t : s.stepTransfers(step))
            for (const Block& b : s.payload(t.payload)) {
                const std::uint64_t c = chunkId(s, b);
                REQUIRE(c != kNoChunk);
                const auto& in = before[t.from][c];
                auto& mine = state[t.to][c];
                const bool disjoint =
                    std::none_of(in.begin(), in.end(), [&](std::uint32_t x) { return mine.count(x) > 0; });
                const bool contains = std::includes(in.begin(), in.end(), mine.begin(), mine.end());
                REQUIRE((disjoint || contains));
                if (disjoint)
                    mine.insert(in.begin(), in.end());
                else
                    mine = in;
            }
        byStep.push_back(state);
    }
    return byStep;
}

} // namespace

TEST_CASE("a Hamiltonian cycle visits every node once, each next to the one before, and closes", "[collectives][ring]")
{
    for (const char* name : {"torus:8", "torus:3", "torus:3x3", "torus:5x3x3", "torus:4x6", "mesh:4x4", "mesh:2x3",
                             "mesh:6x5x3", "mesh:3x4", "mesh:2", "hypercube:1", "hypercube:4", "hypercube:7"}) {
        CAPTURE(name);
        const Topology topo = Topology::parse(name);
        const std::vector<NodeId> cycle = hamiltonianCycle(topo);
        REQUIRE(cycle.size() == topo.nodeCount());
        CHECK(cycle.front() == NodeId{0});
        std::vector<NodeId> sorted = cycle;
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
        for (std::size_t i = 0; i < cycle.size(); ++i)
            CHECK(topo.distance(cycle[i], cycle[(i + 1) % cycle.size()]) == 1);
    }
}

TEST_CASE("ring is refused where there is no Hamiltonian cycle, with the reason and what has one",
          "[collectives][ring]")
{
    REQUIRE(hamiltonianCycleWhyNot(Topology::parse("mesh:3x3")));
    CHECK_THAT(*hamiltonianCycleWhyNot(Topology::parse("mesh:3x3")),
               Catch::Contains("no Hamiltonian cycle") && Catch::Contains("use a torus"));
    CHECK_THAT(*hamiltonianCycleWhyNot(Topology::parse("mesh:6")), Catch::Contains("path, not a cycle"));
    CHECK_FALSE(hamiltonianCycleWhyNot(Topology::parse("mesh:3x4")));
    CHECK_THROWS_WITH(ringOf("mesh:3x3", "allreduce"), Catch::Contains("ring needs a Hamiltonian cycle"));
    CHECK_THROWS_WITH(ringOf("torus:4x4", "broadcast"),
                      Catch::Contains("ring does not take pattern 'broadcast'") && Catch::Contains("allreduce"));
}

TEST_CASE("ring all-reduce: 2(N−1) steps, 2(N−1)/N of the message per node — the bandwidth bound — and it checks",
          "[collectives][ring]")
{
    for (const char* name :
         {"torus:8", "torus:4x4", "torus:3x3", "mesh:4x4", "mesh:2x3", "hypercube:4", "torus:3x3x3"}) {
        CAPTURE(name);
        const Schedule s = ringOf(name, "allreduce");
        const double n = s.topology().nodeCount();
        CHECK(s.pattern() == Pattern::Allreduce);
        CHECK(s.stepCount() == 2 * (n - 1));
        CHECK(s.parts == n);
        CHECK(busiestReceive(s) == Approx(2 * (n - 1) / n).epsilon(1e-12));
        const Validation v = validate(s, promisedValidateOptions(s));
        CHECK(v.violations == std::vector<std::string>{});
        const CollectiveFigures* f = s.figures->get<CollectiveFigures>();
        REQUIRE(f);
        CHECK(f->startups == 2 * (n - 1));
        CHECK(f->data == Approx(busiestReceive(s)));
        CHECK(f->data == Approx(f->lowerBoundData)); // bandwidth-optimal
        CHECK(f->lowerBoundStartups == std::ceil(std::log2(n)));
        CHECK(computeMetrics(s).tcd == s.size()); // every message one hop
    }
}

TEST_CASE("ring all-gather and reduce-scatter: N−1 steps, (N−1)·M and (N−1)/N·M per node", "[collectives][ring]")
{
    for (const char* name : {"torus:8", "torus:4x4", "mesh:2x3", "hypercube:3"}) {
        CAPTURE(name);
        const Schedule ag = ringOf(name, "allgather");
        const double n = ag.topology().nodeCount();
        CHECK(ag.stepCount() == n - 1);
        CHECK(busiestReceive(ag) == Approx(n - 1));
        CHECK(validate(ag, promisedValidateOptions(ag)).violations == std::vector<std::string>{});
        const Schedule rs = ringOf(name, "reduce-scatter");
        CHECK(rs.stepCount() == n - 1);
        CHECK(busiestReceive(rs) == Approx((n - 1) / n));
        CHECK(rs.figures->get<CollectiveFigures>()->data ==
              Approx(rs.figures->get<CollectiveFigures>()->lowerBoundData));
        CHECK(validate(rs, promisedValidateOptions(rs)).violations == std::vector<std::string>{});
    }
}

TEST_CASE("binomial reduce and gather are its broadcast reversed: the same steps and TCD, and they check",
          "[collectives][binomial]")
{
    for (const char* name : {"mesh:4x4", "mesh:3x5", "torus:7", "hypercube:4", "mesh:2x2x3"}) {
        const Topology topo = Topology::parse(name);
        for (std::uint32_t root : {0u, topo.nodeCount() / 2, topo.nodeCount() - 1}) {
            CAPTURE(name, root);
            const Schedule bcast = binomialBroadcast(topo, NodeId{root});
            const Schedule reduce = binomialOf(name, root, "reduce");
            const Schedule gather = binomialOf(name, root, "gather");
            CHECK(reduce.pattern() == Pattern::Reduce);
            CHECK(reduce.stepCount() == bcast.stepCount());
            CHECK(gather.stepCount() == bcast.stepCount());
            CHECK(computeMetrics(reduce).tcd == computeMetrics(bcast).tcd);
            CHECK(computeMetrics(gather).tcd == computeMetrics(bcast).tcd);
            CHECK(validate(reduce, promisedValidateOptions(reduce)).violations == std::vector<std::string>{});
            CHECK(validate(gather, promisedValidateOptions(gather)).violations == std::vector<std::string>{});
            // The root receives ⌈log₂N⌉ partials; the gather brings it N − 1 messages.
            double toRoot = 0;
            for (const Transfer& t : gather.transfers())
                toRoot += t.to == NodeId{root} ? t.size : 0;
            CHECK(toRoot == topo.nodeCount() - 1);
            CHECK(reduce.figures->get<CollectiveFigures>()->startups == bcast.stepCount());
        }
    }
}

TEST_CASE("the checker refuses a reduction with a dropped transfer, a repeated one, or a block that names no chunk",
          "[collectives][validate]")
{
    const Schedule good = ringOf("torus:4x4", "allreduce");
    SECTION("a dropped transfer: a contribution never reaches some node, named with its chunk")
    {
        Schedule s = good;
        s.mutableTransfers().erase(s.mutableTransfers().begin() + 5); // a reduce-scatter step-1 transfer
        s.finalize();
        const Validation v = validate(s, promisedValidateOptions(s));
        CHECK_FALSE(v.ok());
        CHECK(hasFinding(v, FindingKind::NeverReached, "do not end with their complete allreduce result"));
        CHECK(hasFinding(v, FindingKind::NeverReached, "never reaches it"));
    }
    SECTION("a repeated transfer in the reduce-scatter half: a contribution combined twice")
    {
        const Validation v = validate(repeatedOnce(good, StepNo{2}), promisedValidateOptions(good));
        CHECK(hasFinding(v, FindingKind::InformedTwice, "which would be combined twice"));
    }
    SECTION("the same partial received twice in the all-gather half")
    {
        const Validation v = validate(repeatedOnce(good, StepNo{good.stepCount()}), promisedValidateOptions(good));
        CHECK(hasFinding(v, FindingKind::InformedTwice, "again: the same partial result it holds"));
    }
    SECTION("a block of another pattern")
    {
        Schedule s = good;
        const Block wrong{3, Block::kAll, 0};
        s.mutableTransfers()[0].payload = s.addPayload(std::span<const Block>(&wrong, 1));
        s.finalize();
        CHECK(hasFinding(validate(s), FindingKind::WrongData, "names no chunk of this allreduce"));
    }
    SECTION("a binomial reduce with its last transfer dropped: the root ends short")
    {
        Schedule s = binomialOf("mesh:4x4", 5, "reduce");
        s.mutableTransfers().pop_back();
        s.finalize();
        const Validation v = validate(s, promisedValidateOptions(s));
        CHECK(hasFinding(v, FindingKind::NeverReached, "(1,1) ends chunk 0 with 8 of 16 contributions"));
    }
}

TEST_CASE("what each node holds of an all-reduce and a reduce-scatter matches a brute-force replay at every step",
          "[collectives][holdings]")
{
    struct Case {
        const char* algorithm;
        const char* name;
        const char* pattern;
    };
    for (const auto& [algorithm, name, pattern] : std::vector<Case>{{"ring", "torus:5", "allreduce"},
                                                                    {"ring", "mesh:2x3", "allreduce"},
                                                                    {"ring", "hypercube:3", "reduce-scatter"},
                                                                    {"ring", "torus:3x3", "reduce-scatter"},
                                                                    {"bucket", "torus:3x4", "allreduce"},
                                                                    {"bucket", "mesh:3x3", "reduce-scatter"},
                                                                    {"rabenseifner", "hypercube:3", "allreduce"},
                                                                    {"rabenseifner", "mesh:4x2", "allreduce"},
                                                                    {"binomial", "mesh:3x3", "reduce"}}) {
        CAPTURE(algorithm, name, pattern);
        const Schedule s = collectiveOf(algorithm, name, pattern);
        const Holdings h(s);
        if (!combines(s.pattern()))
            continue; // all-gather: test_holdings.cpp's brute force
        const std::vector<PartialSets> truth = bruteForcePartials(s);
        const std::uint32_t n = s.topology().nodeCount();
        for (std::uint32_t k = 0; k <= s.stepCount(); ++k)
            for (NodeId v{}; v < n; ++v) {
                const std::vector<HeldBlock> held = h.blocksAt(s, v, StepNo{k});
                REQUIRE(held.size() == chunkCount(s));
                std::uint64_t total = 0, required = 0;
                for (const HeldBlock& b : held) {
                    const auto& want = truth[k][v][b.chunk];
                    std::vector<NodeId> expect;
                    for (std::uint32_t x : want)
                        expect.push_back(NodeId{x});
                    CHECK(b.sources == expect);
                    total += want.size();
                    const auto req = requiredChunks(s, v);
                    if (std::find(req.begin(), req.end(), b.chunk) != req.end())
                        required += want.size();
                }
                CHECK(h.countAt(v, StepNo{k}) == total);
                CHECK(h.requiredHeldAt(v, StepNo{k}) == required);
            }
        for (NodeId v{}; v < n; ++v)
            CHECK(h.finalShareAt(v, StepNo{s.stepCount()}) == 1.0);
    }
}

TEST_CASE("bucket: rings along each dimension, 2·Σ(k_d − 1) steps for an all-reduce, the ring's 2(N−1)/N per node, "
          "no two transfers of a step on one channel",
          "[collectives][bucket]")
{
    for (const char* name :
         {"torus:4x4", "torus:3x5", "mesh:4x4", "mesh:3x5", "mesh:2x3x3", "hypercube:4", "torus:3x3x3", "mesh:7"}) {
        CAPTURE(name);
        const Topology topo = Topology::parse(name);
        const double n = topo.nodeCount();
        std::uint32_t rings = 0;
        for (int d = 0; d < topo.dims(); ++d)
            rings += static_cast<std::uint32_t>(topo.side(d) - 1);
        const Schedule ar = collectiveOf("bucket", name, "allreduce");
        CHECK(ar.stepCount() == 2 * rings);
        CHECK(busiestReceive(ar) == Approx(2 * (n - 1) / n).epsilon(1e-12));
        CHECK(ar.contentionFree);
        CHECK(validate(ar, promisedValidateOptions(ar)).violations == std::vector<std::string>{});
        CHECK(ar.figures->get<CollectiveFigures>()->startups == 2 * rings);
        const Schedule ag = collectiveOf("bucket", name, "allgather");
        CHECK(ag.stepCount() == rings);
        CHECK(busiestReceive(ag) == Approx(n - 1));
        CHECK(validate(ag, promisedValidateOptions(ag)).violations == std::vector<std::string>{});
        const Schedule rs = collectiveOf("bucket", name, "reduce-scatter");
        CHECK(rs.stepCount() == rings);
        CHECK(validate(rs, promisedValidateOptions(rs)).violations == std::vector<std::string>{});
        // Mesh lines are folded rings: at most two hops a message.
        int longest = 0;
        for (const Transfer& t : ar.transfers())
            longest = std::max(longest, ar.hops(t));
        CHECK(longest == (topo.isTorus() || topo.isHypercube() || topo.nodeCount() <= 2 ? 1 : 2));
    }
}

TEST_CASE(
    "rabenseifner: 2·log₂N steps and 2(N−1)/N per node, both lower bounds, and refused where a side is not a power "
    "of two",
    "[collectives][rabenseifner]")
{
    for (int d = 1; d <= 7; ++d) {
        CAPTURE(d);
        const std::string name = "hypercube:" + std::to_string(d);
        const Schedule ar = collectiveOf("rabenseifner", name.c_str(), "allreduce");
        const double n = ar.topology().nodeCount();
        CHECK(ar.stepCount() == 2u * static_cast<std::uint32_t>(d));
        CHECK(busiestReceive(ar) == Approx(2 * (n - 1) / n).epsilon(1e-12));
        CHECK(validate(ar, promisedValidateOptions(ar)).violations == std::vector<std::string>{});
        const CollectiveFigures& f = *ar.figures->get<CollectiveFigures>();
        CHECK(f.startups == 2 * f.lowerBoundStartups); // two halves, each log₂N
        CHECK(f.data == Approx(f.lowerBoundData));
        const Schedule rs = collectiveOf("rabenseifner", name.c_str(), "reduce-scatter");
        CHECK(rs.stepCount() == static_cast<std::uint32_t>(d));
        CHECK(rs.figures->get<CollectiveFigures>()->startups ==
              rs.figures->get<CollectiveFigures>()->lowerBoundStartups);
        CHECK(validate(rs, promisedValidateOptions(rs)).violations == std::vector<std::string>{});
    }
    // By embedding on a mesh: exchanges of one step may share channels, so the schedule says so.
    const Schedule mesh = collectiveOf("rabenseifner", "mesh:4x4", "allreduce");
    CHECK_FALSE(mesh.contentionFree);
    CHECK(mesh.stepCount() == 8);
    CHECK(validate(mesh, promisedValidateOptions(mesh)).violations == std::vector<std::string>{});
    CHECK_THROWS_WITH(collectiveOf("rabenseifner", "torus:6x6", "allreduce"), Catch::Contains("power of two"));
    CHECK_THROWS_WITH(collectiveOf("rabenseifner", "hypercube:3", "allgather"),
                      Catch::Contains("rabenseifner does not take pattern 'allgather'"));
}

TEST_CASE("all-reduce on the 4-cube: Rabenseifner 9.875, bucket the same, ring 31.875 (α = β = M = 1)",
          "[collectives][compare]")
{
    // 2·log₂16 + 2·15/16 = 9.875; the ring 2·15 + 2·15/16 = 31.875; bucket on a hypercube is rings of two.
    CHECK(collectiveOf("rabenseifner", "hypercube:4", "allreduce").figures->get<CollectiveFigures>()->time == 9.875);
    CHECK(collectiveOf("bucket", "hypercube:4", "allreduce").figures->get<CollectiveFigures>()->time == 9.875);
    CHECK(collectiveOf("ring", "hypercube:4", "allreduce").figures->get<CollectiveFigures>()->time == 31.875);
    // The 4×4 torus: bucket 2·(3+3) + 1.875 = 13.875 against the ring's 31.875.
    CHECK(collectiveOf("bucket", "torus:4x4", "allreduce").figures->get<CollectiveFigures>()->time == 13.875);
}

TEST_CASE("partial results: disjoint sets add, a containing set replaces, the same is repeated, overlap is named",
          "[collectives][holdings]")
{
    ContributionSets sets(8);
    const auto a = sets.merge(ContributionSets::single(NodeId{1}), ContributionSets::single(NodeId{2}));
    CHECK(a.kind == ContributionSets::Merge::Added);
    CHECK(sets.members(a.result) == std::vector<NodeId>{NodeId{1}, NodeId{2}});
    const auto b = sets.merge(ContributionSets::single(NodeId{5}), a.result);
    CHECK(sets.members(b.result) == std::vector<NodeId>{NodeId{1}, NodeId{2}, NodeId{5}});
    CHECK(sets.firstMissing(b.result) == NodeId{0});
    const auto replaced = sets.merge(a.result, b.result);
    CHECK(replaced.kind == ContributionSets::Merge::Replaced);
    CHECK(replaced.result == b.result);
    CHECK(sets.merge(b.result, b.result).kind == ContributionSets::Merge::Repeated);
    const auto overlap = sets.merge(b.result, a.result); // {1,2} into {1,2,5}: 1 and 2 twice
    CHECK(overlap.kind == ContributionSets::Merge::Overlap);
    CHECK(overlap.witness == NodeId{1});
    // Runs: [0,3) ∪ [3,8) is every node in one run.
    auto full = ContributionSets::single(NodeId{0});
    for (std::uint32_t v = 1; v < 8; ++v)
        full = sets.merge(full, ContributionSets::single(NodeId{v})).result;
    CHECK(sets.isFull(full));
    CHECK(sets.firstMissing(full) == NodeId{8});
}

TEST_CASE("a reduction schedule file reads back: partial results are written with origin -1", "[collectives][json]")
{
    const Schedule s = ringOf("torus:3x3", "allreduce");
    std::ostringstream out;
    writeScheduleJson(out, s, computeMetrics(s));
    const nlohmann::json doc = nlohmann::json::parse(out.str());
    CHECK(doc["pattern"] == "allreduce");
    CHECK(doc["payloads"][1][0] == nlohmann::json::array({-1, -1, 0}));
    const Schedule back = scheduleFromJson(doc);
    CHECK(back.pattern() == Pattern::Allreduce);
    CHECK(back.parts == 9);
    CHECK(back.size() == s.size());
    CHECK(validate(back, promisedValidateOptions(back)).violations == std::vector<std::string>{});
}

TEST_CASE("topocast-cli: the new patterns, a source refused for an all-pattern, buffers with contributions",
          "[collectives][cli]")
{
    const CliRun ok = runCli({"schedule", "--topology", "torus:4x4", "--algorithm", "ring", "--pattern", "allreduce"});
    CHECK(ok.status == 0);
    const CliRun withSource = runCli(
        {"schedule", "--topology", "torus:4x4", "--algorithm", "ring", "--pattern", "allreduce", "--source", "1,1"});
    CHECK(withSource.status != 0);
    CHECK_THAT(withSource.err, Catch::Contains("an allreduce has no source") && Catch::Contains("leave --source out"));
    const CliRun ringDefault = runCli({"schedule", "--topology", "torus:8", "--algorithm", "ring", "--source", "3"});
    CHECK_THAT(ringDefault.err, Catch::Contains("has no source"));
    const CliRun noCycle = runCli({"schedule", "--topology", "mesh:3x3", "--algorithm", "ring"});
    CHECK(noCycle.status != 0);
    CHECK_THAT(noCycle.err, Catch::Contains("Hamiltonian cycle"));
    const CliRun unknown = runCli({"schedule", "--topology", "torus:8", "--algorithm", "ring", "--pattern", "allsum"});
    CHECK(unknown.status != 0);
    CHECK_THAT(unknown.err, Catch::Contains("allsum") && Catch::Contains("reduce-scatter"));
    const CliRun reduce = runCli(
        {"schedule", "--topology", "mesh:4x4", "--algorithm", "binomial", "--pattern", "reduce", "--source", "1,1"});
    CHECK(reduce.status == 0);

    const CliRun buffers = runCli(
        {"buffers", "--topology", "torus:4", "--algorithm", "ring", "--pattern", "allreduce", "--step", "3", "--json"});
    REQUIRE(buffers.status == 0);
    const nlohmann::json doc = nlohmann::json::parse(buffers.out);
    CHECK(doc["pattern"] == "allreduce");
    CHECK(doc["chunks"] == 4);
    // After the reduce-scatter half (3 steps on 4 nodes), node h_j holds chunk j complete.
    const auto& node1 = doc["nodes"][1];
    // Sources as nodes are written everywhere (coordinates: [x] on a 1-D ring), and no source for an all-reduce.
    CHECK(node1["blocks"][1]["sources"] == nlohmann::json::parse("[[0],[1],[2],[3]]"));
    CHECK(doc["source"].is_null());
    CHECK(node1["required"] == 16);
    CHECK(node1["required_held"] == 1 + 2 + 3 + 4); // chunk j holds 4 − ((j − 1) mod 4) contributions
}

TEST_CASE("a hypercube graph's reduce is its broadcast run backwards, its gather its scatter: same steps and TCD, and "
          "they check",
          "[collectives][hypercube]")
{
    for (const char* algorithm : {"sbt", "nesbt", "hp", "tcbt"}) {
        CAPTURE(algorithm);
        const Topology cube = Topology::parse("hypercube:4");
        const Params fwd{{"pattern", "broadcast"}, {"ports", "n"}}, back{{"pattern", "reduce"}, {"ports", "n"}};
        const Schedule bcast = buildSchedule(algorithm, cube, NodeId{5}, fwd);
        const Schedule reduce = buildSchedule(algorithm, cube, NodeId{5}, back);
        CHECK(reduce.pattern() == Pattern::Reduce);
        CHECK(reduce.source() == NodeId{5});
        CHECK(reduce.stepCount() == bcast.stepCount());
        CHECK(computeMetrics(reduce).tcd == computeMetrics(bcast).tcd);
        CHECK(validate(reduce, promisedValidateOptions(reduce)).violations == std::vector<std::string>{});
    }
    const Topology cube = Topology::parse("hypercube:4");
    const Schedule gather = buildSchedule("sbnt", cube, NodeId{0}, {{"pattern", "gather"}});
    CHECK(gather.pattern() == Pattern::Gather);
    CHECK(validate(gather, promisedValidateOptions(gather)).violations == std::vector<std::string>{});
    const Holdings h(gather);
    CHECK(h.requiredHeldAt(NodeId{0}, StepNo{gather.stepCount()}) == 15);
    CHECK(h.requiredCount(NodeId{3}) == 0);
    CHECK_THROWS_WITH(buildSchedule("sbnt", cube, NodeId{0}, {{"pattern", "reduce"}}),
                      Catch::Contains("sbnt does not take pattern 'reduce'"));
}

TEST_CASE(
    "topocast-cli compare ranks the all-reduces by their time on the network model, α–β beside it, ties sharing a rank",
    "[collectives][cli]")
{
    const CliRun r = runCli({"compare", "-t", "hypercube:4", "--pattern", "allreduce", "--tau", "10", "--tc", "1",
                             "--message", "16", "--json"});
    REQUIRE(r.status == 0);
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    CHECK(doc["format"] == "topocast-compare-collectives");
    REQUIRE(doc["rows"].size() == 4);
    // recursive-doubling: 10·4 + 4·16 = 104; bucket and rabenseifner: 10·8 + 1.875·16 = 110, a
    // tie; ring: 10·30 + 30 = 330.
    CHECK(doc["rows"][0]["algorithm"] == "recursive-doubling");
    CHECK(doc["rows"][0]["time"]["value"] == 104.0);
    CHECK(doc["rows"][0]["rank"] == 1);
    CHECK(doc["rows"][1]["time"]["value"] == 110.0);
    CHECK(doc["rows"][1]["rank"] == 2);
    CHECK(doc["rows"][2]["rank"] == 2);
    CHECK(doc["rows"][3]["algorithm"] == "ring");
    CHECK(doc["rows"][3]["rank"] == 4);
    CHECK(doc["rows"][3]["time"]["value"] == 330.0);
    CHECK(doc["rows"][3]["lower_bound"]["value"] == 10.0 * 4 + 1.875 * 16);
    // Ranked by the network model's time (at 128 B, recursive-doubling's 4 one-hop exchanges
    // beat the 8 of bucket and rabenseifner, which send the same messages over one hop each: a
    // tie there too), α–β's rank beside it.
    CHECK(doc["ranked_by"].get<std::string>().starts_with("loggp"));
    CHECK(doc["size"]["value"] == 16 * 8);
    CHECK(doc["rows"][1]["loggp_time"]["value"] == doc["rows"][2]["loggp_time"]["value"]);
    CHECK(doc["rows"][0]["loggp_time"]["value"].get<double>() < doc["rows"][1]["loggp_time"]["value"].get<double>());
    CHECK(doc["rows"][3]["loggp_time"]["value"].get<double>() > doc["rows"][1]["loggp_time"]["value"].get<double>());
    CHECK(doc["rows"][3]["alpha_beta_rank"] == 4);
    // On the 8×8 torus with 1 MiB, Rabenseifner's 4-hop exchanges still win without contention
    // (a hop costs 10 ns), and every time is above the bound.
    const CliRun torus = runCli({"compare", "-t", "torus:8x8", "--pattern", "allreduce", "--size", "1MiB", "--json"});
    REQUIRE(torus.status == 0);
    const nlohmann::json t = nlohmann::json::parse(torus.out);
    CHECK(t["rows"][0]["algorithm"] == "rabenseifner");
    CHECK(t["rows"][0]["max_hops"] == 4);
    for (const auto& row : t["rows"])
        CHECK(row["loggp_time"]["value"].get<double>() > t["loggp_bound"]["value"].get<double>());
    // Where ring has no cycle it is listed with the reason, not ranked.
    const CliRun mesh = runCli({"compare", "-t", "mesh:3x3", "--pattern", "reduce-scatter"});
    CHECK(mesh.status == 0);
    CHECK_THAT(mesh.out, Catch::Contains("not applicable: ring") && Catch::Contains("1     bucket"));
}

TEST_CASE("source maps vary the root of a reduce or gather, and an all-reduce has none to vary",
          "[collectives][source-map]")
{
    const Topology mesh = Topology::parse("mesh:4x4");
    CHECK(sourceMapMetrics("ring", {{"pattern", "allreduce"}}).empty());
    CHECK(sourceMapMetrics("bucket", {{"pattern", "reduce-scatter"}}).empty());
    CHECK_THROWS_WITH(computeSourceMap("ring", Topology::parse("torus:4x4"), {}, SourceMapMetric::Tcd),
                      Catch::Contains("has no source map: every node is a source"));
    // The binomial reduce from every root: its TCD is the broadcast's from the same root (reversed).
    const auto reduce = computeSourceMap("binomial", mesh, {{"pattern", "reduce"}}, SourceMapMetric::Tcd);
    const auto bcast = computeSourceMap("binomial", mesh, {}, SourceMapMetric::Tcd);
    REQUIRE(reduce);
    REQUIRE(bcast);
    CHECK(reduce->values == bcast->values);
}

TEST_CASE("the byte replay sums real bytes: every combining algorithm (and gather) delivers the sum of all "
          "contributions, and a "
          "corrupted, dropped or repeated message is named",
          "[collectives][replay]")
{
    SECTION("a partial result is the word-wise sum of the 48-bit contributions it combines")
    {
        ContributionSets sets(4);
        const auto two = sets.merge(ContributionSets::single(NodeId{1}), ContributionSets::single(NodeId{3})).result;
        const Block chunk{Block::kAll, Block::kAll, 2};
        std::vector<std::uint8_t> got(24), a(24), b(24);
        fillPartial(sets, two, chunk, got);
        fillBlock(Block{1, Block::kAll, 2}, a); // node 1's contribution to chunk 2 is block {1, all, 2}
        fillBlock(Block{3, Block::kAll, 2}, b);
        for (std::size_t w = 0; w < 3; ++w) {
            std::uint64_t x = 0, y = 0, sum = 0;
            std::memcpy(&x, a.data() + 8 * w, 8);
            std::memcpy(&y, b.data() + 8 * w, 8);
            std::memcpy(&sum, got.data() + 8 * w, 8);
            const std::uint64_t low48 = (std::uint64_t{1} << 48) - 1;
            CHECK(sum == (x & low48) + (y & low48));
            CHECK(sum < (std::uint64_t{1} << 49)); // no carry out: sums of up to 65,535 stay exact
        }
        // Blocks that are not whole words are refused by name.
        CHECK_THROWS_WITH(requireWordBlocks(12), Catch::Contains("multiple of 8 (got 12)"));
        ReplayOptions odd;
        odd.bytesPerBlock = 12;
        CHECK_THROWS_WITH(replaySchedule(ringOf("torus:4", "allreduce"), odd), Catch::Contains("multiple of 8"));
    }
    struct Case {
        const char* algorithm;
        const char* topology;
        const char* pattern;
        std::uint32_t root;
    };
    for (const auto& [algorithm, topology, pattern, root] :
         std::vector<Case>{{"ring", "torus:5", "allreduce", 0},
                           {"ring", "mesh:2x3", "reduce-scatter", 0},
                           {"ring", "hypercube:3", "allreduce", 0},
                           {"bucket", "torus:3x4", "allreduce", 0},
                           {"bucket", "mesh:2x2x3", "reduce-scatter", 0},
                           {"rabenseifner", "hypercube:4", "allreduce", 0},
                           {"rabenseifner", "mesh:4x2", "reduce-scatter", 0},
                           {"binomial", "mesh:3x3", "reduce", 4},
                           {"sbt", "hypercube:3", "reduce", 5},
                           {"nesbt", "hypercube:3", "reduce", 2},
                           {"sbnt", "hypercube:3", "gather", 6},
                           {"binomial", "torus:3x3", "gather", 1}}) {
        CAPTURE(algorithm, topology, pattern, root);
        Params p;
        p.set("pattern", pattern);
        const Schedule s = buildSchedule(algorithm, Topology::parse(topology), NodeId{root}, p);
        REQUIRE(validate(s, promisedValidateOptions(s)).ok());
        ReplayOptions ro;
        ro.bytesPerBlock = 24;
        const ReplayReport r = replaySchedule(s, ro);
        CHECK(r.ok());
        CHECK(r.problems.empty());
        CHECK(r.messages == s.size());
        std::uint64_t blocks = 0;
        for (const Transfer& t : s.transfers())
            blocks += s.payload(t.payload).size();
        CHECK(r.blocksChecked == blocks);
    }
    const Schedule good = ringOf("torus:4x4", "allreduce");
    ReplayOptions ro;
    ro.bytesPerBlock = 16;
    SECTION("a byte flipped on the wire: the receiver names the chunk and the sum it expected, and the damage "
            "spreads to the final results")
    {
        ro.maxProblems = 1000;
        ro.onWire = [](std::size_t transfer, std::span<std::uint8_t> message) {
            if (transfer == 20)
                message[3] ^= 0x40;
        };
        const ReplayReport r = replaySchedule(good, ro);
        REQUIRE_FALSE(r.ok());
        const Transfer& t = good.transfers()[20];
        CHECK_THAT(r.problems.front(), Catch::Contains("step " + std::to_string(t.step) + ": transfer 20 reaches " +
                                                       good.topology().nodeName(t.to) + ": chunk") &&
                                           Catch::Contains("differs from byte 3 of the sum of 2 of 16 contributions"));
        // The damaged partial is passed on and summed further: some node ends with a wrong result.
        CHECK(std::any_of(r.problems.begin(), r.problems.end(), [](const std::string& p) {
            return p.find("ends with chunk") != std::string::npos && p.find("wrong from byte 3") != std::string::npos &&
                   p.find("not the sum of all 16 contributions") != std::string::npos;
        }));
    }
    SECTION("a dropped transfer: its receiver's chunk is short of contributions at the end")
    {
        Schedule s = good;
        s.mutableTransfers().erase(s.mutableTransfers().begin() + 5);
        s.finalize();
        const ReplayReport r = replaySchedule(s, ro);
        REQUIRE_FALSE(r.ok());
        CHECK_THAT(r.problems.front(), Catch::Contains("not the sum of all 16 contributions"));
    }
    SECTION("a repeated transfer in the reduce-scatter half would count a contribution twice")
    {
        const ReplayReport r = replaySchedule(repeatedOnce(good, StepNo{2}), ro);
        REQUIRE_FALSE(r.ok());
        CHECK_THAT(r.problems.front(), Catch::Contains("contribution twice (left out)"));
    }
}

TEST_CASE("compare lists every hypercube graph for gather and reduce, with the figures of what it reverses",
          "[cli][compare]")
{
    for (const char* pattern : {"gather", "reduce"}) {
        const CliRun r = runCli({"compare", "-t", "hypercube:4", "--pattern", pattern, "--json"});
        REQUIRE(r.status == 0);
        const nlohmann::json doc = nlohmann::json::parse(r.out);
        std::set<std::string> names;
        for (const auto& row : doc["rows"]) {
            names.insert(row["algorithm"].get<std::string>());
            // No row beats the α–β lower bound, none beats the LogGP bound.
            CHECK(row["ratio"].get<double>() >= 1.0 - 1e-12);
            CHECK(row["loggp_above_bound"]["value"].get<double>() >= 0.0);
            CHECK(row["alpha_beta_from"] == (row["algorithm"] == "binomial" ? "collective" : "hypercube-graph"));
        }
        INFO(pattern << ": " << r.out);
        for (const char* graph : {"sbt", "tcbt", "nrsbt", "nesbt", "hp", "binomial"})
            CHECK(names.count(graph) == 1);
        CHECK(doc["rows"].size() >= 6);
    }
    // SBT's gather is its scatter reversed: N − 1 start-ups and N − 1 elements in sequence one-port.
    const nlohmann::json g =
        nlohmann::json::parse(runCli({"compare", "-t", "hypercube:4", "--pattern", "gather", "--json"}).out);
    for (const auto& row : g["rows"])
        if (row["algorithm"] == "sbt") {
            CHECK(row["startups"] == 15);
            CHECK(row["data_per_node"] == nlohmann::json{{"value", 15}, {"unit", "M"}});
        }
}
