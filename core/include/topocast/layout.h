#pragma once

#include "topocast/topology.h"

#include <array>
#include <vector>

namespace topocast {

using Vec3 = std::array<float, 3>;

/// The radius the 3-D view draws a node with on networks of up to 4096 nodes (world units).
inline constexpr float kNodeRadius = 0.16f;

/// Where each node is drawn, in world units (neighbouring mesh nodes are 1 apart).
/// * mesh/torus: x → +X, y → −Y (the papers' 2-D convention: y grows downward), z → +Z; a
///   4-D..6-D mesh places dimensions 3.. as offset copies of the 3-D block (like a hypercube);
/// * hypercube (n ≤ 10 drawn, larger refused by the app): dimensions 0–2 form a unit cube and
///   each further dimension k offsets a copy of the whole by a vector that grows with k, mostly
///   along axis k mod 3 and tilted off it, so all positions are distinct, the edges of one
///   dimension are parallel, and for n ≤ 10 no edge passes within kNodeRadius of a node other
///   than its ends (edges of dimension k ≥ 3 do not run along the lower dimensions' lines).
/// The layout is centred on the origin. O(N).
std::vector<Vec3> nodePositions(const Topology& topo);

/// The offset vector that dimension `dim` adds for nodes whose coordinate/bit is 1 (hypercube),
/// or per unit step (mesh/torus). Edges of one dimension are parallel to this vector.
Vec3 dimensionAxis(const Topology& topo, int dim);

/// Axis-aligned bounds of nodePositions(topo): {min, max}.
std::array<Vec3, 2> layoutBounds(const std::vector<Vec3>& positions);

/// Ray–sphere picking in plain C++: the node whose sphere of `radius` around its position the
/// ray (origin, direction; need not be normalized) hits first, or −1 if none.
/// O(N) per pick.
long long pickNode(const Vec3& rayOrigin, const Vec3& rayDirection, const std::vector<Vec3>& positions,
                   float radius);

} // namespace topocast
