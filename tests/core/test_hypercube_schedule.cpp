// Step-by-step schedules of the hypercube algorithms: Johnsson & Ho §4–§7. Where the paper gives only the
// cost, the cycle-by-cycle schedules and their vectors are ours, checked by simulation.

#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/hypercube.h"
#include "topocast/algorithms/hypercube_schedule.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/validate.h"
#include "topocast/drawing/layout.h"
#include "topocast/io/figures_json.h"
#include "topocast/model/error.h"

#include "hypercube_shorthand.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <set>

using namespace topocast;
using namespace topocast::hypercube;

namespace {

RawSchedule gen(const std::string& a, Pattern p, Ports ports, int n, long long M, long long B, NodeId s = NodeId{0},
                const std::string& variant = "")
{
    return generateSchedule(ScheduleRequest{a, p, ports, {n, M, B, 1, 1}, s, variant});
}

std::vector<Rational> perCycle(const RawSchedule& r)
{
    return countCost(r, 1).perCycle;
}

std::vector<Rational> times(std::initializer_list<Rational> v, Rational m)
{
    std::vector<Rational> out;
    for (Rational x : v)
        out.push_back(x * m);
    return out;
}

/// Rough number of block moves of a schedule (to keep the default test run fast).
double estimateMoves(const std::string& a, Pattern pat, Ports ports, int n)
{
    const double N = std::ldexp(1.0, n);
    const double trees =
        (ports == NP && a != "sbt" && a != "tcbt" && a != "sbnt") || a == "nrsbt" || a == "nesbt" || a == "sbntc" ? n
                                                                                                                  : 1;
    const double depth = a == "hp" ? N * N / 2 : trees * n * N / 2;
    switch (pat) {
    case Pattern::Broadcast:
        return N * 4;
    case Pattern::Scatter:
        return depth;
    case Pattern::Allgather:
        return N * N * trees;
    case Pattern::Alltoall:
        return N * depth;
    default:
        break; // the hypercube graphs serve these four
    }
    return 0;
}

void checkEverything(bool slow)
{
    for (const std::string& a : algorithmNames())
        for (Pattern pat : servedPatterns(a))
            for (Ports ports : servedPorts(a, pat)) {
                const bool a2a = pat == Ag || pat == Aa;
                for (int n = (a == "tcbt" ? 2 : 1); n <= (a2a ? 6 : 10); ++n) {
                    if ((estimateMoves(a, pat, ports, n) > 100000) != slow)
                        continue;
                    const NodeId s{(n >= 3) ? 5u : 0u};
                    const long long M = pat == Bc ? 4 : 2, B = 2;
                    INFO(a << " " << toString(pat) << " " << portsName(ports) << " n = " << n);
                    const ScheduleRequest rq{a, pat, ports, {n, M, B, 1, 1}, s, ""};
                    const RawSchedule raw = generateSchedule(rq);
                    const auto mine = verifySchedule(raw);
                    CHECK(mine.empty());
                    if (!mine.empty())
                        FAIL_CHECK(mine.front());
                    const Schedule sch = hypercubeSchedule(raw, rq, Topology::hypercube(n));
                    const Validation v = validate(sch);
                    CHECK(v.ok());
                    if (!v.ok())
                        FAIL_CHECK(v.violations.front());
                }
            }
}

} // namespace

TEST_CASE("every graph, pattern and port model: both checkers pass, n = 1..10, all-to-all n ≤ 6 (spec §11, "
          "small cases)",
          "[hypercube]")
{
    checkEverything(false);
}

TEST_CASE("every graph, pattern and port model: both checkers pass, n = 1..10, all-to-all n ≤ 6 (spec §11, "
          "large cases)",
          "[hypercube][slow]")
{
    checkEverything(true);
}

