#include "topocast/drawing/camera.h"
#include "topocast/drawing/layout.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

using namespace topocast;

namespace {
Vec3 sub(const Vec3& a, const Vec3& b)
{
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
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
    CHECK(p[t.id({0, 1})][1] - p[t.id({0, 0})][1] == Approx(-1)); // y grows downward
    const auto [lo, hi] = layoutBounds(p);
    CHECK(lo[0] == Approx(-1.5));
    CHECK(hi[0] == Approx(1.5));
    CHECK(lo[1] == Approx(-1));
}

TEST_CASE("layout: hypercubes up to n = 10 have distinct positions and parallel edges per dimension",
          "[layout][hypercube]")
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
            for (NodeId v{}; v < t.nodeCount(); v = NodeId{v + 7})
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
    CHECK(pickNode(origin, {0, 0, 1}, p, 0.3f) == -1);          // pointing away
    CHECK(pickNode({100, 100, 100}, {1, 0, 0}, p, 0.3f) == -1); // misses everything
    // A slanted ray from the camera toward one node.
    const Vec3 node = p[t.id({3, 0, 1})];
    const Vec3 cam{20, 15, 30};
    CHECK(pickNode(cam, sub(node, cam), p, 0.2f) == t.id({3, 0, 1}));
}

namespace {
double segmentDistance(const Vec3& a, const Vec3& b, const Vec3& w)
{
    double ab[3], aw[3], len2 = 0, dot = 0;
    for (int i = 0; i < 3; ++i) {
        ab[i] = double(b[i]) - a[i];
        aw[i] = double(w[i]) - a[i];
        len2 += ab[i] * ab[i];
        dot += ab[i] * aw[i];
    }
    const double t = std::clamp(dot / len2, 0.0, 1.0);
    double d2 = 0;
    for (int i = 0; i < 3; ++i)
        d2 += (aw[i] - t * ab[i]) * (aw[i] - t * ab[i]);
    return std::sqrt(d2);
}
} // namespace

TEST_CASE("layout: hypercube edges pass no other node as drawn and no two edges overlap, n = 1..10",
          "[layout][hypercube]")
{
    // Every edge u — u^(1<<d) as the segment the app draws; no other node's sphere (radius
    // kNodeRadius) may touch it, and two edges of one dimension (parallel) may not lie on one line
    // with overlapping extents. Edges of different dimensions are not parallel (checked), so they
    // cannot share a segment.
    // As drawn: at explode 0 and at the default view's explode, against the drawn node radius.
    for (int n = 1; n <= 10; ++n)
        for (const float explode : {0.0f, defaultExplode(Topology::hypercube(n))}) {
            INFO("n = " << n << ", explode " << explode);
            const Topology t = Topology::hypercube(n);
            const auto p = nodePositions(t, explode);
            const float radius = drawnNodeRadius(t.nodeCount());
            for (int d = 0; d < n; ++d)
                for (int e = d + 1; e < n; ++e)
                    CHECK_FALSE(parallel(dimensionAxis(t, d), dimensionAxis(t, e)));
            double closest = 1e9;
            for (int d = 0; d < n; ++d)
                for (NodeId u{}; u < t.nodeCount(); ++u) {
                    const NodeId v{u ^ (1u << d)};
                    if (v < u)
                        continue;
                    for (NodeId w{}; w < t.nodeCount(); ++w)
                        if (w != u && w != v)
                            closest = std::min(closest, segmentDistance(p[u], p[v], p[w]));
                }
            CHECK(closest > radius);
            // Parallel edges of dimension d: the offset between their tails must not be along the axis.
            int overlaps = 0;
            for (int d = 0; d < n; ++d) {
                const Vec3 axis = dimensionAxis(t, d);
                for (NodeId u{}; u < t.nodeCount(); ++u) {
                    if (u & (1u << d))
                        continue;
                    for (NodeId w{u + 1}; w < t.nodeCount(); ++w)
                        if (!(w & (1u << d)) &&
                            segmentDistance(p[u], {p[u][0] + axis[0], p[u][1] + axis[1], p[u][2] + axis[2]}, p[w]) <
                                1e-4 &&
                            parallel(sub(p[w], p[u]), axis))
                            ++overlaps;
                }
            }
            CHECK(overlaps == 0);
        }
}

