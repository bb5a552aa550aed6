#include "topocast/drawing/layout.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace topocast {

namespace {

constexpr int kAxisSign[3] = {+1, -1, +1}; // x right, y down (the papers' 2-D convention), z toward the viewer
// Hypercube dimensions k ≥ 3: the off-axis parts (towards the next two axes) per unit along the
// axis, one pair per level k / 3 = 1, 2, 3, in different directions so that no two dimensions
// are parallel. Chosen by a search that maximised the closest approach of an edge to another
// node over n = 4..10: 0.22 (node radius 0.16).
constexpr float kTilt[4][2] = {{0, 0}, {0.147f, 0.193f}, {0.053f, -0.254f}, {0.209f, 0.090f}};

/// Offset vector per dimension, before centring.
std::vector<Vec3> axes(const Topology& topo)
{
    std::vector<Vec3> out(static_cast<std::size_t>(topo.dims()), Vec3{0, 0, 0});
    if (topo.isHypercube()) {
        // Dimensions 0–2: a unit cube. Dimension k ≥ 3: mostly along axis a = k mod 3, scaled by
        // 2.5^(k/3); the scales 1, 2.5, 6.25, … are super-increasing along each axis (each exceeds
        // the sum of the earlier ones), so every subset sum, hence every node position, is
        // distinct. Straight along the axis, a dimension-3 edge would run through the dimension-0
        // edge on its line; tilted towards the next two axes it passes beside the lower sub-cube
        // (the geometric test in tests/core/test_layout.cpp checks n = 1..10).
        for (int k = 0; k < topo.dims(); ++k) {
            const auto a = static_cast<std::size_t>(k % 3);
            const int level = k / 3;
            const float scale = static_cast<float>(std::pow(2.5, level));
            Vec3& v = out[static_cast<std::size_t>(k)];
            v[a] = static_cast<float>(kAxisSign[a]) * scale;
            if (level > 0) {
                const std::size_t b = (a + 1) % 3, c = (a + 2) % 3;
                const auto& tilt = kTilt[std::min(level, 3)];
                v[b] = static_cast<float>(kAxisSign[b]) * tilt[0] * scale;
                v[c] = static_cast<float>(kAxisSign[c]) * tilt[1] * scale;
            }
        }
        return out;
    }
    // Mesh/torus: unit spacing in dimensions 0–2; dimension k ≥ 3 places copies of the block built
    // so far along axis k mod 3, with a gap of 2 between copies.
    float extent[3] = {0, 0, 0};
    for (int k = 0; k < topo.dims(); ++k) {
        const int a = k % 3;
        const float stepLen = k < 3 ? 1.0f : extent[a] + 2.0f;
        out[static_cast<std::size_t>(k)][static_cast<std::size_t>(a)] = static_cast<float>(kAxisSign[a]) * stepLen;
        extent[a] += static_cast<float>(topo.side(k) - 1) * stepLen;
    }
    return out;
}

/// The flat hypercube drawing's offset per dimension in page coordinates (x right, y down): 0 and
/// 1 a unit square, 2 a short oblique offset (a cube as two squares), 3 to the right, 4 down, 5
/// far to the right, each tilted; found by a random search that maximised the closest approach
/// of an edge to a foreign node relative to the drawing's size over n = 3..6 (0.13 before
/// scaling, drawing 8.8 × 5.1 for n = 6).
constexpr float kFlatAxis[kFlatHypercubeMaxDims][2] = {{1.0f, 0.0f},     {0.0f, 1.0f},     {0.339f, 0.483f},
                                                       {2.183f, 0.514f}, {0.668f, 2.083f}, {4.29f, -1.221f}};
constexpr double kFlatClearance = 0.22;

double segmentDistance(const Vec3& a, const Vec3& b, const Vec3& w)
{
    double ab[3], aw[3], len2 = 0, dot = 0;
    for (std::size_t i = 0; i < 3; ++i) {
        ab[i] = double(b[i]) - a[i];
        aw[i] = double(w[i]) - a[i];
        len2 += ab[i] * ab[i];
        dot += ab[i] * aw[i];
    }
    const double t = len2 > 0 ? std::clamp(dot / len2, 0.0, 1.0) : 0.0;
    double d2 = 0;
    for (std::size_t i = 0; i < 3; ++i)
        d2 += (aw[i] - t * ab[i]) * (aw[i] - t * ab[i]);
    return std::sqrt(d2);
}

std::vector<Vec3> flatHypercube(const Topology& topo)
{
    const int n = topo.dims();
    if (n > kFlatHypercubeMaxDims)
        throw Error("the " + topo.displayName() + " has n = " + std::to_string(n) +
                    " dimensions; the flat drawing is for n ≤ " + std::to_string(kFlatHypercubeMaxDims) +
                    " (use the cube drawing)");
    std::vector<Vec3> pos(topo.nodeCount(), Vec3{0, 0, 0});
    for (NodeId v{}; v < topo.nodeCount(); ++v)
        for (int k = 0; k < n; ++k)
            if (v & (NodeId{1} << k)) {
                pos[v][0] += kFlatAxis[k][0];
                pos[v][1] -= kFlatAxis[k][1]; // y down
            }
    const double clearance = edgeClearance(topo, pos);
    const auto scale = static_cast<float>(std::max(1.0, kFlatClearance / clearance));
    const auto [lo, hi] = layoutBounds(pos);
    for (Vec3& p : pos)
        for (std::size_t a = 0; a < 2; ++a)
            p[a] = (p[a] - 0.5f * (lo[a] + hi[a])) * scale;
    return pos;
}

} // namespace

