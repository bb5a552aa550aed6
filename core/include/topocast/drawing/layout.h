#pragma once

#include "topocast/model/topology.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
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

/// nodePositions with the planes of a 3-D mesh or torus pulled apart ("explode"): the planes
/// across explodeDimension(topo) are 1 + `explode` apart instead of 1 (neighbours within a plane
/// stay 1 apart), so the default camera sees into every plane. On a hypercube of 4+ dimensions the
/// copies of the 3-cube that dimensions 3.. place move 1 + `explode` times as far apart. Other
/// networks (1-D, 2-D, 4-D+ meshes, hypercubes of ≤ 3 dimensions) and explode 0 give
/// nodePositions(topo). Throws Error when `explode` is negative, above kMaxExplode or not finite.
/// O(N).
std::vector<Vec3> nodePositions(const Topology& topo, float explode);

/// The largest explode nodePositions accepts.
inline constexpr float kMaxExplode = 10.0f;

/// The dimension whose planes explode pulls apart: 1 (y, drawn vertically) on a 3-D mesh or
/// torus — the default camera looks down on those planes from 22° above, so within one plane no
/// node hides another and spreading the planes uncovers the ones below — or −1 where explode does
/// not apply.
int explodeDimension(const Topology& topo);

/// Whether explode changes the layout of `topo`: 3-D meshes and tori, hypercubes of 4+ dimensions.
bool canExplode(const Topology& topo);

/// The explode the default view uses for `topo` (0 where explode does not apply): chosen per
/// network size so that the active nodes of every step of every preset are ≥ 95 % visible
/// (topocast-cli visibility) while the picture keeps the shape of the network; 16×16×16 meshes
/// reach 0.93 (see the README). O(1).
float defaultExplode(const Topology& topo);

/// How far a torus wrap-around channel from `a` to `b` (positions of its ends, dimension `dim`)
/// bulges out of the grid whose layout has bounds {lo, hi}: the app draws it as the quadratic arc
/// a + (b − a)·t + bulge·4t(1 − t), t in 0..1. 3-D tori: x-rings arch over the top (+Y), y-rings
/// out of the front (+Z), z-rings out of the right side (+X), deeper rows a little further; a
/// flat (2-D) torus, seen top-down: in its plane, 0.42 beside the row or column, away from the
/// centre; otherwise away from the centre. Both directions of a link bulge the same way. O(1).
Vec3 wrapArcBulge(const Topology& topo, const std::array<Vec3, 2>& bounds, const Vec3& a, const Vec3& b, int dim);

/// Where a message on the hop a → b runs when the same step also sends one b → a over that link:
/// `width` across the hop, to its left as seen from +z (from +y for a hop along z), so the two
/// directions keep two lanes instead of drawing over each other; laneOffset(b, a) is the opposite.
/// Zero for a = b. O(1).
Vec3 laneOffset(const Vec3& a, const Vec3& b, float width);

/// A lane for each route (its nodes in order) so that routes sharing a directed hop never share a
/// lane: route i takes the least lane no earlier route holds on any of its hops. A route alone on
/// its hops keeps lane 0 (the middle of its links); routes of 4–6 hops stacked on one row each
/// get one of their own, so their messages run side by side. O(total hops · lanes).
std::vector<int> routeLanes(const std::vector<std::vector<NodeId>>& routes);

/// The number of straight pieces the app draws a wrap-around arc with.
inline constexpr int kArcSegments = 12;

/// The arc a → b with `bulge` as a polyline of `segments` + 1 points (t = k / segments).
std::vector<Vec3> arcPolyline(const Vec3& a, const Vec3& b, const Vec3& bulge, int segments = kArcSegments);

/// How a hypercube is drawn: the 3-D cube drawing above (n ≤ 10), or the classic flat drawing
/// (n ≤ kFlatHypercubeMaxDims) in the plane z = 0 (x right, y down), for reading binary addresses.
enum class HypercubeDrawing { Cube, Flat };
inline constexpr int kFlatHypercubeMaxDims = 6;

/// "cube" or "flat".
std::string_view hypercubeDrawingName(HypercubeDrawing drawing);
/// Parses "cube" or "flat"; nullopt otherwise.
std::optional<HypercubeDrawing> parseHypercubeDrawing(std::string_view text);

/// nodePositions(topo), except that a hypercube is drawn as `drawing` says. The flat drawing
/// (textbook style): dimensions 0 and 1 a unit square, dimension 2 an oblique offset copy (a cube
/// drawn as two squares), dimensions 3, 4, 5 copies of the whole to the right, below, and further
/// right, each slightly tilted; every node position is distinct, all edges are straight,
/// and the drawing is scaled (≥ 1) so that no edge passes within 0.22 (> kNodeRadius) of a node
/// other than its ends. Edges do cross (Q4 and larger are not planar), but no two overlap.
/// Throws Error for the flat drawing of a hypercube with n > 6 ("… the flat drawing is for
/// n ≤ 6"). Meshes and tori ignore `drawing`. O(N) (flat: O(n·N²), N ≤ 64).
std::vector<Vec3> nodePositions(const Topology& topo, HypercubeDrawing drawing);

/// The closest any node comes to an edge (as a straight segment between its ends' positions)
/// that it is not an end of, over all undirected edges of `topo`; +inf for fewer than 3 nodes.
/// Precondition: positions.size() == topo.nodeCount(). O(E·N).
double edgeClearance(const Topology& topo, const std::vector<Vec3>& positions);

/// What the view writes beside node `v`: coordinates "(1,2)" on a mesh/torus, the n-bit binary
/// address "0101" (bit n−1 first) on a hypercube. O(dims).
std::string nodeLabel(const Topology& topo, NodeId v);

/// The offset vector that dimension `dim` adds for nodes whose coordinate/bit is 1 (hypercube),
/// or per unit step (mesh/torus). Edges of one dimension are parallel to this vector.
Vec3 dimensionAxis(const Topology& topo, int dim);

/// Axis-aligned bounds of nodePositions(topo): {min, max}.
std::array<Vec3, 2> layoutBounds(const std::vector<Vec3>& positions);

/// Ray–sphere picking in plain C++: the node whose sphere of `radius` around its position the
/// ray (origin, direction; need not be normalized) hits first, or −1 if none.
/// O(N) per pick.
long long pickNode(const Vec3& rayOrigin, const Vec3& rayDirection, const std::vector<Vec3>& positions, float radius);

} // namespace topocast