TEST_CASE("schedule vs formula: counted start-ups and transfer equal the closed forms, n = 2..8 (spec §4.4, "
          "§5.3, §6.3, §7.3)",
          "[hypercube]")
{
    const std::pair<long long, long long> sizes[] = {{12, 3}, {16, 4}, {8, 8}, {24, 2}, {6, 1}};
    int compared = 0;
    for (const std::string& a : algorithmNames())
        for (Pattern pat : servedPatterns(a))
            for (Ports ports : servedPorts(a, pat))
                for (int n = 2; n <= ((pat == Ag || pat == Aa) ? 5 : 8); ++n)
                    for (auto [M, B] : sizes) {
                        INFO(a << " " << toString(pat) << " " << portsName(ports) << " n=" << n << " M=" << M
                               << " B=" << B);
                        const CostParams cp{n, M, B, 1, 1};
                        const ClosedForm f = closedForm(a, pat, ports, cp);
                        if (!f.available)
                            continue;
                        const RawSchedule r = gen(a, pat, ports, n, M, B, NodeId{n >= 3 ? 3 : 0});
                        const CountedCost c = countCost(r, B);
                        if (!f.exact) {
                            // TCBT personalized rows are "≈" in Table 7: transfer matches, start-ups
                            // are the exact per-cycle count (one-port: 2n−2 cycles, §5.2).
                            CHECK(c.transfer == f.transfer);
                            if (ports == One)
                                CHECK(c.cycles == static_cast<std::uint32_t>(2 * n - 2));
                            continue;
                        }
                        // nESBT n-port broadcast: Table 5 assumes nB | M (§4.4, §10 item 26).
                        if (a == "nesbt" && pat == Bc && ports == NP && M % (n * B) != 0)
                            continue;
                        // TCBT one-port broadcast for n = 2: 2n−5 < 0, an idle cycle (§11).
                        if (a == "tcbt" && pat == Bc && n == 2)
                            continue;
                        CHECK(c.startups == f.startups);
                        CHECK(c.transfer == f.transfer);
                        ++compared;
                    }
    CHECK(compared > 1000);
}

TEST_CASE("broadcast cycle counts: TCBT, nESBT, nRSBT, BRG, SBT (spec §4.2, §12.4 V17, §12.6 V31)", "[hypercube]")
{
    CHECK(gen("tcbt", Bc, One, 4, 1, 1).cycles == 6);
    CHECK(gen("tcbt", Bc, One, 4, 2, 1).cycles == 9);
    CHECK(gen("tcbt", Bc, SR, 4, 2, 1).cycles == 8);
    CHECK(gen("nesbt", Bc, One, 3, 7, 1).cycles == 10);
    CHECK(gen("nesbt", Bc, One, 5, 1, 1).cycles == 6);
    CHECK(gen("nesbt", Bc, NP, 4, 12, 1).cycles == 7); // 3 rounds
    for (int n = 2; n <= 7; ++n) {
        const long long N = 1LL << n;
        CHECK(gen("hp", Bc, One, n, 5, 1).cycles == static_cast<std::uint32_t>(2 * 5 + N - 3));
        CHECK(gen("hp", Bc, SR, n, 5, 1).cycles == static_cast<std::uint32_t>(5 + N - 2));
        CHECK(gen("sbt", Bc, NP, n, 5, 1).cycles == static_cast<std::uint32_t>(5 + n - 1));
        CHECK(gen("nrsbt", Bc, One, n, 5, 1).cycles == static_cast<std::uint32_t>(2 * n - 1));
        CHECK(gen("nrsbt", Bc, NP, n, 5, 1).cycles == static_cast<std::uint32_t>(n));
        if (n >= 3)
            CHECK(gen("tcbt", Bc, One, n, 5, 1).cycles == static_cast<std::uint32_t>(3 * 5 + 2 * n - 5));
        // one-port label schedules: every link of cycle t is in dimension t mod n
        for (const auto& r : {gen("nesbt", Bc, One, n, 9, 1, NodeId{3}), gen("nrsbt", Bc, One, n, 9, 1, NodeId{3})})
            for (const RawTransfer& t : r.transfers)
                CHECK(std::countr_zero(t.from ^ t.to) == static_cast<int>(t.cycle % static_cast<std::uint32_t>(n)));
    }
}

