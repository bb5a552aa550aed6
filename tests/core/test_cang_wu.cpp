// Cang-Wu minimum-TCD broadcast: eyes, generators, per-source costs, closed forms and the
// exhaustive ground truth (Cang & Wu: eyes, Algorithms 1–3 and the d-D extension, Lemmas 1–2 of the 3-D
// paper, the closed forms of 2-D paper eqs. 3, 8–9 and 3-D paper eqs. 13–16; the exhaustive optima, and where
// they show the papers wrong, are ours: README, "Where the papers are wrong"). Pure functions on (d, k); the
// Schedule, checker, registry and CLI tests are in test_cang_wu_schedule.cpp.

#include "topocast/algorithms/cang_wu.h"
#include "topocast/algorithms/eyes.h"
#include "topocast/model/error.h"

#include "cang_wu_spec_tables.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

using namespace topocast;

namespace {

constexpr CangWuMode kOptimal = CangWuMode::Optimal;
constexpr CangWuMode kEyeBest = CangWuMode::EyeBest;
constexpr CangWuMode kPaper = CangWuMode::Paper;

NodeId nodeAt(int k, std::initializer_list<int> c)
{
    NodeId id{};
    int shift = 0;
    for (int v : c) {
        id = NodeId{id | static_cast<std::uint32_t>(v) << shift};
        shift += k;
    }
    return id;
}

Coord coordOf(NodeId id, int d, int k)
{
    Coord c(static_cast<std::size_t>(d));
    for (int i = 0; i < d; ++i)
        c[static_cast<std::size_t>(i)] = static_cast<int>((id >> (k * i)) & ((1u << k) - 1));
    return c;
}

int manhattan(NodeId a, NodeId b, int d, int k)
{
    const Coord ca = coordOf(a, d, k), cb = coordOf(b, d, k);
    int dist = 0;
    for (int i = 0; i < d; ++i)
        dist += std::abs(ca[static_cast<std::size_t>(i)] - cb[static_cast<std::size_t>(i)]);
    return dist;
}

std::uint64_t sendsTcd(const std::vector<CangWuSend>& sends, int d, int k)
{
    std::uint64_t tcd = 0;
    for (const auto& s : sends)
        tcd += static_cast<std::uint64_t>(manhattan(s.from, s.to, d, k));
    return tcd;
}

std::vector<std::uint64_t> stepTcd(const std::vector<CangWuSend>& sends, int d, int k)
{
    std::vector<std::uint64_t> per(static_cast<std::size_t>(d * k), 0);
    for (const auto& s : sends)
        per[s.step - 1] += static_cast<std::uint64_t>(manhattan(s.from, s.to, d, k));
    return per;
}

/// The 2-D map as rows (y) of columns (x).
std::vector<std::vector<std::uint64_t>> matrix2d(const std::vector<std::uint64_t>& map, int k)
{
    const int n = 1 << k;
    std::vector<std::vector<std::uint64_t>> m(static_cast<std::size_t>(n),
                                              std::vector<std::uint64_t>(static_cast<std::size_t>(n)));
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            m[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] = map[nodeAt(k, {x, y})];
    return m;
}

/// Rows 0..7 of a 16×16 table plus the mirror rows 8..15.
std::vector<std::vector<std::uint64_t>> mirrored(const std::vector<std::vector<std::uint64_t>>& top)
{
    std::vector<std::vector<std::uint64_t>> m = top;
    for (auto it = top.rbegin(); it != top.rend(); ++it)
        m.push_back(*it);
    return m;
}

/// Plane y of the 4×4×4 map, rows = z, columns = x.
std::vector<std::vector<std::uint64_t>> plane444(const std::vector<std::uint64_t>& map, int y)
{
    std::vector<std::vector<std::uint64_t>> m(4, std::vector<std::uint64_t>(4));
    for (int z = 0; z < 4; ++z)
        for (int x = 0; x < 4; ++x)
            m[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = map[nodeAt(2, {x, y, z})];
    return m;
}

std::uint64_t sum(const std::vector<std::uint64_t>& v)
{
    return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
}

using SendKey = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>; // step, from, to

std::set<SendKey> keysOf(const std::vector<CangWuSend>& sends, std::uint32_t maxStep)
{
    std::set<SendKey> keys;
    for (const auto& s : sends)
        if (s.step <= maxStep)
            keys.insert({s.step, s.from, s.to});
    return keys;
}

/// Lightweight structural facts of a time-step-optimal broadcast (spec §1.2) that the pure
/// sends must satisfy; the full check runs through validate() in test_cang_wu_schedule.cpp.
bool isBinomialBroadcast(const std::vector<CangWuSend>& sends, int d, int k, NodeId source)
{
    const std::size_t n = std::size_t{1} << (d * k);
    if (sends.size() != n - 1)
        return false;
    std::vector<int> informedAt(n, -1);
    informedAt[source] = 0;
    std::vector<CangWuSend> sorted = sends;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.step < b.step; });
    std::size_t i = 0;
    for (int t = 1; t <= d * k; ++t) {
        std::set<NodeId> senders;
        std::size_t count = 0;
        for (; i < sorted.size() && static_cast<int>(sorted[i].step) == t; ++i, ++count) {
            const auto& s = sorted[i];
            if (informedAt[s.from] < 0 || informedAt[s.from] >= t || informedAt[s.to] >= 0)
                return false;
            if (!senders.insert(s.from).second)
                return false;
            informedAt[s.to] = t;
        }
        if (count != (std::size_t{1} << (t - 1)))
            return false;
    }
    return i == sorted.size();
}

