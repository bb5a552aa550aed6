// Spanning graphs of the hypercube: Johnsson & Ho §2–§3 (with Table 1). The vectors are the paper's where it
// prints them and otherwise computed by us from its constructions; the TCBT embedding is ours (Fig. 4 is lost).

#include "topocast/algorithms/hypercube_graphs.h"

#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <set>

using namespace topocast;
using namespace topocast::hypercube;

namespace {

std::uint32_t bits(const char* s)
{
    std::uint32_t v = 0;
    for (; *s; ++s)
        v = v * 2 + static_cast<std::uint32_t>(*s - '0');
    return v;
}

long long binom(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    long long r = 1;
    for (int i = 1; i <= k; ++i)
        r = r * (n - k + i) / i;
    return r;
}

std::vector<std::uint64_t> row(std::initializer_list<std::uint64_t> v)
{
    return v;
}

const GraphKind kAllKinds[] = {GraphKind::Brg,   GraphKind::Nrbrg, GraphKind::Sbt,  GraphKind::Tcbt,
                               GraphKind::Nrsbt, GraphKind::Nesbt, GraphKind::Sbnt, GraphKind::Sbntc};

} // namespace

TEST_CASE("bit utilities: period, rotation, k_j, Mset (spec §12.1 V1–V3)", "[hypercube]")
{
    CHECK(period(bits("011011"), 6) == 3);
    CHECK(period(0, 6) == 1);
    CHECK(period(63, 6) == 1);
    CHECK(rotateRight(bits("0001"), 4) == bits("1000"));
    CHECK(rotateLeft(bits("1000"), 4) == bits("0001"));
    const std::map<const char*, std::vector<int>> k = {
        {"0110", {2, 2, 1, 2}}, {"1001", {3, 0, 0, 0}}, {"0001", {0, 0, 0, 0}}, {"1011", {3, 0, 1, 1}}};
    for (const auto& [c, expect] : k)
        for (int j = 0; j < 4; ++j)
            CHECK(scanK(bits(c), j, 4) == expect[static_cast<std::size_t>(j)]);
    CHECK(scanK(0, 2, 4) == -1);
    CHECK(mset(1, 1, 4) == std::vector<int>{2, 3, 0});
    CHECK(mset(2, 3, 4).empty());
    CHECK(mset(3, 1, 4) == std::vector<int>{0});
}

TEST_CASE("bit utilities: J(c), base, period, cyclic counts (spec §12.1 V4–V5)", "[hypercube]")
{
    struct Row {
        const char* c;
        std::vector<int> J;
        int base;
        int p;
    };
    const Row rows[] = {{"0101", {0, 2}, 0, 2}, {"1010", {1, 3}, 1, 2}, {"1111", {0, 1, 2, 3}, 0, 1},
                        {"0110", {1}, 1, 4},    {"1100", {2}, 2, 4},    {"1011", {3}, 3, 4},
                        {"1101", {2}, 2, 4}};
    for (const auto& r : rows) {
        CHECK(minimalRotations(bits(r.c), 4) == r.J);
        CHECK(sbntBase(bits(r.c), 4) == r.base);
        CHECK(period(bits(r.c), 4) == r.p);
        CHECK((bits(r.c) >> r.base & 1u) == 1u);
    }
    for (auto [n, expect] : {std::pair{3, 1}, {4, 3}, {5, 1}}) {
        int count = 0;
        for (std::uint32_t c = 1; c < (1u << n); ++c)
            count += period(c, n) < n;
        CHECK(count == expect);
    }
    // §10 item 2: base_r for n = 4.
    std::vector<int> b1, b2;
    for (int r = 0; r < 4; ++r) {
        b1.push_back(sbntcBase(bits("0101"), r, 4));
        b2.push_back(sbntcBase(bits("1111"), r, 4));
    }
    CHECK(b1 == std::vector<int>{0, 0, 2, 2});
    CHECK(b2 == std::vector<int>{0, 3, 2, 1});
}

