#include "topocast/layout.h"

#include "topocast/limits.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace topocast {

namespace {

constexpr int kAxisSign[3] = {+1, -1, +1};  // x right, y down (the papers' 2-D convention), z toward the viewer

/// Offset vector per dimension, before centring.
std::vector<Vec3> axes(const Topology& topo)
{
    std::vector<Vec3> out(static_cast<std::size_t>(topo.dims()), Vec3{0, 0, 0});
    if (topo.isHypercube()) {
        // Dimensions 0–2: a unit cube. Dimension k ≥ 3: the axis k mod 3, scaled by 2.5^(k/3).
        // Along each axis the scales 1, 2.5, 6.25, … are super-increasing (each exceeds the sum of
        // the earlier ones), so every subset sum, hence every node position, is distinct.
        for (int k = 0; k < topo.dims(); ++k)
            out[static_cast<std::size_t>(k)][static_cast<std::size_t>(k % 3)] =
                static_cast<float>(kAxisSign[k % 3] * std::pow(2.5, k / 3));
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