/// The recursive definition of eyes (spec §2.1) in local coordinates of a box of side 2^k:
/// the 2^d candidates nearest to the centre, one per sub-box.
std::set<Coord> recursiveEyes(int d, int k)
{
    std::set<Coord> result;
    if (k == 1) {
        for (int m = 0; m < (1 << d); ++m) {
            Coord c(static_cast<std::size_t>(d));
            for (int i = 0; i < d; ++i)
                c[static_cast<std::size_t>(i)] = (m >> i) & 1;
            result.insert(c);
        }
        return result;
    }
    const std::set<Coord> sub = recursiveEyes(d, k - 1);
    const int h = 1 << (k - 1);
    const int centre2 = (1 << k) - 1; // twice the centre coordinate
    for (int box = 0; box < (1 << d); ++box) {
        long best = -1;
        int ties = 0;
        Coord bestC;
        for (Coord c : sub) {
            long dist2 = 0;
            for (int i = 0; i < d; ++i) {
                c[static_cast<std::size_t>(i)] += ((box >> i) & 1) ? h : 0;
                const long off = 2L * c[static_cast<std::size_t>(i)] - centre2;
                dist2 += off * off;
            }
            if (best < 0 || dist2 < best) {
                best = dist2;
                bestC = c;
                ties = 1;
            } else if (dist2 == best) {
                ++ties;
            }
        }
        REQUIRE(ties == 1); // the nearest candidate is unique (spec §2.1)
        result.insert(bestC);
    }
    return result;
}

} // namespace

// ---- §2 eyes --------------------------------------------------------------------------------

TEST_CASE("eyes: a_k, lo(k), hi(k) table and identities for k = 1..10 (docs/papers/mesh-tcd.md §2.2)", "[cangwu]")
{
    const std::int64_t a[] = {1, 1, 3, 5, 11, 21};
    const std::int64_t lo[] = {0, 1, 2, 5, 10, 21};
    const std::int64_t hi[] = {1, 2, 5, 10, 21, 42};
    for (int k = 1; k <= 6; ++k) {
        CHECK(eyeSide(k) == a[k - 1]);
        CHECK(eyeLo(k) == lo[k - 1]);
        CHECK(eyeHi(k) == hi[k - 1]);
    }
    for (int k = 1; k <= 10; ++k) {
        const std::int64_t p = std::int64_t{1} << k;
        CHECK(eyeLo(k) == (p - 1 - eyeSide(k)) / 2);
        CHECK(eyeHi(k) == eyeLo(k) + eyeSide(k));
        CHECK(eyeHi(k) == p - 1 - eyeLo(k));
        if (k >= 2) {
            CHECK(eyeSide(k) == p / 2 - eyeSide(k - 1));
            CHECK(2 * eyeSide(k) + 2 * eyeSide(k - 1) == p);
            CHECK(eyeLo(k) == eyeHi(k - 1));
            CHECK(eyeHi(k) == p / 2 + eyeLo(k - 1));
        }
    }
    CHECK_THROWS_AS(eyeSide(0), Error);
}

TEST_CASE("eyes: the papers' index conventions and worked examples (docs/papers/mesh-tcd.md §2.3)", "[cangwu]")
{
    // 2-D: index = 1 + bx + 2·by.
    CHECK(meshEyes(2, 1) == std::vector<Coord>{{0, 0}, {1, 0}, {0, 1}, {1, 1}});
    CHECK(meshEyes(2, 2) == std::vector<Coord>{{1, 1}, {2, 1}, {1, 2}, {2, 2}});
    CHECK(meshEyes(2, 3) == std::vector<Coord>{{2, 2}, {5, 2}, {2, 5}, {5, 5}});
    CHECK(meshEyes(2, 4) == std::vector<Coord>{{5, 5}, {10, 5}, {5, 10}, {10, 10}});
    CHECK(meshEyes(2, 5) == std::vector<Coord>{{10, 10}, {21, 10}, {10, 21}, {21, 21}});
    // 3-D: index = 1 + bx + 2·bz + 4·by.
    CHECK(meshEyes(3, 2) ==
          std::vector<Coord>{{1, 1, 1}, {2, 1, 1}, {1, 1, 2}, {2, 1, 2}, {1, 2, 1}, {2, 2, 1}, {1, 2, 2}, {2, 2, 2}});
    CHECK(meshEyes(3, 3) ==
          std::vector<Coord>{{2, 2, 2}, {5, 2, 2}, {2, 2, 5}, {5, 2, 5}, {2, 5, 2}, {5, 5, 2}, {2, 5, 5}, {5, 5, 5}});
    CHECK(canonicalDimensionOrder(2) == std::vector<int>{0, 1});
    CHECK(canonicalDimensionOrder(3) == std::vector<int>{0, 2, 1});
    CHECK(canonicalDimensionOrder(4) == std::vector<int>{0, 1, 2, 3});
    for (int d = 1; d <= 6; ++d)
        for (int index = 0; index < (1 << d); ++index)
            CHECK(eyeIndexOfMask(d, eyeMaskOfIndex(d, index)) == index);
    CHECK(eyeIndexOfMask(3, 0b010) == 4); // hi y = E(5)
    CHECK(eyeIndexOfMask(3, 0b100) == 2); // hi z = E(3)
}

TEST_CASE("eyes: the recursive definition (nearest to the centre) equals lo/hi for d ≤ 4, k ≤ 6 (spec §2.1, §9)",
          "[cangwu]")
{
    for (int d = 1; d <= 4; ++d)
        for (int k = 1; k <= 6; ++k) {
            CAPTURE(d, k);
            const std::vector<Coord> closed = meshEyes(d, k);
            CHECK(recursiveEyes(d, k) == std::set<Coord>(closed.begin(), closed.end()));
        }
}

TEST_CASE("eyes: every submesh at every level, and eye levels (docs/papers/mesh-tcd.md §2.4)", "[cangwu]")
{
    const auto levels = eyesOfSubmeshes(2, 3);
    REQUIRE(levels.size() == 3);
    CHECK(levels[0].level == 3);
    CHECK(levels[0].eyes ==
          std::vector<NodeId>{nodeAt(3, {2, 2}), nodeAt(3, {5, 2}), nodeAt(3, {2, 5}), nodeAt(3, {5, 5})});
    CHECK(levels[1].level == 2);
    CHECK(levels[1].eyes.size() == 16);
    CHECK(levels[2].level == 1);
    CHECK(levels[2].eyes.size() == 64); // every node is an eye of its level-1 box
    // Level-2 eyes of 8×8: coordinates in {1, 2, 5, 6}.
    for (NodeId id : levels[1].eyes)
        for (int c : coordOf(id, 2, 3))
            CHECK((c == 1 || c == 2 || c == 5 || c == 6));
    // Eyes of a level are eyes of the level below (lo(j) = hi(j−1), hi(j) = 2^{j−1} + lo(j−1)).
    for (int d = 1; d <= 3; ++d) {
        const auto lv = eyesOfSubmeshes(d, 4);
        for (std::size_t i = 0; i + 1 < lv.size(); ++i)
            for (NodeId id : lv[i].eyes)
                CHECK(std::binary_search(lv[i + 1].eyes.begin(), lv[i + 1].eyes.end(), id));
    }
    CHECK(eyeLevel({2, 2}, 3) == 3);
    CHECK(eyeLevel({1, 1}, 3) == 2);
    CHECK(eyeLevel({0, 0}, 3) == 1);
    CHECK(eyeLevel({5, 6}, 3) == 2);
    CHECK(isEyeOfLevel({5, 2, 5}, 3));
    CHECK_FALSE(isEyeOfLevel({5, 3, 5}, 3));
}

