// SCATTER(p): the embedding of the layers on (x, y, z) nodes (Drozdowski & Głazek §2.2; our reconstruction
// of the paper's lost Figs. 1–2).

#include "topocast/algorithms/divisible_load.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

using namespace topocast;

namespace {

long long ipow(int b, int e)
{
    long long r = 1;
    for (int i = 0; i < e; ++i)
        r *= b;
    return r;
}

std::size_t find(const ScatterMapping& m, const Point3& c)
{
    for (std::size_t i = 0; i < m.size(); ++i)
        if (m.coords[i] == c)
            return i;
    return m.size();
}

// Checks the invariants of spec §1.5 on one embedding.
void checkInvariants(const ScatterMapping& m)
{
    const int p = m.p, h = m.layers;
    INFO("p = " << p << ", h = " << h);
    REQUIRE(m.size() == static_cast<std::size_t>(ipow(p + 1, h)));
    // Every node used once.
    std::set<Point3> distinct(m.coords.begin(), m.coords.end());
    CHECK(distinct.size() == m.size());
    // Layer sizes p(p+1)^(i−1); node 0 is the originator.
    std::vector<long long> count(static_cast<std::size_t>(h) + 1, 0);
    for (auto l : m.layer)
        ++count[l];
    CHECK(count[0] == 1);
    CHECK(m.layer[0] == 0);
    CHECK(m.coords[0] == m.origin);
    for (int i = 1; i <= h; ++i)
        CHECK(count[static_cast<std::size_t>(i)] == p * ipow(p + 1, i - 1));
    // Layers sorted; parents in earlier layers; coordinates inside the box.
    Point3 lo{1 << 30, 1 << 30, 1 << 30}, hi{-1, -1, -1};
    for (std::size_t i = 0; i < m.size(); ++i) {
        if (i > 0) {
            CHECK(m.layer[i] >= m.layer[i - 1]);
            CHECK(m.layer[m.parent[i]] < m.layer[i]);
        }
        for (std::size_t a = 0; a < 3; ++a) {
            lo[a] = std::min(lo[a], m.coords[i][a]);
            hi[a] = std::max(hi[a], m.coords[i][a]);
        }
    }
    CHECK(lo == m.boxMin);
    CHECK(hi == m.boxMax);
    const auto box = scatterBox(p, h);
    CHECK(box[0] == m.boxMin);
    CHECK(box[1] == m.boxMax);
    CHECK(box[2] == m.origin);
    // In move k every node of layers < k has exactly p children in layer k, nobody else sends.
    for (int k = 1; k <= h; ++k) {
        std::vector<int> children(m.size(), 0);
        for (std::size_t i = 1; i < m.size(); ++i)
            if (m.layer[i] == k)
                ++children[m.parent[i]];
        bool ok = true;
        for (std::size_t i = 0; i < m.size(); ++i) {
            const int want = m.layer[i] < k ? p : 0;
            if (children[i] != want)
                ok = false;
        }
        INFO("move " << k);
        CHECK(ok);
    }
}

} // namespace

TEST_CASE("basic cubes p = 1..6: each position of moves < j has exactly p children in move j (spec §1.5)",
          "[divisible]")
{
    for (int p = 1; p <= 6; ++p) {
        const ScatterBasicCube& c = scatterBasicCube(p);
        INFO("p = " << p);
        CHECK(c.edge() == p + 1);
        CHECK(c.move[static_cast<std::size_t>(c.index(c.origin))] == 0);
        CHECK(std::count(c.move.begin(), c.move.end(), 0) == 1);
        for (int j = 1; j <= 3; ++j) {
            std::map<int, int> children;
            for (std::size_t i = 0; i < c.move.size(); ++i)
                if (c.move[i] == j) {
                    CHECK(c.move[c.parent[i]] < j);
                    ++children[c.parent[i]];
                }
            for (std::size_t i = 0; i < c.move.size(); ++i)
                if (c.move[i] < j)
                    CHECK(children[static_cast<int>(i)] == p);
        }
    }
    CHECK_THROWS_AS(scatterBasicCube(0), Error);
    CHECK_THROWS_AS(scatterBasicCube(7), Error);
}

TEST_CASE("embedding invariants for p = 1..6: (p+1)^h distinct nodes, layer sizes, p children per move "
          "(spec §1.5, §5 item 7)",
          "[divisible]")
{
    const int maxH[7] = {0, 7, 6, 6, 5, 4, 4};
    for (int p = 1; p <= 6; ++p)
        for (int h = 0; h <= maxH[p]; ++h)
            checkInvariants(scatterMapping(p, h));
}