TEST_CASE("nRSBT one-port broadcast: largest message per cycle (spec §4.2, §12.5 V22)", "[hypercube]")
{
    CHECK(perCycle(gen("nrsbt", Bc, One, 3, 3, 1)) == times({1, 2, 3, 2, 1}, Rational(1, 3) * 3));
    CHECK(perCycle(gen("nrsbt", Bc, One, 4, 4, 1)) == std::vector<Rational>{1, 2, 3, 4, 3, 2, 1});
}

TEST_CASE("nRSBT one-port personalized: largest message per cycle (spec §5.2, §12.5 V23, §10 item 10)", "[hypercube]")
{
    CHECK(perCycle(gen("nrsbt", Sc, One, 3, 3, 1)) == std::vector<Rational>{4, 6, 7, 3, 1});
    CHECK(perCycle(gen("nrsbt", Sc, One, 4, 4, 1)) == std::vector<Rational>{8, 12, 14, 15, 7, 3, 1});
    CHECK(perCycle(gen("nrsbt", Sc, One, 5, 5, 1)) == std::vector<Rational>{16, 24, 28, 30, 31, 15, 7, 3, 1});
}

TEST_CASE("nESBT n-port broadcast: first arrival of tree j at cycle |c|−1 or |c|+1 (spec §4.2, §10 item 7)",
          "[hypercube]")
{
    for (int n = 2; n <= 6; ++n) {
        const RawSchedule r = gen("nesbt", Bc, NP, n, 2LL * n, 1, NodeId{0});
        std::map<std::pair<NodeId, std::uint32_t>, std::uint32_t> first; // (node, tree) → cycle
        for (const RawTransfer& t : r.transfers)
            for (const Block& b : t.blocks) {
                const auto key = std::pair{t.to, b.part % static_cast<std::uint32_t>(n)};
                if (!first.count(key))
                    first[key] = t.cycle;
            }
        for (NodeId c{1}; c < (1u << n); ++c)
            for (int j = 0; j < n; ++j) {
                const int pc = std::popcount(c.value());
                CHECK(static_cast<int>(first[{c, static_cast<std::uint32_t>(j)}]) == ((c >> j & 1u) ? pc - 1 : pc + 1));
            }
    }
}

TEST_CASE("SBT one-port personalized: Gray-code postorder and subtree schedules (spec §5.2, §12.8 V40–V41)",
          "[hypercube]")
{
    const RawSchedule r = gen("sbt", Sc, One, 3, 1, 1);
    std::vector<NodeId> dest;
    std::vector<int> ports;
    for (const RawTransfer& t : r.transfers)
        if (t.from == 0) {
            REQUIRE(t.blocks.size() == 1);
            dest.push_back(NodeId{t.blocks[0].dest});
            ports.push_back(std::countr_zero(t.to.value()));
        }
    CHECK(dest == std::vector<NodeId>{NodeId{7}, NodeId{6}, NodeId{5}, NodeId{4}, NodeId{3}, NodeId{2}, NodeId{1}});
    CHECK(ports == std::vector<int>{0, 1, 0, 2, 0, 1, 0});
    CHECK(r.cycles == 7);
    CHECK(gen("sbt", Sc, One, 4, 1, 1).cycles == 15);
    CHECK(perCycle(gen("sbt", Sc, One, 3, 1, 4)) == std::vector<Rational>{4, 2, 1});
    CHECK(perCycle(gen("sbt", Sc, One, 3, 1, 1, NodeId{0}, "subtree")) == std::vector<Rational>{4, 2, 1});
}