// ---- §5 closed forms -----------------------------------------------------------------------

TEST_CASE("OD_k: closed forms eq. 3, 13, 16 and d = 1 equal the recursion for k ≤ 10 (docs/papers/mesh-tcd.md §5.1)",
          "[cangwu]")
{
    const std::vector<std::uint64_t> od1 = {1, 3, 9, 23, 57};
    const std::vector<std::uint64_t> od2 = {3, 15, 69, 291, 1197, 4851};
    const std::vector<std::uint64_t> od3 = {7, 63, 525, 4235, 33957};
    const std::vector<std::uint64_t> od4 = {15, 255, 4125, 66075};
    const std::vector<std::uint64_t> od5 = {31, 1023, 32829};
    const std::vector<std::vector<std::uint64_t>> printed = {od1, od2, od3, od4, od5};
    for (int d = 1; d <= 5; ++d)
        for (std::size_t i = 0; i < printed[static_cast<std::size_t>(d - 1)].size(); ++i)
            CHECK(cangWuOptimum(d, static_cast<int>(i) + 1) == printed[static_cast<std::size_t>(d - 1)][i]);
    for (int d = 1; d <= 5; ++d)
        for (int k = 1; k <= 10; ++k) {
            CAPTURE(d, k);
            CHECK(cangWuOptimumClosedForm(d, k) == cangWuOptimum(d, k));
            if (d == 2 || d == 3)
                CHECK(cangWuOptimumPaperForm(d, k) == cangWuOptimum(d, k));
        }
    CHECK(cangWuOptimumClosedForm(6, 9) == cangWuOptimum(6, 9));
    CHECK_THROWS_AS(cangWuOptimumPaperForm(4, 2), Error);
}

TEST_CASE("OD_k: the generators reach OD_k at an eye in every mode (docs/papers/mesh-tcd.md §5.1, §9)", "[cangwu]")
{
    const std::vector<std::pair<int, int>> shapes = {{1, 6}, {2, 1}, {2, 5}, {3, 3}, {4, 2}, {5, 2}, {6, 1}};
    for (auto [d, k] : shapes)
        for (CangWuMode mode : {kOptimal, kEyeBest, kPaper}) {
            CAPTURE(d, k, toString(mode));
            const std::vector<Coord> eyes = meshEyes(d, k);
            for (const Coord& e : eyes) {
                NodeId id{};
                for (int i = d - 1; i >= 0; --i)
                    id = NodeId{(id << k) | static_cast<std::uint32_t>(e[static_cast<std::size_t>(i)])};
                CHECK(sendsTcd(cangWuSends(d, k, id, mode), d, k) == cangWuOptimum(d, k));
                CHECK(cangWuTcd(d, k, id, mode) == cangWuOptimum(d, k));
            }
        }
}

TEST_CASE("corner: eq. 8, eq. 9 and the d-D corner formula, against the generators (docs/papers/mesh-tcd.md §5.2)",
          "[cangwu]")
{
    const std::vector<std::uint64_t> corner2 = {3, 18, 79, 318, 1259, 4986, 19815};
    for (int k = 1; k <= 7; ++k) {
        CHECK(cangWuCornerTcd2d(k, false) == corner2[static_cast<std::size_t>(k - 1)]);
        CHECK(cangWuCornerTcd2d(k, true) == corner2[static_cast<std::size_t>(k - 1)]);
        CHECK(cangWuCornerTcd(2, k) == corner2[static_cast<std::size_t>(k - 1)]);
    }
    for (int k = 1; k <= 11; ++k)
        CHECK(cangWuCornerTcd2d(k, true) == cangWuCornerTcd2d(k, false));
    const std::vector<std::uint64_t> corner3 = {7, 69, 546, 4292, 34089};
    const std::vector<std::uint64_t> corner4 = {15, 265, 4161, 66173};
    for (int k = 1; k <= 5; ++k)
        CHECK(cangWuCornerTcd(3, k) == corner3[static_cast<std::size_t>(k - 1)]);
    for (int k = 1; k <= 4; ++k)
        CHECK(cangWuCornerTcd(4, k) == corner4[static_cast<std::size_t>(k - 1)]);
    // Same in all three modes (spec §5.2), from the generator and from the per-source cost.
    const std::vector<std::pair<int, int>> shapes = {{1, 8}, {2, 6}, {3, 4}, {4, 3}};
    for (auto [d, k] : shapes)
        for (CangWuMode mode : {kOptimal, kEyeBest, kPaper}) {
            CAPTURE(d, k, toString(mode));
            CHECK(cangWuTcd(d, k, NodeId{0}, mode) == cangWuCornerTcd(d, k));
            CHECK(sendsTcd(cangWuSends(d, k, NodeId{0}, mode), d, k) == cangWuCornerTcd(d, k));
        }
}

TEST_CASE("k = 2, any d: MD(S) = 4^d − 1 + t(t+1)/2, paper adds the canonical positions (docs/papers/mesh-tcd.md §5.3)",
          "[cangwu]")
{
    for (int d = 1; d <= 5; ++d) {
        const std::vector<int> canon = canonicalDimensionOrder(d);
        const auto optimal = cangWuTcdSourceMap(d, 2, kOptimal);
        const auto best = cangWuTcdSourceMap(d, 2, kEyeBest);
        const auto paper = cangWuTcdSourceMap(d, 2, kPaper);
        for (NodeId s{}; s < optimal.size(); ++s) {
            const Coord c = coordOf(s, d, 2);
            std::uint64_t t = 0, positions = 0;
            for (int q = 0; q < d; ++q) {
                const int v = c[static_cast<std::size_t>(canon[static_cast<std::size_t>(q)])];
                if (v == 0 || v == 3) {
                    ++t;
                    positions += static_cast<std::uint64_t>(q + 1);
                }
            }
            const std::uint64_t md = (std::uint64_t{1} << (2 * d)) - 1 + t * (t + 1) / 2;
            CAPTURE(d, s);
            CHECK(optimal[s] == md);
            CHECK(best[s] == md);
            CHECK(paper[s] == (std::uint64_t{1} << (2 * d)) - 1 + positions);
        }
    }
}