TEST_CASE("SBT parents, children, levels, subtrees (spec §3.2, §12.2 V6–V8)", "[hypercube]")
{
    const std::vector<std::uint32_t> parents = {0, 0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7};
    for (NodeId i{1}; i < 16; ++i)
        CHECK(sbtParent(i, NodeId{0}, 4) == parents[i - 1]);
    CHECK(sbtParent(NodeId{0}, NodeId{0}, 4) == kNoParent);
    CHECK(sbtChildren(NodeId{0}, NodeId{0}, 4) == std::vector<NodeId>{NodeId{1}, NodeId{2}, NodeId{4}, NodeId{8}});
    CHECK(sbtChildren(NodeId{1}, NodeId{0}, 4) == std::vector<NodeId>{NodeId{3}, NodeId{5}, NodeId{9}});
    CHECK(sbtChildren(NodeId{2}, NodeId{0}, 4) == std::vector<NodeId>{NodeId{6}, NodeId{10}});
    CHECK(sbtChildren(NodeId{7}, NodeId{0}, 4) == std::vector<NodeId>{NodeId{15}});
    CHECK(sbtChildren(NodeId{8}, NodeId{0}, 4).empty());
    // V7: n = 3, s = 5
    const std::map<std::uint32_t, std::uint32_t> p5 = {{0, 4}, {1, 5}, {2, 6}, {3, 7}, {4, 5}, {6, 4}, {7, 5}};
    for (auto [i, p] : p5)
        CHECK(sbtParent(NodeId{i}, NodeId{5}, 3) == p);
    CHECK(sbtChildren(NodeId{5}, NodeId{5}, 3) == std::vector<NodeId>{NodeId{4}, NodeId{7}, NodeId{1}});
    CHECK(sbtChildren(NodeId{1}, NodeId{5}, 3).empty());
    const auto g = buildGraph(GraphKind::Sbt, 4);
    const auto k = computeCounters(g);
    CHECK(k.levelSizes == row({1, 4, 6, 4, 1}));
    CHECK(k.rootSubtrees == row({8, 4, 2, 1}));
    CHECK(g.height == 4);
}

TEST_CASE("SBT counters e, s, r and Σ max s (spec §3.2 Lem. 3.17–3.18, §12.2 V9–V10)", "[hypercube]")
{
    const auto k = computeCounters(buildGraph(GraphKind::Sbt, 4));
    CHECK(k.e == std::vector{row({1, 1, 1, 1}), row({0, 1, 2, 3}), row({0, 0, 1, 3}), row({0, 0, 0, 1})});
    CHECK(k.s == std::vector{row({8, 4, 2, 1}), row({0, 4, 4, 3}), row({0, 0, 2, 3}), row({0, 0, 0, 1})});
    CHECK(k.r == std::vector{row({1, 2, 4, 8}), row({3, 4, 4, 0}), row({3, 2, 0, 0}), row({1, 0, 0, 0})});
    CHECK(k.unionEdges == row({1, 2, 4, 8}));
    for (auto [n, expect] : {std::pair{2, 3}, {3, 7}, {4, 16}, {5, 35}}) {
        const auto kn = computeCounters(buildGraph(GraphKind::Sbt, n));
        Rational sum = 0;
        for (int l = 0; l < kn.height; ++l)
            sum += kn.maxOverDims(kn.s, l);
        CHECK(sum == Rational(expect));
    }
    // Lemma formulas for n = 1..8
    for (int n = 1; n <= 8; ++n) {
        const auto kn = computeCounters(buildGraph(GraphKind::Sbt, n));
        for (int l = 0; l < n; ++l)
            for (int d = 0; d < n; ++d) {
                CHECK(kn.e[l][d] == static_cast<std::uint64_t>(binom(d, l)));
                CHECK(kn.s[l][d] == static_cast<std::uint64_t>(binom(d, l) << (n - d - 1)));
                CHECK(kn.r[l][d] == static_cast<std::uint64_t>(binom(n - d - 1, l) << d));
            }
    }
}