TEST_CASE("reverse breadth-first one-to-all personalized, worst link per cycle (spec §5.2, §12.8 V42, §12.4 V18)",
          "[hypercube]")
{
    CHECK(perCycle(gen("sbt", Sc, NP, 4, 1, 1)) == std::vector<Rational>{1, 3, 3, 1});
    CHECK(perCycle(gen("nrsbt", Sc, NP, 4, 1, 1)) == std::vector<Rational>{Rational(1, 4), 1, Rational(3, 2), 1});
    CHECK(perCycle(gen("sbntc", Sc, NP, 4, 1, 1)) == std::vector<Rational>{Rational(1, 4), 1, Rational(3, 2), 1});
    CHECK(perCycle(gen("sbnt", Sc, NP, 4, 1, 1)) == std::vector<Rational>{1, 1, 2, 1});
    CHECK(perCycle(gen("nesbt", Sc, NP, 4, 1, 1)) ==
          std::vector<Rational>{Rational(1, 4), 1, Rational(3, 2), Rational(3, 4), Rational(1, 4)});
    CHECK(perCycle(gen("tcbt", Sc, NP, 3, 1, 1)) == std::vector<Rational>{2, 2, 1});
    CHECK(perCycle(gen("tcbt", Sc, NP, 4, 1, 1)) == std::vector<Rational>{4, 4, 2, 1});
    CHECK(perCycle(gen("tcbt", Sc, NP, 5, 1, 1)) == std::vector<Rational>{8, 8, 4, 2, 1});
}

TEST_CASE("n-port all-to-all per-cycle worst link (spec Thm. 6.2, 7.3, §12.8 V43)", "[hypercube]")
{
    CHECK(perCycle(gen("sbt", Ag, NP, 3, 1, 1)) == std::vector<Rational>{1, 2, 1});
    CHECK(perCycle(gen("sbt", Aa, NP, 3, 1, 1)) == std::vector<Rational>{4, 2, 1});
    CHECK(perCycle(gen("nrsbt", Ag, NP, 3, 3, 1)) == std::vector<Rational>{3, 3, 1});
    CHECK(perCycle(gen("nesbt", Ag, NP, 3, 3, 1)) == std::vector<Rational>{1, 2, 3, 1});
    CHECK(perCycle(gen("nesbt", Aa, NP, 3, 3, 1)) == std::vector<Rational>{7, 6, 4, 1});
    CHECK(perCycle(gen("hp", Ag, NP, 3, 3, 1)) == std::vector<Rational>(7, Rational(1)));
    CHECK(perCycle(gen("hp", Aa, NP, 3, 3, 1)) == std::vector<Rational>{7, 6, 5, 4, 3, 2, 1});
    CHECK(perCycle(gen("tcbt", Ag, NP, 3, 1, 1)) == std::vector<Rational>{1, 2, 1});
    CHECK(perCycle(gen("tcbt", Aa, NP, 3, 1, 1)) == std::vector<Rational>{4, 4, 1});
    // nRSBT alternative scheme: every link carries NM/(2n) in each of n cycles (§7.2)
    CHECK(perCycle(gen("nrsbt", Aa, NP, 4, 4, 1)) == std::vector<Rational>(4, Rational(8)));
}

TEST_CASE("SBT n-port all-to-all broadcast: per-port amounts of the pseudo code (spec §6.1, §12.8 V44, §10 item 19)",
          "[hypercube]")
{
    const RawSchedule r = gen("sbt", Ag, NP, 4, 1, 1);
    std::map<std::pair<std::uint32_t, int>, Rational> sent; // (cycle, port) of node 0
    for (const RawTransfer& t : r.transfers)
        if (t.from == 0)
            sent[{t.cycle, std::countr_zero(t.to.value())}] = t.size;
    const std::map<std::pair<std::uint32_t, int>, Rational> expect = {
        {{0, 0}, 1}, {{0, 1}, 1}, {{0, 2}, 1}, {{0, 3}, 1}, {{1, 1}, 1},
        {{1, 2}, 2}, {{1, 3}, 3}, {{2, 2}, 1}, {{2, 3}, 3}, {{3, 3}, 1}};
    CHECK(sent == expect);
}