TEST_CASE("hypercube (k = 1): TCD 2^d − 1 and every send is one hop (docs/papers/mesh-tcd.md §9)", "[cangwu]")
{
    for (int d = 1; d <= 6; ++d)
        for (CangWuMode mode : {kOptimal, kEyeBest, kPaper})
            for (NodeId s{}; s < (NodeId{1} << d); ++s) {
                const auto sends = cangWuSends(d, 1, s, mode);
                REQUIRE(isBinomialBroadcast(sends, d, 1, s));
                for (const auto& t : sends)
                    CHECK(manhattan(t.from, t.to, d, 1) == 1);
                CHECK(cangWuTcd(d, 1, s, mode) == (std::uint64_t{1} << d) - 1);
            }
}

// ---- §6 numbers and tables -----------------------------------------------------------------

TEST_CASE(
    "mesh 4×4: MD 18/16/16/15, paper 17 at (1,0), table and sums 260/260/264 (docs/papers/mesh-tcd.md §6.1, §6.2)",
    "[cangwu]")
{
    CHECK(matrix2d(cangWuTcdSourceMap(2, 2, kOptimal), 2) == cangwu_spec::k4x4);
    CHECK(matrix2d(cangWuTcdSourceMap(2, 2, kEyeBest), 2) == cangwu_spec::k4x4);
    auto paper = cangwu_spec::k4x4;
    paper[0][1] = paper[0][2] = paper[3][1] = paper[3][2] = 17;
    CHECK(matrix2d(cangWuTcdSourceMap(2, 2, kPaper), 2) == paper);
    CHECK(sum(cangWuTcdSourceMap(2, 2, kOptimal)) == 260);
    CHECK(sum(cangWuTcdSourceMap(2, 2, kEyeBest)) == 260);
    CHECK(sum(cangWuTcdSourceMap(2, 2, kPaper)) == 264);
    for (CangWuMode mode : {kOptimal, kEyeBest, kPaper}) {
        CHECK(cangWuTcd(2, 2, nodeAt(2, {0, 0}), mode) == 18);
        CHECK(cangWuTcd(2, 2, nodeAt(2, {0, 1}), mode) == 16);
        CHECK(cangWuTcd(2, 2, nodeAt(2, {1, 1}), mode) == 15);
    }
    CHECK(cangWuTcd(2, 2, nodeAt(2, {1, 0}), kPaper) == 17); // the papers' (wrong) MD(1,0)
    CHECK(cangWuTcd(2, 2, nodeAt(2, {1, 0}), kEyeBest) == 16);
    CHECK(cangWuTcd(2, 2, nodeAt(2, {1, 0}), kOptimal) == 16);
    // Step breakdowns printed by the papers: (0,0) 2 + 4 + 12; (0,1) 2 + (1+1) + 12; (1,0) paper
    // 1 + (2+2) + 12; (1,1) 15. The papers' first two steps aim at other (equally cheap) nodes
    // than the generators' (§3.6 golden: (0,0) 3 + (2+1)), so compare the level-2 phase total.
    auto phases = [](NodeId s, CangWuMode mode) {
        const auto per = stepTcd(cangWuSends(2, 2, s, mode), 2, 2);
        return std::vector<std::uint64_t>{per[0] + per[1], per[2] + per[3]};
    };
    CHECK(phases(nodeAt(2, {0, 0}), kPaper) == std::vector<std::uint64_t>{2 + 4, 12});
    CHECK(phases(nodeAt(2, {0, 1}), kPaper) == std::vector<std::uint64_t>{2 + 1 + 1, 12});
    CHECK(phases(nodeAt(2, {1, 0}), kPaper) == std::vector<std::uint64_t>{1 + 2 + 2, 12});
    CHECK(phases(nodeAt(2, {1, 1}), kPaper) == std::vector<std::uint64_t>{3, 12});
    CHECK(phases(nodeAt(2, {1, 0}), kEyeBest) == std::vector<std::uint64_t>{4, 12});
    // 2×2 and 2×2×2: 1 + 2 = 3 and 1 + 2 + 4 = 7 from every node.
    for (NodeId s{}; s < 4; ++s)
        CHECK(stepTcd(cangWuSends(2, 1, s, kPaper), 2, 1) == std::vector<std::uint64_t>{1, 2});
    for (NodeId s{}; s < 8; ++s)
        CHECK(stepTcd(cangWuSends(3, 1, s, kPaper), 3, 1) == std::vector<std::uint64_t>{1, 2, 4});
}

TEST_CASE("mesh 8×8: the three tables, sums 4612/4640/4672, corner 79, OD 69 (docs/papers/mesh-tcd.md §6.1, §6.2)",
          "[cangwu]")
{
    const auto optimal = cangWuTcdSourceMap(2, 3, kOptimal);
    const auto best = cangWuTcdSourceMap(2, 3, kEyeBest);
    const auto paper = cangWuTcdSourceMap(2, 3, kPaper);
    CHECK(matrix2d(optimal, 3) == cangwu_spec::k8x8Optimal);
    CHECK(matrix2d(best, 3) == cangwu_spec::k8x8EyeBest);
    CHECK(matrix2d(paper, 3) == cangwu_spec::k8x8Paper);
    CHECK(sum(optimal) == 4612);
    CHECK(sum(best) == 4640);
    CHECK(sum(paper) == 4672);
    for (CangWuMode mode : {kOptimal, kEyeBest, kPaper}) {
        CHECK(cangWuTcd(2, 3, nodeAt(3, {0, 0}), mode) == 79);
        CHECK(cangWuTcd(2, 3, nodeAt(3, {2, 2}), mode) == 69);
    }
    // The ILP's ten source classes (spec §7.2) are exactly the optimal values.
    const std::vector<std::tuple<int, int, std::uint64_t>> ilp = {{2, 2, 69}, {2, 3, 69}, {2, 1, 70}, {3, 1, 70},
                                                                  {1, 1, 72}, {3, 3, 71}, {2, 0, 73}, {3, 0, 74},
                                                                  {1, 0, 75}, {0, 0, 79}};
    for (auto [x, y, v] : ilp)
        CHECK(optimal[nodeAt(3, {x, y})] == v);
    // Algorithm 1 from the corner: FD 7, SD 6 + 3, RD 18 + 3·15 = 63.
    const auto per = stepTcd(cangWuSends(2, 3, NodeId{0}, kPaper), 2, 3);
    CHECK(per[0] == 7);
    CHECK(per[1] == 9);
    CHECK(per[2] + per[3] + per[4] + per[5] == 63);
    CHECK(cangWuTcd(2, 4, NodeId{0}, kOptimal) == 318);
}