std::string_view hypercubeDrawingName(HypercubeDrawing drawing)
{
    return drawing == HypercubeDrawing::Flat ? "flat" : "cube";
}

std::optional<HypercubeDrawing> parseHypercubeDrawing(std::string_view text)
{
    if (text == "cube")
        return HypercubeDrawing::Cube;
    if (text == "flat")
        return HypercubeDrawing::Flat;
    return std::nullopt;
}

std::vector<Vec3> nodePositions(const Topology& topo, HypercubeDrawing drawing)
{
    if (topo.isHypercube() && drawing == HypercubeDrawing::Flat)
        return flatHypercube(topo);
    return nodePositions(topo);
}

double edgeClearance(const Topology& topo, const std::vector<Vec3>& positions)
{
    double closest = std::numeric_limits<double>::infinity();
    for (NodeId u{}; u < topo.nodeCount(); ++u)
        for (NodeId v : topo.neighbours(u)) {
            if (v < u)
                continue;
            for (NodeId w{}; w < topo.nodeCount(); ++w)
                if (w != u && w != v)
                    closest = std::min(closest, segmentDistance(positions[u], positions[v], positions[w]));
        }
    return closest;
}

std::string nodeLabel(const Topology& topo, NodeId v)
{
    return topo.nodeName(v);
}

Vec3 dimensionAxis(const Topology& topo, int dim)
{
    return axes(topo)[static_cast<std::size_t>(dim)];
}

namespace {

/// Σ coordinate × axis per node, centred on the origin.
std::vector<Vec3> placeOnAxes(const Topology& topo, const std::vector<Vec3>& ax)
{
    checkMemory("the layout of the " + topo.displayName(), saturatingMul(topo.nodeCount(), sizeof(Vec3)),
                std::to_string(topo.nodeCount()) + " nodes × " + std::to_string(sizeof(Vec3)) + " B");
    std::vector<Vec3> pos(topo.nodeCount());
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        Vec3 p{0, 0, 0};
        for (int k = 0; k < topo.dims(); ++k) {
            const float c = static_cast<float>(topo.coord(v, k));
            for (int a = 0; a < 3; ++a)
                p[static_cast<std::size_t>(a)] += c * ax[static_cast<std::size_t>(k)][static_cast<std::size_t>(a)];
        }
        pos[v] = p;
    }
    const auto [lo, hi] = layoutBounds(pos);
    for (Vec3& p : pos)
        for (std::size_t a = 0; a < 3; ++a)
            p[a] -= 0.5f * (lo[a] + hi[a]);
    return pos;
}

} // namespace

std::vector<Vec3> nodePositions(const Topology& topo)
{
    return placeOnAxes(topo, axes(topo));
}

bool canExplode(const Topology& topo)
{
    return explodeDimension(topo) >= 0 || (topo.isHypercube() && topo.dims() >= 4);
}

int explodeDimension(const Topology& topo)
{
    return !topo.isHypercube() && topo.dims() == 3 ? 1 : -1;
}