namespace {
/// Proper crossings (interiors meet at one point) between straight edges in the plane z = 0.
int planarCrossings(const Topology& t, const std::vector<Vec3>& p)
{
    std::vector<std::pair<NodeId, NodeId>> edges;
    for (NodeId u{}; u < t.nodeCount(); ++u)
        for (NodeId v : t.neighbours(u))
            if (u < v)
                edges.emplace_back(u, v);
    auto cross = [&](NodeId o, NodeId a, NodeId b) {
        return (double(p[a][0]) - p[o][0]) * (double(p[b][1]) - p[o][1]) -
               (double(p[a][1]) - p[o][1]) * (double(p[b][0]) - p[o][0]);
    };
    int count = 0;
    for (std::size_t i = 0; i < edges.size(); ++i)
        for (std::size_t j = i + 1; j < edges.size(); ++j) {
            const auto [a, b] = edges[i];
            const auto [c, d] = edges[j];
            if (a == c || a == d || b == c || b == d)
                continue;
            if (cross(a, b, c) * cross(a, b, d) < 0 && cross(c, d, a) * cross(c, d, b) < 0)
                ++count;
        }
    return count;
}
} // namespace

TEST_CASE("layout: flat hypercube drawing n = 1..6 is planar-drawn, distinct, and no edge passes a foreign node",
          "[layout][hypercube][flat]")
{
    for (int n = 1; n <= kFlatHypercubeMaxDims; ++n) {
        INFO("n = " << n);
        const Topology t = Topology::hypercube(n);
        const auto p = nodePositions(t, HypercubeDrawing::Flat);
        REQUIRE(p.size() == t.nodeCount());
        std::set<std::pair<long, long>> seen;
        for (const Vec3& v : p) {
            CHECK(v[2] == 0.0f); // in the plane: a 2-D network, shown top-down
            seen.insert({std::lround(v[0] * 1000), std::lround(v[1] * 1000)});
        }
        CHECK(seen.size() == t.nodeCount());
        // Dimension 0 runs right and dimension 1 down (the textbook square), same length.
        if (n >= 2) {
            CHECK(p[1][0] - p[0][0] > 0);
            CHECK(p[1][1] == Approx(p[0][1]));
            CHECK(p[2][1] - p[0][1] < 0); // y down on the page = −Y in the scene
            CHECK(p[2][0] == Approx(p[0][0]));
            CHECK(p[1][0] - p[0][0] == Approx(p[0][1] - p[2][1]));
        }
        // No edge comes within 0.22 of a node other than its ends (brute force over all triples):
        // hence no edge passes through a foreign node and no two edges overlap (an overlap puts an
        // end of one edge on the other).
        CHECK(edgeClearance(t, p) >= 0.22 - 1e-4);
        CHECK(edgeClearance(t, p) > kNodeRadius);
        // Honest about crossings: the square (n ≤ 2) has none; the oblique cube (n = 3, a cube drawn
        // as two offset squares, as in textbooks) has two; Q4 and up are not planar graphs at all.
        // Edges cross only at single points (the clearance above rules out any overlap).
        const int crossings = planarCrossings(t, p);
        UNSCOPED_INFO("n = " << n << ": " << crossings << " edge crossings, clearance " << edgeClearance(t, p));
        if (n <= 2)
            CHECK(crossings == 0);
        else if (n == 3)
            CHECK(crossings == 2);
        else
            CHECK(crossings > 0);
    }
}