TEST_CASE("mesh 16×16: the three tables and sums 76520/76808/77120 (docs/papers/mesh-tcd.md §6.2)", "[cangwu]")
{
    const auto optimal = cangWuTcdSourceMap(2, 4, kOptimal);
    const auto best = cangWuTcdSourceMap(2, 4, kEyeBest);
    const auto paper = cangWuTcdSourceMap(2, 4, kPaper);
    CHECK(matrix2d(optimal, 4) == mirrored(cangwu_spec::k16x16OptimalTop));
    CHECK(matrix2d(best, 4) == mirrored(cangwu_spec::k16x16EyeBestTop));
    CHECK(matrix2d(paper, 4) == mirrored(cangwu_spec::k16x16PaperTop));
    CHECK(sum(optimal) == 76520);
    CHECK(sum(best) == 76808);
    CHECK(sum(paper) == 77120);
    CHECK(*std::min_element(optimal.begin(), optimal.end()) == 291);
}

TEST_CASE("mesh 4×4×4: the planes, 63 at the 8 eyes, sums 4176/4224 (docs/papers/mesh-tcd.md §6.3)", "[cangwu]")
{
    const auto optimal = cangWuTcdSourceMap(3, 2, kOptimal);
    const auto best = cangWuTcdSourceMap(3, 2, kEyeBest);
    const auto paper = cangWuTcdSourceMap(3, 2, kPaper);
    for (int y : {0, 3}) {
        CHECK(plane444(optimal, y) == cangwu_spec::k444OuterPlanes);
        CHECK(plane444(best, y) == cangwu_spec::k444OuterPlanes);
        CHECK(plane444(paper, y) == cangwu_spec::k444PaperOuterPlanes);
    }
    for (int y : {1, 2}) {
        CHECK(plane444(optimal, y) == cangwu_spec::k444InnerPlanes);
        CHECK(plane444(best, y) == cangwu_spec::k444InnerPlanes);
        CHECK(plane444(paper, y) == cangwu_spec::k444PaperInnerPlanes);
    }
    CHECK(sum(optimal) == 4176);
    CHECK(sum(best) == 4176);
    CHECK(sum(paper) == 4224);
    // The papers' literal Algorithm 2 is suboptimal for 32 of the 64 sources (spec §7.2).
    int worse = 0;
    for (std::size_t s = 0; s < paper.size(); ++s)
        worse += paper[s] > optimal[s] ? 1 : 0;
    CHECK(worse == 32);
    for (const Coord& e : meshEyes(3, 2))
        CHECK(optimal[nodeAt(2, {e[0], e[1], e[2]})] == 63);
}

TEST_CASE("mesh 8×8×8: eye modes 525 at the 8 eyes only, corner 546 (docs/papers/mesh-tcd.md §6.3)", "[cangwu]")
{
    for (CangWuMode mode : {kEyeBest, kPaper}) {
        const auto map = cangWuTcdSourceMap(3, 3, mode);
        std::set<NodeId> minima;
        for (NodeId s{}; s < map.size(); ++s)
            if (map[s] == 525)
                minima.insert(s);
        CHECK(*std::min_element(map.begin(), map.end()) == 525);
        std::set<NodeId> eyes;
        for (const Coord& e : meshEyes(3, 3))
            eyes.insert(nodeAt(3, {e[0], e[1], e[2]}));
        CHECK(minima == eyes);
        CHECK(map[0] == 546);
    }
    CHECK(cangWuTcd(3, 3, NodeId{0}, kOptimal) == 546);
}

// ---- §4 Lemma 2 against the generators -----------------------------------------------------

TEST_CASE("Lemma 2: OD_k + Σ f_j equals the eye-mode generators for every source (docs/papers/mesh-tcd.md §4, §7.1)",
          "[cangwu]")
{
    const std::vector<std::pair<int, int>> shapes = {{1, 6}, {2, 2}, {2, 3}, {2, 4}, {3, 2}, {3, 3}, {4, 2}};
    for (auto [d, k] : shapes)
        for (CangWuMode mode : {kEyeBest, kPaper}) {
            CAPTURE(d, k, toString(mode));
            const auto map = cangWuTcdSourceMap(d, k, mode);
            for (NodeId s{}; s < map.size(); ++s) {
                const auto sends = cangWuSends(d, k, s, mode);
                REQUIRE(isBinomialBroadcast(sends, d, k, s));
                REQUIRE(sendsTcd(sends, d, k) == map[s]);
                std::int64_t excess = 0;
                for (int j = 2; j <= k; ++j) {
                    const std::int64_t f = cangWuLevelExcess(d, k, s, j, mode);
                    // f_j ≥ 0 for d ≥ 2 (Theorem 1 / 2); on a path f_j = u_x can be negative.
                    if (d >= 2)
                        CHECK(f >= 0);
                    excess += f;
                }
                CHECK(map[s] == cangWuOptimum(d, k) + static_cast<std::uint64_t>(excess));
            }
        }
    // Worked check: 8×8 corner, u = v = 2, A = 1: f_3 = 7, so D = 9 + 7 + 18 + 45 = 79.
    CHECK(cangWuLevelExcess(2, 3, NodeId{0}, 3, kPaper) == 7);
    CHECK_THROWS_AS(cangWuLevelExcess(2, 3, NodeId{0}, 3, kOptimal), Error);
}