TEST_CASE("BRG path and r counters (spec §3.1, §12.3 V11–V12)", "[hypercube]")
{
    std::vector<NodeId> path;
    for (std::uint32_t p = 0; p < 8; ++p)
        path.push_back(brgNode(p, NodeId{0}, 3));
    CHECK(path ==
          std::vector<NodeId>{NodeId{0}, NodeId{1}, NodeId{3}, NodeId{2}, NodeId{6}, NodeId{7}, NodeId{5}, NodeId{4}});
    std::vector<int> dims;
    for (std::uint32_t p = 0; p < 7; ++p)
        dims.push_back(grayStepDim(p));
    CHECK(dims == std::vector<int>{0, 1, 0, 2, 0, 1, 0});
    const auto k = computeCounters(buildGraph(GraphKind::Brg, 3));
    CHECK(k.unionEdges == row({4, 2, 1}));
    CHECK(k.r == std::vector{row({4, 2, 1}), row({3, 2, 1}), row({3, 1, 1}), row({2, 1, 1}), row({2, 1, 0}),
                             row({1, 1, 0}), row({1, 0, 0})});
    for (NodeId i{}; i < 8; ++i)
        CHECK(brgNode(brgPosition(i, NodeId{5}, 3), NodeId{5}, 3) == i);
    // Lem. 3.11 r formula, n ≤ 8
    for (int n = 2; n <= 8; ++n) {
        const auto kn = computeCounters(buildGraph(GraphKind::Brg, n));
        const long long N = 1LL << n;
        for (long long l = 0; l <= N - 2; ++l)
            for (int d = 0; d < n; ++d) {
                const long long p2 = 1LL << (d + 1);
                const long long expect = N / p2 - Rational(l - (1LL << d) + 1, p2).ceil();
                CHECK(static_cast<long long>(kn.r[static_cast<std::size_t>(l)][static_cast<std::size_t>(d)]) == expect);
            }
    }
}

TEST_CASE("nRBRG paths, shared edges, union (spec §3.1, §12.3 V13–V14, §10 item 3)", "[hypercube]")
{
    const auto g3 = buildGraph(GraphKind::Nrbrg, 3);
    auto pathOf = [](int n, int r) {
        std::vector<NodeId> out;
        for (std::uint32_t p = 0; p < (1u << n); ++p)
            out.push_back(brgNode(p, NodeId{0}, n, r));
        return out;
    };
    CHECK(pathOf(3, 0) ==
          std::vector<NodeId>{NodeId{0}, NodeId{1}, NodeId{3}, NodeId{2}, NodeId{6}, NodeId{7}, NodeId{5}, NodeId{4}});
    CHECK(pathOf(3, 1) ==
          std::vector<NodeId>{NodeId{0}, NodeId{2}, NodeId{6}, NodeId{4}, NodeId{5}, NodeId{7}, NodeId{3}, NodeId{1}});
    CHECK(pathOf(3, 2) ==
          std::vector<NodeId>{NodeId{0}, NodeId{4}, NodeId{5}, NodeId{1}, NodeId{3}, NodeId{7}, NodeId{6}, NodeId{2}});
    CHECK(pathOf(4, 1) == std::vector<NodeId>{NodeId{0}, NodeId{2}, NodeId{6}, NodeId{4}, NodeId{12}, NodeId{14},
                                              NodeId{10}, NodeId{8}, NodeId{9}, NodeId{11}, NodeId{15}, NodeId{13},
                                              NodeId{5}, NodeId{7}, NodeId{3}, NodeId{1}});
    CHECK(g3.parent[0][6] == 2);
    CHECK(g3.parent[1][6] == 2);
    CHECK(g3.parent[2][6] != 2);
    auto edgeSet = [](const SpanningGraph& g, int t) {
        std::set<std::pair<std::uint32_t, std::uint32_t>> out;
        for (std::uint32_t c = 1; c < g.nodeCount(); ++c)
            out.insert({g.parent[t][c], c});
        return out;
    };
    const std::map<int, std::vector<int>> shared = {{3, {7, 1, 1}}, {4, {15, 3, 2, 3}}, {5, {31, 7, 4, 4, 7}}};
    for (const auto& [n, expect] : shared) {
        const auto g = buildGraph(GraphKind::Nrbrg, n);
        const auto e0 = edgeSet(g, 0);
        for (int j = 0; j < n; ++j) {
            const auto ej = edgeSet(g, j);
            std::vector<std::pair<std::uint32_t, std::uint32_t>> common;
            std::set_intersection(e0.begin(), e0.end(), ej.begin(), ej.end(), std::back_inserter(common));
            CHECK(static_cast<int>(common.size()) == expect[static_cast<std::size_t>(j)]);
        }
        const auto k = computeCounters(g);
        std::uint64_t total = 0;
        for (auto v : k.unionEdges) {
            CHECK(v == 3u * g.nodeCount() / 4);
            total += v;
        }
        CHECK(total == 3u * static_cast<std::uint64_t>(n) * g.nodeCount() / 4);
    }
    // edges in n−1 paths (n = 4) and path j vs union of earlier paths: 3, 4, 5
    const auto g4 = buildGraph(GraphKind::Nrbrg, 4);
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> mult;
    for (int t = 0; t < 4; ++t)
        for (auto e : edgeSet(g4, t))
            ++mult[e];
    std::set<std::pair<std::uint32_t, std::uint32_t>> top;
    for (auto [e, m] : mult)
        if (m == 3)
            top.insert(e);
    CHECK(top == std::set<std::pair<std::uint32_t, std::uint32_t>>{{1, 3}, {2, 6}, {4, 12}, {8, 9}});
    std::set<std::pair<std::uint32_t, std::uint32_t>> uni = edgeSet(g4, 0);
    for (int j = 1; j < 4; ++j) {
        const auto ej = edgeSet(g4, j);
        int common = 0;
        for (auto e : ej)
            common += uni.count(e) ? 1 : 0;
        CHECK(common == 2 + j);
        uni.insert(ej.begin(), ej.end());
    }
    // Lem. 3.13: at every step index the n paths use n different dimensions
    for (int n = 2; n <= 8; ++n)
        for (std::uint32_t p = 0; p + 1 < (1u << n); ++p) {
            std::set<int> ds;
            for (int r = 0; r < n; ++r)
                ds.insert(std::countr_zero(brgNode(p, NodeId{0}, n, r) ^ brgNode(p + 1, NodeId{0}, n, r)));
            CHECK(static_cast<int>(ds.size()) == n);
        }
}

