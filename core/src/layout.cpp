#include "topocast/layout.h"

#include "topocast/limits.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace topocast {

namespace {

constexpr int kAxisSign[3] = {+1, -1, +1};  // x right, y down (the papers' 2-D convention), z toward the viewer
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

} // namespace

Vec3 dimensionAxis(const Topology& topo, int dim)
{
    return axes(topo)[static_cast<std::size_t>(dim)];
}

std::vector<Vec3> nodePositions(const Topology& topo)
{
    checkMemory("the layout of the " + topo.displayName(), saturatingMul(topo.nodeCount(), sizeof(Vec3)),
                std::to_string(topo.nodeCount()) + " nodes × " + std::to_string(sizeof(Vec3)) + " B");
    const std::vector<Vec3> ax = axes(topo);
    std::vector<Vec3> pos(topo.nodeCount());
    for (NodeId v = 0; v < topo.nodeCount(); ++v) {
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
            t = (-b + sq) / dd;  // ray starts inside the sphere
        if (t >= 0 && t < bestT) {
            bestT = t;
            best = static_cast<long long>(i);
        }
    }
    return best;
}

} // namespace topocast