TEST_CASE("SubmeshOptimal: the DP table equals the TCD of the rebuilt schedule for every source "
          "(docs/papers/mesh-tcd.md §3.4)",
          "[cangwu]")
{
    const std::vector<std::pair<int, int>> shapes = {{1, 6}, {2, 2}, {2, 3}, {2, 4}, {3, 2}, {3, 3}, {4, 2}};
    for (auto [d, k] : shapes) {
        CAPTURE(d, k);
        const auto map = cangWuTcdSourceMap(d, k, kOptimal);
        for (NodeId s{}; s < map.size(); ++s) {
            const auto sends = cangWuSends(d, k, s, kOptimal);
            REQUIRE(isBinomialBroadcast(sends, d, k, s));
            REQUIRE(sendsTcd(sends, d, k) == map[s]);
        }
    }
}

TEST_CASE(
    "modes are ordered optimal ≤ eye-best ≤ paper for every source of 16×16 and 8×8×8 (docs/papers/mesh-tcd.md §3)",
    "[cangwu]")
{
    for (auto [d, k] : std::vector<std::pair<int, int>>{{2, 4}, {3, 3}, {2, 5}, {4, 2}}) {
        CAPTURE(d, k);
        const auto optimal = cangWuTcdSourceMap(d, k, kOptimal);
        const auto best = cangWuTcdSourceMap(d, k, kEyeBest);
        const auto paper = cangWuTcdSourceMap(d, k, kPaper);
        for (std::size_t s = 0; s < optimal.size(); ++s) {
            CHECK(optimal[s] <= best[s]);
            CHECK(best[s] <= paper[s]);
            CHECK(optimal[s] >= cangWuOptimum(d, k));
        }
    }
}

TEST_CASE("§8: optimal beats eye-best on 28/64, 192/256, 296/512 sources, 12 sources reach OD in 8×8 and 16×16",
          "[cangwu]")
{
    auto countBetter = [](int d, int k) {
        const auto optimal = cangWuTcdSourceMap(d, k, kOptimal);
        const auto best = cangWuTcdSourceMap(d, k, kEyeBest);
        int better = 0;
        for (std::size_t s = 0; s < optimal.size(); ++s)
            better += optimal[s] < best[s] ? 1 : 0;
        return better;
    };
    CHECK(countBetter(2, 3) == 28);
    CHECK(countBetter(2, 4) == 192);
    CHECK(countBetter(3, 3) == 296);
    CHECK(countBetter(2, 2) == 0);
    CHECK(countBetter(1, 4) == 0);
    for (int k : {3, 4}) {
        const auto optimal = cangWuTcdSourceMap(2, k, kOptimal);
        CHECK(std::count(optimal.begin(), optimal.end(), cangWuOptimum(2, k)) == 12);
    }
    CHECK(cangWuTcd(2, 3, nodeAt(3, {3, 2}), kOptimal) == 69);
    CHECK(cangWuTcd(2, 3, nodeAt(3, {2, 4}), kOptimal) == 69);
}

TEST_CASE("tables are symmetric under reflections (all modes) and axis permutations (eye-best, optimal) (spec §5.3)",
          "[cangwu]")
{
    const int d = 3, k = 3, n = 8;
    for (CangWuMode mode : {kOptimal, kEyeBest, kPaper}) {
        const auto map = cangWuTcdSourceMap(d, k, mode);
        bool permSymmetric = true;
        for (NodeId s{}; s < map.size(); ++s) {
            const Coord c = coordOf(s, d, k);
            CHECK(map[s] == map[nodeAt(k, {n - 1 - c[0], c[1], c[2]})]);
            CHECK(map[s] == map[nodeAt(k, {c[0], n - 1 - c[1], c[2]})]);
            CHECK(map[s] == map[nodeAt(k, {c[0], c[1], n - 1 - c[2]})]);
            permSymmetric = permSymmetric && map[s] == map[nodeAt(k, {c[1], c[0], c[2]})] &&
                            map[s] == map[nodeAt(k, {c[2], c[1], c[0]})];
        }
        CHECK(permSymmetric == (mode != kPaper));
    }
}

// ---- §7.2 exhaustive ground truth ---------------------------------------------------------

TEST_CASE("exhaustive optimum over all time-step-optimal schedules equals optimal on 4×4, 2×2×2, 2^4 and paths "
          "(docs/papers/mesh-tcd.md §7.2)",
          "[cangwu]")
{
    const auto exact4x4 = exhaustiveMinTcdSourceMap(2, 2);
    CHECK(matrix2d(exact4x4, 2) == cangwu_spec::k4x4);
    CHECK(exact4x4 == cangWuTcdSourceMap(2, 2, kOptimal));
    CHECK(exact4x4 == cangWuTcdSourceMap(2, 2, kEyeBest));
    CHECK(exhaustiveMinTcdSourceMap(2, 1) == std::vector<std::uint64_t>(4, 3));
    CHECK(exhaustiveMinTcdSourceMap(3, 1) == std::vector<std::uint64_t>(8, 7));
    CHECK(exhaustiveMinTcdSourceMap(3, 1) == cangWuTcdSourceMap(3, 1, kOptimal));
    CHECK(exhaustiveMinTcdSourceMap(4, 1) == cangWuTcdSourceMap(4, 1, kOptimal));
    for (int k = 1; k <= 4; ++k) {
        CAPTURE(k);
        const auto exact = exhaustiveMinTcdSourceMap(1, k);
        CHECK(exact == cangWuTcdSourceMap(1, k, kOptimal));
        CHECK(exact == cangWuTcdSourceMap(1, k, kPaper)); // d = 1: every mode is minimal
    }
    CHECK(exhaustiveMinTcdSourceMap(1, 4)[0] == 31);
    CHECK_THROWS_WITH(exhaustiveMinTcdSourceMap(2, 3), Catch::Contains("at most 16 nodes"));
}

// ---- §3.6 golden schedules -----------------------------------------------------------------

