#pragma once
// Planes side by side (small multiples): a 3-D mesh or torus drawn as its planes across z laid out
// in a grid that fits the view's shape, each plane top-down like a 2-D network (x right, y down),
// titled with its coordinate. Links inside a plane are drawn in it; links between planes ("jumps")
// only while a transfer uses them, as a shallow arc from one plane to the other.

#include "topocast/drawing/layout.h"
#include "topocast/model/topology.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// How a 3-D mesh or torus is drawn: the tower (planes across y stacked in 3-D, pulled apart by
/// explode) or the planes across z side by side.
enum class GridDrawing { Tower, Planes };

/// "tower" or "planes".
std::string_view gridDrawingName(GridDrawing drawing);
/// Parses "tower" or "planes"; nullopt otherwise.
std::optional<GridDrawing> parseGridDrawing(std::string_view text);

/// Whether `topo` can be drawn as planes side by side: a 3-D mesh or torus.
bool canDrawPlanes(const Topology& topo);

/// The dimension whose planes are laid side by side (z): plane k holds the nodes with z = k.
inline constexpr int kPlanesDimension = 2;

/// The drawing a 3-D mesh or torus opens with: planes side by side for every size — measured
/// with `topocast-cli visibility` at 1280×720, the planes of 8×8×8 span 0.9 of the window's width with
/// nodes 13 px across where the tower spans 0.2 with nodes 3 px across, and every node is in view
/// in every step (no plane hides another). Tower for other networks (it is not used there). O(1).
GridDrawing defaultGridDrawing(const Topology& topo);

/// Gaps between neighbouring planes (world units; nodes within a plane are 1 apart): room for a
/// torus's wrap arcs and stubs beside the plane, and for the plane's title above it.
inline constexpr float kPlanesGapX = 2.0f;
inline constexpr float kPlanesGapY = 3.4f;
/// The room the default view leaves above the top row of planes for their titles, and how far
/// above its plane's top row a title's foot sits.
inline constexpr float kPlaneTitleRoom = 1.0f;
inline constexpr float kPlaneTitleLift = 0.35f;

/// The grid the planes are laid out in for a view of aspect width / height: `columns` × `rows`
/// cells (rows · columns ≥ planes, the fewest rows among equals), the one that draws the nodes
/// largest when the whole fits the view; plane k sits in column k mod columns, row k / columns.
/// `pitch` is the distance between neighbouring cells' origins.
struct PlanesGrid {
    int planes = 1;
    int columns = 1;
    int rows = 1;
    float pitchX = 0;
    float pitchY = 0;
};

/// The grid for `topo` (canDrawPlanes) in a view of aspect `aspect` (> 0). Throws Error for a
/// network that cannot be drawn as planes or a bad aspect. O(planes).
PlanesGrid planesGrid(const Topology& topo, float aspect);

/// Where each node is drawn as planes side by side in a view of aspect `aspect`: node (x, y, z)
/// at its plane's origin + (x, −y, 0); every z = 0, the whole centred on the origin. Throws like
/// planesGrid. O(N).
std::vector<Vec3> planesPositions(const Topology& topo, float aspect);

/// A plane's title ("z = 3") and where it is drawn: above the plane's top-left node, in the gap.
struct PlaneTitle {
    std::string text;
    Vec3 position{};
};
/// The share of a picture `height` pixels high that the top row of plane titles needs above the
/// framed drawing: a title's plate (text of `labelPixels`, label_layout.h) and a little air.
/// O(1).
float planeTitleShare(int labelPixels, int height);

/// Plane `plane`'s title: "z = 3".
std::string planeTitle(int plane);
/// The titles of every plane at `positions` (a planes drawing, whichever grid it was laid out
/// in), plane 0 first: each at its plane's top-left node, kPlaneTitleLift above it. O(planes).
std::vector<PlaneTitle> planeTitles(const Topology& topo, const std::vector<Vec3>& positions);
/// The same for planesPositions(topo, aspect). O(N).
std::vector<PlaneTitle> planeTitles(const Topology& topo, float aspect);

/// The bounds {lo, hi} of the plane that node `v` lies in, at `positions` (planesPositions). O(1).
std::array<Vec3, 2> planeBoundsOf(const Topology& topo, const std::vector<Vec3>& positions, NodeId v);

/// Whether a channel of dimension `dim` runs between planes when `topo` is drawn as planes.
inline bool isPlaneJump(int dim)
{
    return dim == kPlanesDimension;
}

/// How far the arc of a jump from `a` to `b` (positions in the planes drawing) bows out: across
/// the line, 0.12 of its length + 0.3, to the same side for both directions of one link (so the
/// two directions run side by side and neither lies on the grid's own lines). O(1).
Vec3 planeJumpBulge(const Vec3& a, const Vec3& b);

/// The radius nodes are drawn with in the planes drawing, for every size, a little more than
/// a 2-D network's kNodeRadius — no plane hides another, so nothing asks for thin nodes, and the
/// grid of planes is drawn smaller than one plane would be (8×8×8: 13 px at 1280×720, 11 px at
/// 1024×768; 16×16×16: 4.7 px at 1280×720). O(1).
inline constexpr float kPlanesNodeRadius = 0.2f;

} // namespace topocast