TEST_CASE("TCBT construction: level sizes, parent maps, roles (spec §3.3, §12.4 V15–V16, §10 item 22)", "[hypercube]")
{
    const std::map<int, std::vector<std::uint64_t>> levels = {{2, {1, 2, 1}},
                                                              {3, {1, 2, 3, 2}},
                                                              {4, {1, 2, 3, 6, 4}},
                                                              {5, {1, 2, 3, 6, 12, 8}},
                                                              {6, {1, 2, 3, 6, 12, 24, 16}}};
    for (const auto& [n, expect] : levels)
        CHECK(computeCounters(buildGraph(GraphKind::Tcbt, n)).levelSizes == expect);
    for (int n = 2; n <= 12; ++n) {
        const auto g = buildGraph(GraphKind::Tcbt, n);
        const long long N = 1LL << n;
        long long sum = 0;
        for (std::uint32_t c = 0; c < g.nodeCount(); ++c) {
            sum += g.level[0][c];
            if (c)
                REQUIRE(std::popcount(c ^ g.parent[0][c]) == 1);
        }
        CHECK(sum == (2 * n - 3) * N / 2 + 2);
        CHECK(g.height == n);
        const auto ch = childLists(g, 0);
        const std::uint32_t r2 = n == 2 ? 1u : 1u << (n - 1); // n = 2: P = {1→0, 2→0, 3→1}
        for (std::uint32_t c = 0; c < g.nodeCount(); ++c) {
            const auto [b, e] = ch.of(c);
            const long long cnt = e - b;
            if (c == 0)
                CHECK(cnt == 2);
            else if (c == r2)
                CHECK(cnt == 1);
            else
                CHECK((cnt == 0 || cnt == 2));
        }
    }
    const std::map<std::uint32_t, std::uint32_t> p3 = {{4, 0}, {1, 0}, {6, 4}, {3, 1}, {5, 1}, {2, 6}, {7, 6}};
    const auto t3 = tcbtParentTable(3);
    for (auto [c, p] : p3)
        CHECK(t3[c] == p);
    const std::map<std::uint32_t, std::uint32_t> p4 = {{8, 0},   {4, 0},   {10, 8}, {5, 4},  {12, 4},
                                                       {2, 10},  {11, 10}, {1, 5},  {7, 5},  {13, 12},
                                                       {14, 12}, {3, 2},   {6, 2},  {9, 11}, {15, 11}};
    const auto t4 = tcbtParentTable(4);
    for (auto [c, p] : p4)
        CHECK(t4[c] == p);
    CHECK_THROWS_AS(buildGraph(GraphKind::Tcbt, 1), Error);
}