TEST_CASE("one-port all-to-all label amounts counted from the schedules (spec §6.2, §7.2, §12.7 V38)", "[hypercube]")
{
    CHECK(perCycle(gen("sbntc", Ag, One, 3, 3, 1)) == std::vector<Rational>{3, 6, 7, 4, 1});
    CHECK(perCycle(gen("sbntc", Ag, One, 4, 4, 1)) == std::vector<Rational>{4, 8, 14, 15, 11, 7, 1});
    CHECK(perCycle(gen("sbntc", Aa, One, 3, 3, 1)) == std::vector<Rational>{7, 11, 12, 5, 1});
    CHECK(perCycle(gen("sbntc", Aa, One, 4, 4, 1)) == std::vector<Rational>{15, 24, 31, 32, 17, 8, 1});
    CHECK(perCycle(gen("sbnt", Ag, One, 3, 1, 1)) == std::vector<Rational>{1, 2, 3, 1});
    CHECK(perCycle(gen("sbnt", Ag, One, 4, 1, 1)) == std::vector<Rational>{1, 2, 4, 5, 2, 1});
    CHECK(perCycle(gen("sbnt", Aa, One, 3, 1, 1)) == std::vector<Rational>{3, 4, 4, 1});
    CHECK(perCycle(gen("sbnt", Aa, One, 4, 1, 1)) == std::vector<Rational>{5, 7, 8, 8, 3, 1});
    // nESBT one-port all-to-all personalized: ((t+2)N/2 − 1)/n then ((2n−t)N/2 − 1)/n; total nN/2+N−2 (§10 item 14)
    const auto d = perCycle(gen("nesbt", Aa, One, 3, 3, 1));
    CHECK(d == std::vector<Rational>{7, 11, 15, 11, 7, 3});
    Rational total = 0;
    for (auto x : d)
        total += x;
    CHECK(total == 18 * 3);
    // nRSBT one-port all-to-all broadcast (§6.2 table): (2^(t+1)−1)/n, then (N − 2^(t−n+1))/n
    CHECK(perCycle(gen("nrsbt", Ag, One, 3, 3, 1)) == std::vector<Rational>{1, 3, 7, 6, 4});
    // BRG one-port all-to-all personalized: N−1−t in cycle t
    CHECK(perCycle(gen("hp", Aa, One, 3, 1, 1)) == std::vector<Rational>{7, 6, 5, 4, 3, 2, 1});
}

TEST_CASE("SBnTc split weights: a cyclic node's data arrives over n/P(c) parents, P(c) parts each (spec §3.6, "
          "§12.7 V36, extra check beyond validate.h)",
          "[hypercube]")
{
    for (int n = 2; n <= 8; ++n) {
        const RawSchedule r = gen("sbntc", Sc, NP, n, static_cast<long long>(n), 1, NodeId{0});
        std::map<NodeId, std::map<NodeId, std::set<std::uint32_t>>> lastHop; // dest → sender → parts
        for (const RawTransfer& t : r.transfers)
            for (const Block& b : t.blocks)
                if (b.dest == t.to)
                    lastHop[t.to][t.from].insert(b.part);
        for (NodeId c{1}; c < (1u << n); ++c) {
            const int p = period(c, n);
            const auto& senders = lastHop[c];
            CHECK(static_cast<int>(senders.size()) == n / p);
            for (const auto& [from, parts] : senders)
                CHECK(static_cast<int>(parts.size()) == p);
        }
    }
}