TEST_CASE("golden schedules of docs/papers/mesh-tcd.md §3.6 (eye modes exactly, optimal by cost)", "[cangwu]")
{
    auto n2 = [](int k, int x, int y) { return nodeAt(k, {x, y}); };
    auto n3 = [](int k, int x, int y, int z) { return nodeAt(k, {x, y, z}); };

    SECTION("4×4, S = (0,0): 18 in every mode; the eye modes send exactly the listed messages")
    {
        const std::set<SendKey> golden = {
            {1, n2(2, 0, 0), n2(2, 2, 1)}, {2, n2(2, 0, 0), n2(2, 0, 2)}, {2, n2(2, 2, 1), n2(2, 2, 2)},
            {3, n2(2, 0, 0), n2(2, 1, 0)}, {3, n2(2, 0, 2), n2(2, 1, 2)}, {3, n2(2, 2, 1), n2(2, 3, 1)},
            {3, n2(2, 2, 2), n2(2, 3, 2)}, {4, n2(2, 0, 0), n2(2, 0, 1)}, {4, n2(2, 0, 2), n2(2, 0, 3)},
            {4, n2(2, 1, 0), n2(2, 1, 1)}, {4, n2(2, 1, 2), n2(2, 1, 3)}, {4, n2(2, 2, 1), n2(2, 2, 0)},
            {4, n2(2, 2, 2), n2(2, 2, 3)}, {4, n2(2, 3, 1), n2(2, 3, 0)}, {4, n2(2, 3, 2), n2(2, 3, 3)}};
        CHECK(keysOf(cangWuSends(2, 2, NodeId{0}, kPaper), 4) == golden);
        CHECK(keysOf(cangWuSends(2, 2, NodeId{0}, kEyeBest), 4) == golden);
        CHECK(sendsTcd(cangWuSends(2, 2, NodeId{0}, kOptimal), 2, 2) == 18);
    }
    SECTION("4×4, S = (1,0): paper 17 (x first), eye-best 16 (y first)")
    {
        const NodeId s = n2(2, 1, 0);
        const auto paper = cangWuSends(2, 2, s, kPaper);
        CHECK(keysOf(paper, 2) ==
              std::set<SendKey>{{1, s, n2(2, 2, 1)}, {2, s, n2(2, 1, 2)}, {2, n2(2, 2, 1), n2(2, 2, 2)}});
        CHECK(sendsTcd(paper, 2, 2) == 17);
        const auto best = cangWuSends(2, 2, s, kEyeBest);
        CHECK(keysOf(best, 2) ==
              std::set<SendKey>{{1, s, n2(2, 1, 2)}, {2, s, n2(2, 2, 0)}, {2, n2(2, 1, 2), n2(2, 2, 2)}});
        CHECK(sendsTcd(best, 2, 2) == 16);
    }
    SECTION("8×8, S = (0,0): 79 = 7 + (6 + 3) + quadrants 18 + 15 + 15 + 15")
    {
        const auto sends = cangWuSends(2, 3, NodeId{0}, kPaper);
        CHECK(keysOf(sends, 2) ==
              std::set<SendKey>{{1, 0, n2(3, 5, 2)}, {2, 0, n2(3, 1, 5)}, {2, n2(3, 5, 2), n2(3, 5, 5)}});
        CHECK(sendsTcd(sends, 2, 3) == 79);
        CHECK(keysOf(cangWuSends(2, 3, NodeId{0}, kEyeBest), 2) == keysOf(sends, 2));
    }
    SECTION("8×8, S = (2,3): eye-best 70 via (5,2), (2,5), (5,5); optimal 69 = 5 + 4·16")
    {
        const NodeId s = n2(3, 2, 3);
        const auto best = cangWuSends(2, 3, s, kEyeBest);
        CHECK(keysOf(best, 2) ==
              std::set<SendKey>{{1, s, n2(3, 5, 2)}, {2, s, n2(3, 2, 5)}, {2, n2(3, 5, 2), n2(3, 5, 5)}});
        CHECK(sendsTcd(best, 2, 3) == 70);
        CHECK(sendsTcd(cangWuSends(2, 3, s, kPaper), 2, 3) == 71);
        const auto optimal = cangWuSends(2, 3, s, kOptimal);
        const auto per = stepTcd(optimal, 2, 3);
        CHECK(per[0] + per[1] == 5);
        CHECK(sendsTcd(optimal, 2, 3) == 69);
        // Every quadrant starts from an edge-middle node of its 4×4 box: 16 each.
        for (const auto& t : optimal)
            if (t.level == 3)
                CHECK(cangWuTcd(2, 2,
                                nodeAt(2, {static_cast<int>(coordOf(t.to, 2, 3)[0] & 3),
                                           static_cast<int>(coordOf(t.to, 2, 3)[1] & 3)}),
                                kOptimal) == 16);
    }
    SECTION("2×2×2, S = (0,0,0): 7, x then z then y")
    {
        const std::set<SendKey> golden = {{1, n3(1, 0, 0, 0), n3(1, 1, 0, 0)}, {2, n3(1, 0, 0, 0), n3(1, 0, 0, 1)},
                                          {2, n3(1, 1, 0, 0), n3(1, 1, 0, 1)}, {3, n3(1, 0, 0, 0), n3(1, 0, 1, 0)},
                                          {3, n3(1, 0, 0, 1), n3(1, 0, 1, 1)}, {3, n3(1, 1, 0, 0), n3(1, 1, 1, 0)},
                                          {3, n3(1, 1, 0, 1), n3(1, 1, 1, 1)}};
        for (CangWuMode mode : {kOptimal, kEyeBest, kPaper})
            CHECK(keysOf(cangWuSends(3, 1, NodeId{0}, mode), 3) == golden);
    }
    SECTION("4×4×4 from the eye (1,1,1): 63, every level-2 send is 1 (Algorithm 3)")
    {
        const NodeId s = n3(2, 1, 1, 1);
        const auto sends = cangWuSends(3, 2, s, kPaper);
        CHECK(keysOf(sends, 3) == std::set<SendKey>{{1, s, n3(2, 2, 1, 1)},
                                                    {2, s, n3(2, 1, 1, 2)},
                                                    {2, n3(2, 2, 1, 1), n3(2, 2, 1, 2)},
                                                    {3, s, n3(2, 1, 2, 1)},
                                                    {3, n3(2, 1, 1, 2), n3(2, 1, 2, 2)},
                                                    {3, n3(2, 2, 1, 1), n3(2, 2, 2, 1)},
                                                    {3, n3(2, 2, 1, 2), n3(2, 2, 2, 2)}});
        CHECK(sendsTcd(sends, 3, 2) == 63);
    }
    SECTION("4×4×4, S = (1,0,1): paper 66, eye-best 64 (y first)")
    {
        const NodeId s = n3(2, 1, 0, 1);
        const auto paper = cangWuSends(3, 2, s, kPaper);
        CHECK(keysOf(paper, 1) == std::set<SendKey>{{1, s, n3(2, 2, 1, 1)}});
        CHECK(sendsTcd(paper, 3, 2) == 66);
        const auto best = cangWuSends(3, 2, s, kEyeBest);
        CHECK(keysOf(best, 2) ==
              std::set<SendKey>{{1, s, n3(2, 1, 2, 1)}, {2, s, n3(2, 2, 0, 1)}, {2, n3(2, 1, 2, 1), n3(2, 2, 2, 1)}});
        CHECK(sendsTcd(best, 3, 2) == 64);
    }
    SECTION("8×8×8, S = (0,0,0): 546 = 9 + (8 + 3) + (7 + 3·3) + …")
    {
        const auto sends = cangWuSends(3, 3, NodeId{0}, kPaper);
        CHECK(keysOf(sends, 3) == std::set<SendKey>{{1, 0, n3(3, 5, 2, 2)},
                                                    {2, 0, n3(3, 1, 2, 5)},
                                                    {2, n3(3, 5, 2, 2), n3(3, 5, 2, 5)},
                                                    {3, 0, n3(3, 1, 5, 1)},
                                                    {3, n3(3, 1, 2, 5), n3(3, 1, 5, 5)},
                                                    {3, n3(3, 5, 2, 2), n3(3, 5, 5, 2)},
                                                    {3, n3(3, 5, 2, 5), n3(3, 5, 5, 5)}});
        CHECK(sendsTcd(sends, 3, 3) == 546);
    }
}