TEST_CASE("layout: the flat drawing refuses n > 6 by name, meshes ignore the drawing", "[layout][hypercube][flat]")
{
    CHECK_THROWS_WITH(nodePositions(Topology::hypercube(7), HypercubeDrawing::Flat),
                      Catch::Contains("n = 7") && Catch::Contains("n ≤ 6"));
    const Topology mesh = Topology::mesh({4, 4});
    CHECK(nodePositions(mesh, HypercubeDrawing::Flat) == nodePositions(mesh));
    CHECK(nodePositions(Topology::hypercube(5), HypercubeDrawing::Cube) == nodePositions(Topology::hypercube(5)));
    CHECK(parseHypercubeDrawing("flat") == HypercubeDrawing::Flat);
    CHECK(parseHypercubeDrawing("cube") == HypercubeDrawing::Cube);
    CHECK_FALSE(parseHypercubeDrawing("round"));
    CHECK(hypercubeDrawingName(HypercubeDrawing::Flat) == "flat");
}

TEST_CASE("layout: node labels are coordinates on meshes and binary addresses on hypercubes", "[layout][labels]")
{
    const Topology cube = Topology::hypercube(4);
    CHECK(nodeLabel(cube, NodeId{0}) == "0000");
    CHECK(nodeLabel(cube, NodeId{5}) == "0101");
    CHECK(nodeLabel(cube, NodeId{8}) == "1000");
    const Topology mesh = Topology::mesh({8, 8});
    CHECK(nodeLabel(mesh, mesh.id({3, 5})) == "(3,5)");
}

TEST_CASE("laneOffset: two directions over one link keep two lanes, across it, opposite each other", "[layout][arrows]")
{
    for (const auto& [a, b] :
         {std::pair{Vec3{0, 0, 0}, Vec3{1, 0, 0}}, std::pair{Vec3{2, 3, 0}, Vec3{2, 4, 0}},
          std::pair{Vec3{1, 1, 1}, Vec3{1, 1, 2}}, std::pair{Vec3{0, 0, 0}, Vec3{0.5f, 0.5f, 0.5f}}}) {
        const Vec3 there = laneOffset(a, b, 0.1f), back = laneOffset(b, a, 0.1f);
        const Vec3 d{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        CHECK(std::hypot(there[0], there[1], there[2]) == Approx(0.1));
        CHECK(there[0] * d[0] + there[1] * d[1] + there[2] * d[2] == Approx(0.0).margin(1e-6)); // across
        for (int i = 0; i < 3; ++i)
            CHECK(back[i] == Approx(-there[i]).margin(1e-7));
    }
    // A flat drawing keeps its lanes in its plane.
    CHECK(laneOffset({0, 0, 0}, {1, 0, 0}, 0.1f)[2] == 0.0f);
    CHECK(laneOffset({0, 0, 0}, {0, 0, 0}, 0.1f) == Vec3{0, 0, 0});
}

TEST_CASE("routeLanes: routes sharing a directed hop never share a lane and a route alone keeps the middle",
          "[layout][lanes]")
{
    const NodeId a{0}, b{1}, c{2}, d{3}, e{4}, f{5};
    // Three routes stacked along one row (a→b→c→d, b→c→d→e, c→d): every pair shares a hop.
    // A route the other way (d→c) and one elsewhere (e→f) share none of their directed hops.
    const std::vector<std::vector<NodeId>> routes = {{a, b, c, d}, {b, c, d, e}, {c, d}, {d, c}, {e, f}};
    const std::vector<int> lanes = routeLanes(routes);
    CHECK(lanes == std::vector<int>{0, 1, 2, 0, 0});
    // The brute force over a torus step with contention: any two routes on a common directed hop
    // are in different lanes, and the lanes are as few as the greedy order allows.
    const Topology t = Topology::parse("torus:5x5");
    std::vector<std::vector<NodeId>> row;
    for (std::uint32_t len = 1; len <= 4; ++len) {
        std::vector<NodeId> r;
        for (std::uint32_t x = 0; x <= len; ++x)
            r.push_back(t.id({static_cast<int>(x), 0}));
        row.push_back(r);
    }
    const std::vector<int> stacked = routeLanes(row);
    for (std::size_t i = 0; i < row.size(); ++i)
        for (std::size_t j = i + 1; j < row.size(); ++j)
            CHECK(stacked[i] != stacked[j]); // all four share the hop (0,0) → (1,0)
    CHECK(*std::max_element(stacked.begin(), stacked.end()) == 3);
    CHECK(routeLanes({}).empty());
}