TEST_CASE("nRSBT members, weights, counters (spec §3.4 Lem. 3.19–3.21, §12.5 V19–V21, §10 item 6)", "[hypercube]")
{
    const auto g = buildGraph(GraphKind::Nrsbt, 3);
    const std::vector<std::uint32_t> p0 = {kNoParent, 0, 0, 1, 0, 1, 2, 3};
    const std::vector<std::uint32_t> p1 = {kNoParent, 0, 0, 2, 0, 4, 2, 6};
    const std::vector<std::uint32_t> p2 = {kNoParent, 0, 0, 1, 0, 4, 4, 5};
    CHECK(g.parent[0] == p0);
    CHECK(g.parent[1] == p1);
    CHECK(g.parent[2] == p2);
    // SBT_j = L^j(SBT_0) for source 0
    for (int n = 2; n <= 6; ++n)
        for (int j = 0; j < n; ++j)
            for (std::uint32_t x = 1; x < (1u << n); ++x)
                CHECK(rsbtParent(NodeId{x}, NodeId{0}, n, j) ==
                      rotateLeft(sbtParent(NodeId{rotateRight(x, n, j)}, NodeId{0}, n), n, j));
    auto weightOf = [](int n, std::uint32_t from, std::uint32_t to) {
        int count = 0;
        for (int j = 0; j < n; ++j)
            count += rsbtParent(NodeId{to}, NodeId{0}, n, j) == from;
        return Rational(count, n);
    };
    const std::uint32_t x = bits("011001");
    CHECK(weightOf(6, x ^ 1u, x) == Rational(1, 2));
    CHECK(weightOf(6, x ^ 8u, x) == Rational(1, 6));
    CHECK(weightOf(6, x ^ 16u, x) == Rational(1, 3));
    const std::map<std::pair<int, int>, Rational> w3 = {{{0, 1}, 1},
                                                        {{0, 2}, 1},
                                                        {{0, 4}, 1},
                                                        {{1, 3}, Rational(2, 3)},
                                                        {{2, 3}, Rational(1, 3)},
                                                        {{2, 6}, Rational(2, 3)},
                                                        {{4, 6}, Rational(1, 3)},
                                                        {{4, 5}, Rational(2, 3)},
                                                        {{1, 5}, Rational(1, 3)},
                                                        {{3, 7}, Rational(1, 3)},
                                                        {{5, 7}, Rational(1, 3)},
                                                        {{6, 7}, Rational(1, 3)}};
    for (const auto& [e, w] : w3)
        CHECK(weightOf(3, static_cast<std::uint32_t>(e.first), static_cast<std::uint32_t>(e.second)) == w);
    const auto k = computeCounters(buildGraph(GraphKind::Nrsbt, 4));
    const std::vector<Rational> ew = {1, Rational(3, 2), 1, Rational(1, 4)};
    const std::vector<Rational> sw = {Rational(15, 4), Rational(11, 4), Rational(5, 4), Rational(1, 4)};
    for (int l = 0; l < 4; ++l)
        for (int d = 0; d < 4; ++d) {
            CHECK(k.weighted(k.e[l][d]) == ew[l]);
            CHECK(k.weighted(k.s[l][d]) == sw[l]);
            CHECK(k.weighted(k.r[l][d]) == sw[l]);
        }
    CHECK(k.unionEdges == row({8, 8, 8, 8}));
}