TEST_CASE("embedding spot values: p = 1 h = 6, p = 3 h = 3, p = 4 h = 4, move-1 sets of p = 5, 6 (spec §1.5)",
          "[divisible]")
{
    {
        const auto m = scatterMapping(1, 6);
        auto at = [&](Point3 c) { return find(m, c); };
        REQUIRE(at({2, 0, 0}) < m.size());
        CHECK(m.layer[at({2, 0, 0})] == 1);
        CHECK(m.coords[m.parent[at({2, 0, 0})]] == Point3{0, 0, 0});
        CHECK(m.layer[at({0, 2, 0})] == 2);
        CHECK(m.layer[at({0, 0, 2})] == 3);
        CHECK(m.layer[at({1, 0, 0})] == 4);
        CHECK(m.coords[m.parent[at({1, 0, 0})]] == Point3{0, 0, 0});
        CHECK(m.layer[at({3, 3, 3})] == 6);
        CHECK(m.coords[m.parent[at({3, 3, 3})]] == Point3{3, 3, 2});
    }
    {
        const auto m = scatterMapping(3, 3);
        std::set<Point3> layer1;
        for (std::size_t i = 0; i < m.size(); ++i)
            if (m.layer[i] == 1)
                layer1.insert(m.coords[i]);
        CHECK(layer1 == std::set<Point3>{{0, 1, 3}, {0, 2, 0}, {0, 3, 2}});
    }
    {
        const auto m = scatterMapping(4, 4);
        CHECK(m.origin == Point3{12, 12, 12});
        CHECK(m.size() == 625);
        CHECK(m.boxMin == Point3{2, 2, 0});
        CHECK(m.boxMax == Point3{22, 22, 24});
        CHECK(m.layer[find(m, {12, 12, 2})] == 1);
        for (Point3 c : {Point3{12, 12, 11}, Point3{12, 12, 13}}) {
            const auto i = find(m, c);
            REQUIRE(i < m.size());
            CHECK(m.layer[i] == 4);
            CHECK(m.parent[i] == 0);
        }
        CHECK(find(m, {10, 10, 10}) == m.size());
    }
    auto moveOne = [](int p) {
        const ScatterBasicCube& c = scatterBasicCube(p);
        std::set<Point3> s;
        for (std::size_t i = 0; i < c.move.size(); ++i)
            if (c.move[i] == 1)
                s.insert(c.position(static_cast<int>(i)));
        return s;
    };
    CHECK(moveOne(5) == std::set<Point3>{{2, 3, 1}, {2, 3, 5}, {3, 2, 0}, {3, 2, 2}, {3, 2, 4}});
    CHECK(moveOne(6) == std::set<Point3>{{0, 5, 5}, {1, 2, 2}, {2, 6, 6}, {4, 0, 0}, {5, 4, 4}, {6, 1, 1}});
}

TEST_CASE("the spec's routes for p ≤ 3 are directed-link-disjoint within every move and stay in the box "
          "(spec §1.5 Routes)",
          "[divisible]")
{
    const std::vector<std::pair<int, int>> cases = {{1, 6}, {1, 9}, {2, 6}, {3, 3}, {3, 5}, {3, 6}};
    for (const auto& [p, h] : cases) {
        const auto m = scatterMapping(p, h);
        INFO("p = " << p << ", h = " << h);
        std::set<std::tuple<int, Point3, Point3>> used; // (move, from, to) of each unit hop
        bool disjoint = true, inside = true, connected = true;
        for (std::size_t i = 1; i < m.size(); ++i) {
            const auto path = scatterSpecRoute(m, i);
            if (path.front() != m.coords[m.parent[i]] || path.back() != m.coords[i])
                connected = false;
            for (std::size_t k = 0; k + 1 < path.size(); ++k) {
                int diff = 0;
                for (std::size_t a = 0; a < 3; ++a) {
                    diff += std::abs(path[k + 1][a] - path[k][a]);
                    if (path[k + 1][a] < m.boxMin[a] || path[k + 1][a] > m.boxMax[a])
                        inside = false;
                }
                if (diff != 1)
                    connected = false;
                if (!used.insert({m.layer[i], path[k], path[k + 1]}).second)
                    disjoint = false;
            }
        }
        CHECK(connected);
        CHECK(disjoint);
        CHECK(inside);
    }
}

TEST_CASE("p = 3 move-1 routes follow the spec's hop lists", "[divisible]")
{
    const auto m = scatterMapping(3, 3);
    std::map<Point3, std::vector<Point3>> routes;
    for (std::size_t i = 1; i < m.size(); ++i)
        if (m.layer[i] == 1)
            routes[m.coords[i]] = scatterSpecRoute(m, i);
    CHECK(routes[{0, 1, 3}] == std::vector<Point3>{{0, 0, 1}, {0, 0, 2}, {0, 0, 3}, {0, 1, 3}});
    CHECK(routes[{0, 2, 0}] == std::vector<Point3>{{0, 0, 1}, {0, 0, 0}, {0, 1, 0}, {0, 2, 0}});
    CHECK(routes[{0, 3, 2}] == std::vector<Point3>{{0, 0, 1}, {0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {0, 3, 2}});
}

TEST_CASE("bad embedding requests are errors", "[divisible]")
{
    CHECK_THROWS_AS(scatterMapping(0, 3), Error);
    CHECK_THROWS_AS(scatterMapping(7, 3), Error);
    CHECK_THROWS_AS(scatterMapping(2, -1), Error);
    CHECK_THROWS_WITH(scatterMapping(6, 9), Catch::Matchers::Contains("40353607"));
    CHECK_THROWS_AS(scatterBox(3, -2), Error);
    const auto m = scatterMapping(2, 2);
    CHECK_THROWS_AS(scatterSpecRoute(m, 0), Error);
    CHECK_THROWS_AS(scatterSpecRoute(m, m.size()), Error);
}