// ---- torus -----------------------------------------------------------------------------------

TEST_CASE("torus: every source gets OD_k from the translated eye schedule (docs/papers/mesh-tcd.md §3.2, §9)",
          "[cangwu]")
{
    for (auto [d, k] : std::vector<std::pair<int, int>>{{1, 4}, {2, 2}, {2, 3}, {2, 4}, {3, 2}, {3, 3}}) {
        CAPTURE(d, k);
        const int n = 1 << k;
        Coord eye(static_cast<std::size_t>(d), static_cast<int>(eyeLo(k)));
        NodeId eyeId{};
        for (int i = d - 1; i >= 0; --i)
            eyeId = NodeId{(eyeId << k) | static_cast<std::uint32_t>(eye[static_cast<std::size_t>(i)])};
        const auto base = cangWuSends(d, k, eyeId, kPaper);
        for (NodeId s{}; s < (NodeId{1} << (d * k)); ++s) {
            const auto sends = cangWuTorusSends(d, k, s);
            REQUIRE(isBinomialBroadcast(sends, d, k, s));
            REQUIRE(sends.size() == base.size());
            const Coord sc = coordOf(s, d, k);
            std::uint64_t tcd = 0;
            for (std::size_t i = 0; i < sends.size(); ++i) {
                // A translation of the eye schedule by (S − E(1)) mod n …
                const Coord f = coordOf(sends[i].from, d, k), bf = coordOf(base[i].from, d, k);
                const Coord t = coordOf(sends[i].to, d, k), bt = coordOf(base[i].to, d, k);
                int changed = 0, length = 0;
                for (int q = 0; q < d; ++q) {
                    const auto z = static_cast<std::size_t>(q);
                    const int shift = ((sc[z] - eye[z]) % n + n) % n;
                    CHECK(f[z] == (bf[z] + shift) % n);
                    CHECK(t[z] == (bt[z] + shift) % n);
                    const int delta = std::abs(t[z] - f[z]);
                    const int wrap = std::min(delta, n - delta);
                    changed += wrap != 0 ? 1 : 0;
                    length += wrap;
                }
                // … whose sends are straight segments of length a_j < n/2 (no wrap link needed).
                CHECK(changed == 1);
                CHECK(length == eyeSide(static_cast<int>(sends[i].level)));
                CHECK(2 * length < n);
                tcd += static_cast<std::uint64_t>(length);
            }
            CHECK(tcd == cangWuOptimum(d, k));
        }
    }
}

// ---- bad input -------------------------------------------------------------------------------

TEST_CASE("cang-wu rejects bad shapes, sources and modes with a clear message (docs/papers/mesh-tcd.md §1.1)",
          "[cangwu]")
{
    CHECK_THROWS_WITH(parseCangWuMode("fast"),
                      Catch::Contains("'fast'") && Catch::Contains("optimal, eye-best, paper"));
    CHECK(parseCangWuMode("eye-best") == kEyeBest);
    CHECK(parseCangWuMode("PaperLiteral") == kPaper);
    CHECK(toString(kOptimal) == "optimal");
    CHECK_THROWS_WITH(cangWuSends(7, 1, NodeId{0}, kPaper), Catch::Contains("d = 1..6"));
    CHECK_THROWS_WITH(cangWuSends(2, 0, NodeId{0}, kPaper), Catch::Contains("k ≥ 1"));
    CHECK_THROWS_WITH(cangWuSends(2, 13, NodeId{0}, kPaper), Catch::Contains("2^24"));
    CHECK_THROWS_WITH(cangWuSends(2, 2, NodeId{16}, kOptimal), Catch::Contains("source 16"));
    CHECK_THROWS_WITH(cangWuTcdSourceMap(7, 2, kEyeBest), Catch::Contains("d = 1..6"));
    CHECK_THROWS_AS(cangWuTorusSends(2, 1, NodeId{0}), Error);
    CHECK_THROWS_AS(cangWuOptimum(6, 10), Error);
}

TEST_CASE("d = 5, 6: every generator is a binomial broadcast whose TCD is the per-source table", "[cangwu]")
{
    for (auto [d, k] : std::vector<std::pair<int, int>>{{5, 2}, {6, 2}, {5, 1}, {6, 1}}) {
        CAPTURE(d, k);
        for (CangWuMode mode : {kOptimal, kEyeBest, kPaper}) {
            const auto map = cangWuTcdSourceMap(d, k, mode);
            for (NodeId s{}; s < map.size(); s = NodeId{s + 97}) {
                const auto sends = cangWuSends(d, k, s, mode);
                REQUIRE(isBinomialBroadcast(sends, d, k, s));
                REQUIRE(sendsTcd(sends, d, k) == map[s]);
            }
        }
    }
}