float defaultExplode(const Topology& topo)
{
    if (!canExplode(topo))
        return 0.0f;
    // Measured with `topocast-cli visibility` on every preset (README, "Seeing inside"; the
    // viewport's aspect does not change the figures): explodes in the middle of the ranges that
    // show ≥ 95 % of every step's active nodes, away from the values where planes line up again
    // along the camera's rays.
    // Hypercubes of 10+ dimensions take 0.4: at 0.5 edges of the 10-cube pass 0.81 of a node
    // radius from 16 foreign nodes (the drawn criterion, tests/core/test_layout.cpp); 0.4 clears
    // them by 1.2 radii with the same visibility figures.
    if (topo.isHypercube())
        return topo.dims() <= 5 ? 0.0f : topo.dims() <= 7 ? 0.2f : topo.dims() <= 9 ? 0.5f : 0.4f;
    const int planes = topo.side(explodeDimension(topo));
    if (planes <= 2)
        return 0.0f;
    if (planes <= 4)
        return 1.0f;
    if (planes <= 7)
        return 2.3f; // 6–7 planes: ≥ 0.95 from 2.2 to 2.5
    if (planes <= 8)
        return 2.4f; // 8 planes: ≥ 0.95 from 2.1 to 2.7
    return 3.0f;     // 16 planes (nodes of radius 0.11): ≥ 0.95 from 2.9 to 3.05; taller towers lose the shape of the
                     // network
}

std::vector<Vec3> nodePositions(const Topology& topo, float explode)
{
    if (!std::isfinite(explode) || explode < 0.0f || explode > kMaxExplode)
        throw Error("explode " + std::to_string(explode) + " is out of range; it must be between 0 and " +
                    std::to_string(static_cast<int>(kMaxExplode)) + " (extra gap between planes, in node spacings)");
    std::vector<Vec3> ax = axes(topo);
    if (explode > 0.0f && canExplode(topo)) {
        if (topo.isHypercube()) {
            // The copies of the 3-cube that dimensions 3.. place move 1 + explode times as far.
            for (std::size_t k = 3; k < ax.size(); ++k)
                for (float& c : ax[k])
                    c *= 1.0f + explode;
        } else {
            for (float& c : ax[static_cast<std::size_t>(explodeDimension(topo))])
                c *= 1.0f + explode;
        }
    }
    return placeOnAxes(topo, ax);
}

Vec3 wrapArcBulge(const Topology& topo, const std::array<Vec3, 2>& bounds, const Vec3& a, const Vec3& b, int dim)
{
    const auto& [lo, hi] = bounds;
    const bool flat = (hi[2] - lo[2]) < 1e-3f;
    const Vec3 mid{(a[0] + b[0]) * 0.5f, (a[1] + b[1]) * 0.5f, (a[2] + b[2]) * 0.5f};
    const auto dot = [](const Vec3& u, const Vec3& v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; };
    const auto normalized = [&](Vec3 v) {
        const float len = std::sqrt(dot(v, v));
        if (len > 0)
            for (float& x : v)
                x /= len;
        return v;
    };
    Vec3 lift{0, 0, 0};
    float h = 0;
    if (topo.dims() == 3 && !flat && dim < 3) {
        // One outside face per dimension, the faces the default camera sees: x-rings arch over the
        // top, y-rings out of the front (+z), z-rings out of the right side (+x). Every arc of a
        // dimension peaks just outside its face, deeper rows a little further.
        static constexpr Vec3 faces[3] = {Vec3{0, 1, 0}, Vec3{0, 0, 1}, Vec3{1, 0, 0}};
        lift = faces[dim];
        const float depth = dot(lift, hi) - dot(lift, mid);
        h = depth + 0.7f + 0.12f * depth;
    } else {
        // Away from the centre across the ring's axis. A flat (2-D) torus is seen top-down, so
        // its arcs stay in the plane, 0.42 beside their row or column: less than half the node
        // pitch, so arcs of neighbouring rows never meet (the middle row bends down, the middle column left).
        const Vec3 axis = normalized({b[0] - a[0], b[1] - a[1], b[2] - a[2]});
        const Vec3 centre{(lo[0] + hi[0]) * 0.5f, (lo[1] + hi[1]) * 0.5f, (lo[2] + hi[2]) * 0.5f};
        const Vec3 m{mid[0] - centre[0], mid[1] - centre[1], mid[2] - centre[2]};
        const float along = dot(m, axis);
        lift = {m[0] - axis[0] * along, m[1] - axis[1] * along, m[2] - axis[2] * along};
        if (dot(lift, lift) < 1e-4f) {
            const Vec3 ref = flat ? Vec3{0, 0, 1} : (std::abs(axis[1]) < 0.9f ? Vec3{0, 1, 0} : Vec3{1, 0, 0});
            lift = {axis[1] * ref[2] - axis[2] * ref[1], axis[2] * ref[0] - axis[0] * ref[2],
                    axis[0] * ref[1] - axis[1] * ref[0]};
            if (flat && lift[0] + lift[1] > 0.0f)
                lift = {-lift[0], -lift[1], -lift[2]};
        }
        lift = normalized(lift);
        const Vec3 d{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        h = flat ? 0.42f : 0.18f * std::sqrt(dot(d, d)) + 0.6f;
    }
    return {lift[0] * h, lift[1] * h, lift[2] * h};
}

std::vector<Vec3> arcPolyline(const Vec3& a, const Vec3& b, const Vec3& bulge, int segments)
{
    std::vector<Vec3> out;
    segments = std::max(1, segments);
    out.reserve(static_cast<std::size_t>(segments) + 1);
    for (int k = 0; k <= segments; ++k) {
        const float t = static_cast<float>(k) / static_cast<float>(segments);
        const float w = 4.0f * t * (1.0f - t);
        out.push_back({a[0] + (b[0] - a[0]) * t + bulge[0] * w, a[1] + (b[1] - a[1]) * t + bulge[1] * w,
                       a[2] + (b[2] - a[2]) * t + bulge[2] * w});
    }
    return out;
}

std::array<Vec3, 2> layoutBounds(const std::vector<Vec3>& positions)
{
    if (positions.empty())
        return {Vec3{0, 0, 0}, Vec3{0, 0, 0}};
    Vec3 lo = positions.front(), hi = positions.front();
    for (const Vec3& p : positions)
        for (std::size_t a = 0; a < 3; ++a) {
            lo[a] = std::min(lo[a], p[a]);
            hi[a] = std::max(hi[a], p[a]);
        }
    return {lo, hi};
}

long long pickNode(const Vec3& o, const Vec3& d, const std::vector<Vec3>& positions, float radius)
{
    const double dd = double(d[0]) * d[0] + double(d[1]) * d[1] + double(d[2]) * d[2];
    if (dd <= 0 || !(radius > 0))
        return -1;
    double bestT = std::numeric_limits<double>::infinity();
    long long best = -1;
    const double r2 = double(radius) * radius;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const double ox = double(o[0]) - positions[i][0];
        const double oy = double(o[1]) - positions[i][1];
        const double oz = double(o[2]) - positions[i][2];
        // |o + t·d − p|² = r²  ⇔  dd·t² + 2b·t + c = 0
        const double b = ox * d[0] + oy * d[1] + oz * d[2];
        const double c = ox * ox + oy * oy + oz * oz - r2;
        const double disc = b * b - dd * c;
        if (disc < 0)
            continue;
        const double sq = std::sqrt(disc);
        double t = (-b - sq) / dd;
        if (t < 0)
            t = (-b + sq) / dd; // ray starts inside the sphere
        if (t >= 0 && t < bestT) {
            bestT = t;
            best = static_cast<long long>(i);
        }
    }
    return best;
}