TEST_CASE("nESBT members, labels, levels, disjointness (spec §3.5 Thm. 3.1, 4.1, §12.6 V24–V30)", "[hypercube]")
{
    const std::vector<std::vector<std::uint32_t>> par = {
        {0, 3, 1, 5, 1, 7, 3}, {3, 0, 2, 6, 7, 2, 6}, {5, 6, 7, 0, 4, 4, 5}};
    const std::vector<std::vector<int>> lab = {{0, 3, 1, 3, 2, 3, 2}, {4, 1, 3, 4, 4, 2, 3}, {5, 5, 5, 2, 3, 4, 4}};
    for (int j = 0; j < 3; ++j)
        for (NodeId i{1}; i < 8; ++i) {
            CHECK(ersbtParent(i, NodeId{0}, 3, j) == par[j][i - 1]);
            CHECK(ersbtLabel(i, NodeId{0}, 3, j) == lab[j][i - 1]);
        }
    const std::vector<std::uint32_t> par4 = {0, 3, 1, 5, 1, 7, 3, 9, 1, 11, 3, 13, 5, 15, 7};
    const std::vector<int> lab4 = {0, 4, 1, 4, 2, 4, 2, 4, 3, 4, 3, 4, 3, 4, 3};
    for (NodeId i{1}; i < 16; ++i) {
        CHECK(ersbtParent(i, NodeId{0}, 4, 0) == par4[i - 1]);
        CHECK(ersbtLabel(i, NodeId{0}, 4, 0) == lab4[i - 1]);
    }
    const std::map<std::uint32_t, std::uint32_t> p26 = {{0, 2}, {1, 3}, {2, 3}, {3, 7}, {4, 6}, {6, 7}, {7, 5}};
    for (auto [i, p] : p26)
        CHECK(ersbtParent(NodeId{i}, NodeId{5}, 3, 1) == p);
    // §10 item 5: n = 3, ERSBT_1, node 3: input label 3, children {1} with label 4
    CHECK(ersbtLabel(NodeId{3}, NodeId{0}, 3, 1) == 3);
    CHECK(ersbtChildren(NodeId{3}, NodeId{0}, 3, 1) == std::vector<NodeId>{NodeId{1}});
    CHECK(ersbtLabel(NodeId{1}, NodeId{0}, 3, 1) == 4);
    const std::map<int, std::vector<std::uint64_t>> levels = {
        {3, {1, 1, 2, 3, 1}}, {4, {1, 1, 3, 6, 4, 1}}, {5, {1, 1, 4, 10, 10, 5, 1}}};
    for (const auto& [n, expect] : levels) {
        const auto g = buildGraph(GraphKind::Nesbt, n);
        std::vector<std::uint64_t> sizes(static_cast<std::size_t>(n) + 2, 0);
        for (std::uint32_t c = 0; c < g.nodeCount(); ++c)
            ++sizes[g.level[0][c]];
        CHECK(sizes == expect);
    }
    // V29: edges per label over all ERSBTs
    const std::map<int, std::vector<int>> perLabel = {
        {3, {1, 2, 4, 6, 5, 3}}, {4, {1, 2, 4, 8, 14, 13, 11, 7}}, {5, {1, 2, 4, 8, 16, 30, 29, 27, 23, 15}}};
    for (const auto& [n, expect] : perLabel) {
        std::vector<int> count(static_cast<std::size_t>(2 * n), 0);
        for (int j = 0; j < n; ++j)
            for (NodeId i{1}; i < (1u << n); ++i)
                ++count[static_cast<std::size_t>(ersbtLabel(i, NodeId{0}, n, j))];
        CHECK(count == expect);
    }
    const auto k4 = computeCounters(buildGraph(GraphKind::Nesbt, 4));
    const std::vector<std::uint64_t> e = {1, 3, 6, 4, 1}, s = {15, 14, 11, 5, 1};
    for (int l = 0; l <= 4; ++l)
        for (int d = 0; d < 4; ++d) {
            CHECK(k4.e[l][d] == e[l]);
            CHECK(k4.s[l][d] == s[l]);
            CHECK(k4.r[l][d] == s[l]);
        }
    for (int n = 1; n <= 10; ++n) {
        INFO("n = " << n);
        const auto g = buildGraph(GraphKind::Nesbt, n);
        const std::uint32_t N = g.nodeCount();
        std::vector<std::uint8_t> used(static_cast<std::size_t>(N) * static_cast<std::size_t>(n), 0);
        bool disjoint = true, labelsOk = true, childrenOk = true;
        for (int j = 0; j < n; ++j)
            for (std::uint32_t c = 1; c < N; ++c) {
                const std::uint32_t p = g.parent[j][c];
                const auto key = static_cast<std::size_t>(p) * static_cast<std::size_t>(n) +
                                 static_cast<std::size_t>(std::countr_zero(p ^ c));
                disjoint = disjoint && !used[key];
                used[key] = 1;
                const int f = ersbtLabel(NodeId{c}, NodeId{0}, n, j);
                labelsOk = labelsOk && f % n == g.dimInto(j, c);
                if (p != 0)
                    labelsOk = labelsOk && f > ersbtLabel(NodeId{p}, NodeId{0}, n, j);
                const auto kids = ersbtChildren(NodeId{c}, NodeId{0}, n, j);
                for (NodeId q : kids)
                    childrenOk = childrenOk && g.parent[j][q] == c;
                if (n >= 2)
                    CHECK(static_cast<int>(g.level[j][c]) == ersbtLevel(NodeId{c}, NodeId{0}, n, j));
            }
        CHECK(disjoint);
        CHECK(labelsOk);
        CHECK(childrenOk);
        const auto k = computeCounters(g);
        std::uint64_t total = 0;
        for (auto v : k.unionEdges)
            total += v;
        CHECK(total == static_cast<std::uint64_t>(n) * (N - 1));
        if (n >= 2)
            CHECK(g.height == n + 1);
    }
}