TEST_CASE("registry: seven hypercube entries, whyNot names the topology, Params errors", "[hypercube]")
{
    for (const char* name : {"hp", "sbt", "tcbt", "nrsbt", "nesbt", "sbnt", "sbntc"}) {
        const AlgorithmInfo& info = findAlgorithm(name);
        CHECK(info.whyNot(Topology::hypercube(4)) == std::nullopt);
        CHECK(info.whyNot(Topology::mesh({8, 8})) == std::string(name) + " needs a hypercube; got 8×8 mesh");
    }
    // SBnT has no broadcast (§4.1), so no reduce; its scatter run backwards is a gather.
    CHECK(findAlgorithm("sbnt").patterns == std::vector<std::string>{"scatter", "allgather", "alltoall", "gather"});
    CHECK(findAlgorithm("sbt").patterns ==
          std::vector<std::string>{"broadcast", "scatter", "allgather", "alltoall", "reduce", "gather"});
    CHECK(findAlgorithm("tcbt").whyNot(Topology::hypercube(1)).has_value());
    CHECK(findAlgorithm("sbt").whyNot(Topology::hypercube(21)).value() ==
          "sbt needs a hypercube of dimension 1..20; got " + Topology::hypercube(21).displayName());
    const Topology q4 = Topology::hypercube(4);
    auto build = [&](const char* algo, Params p) { return buildSchedule(algo, q4, NodeId{0}, p); };
    CHECK_THROWS_WITH(build("sbt", {{"pattern", "broadcast"}, {"message", "4"}, {"packet", "8"}}),
                      Catch::Contains("larger than the message"));
    CHECK_THROWS_WITH(build("sbt", {{"tau", "-1"}}), Catch::Contains("tau"));
    CHECK_THROWS_WITH(build("sbnt", {{"pattern", "broadcast"}}),
                      Catch::Contains("sbnt does not take pattern 'broadcast'; allowed: scatter, allgather, alltoall"));
    CHECK_THROWS_WITH(build("tcbt", {{"pattern", "allgather"}, {"ports", "one"}}), Catch::Contains("allowed: n"));
    CHECK_THROWS_WITH(build("sbt", {{"ports", "two"}}),
                      Catch::Contains("sbt does not take ports 'two'; allowed: one, send-recv, half, n"));
    CHECK_THROWS_WITH(build("sbt", {{"message", "0"}}), Catch::Contains("message"));
    CHECK_THROWS_WITH(build("sbt", {{"variant", "zigzag"}}),
                      Catch::Contains("sbt does not take variant 'zigzag'; allowed: (none), postorder, subtree"));
    CHECK_THROWS_AS(buildSchedule("sbt", q4, NodeId{16}, {}), Error);
    const Schedule s = build("sbnt", {{"pattern", "scatter"}, {"message", "16"}, {"packet", "4"}, {"ports", "n"}});
    CHECK(scheduleInfo(s)["subtree_sizes"] == nlohmann::ordered_json::array({5, 4, 3, 3}));
    CHECK(scheduleInfo(s)["level_sizes"] == nlohmann::ordered_json::array({1, 4, 6, 4, 1}));
    CHECK(scheduleInfo(s)["cycles"] == 4);
    CHECK(s.portModel() == PortModel::AllPort);
    CHECK(validate(s).ok());
}

TEST_CASE("hypercube layout: one dimension's edges are parallel, positions distinct, n ≤ 10 (layout.h)", "[hypercube]")
{
    for (int n = 1; n <= 10; ++n) {
        const Topology t = Topology::hypercube(n);
        const auto pos = nodePositions(t);
        REQUIRE(pos.size() == t.nodeCount());
        std::set<std::array<long long, 3>> seen;
        for (const Vec3& p : pos)
            seen.insert({std::llround(p[0] * 1e4), std::llround(p[1] * 1e4), std::llround(p[2] * 1e4)});
        CHECK(seen.size() == pos.size());
        for (int d = 0; d < n; ++d) {
            const Vec3 axis = dimensionAxis(t, d);
            bool parallel = true;
            for (NodeId v{}; v < t.nodeCount(); ++v) {
                if (v >> d & 1u)
                    continue;
                const NodeId u{v | (1u << d)};
                for (int k = 0; k < 3; ++k)
                    parallel = parallel && std::abs((pos[u][k] - pos[v][k]) - axis[k]) < 1e-4f;
            }
            CHECK(parallel);
        }
    }
}