Vec3 laneOffset(const Vec3& a, const Vec3& b, float width)
{
    const Vec3 d{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len <= 0.0f)
        return {0, 0, 0};
    // left = ref × d, with ref the axis the hop runs least along (+z, or +y for a hop along z).
    const bool alongZ = std::abs(d[2]) > 0.9f * len;
    const Vec3 ref = alongZ ? Vec3{0, 1, 0} : Vec3{0, 0, 1};
    const Vec3 left{ref[1] * d[2] - ref[2] * d[1], ref[2] * d[0] - ref[0] * d[2], ref[0] * d[1] - ref[1] * d[0]};
    const float l = std::sqrt(left[0] * left[0] + left[1] * left[1] + left[2] * left[2]);
    return {left[0] / l * width, left[1] / l * width, left[2] / l * width};
}

std::vector<int> routeLanes(const std::vector<std::vector<NodeId>>& routes)
{
    std::unordered_map<std::uint64_t, std::vector<int>> taken; // directed hop → the lanes on it
    auto key = [](NodeId a, NodeId b) { return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint64_t>(b); };
    std::vector<int> lanes(routes.size(), 0);
    std::vector<int> busy;
    for (std::size_t i = 0; i < routes.size(); ++i) {
        const std::vector<NodeId>& r = routes[i];
        busy.clear();
        for (std::size_t k = 0; k + 1 < r.size(); ++k)
            if (const auto it = taken.find(key(r[k], r[k + 1])); it != taken.end())
                busy.insert(busy.end(), it->second.begin(), it->second.end());
        int lane = 0;
        while (std::find(busy.begin(), busy.end(), lane) != busy.end())
            ++lane;
        lanes[i] = lane;
        for (std::size_t k = 0; k + 1 < r.size(); ++k)
            taken[key(r[k], r[k + 1])].push_back(lane);
    }
    return lanes;
}

} // namespace topocast