TEST_CASE("SBnT and SBnTc members, sizes, parents, balance (spec §3.6, §12.7 V32–V37, §10 item 1)", "[hypercube]")
{
    const std::map<int, std::vector<std::set<std::uint32_t>>> members = {
        {3, {{1, 3, 7}, {2, 6}, {4, 5}}},
        {4, {{1, 3, 5, 7, 15}, {2, 6, 10, 14}, {4, 12, 13}, {8, 9, 11}}},
        {5,
         {{1, 3, 5, 7, 11, 15, 31},
          {2, 6, 10, 14, 22, 30},
          {4, 12, 13, 20, 28, 29},
          {8, 9, 24, 25, 26, 27},
          {16, 17, 18, 19, 21, 23}}}};
    for (const auto& [n, expect] : members) {
        std::vector<std::set<std::uint32_t>> got(static_cast<std::size_t>(n));
        for (std::uint32_t c = 1; c < (1u << n); ++c)
            got[static_cast<std::size_t>(sbntBase(c, n))].insert(c);
        CHECK(got == expect);
    }
    const std::vector<std::uint32_t> p4 = {0, 0, 1, 0, 1, 2, 3, 0, 8, 2, 9, 4, 12, 6, 7};
    for (NodeId i{1}; i < 16; ++i)
        CHECK(sbntParent(i, NodeId{0}, 4) == p4[i - 1]);
    CHECK(sbntChildren(NodeId{1}, NodeId{0}, 4) == std::vector<NodeId>{NodeId{3}, NodeId{5}});
    CHECK(sbntChildren(NodeId{8}, NodeId{0}, 4) == std::vector<NodeId>{NodeId{9}});
    CHECK(sbntChildren(NodeId{9}, NodeId{0}, 4) == std::vector<NodeId>{NodeId{11}});
    for (NodeId leaf : {NodeId{5}, NodeId{10}, NodeId{15}})
        CHECK(sbntChildren(leaf, NodeId{0}, 4).empty());
    const std::map<int, std::vector<std::uint64_t>> sizes = {
        {2, {2, 1}}, {3, {3, 2, 2}}, {4, {5, 4, 3, 3}}, {5, {7, 6, 6, 6, 6}}};
    for (const auto& [n, expect] : sizes)
        CHECK(computeCounters(buildGraph(GraphKind::Sbnt, n)).rootSubtrees == expect);
    // V35 nodes per level in each subtree
    auto perLevel = [](int n) {
        std::vector<std::vector<int>> out(static_cast<std::size_t>(n),
                                          std::vector<int>(static_cast<std::size_t>(n), 0));
        for (std::uint32_t c = 1; c < (1u << n); ++c)
            ++out[static_cast<std::size_t>(sbntBase(c, n))][static_cast<std::size_t>(std::popcount(c) - 1)];
        return out;
    };
    CHECK(perLevel(4) == std::vector<std::vector<int>>{{1, 2, 1, 1}, {1, 2, 1, 0}, {1, 1, 1, 0}, {1, 1, 1, 0}});
    const auto l5 = perLevel(5);
    CHECK(l5[0] == std::vector<int>{1, 2, 2, 1, 1});
    for (int j = 1; j < 5; ++j)
        CHECK(l5[static_cast<std::size_t>(j)] == std::vector<int>{1, 2, 2, 1, 0});
    // V36: SBnTc weights
    const auto w5 = sbntcParents(NodeId{bits("0101")}, NodeId{0}, 4);
    REQUIRE(w5.size() == 2);
    CHECK(w5[0].second == Rational(1, 2));
    const auto w15 = sbntcParents(NodeId{15}, NodeId{0}, 4);
    REQUIRE(w15.size() == 4);
    CHECK(w15[0].second == Rational(1, 4));
    for (int n = 1; n <= 10; ++n) {
        INFO("n = " << n);
        const auto kc = computeCounters(buildGraph(GraphKind::Sbntc, n));
        for (auto v : kc.rootSubtrees)
            CHECK(kc.weighted(v) == Rational((1LL << n) - 1, n));
        const auto g = buildGraph(GraphKind::Sbnt, n);
        const auto ch = childLists(g, 0);
        for (std::uint32_t c = 1; c < g.nodeCount(); ++c) {
            CHECK(static_cast<int>(g.level[0][c]) == std::popcount(c));
            const auto [b, e] = ch.of(c);
            CHECK(e - b <= n / 2);
            if (period(c, n) < n)
                CHECK(b == e); // cyclic nodes are leaves
            CHECK((g.parent[0][c] == 0 || sbntBase(g.parent[0][c], n) == sbntBase(c, n)));
        }
    }
    // V37: per-level worst dimension, single path
    const std::map<int, std::pair<Rational, Rational>> sums = {{3, {3, 6}}, {4, {5, 11}}, {5, {7, 20}}};
    for (const auto& [n, expect] : sums) {
        const auto k = computeCounters(buildGraph(GraphKind::Sbnt, n));
        Rational se = 0, ss = 0;
        for (int l = 0; l < k.height; ++l) {
            se += k.maxOverDims(k.e, l);
            ss += k.maxOverDims(k.s, l);
        }
        CHECK(se == expect.first);
        CHECK(ss == expect.second);
    }
    const auto kc4 = computeCounters(buildGraph(GraphKind::Sbntc, 4));
    Rational se = 0, ss = 0;
    for (int l = 0; l < kc4.height; ++l) {
        se += kc4.maxOverDims(kc4.e, l);
        ss += kc4.maxOverDims(kc4.s, l);
    }
    CHECK(se == Rational(15, 4));
    CHECK(ss == 8);
}