TEST_CASE("schedule vs formula, all-to-all patterns n = 6..8 (spec §6.3, §7.3, large cases)", "[hypercube][slow]")
{
    for (const std::string& a : algorithmNames())
        for (Pattern pat : {Ag, Aa})
            for (Ports ports : servedPorts(a, pat))
                for (int n = 6; n <= (pat == Ag ? 8 : 7); ++n) {
                    if (a == "hp" && n > 6)
                        continue; // paths: N·N²/2 block moves
                    INFO(a << " " << toString(pat) << " " << portsName(ports) << " n=" << n);
                    const CostParams cp{n, 16, 4, 1, 1};
                    const ClosedForm f = closedForm(a, pat, ports, cp);
                    REQUIRE(f.available);
                    const CountedCost c = countCost(gen(a, pat, ports, n, 16, 4, NodeId{1}), 4);
                    CHECK(c.startups == f.startups);
                    CHECK(c.transfer == f.transfer);
                }
}

TEST_CASE("scheduleTrees: the spanning graph behind a schedule, translated to its source", "[hypercube]")
{
    const Topology q4 = Topology::hypercube(4);
    // nESBT on the 4-cube from source 5: n = 4 edge-disjoint spanning trees (spec §3.5 Thm. 3.1),
    // each with N − 1 = 15 cube edges; together they use 60 of the 64 directed edges (none into 5).
    const Schedule s = buildSchedule("nesbt", q4, NodeId{5}, {});
    const auto trees = scheduleTrees(s);
    REQUIRE(trees.size() == 4);
    std::set<std::pair<NodeId, NodeId>> all;
    for (const auto& tree : trees) {
        CHECK(tree.size() == 15);
        std::set<NodeId> children;
        for (const TreeEdge& e : tree) {
            CHECK(std::popcount(e.parent ^ e.child) == 1);
            children.insert(e.child);
            all.insert({e.parent, e.child});
        }
        CHECK(children.size() == 15);
        CHECK(children.count(NodeId{5}) == 0);
    }
    CHECK(all.size() == 60);
    // Every message of the schedule crosses an edge of some member tree.
    for (const Transfer& t : s.transfers())
        CHECK(all.count({t.from, t.to}) == 1);
    // The rule of spec §3.5 for each member and node.
    for (int j = 0; j < 4; ++j)
        for (const TreeEdge& e : trees[static_cast<std::size_t>(j)])
            CHECK(e.parent == ersbtParent(e.child, NodeId{5}, 4, j));

    // SBT from source 5: node 3 is relative 6 = 0110, its parent relative 0010 (the highest 1-bit
    // cleared, spec §3.2), absolute 2 ⊕ 5 = 7.
    const auto sbt = scheduleTrees(buildSchedule("sbt", q4, NodeId{5}, {}));
    REQUIRE(sbt.size() == 1);
    CHECK(std::find(sbt[0].begin(), sbt[0].end(), TreeEdge{NodeId{7}, NodeId{3}}) != sbt[0].end());
    CHECK(scheduleTrees(buildSchedule("nrsbt", q4, NodeId{0}, {})).size() == 4);
    CHECK(scheduleTrees(buildSchedule("tcbt", q4, NodeId{0}, {})).size() == 1);
    // Not a spanning-graph schedule, or too large: nothing.
    CHECK(scheduleTrees(buildSchedule("bfs", Topology::mesh({4, 4}), NodeId{0}, {})).empty());
    Schedule noGraph = s;
    noGraph.figures.reset(); // as read from a file without a "graph" key
    CHECK(scheduleTrees(noGraph).empty());
    Schedule fromFile = s; // as read from a file that names its graph
    fromFile.figures.reset();
    fromFile.fileInfo = {{"graph", "\"nRSBT\""}};
    CHECK(scheduleTrees(fromFile).size() == 4);
    CHECK(scheduleTrees(s, 59).empty());
    CHECK(scheduleTrees(s, 60).size() == 4);
    CHECK(parseGraphName("nESBT") == GraphKind::Nesbt);
    CHECK_FALSE(parseGraphName("nesbt").has_value());
}
