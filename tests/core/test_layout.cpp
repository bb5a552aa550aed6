#include "topocast/layout.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace topocast;

namespace {
Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
bool parallel(const Vec3& a, const Vec3& b)
{
    const Vec3 c{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    return std::abs(c[0]) + std::abs(c[1]) + std::abs(c[2]) < 1e-4f;
}
} // namespace

TEST_CASE("layout: mesh grid with x right and y down, centred", "[layout]")
{
    const Topology t = Topology::mesh({4, 3});
    const auto p = nodePositions(t);
    CHECK(p[t.id({1, 0})][0] - p[t.id({0, 0})][0] == Approx(1));
    CHECK(p[t.id({0, 1})][1] - p[t.id({0, 0})][1] == Approx(-1));  // y grows downward
    const auto [lo, hi] = layoutBounds(p);
    CHECK(lo[0] == Approx(-1.5));
    CHECK(hi[0] == Approx(1.5));
    CHECK(lo[1] == Approx(-1));
}

TEST_CASE("layout: hypercubes up to n = 10 have distinct positions and parallel edges per dimension", "[layout][hypercube]")
{
    for (int n = 1; n <= 10; ++n) {
        const Topology t = Topology::hypercube(n);
        const auto p = nodePositions(t);
        std::set<std::array<long, 3>> seen;
        for (const Vec3& v : p)
            seen.insert({std::lround(v[0] * 1000), std::lround(v[1] * 1000), std::lround(v[2] * 1000)});
        CHECK(seen.size() == t.nodeCount());
        for (int d = 0; d < n; ++d) {
            const Vec3 axis = dimensionAxis(t, d);
            for (NodeId v = 0; v < t.nodeCount(); v += 7)
                CHECK(parallel(sub(p[v ^ (1u << d)], p[v]), axis));
        }
    }
}

TEST_CASE("layout: 4-D and 6-D meshes place distinct nodes", "[layout]")
{
    for (const auto& sides : {std::vector<int>{3, 3, 3, 3}, std::vector<int>{2, 2, 2, 2, 2, 2}}) {
        const auto p = nodePositions(Topology::mesh(sides));
        std::set<std::array<long, 3>> seen;
        for (const Vec3& v : p)
            seen.insert({std::lround(v[0] * 1000), std::lround(v[1] * 1000), std::lround(v[2] * 1000)});
        CHECK(seen.size() == p.size());
    }
}

TEST_CASE("picking: the first sphere along the ray wins", "[layout][picking]")
{
    const Topology t = Topology::mesh({4, 4, 4});
    const auto p = nodePositions(t);
    // Looking down −Z through the column x = 1, y = 2: the node with the largest z is hit first.
    const Vec3 target = p[t.id({1, 2, 3})];
    const Vec3 origin{target[0], target[1], 50.f};
    CHECK(pickNode(origin, {0, 0, -1}, p, 0.3f) == t.id({1, 2, 3}));
    CHECK(pickNode(origin, {0, 0, 1}, p, 0.3f) == -1);         // pointing away
    CHECK(pickNode({100, 100, 100}, {1, 0, 0}, p, 0.3f) == -1);  // misses everything
    // A slanted ray from the camera toward one node.
    const Vec3 node = p[t.id({3, 0, 1})];
    const Vec3 cam{20, 15, 30};
    CHECK(pickNode(cam, sub(node, cam), p, 0.2f) == t.id({3, 0, 1}));
}