TEST_CASE("every graph: spanning trees of cube edges, rules equal tables, greedy where claimed (spec §3, §11)",
          "[hypercube]")
{
    for (GraphKind kind : kAllKinds)
        for (int n = (kind == GraphKind::Tcbt ? 2 : 1); n <= 10; ++n) {
            INFO(graphName(kind) << " n = " << n);
            const auto g = buildGraph(kind, n);
            const bool greedy = kind == GraphKind::Sbt || kind == GraphKind::Nrsbt || kind == GraphKind::Sbnt ||
                                kind == GraphKind::Sbntc;
            bool ok = true;
            for (int t = 0; t < g.trees; ++t)
                for (std::uint32_t c = 1; c < g.nodeCount(); ++c) {
                    const std::uint32_t p = g.parent[t][c];
                    ok = ok && p != kNoParent && std::popcount(p ^ c) == 1 && g.level[t][c] == g.level[t][p] + 1;
                    if (greedy)
                        ok = ok && static_cast<int>(g.level[t][c]) == std::popcount(c);
                }
            CHECK(ok);
            const auto k = computeCounters(g);
            Rational ew = 0;
            for (auto v : k.edges)
                ew += k.weighted(v);
            CHECK(ew == Rational((1LL << n) - 1));
            if (kind == GraphKind::Nrsbt || kind == GraphKind::Nesbt || kind == GraphKind::Sbntc ||
                kind == GraphKind::Nrbrg)
                for (auto v : k.edges)
                    CHECK(k.weighted(v) == Rational((1LL << n) - 1, n));
        }
    // translation: rule functions with a source s are the source-0 graph XOR s
    for (NodeId s : {NodeId{0}, NodeId{5}, NodeId{13}})
        for (NodeId i{}; i < 16; ++i) {
            const auto gs = buildGraph(GraphKind::Sbnt, 4);
            const NodeId expect{i == s ? kNoParent : gs.parent[0][i ^ s] ^ s};
            CHECK(sbntParent(i, s, 4) == expect);
        }
    CHECK_THROWS_AS(buildGraph(GraphKind::Sbt, 0), Error);
    CHECK_THROWS_AS(buildGraph(GraphKind::Sbt, 21), Error);
    CHECK_THROWS_AS(sbtParent(NodeId{16}, NodeId{0}, 4), Error);
}
