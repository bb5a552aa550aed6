#include "topocast/drawing/planes.h"

#include "topocast/drawing/label_layout.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace topocast {

namespace {

/// The margins the top-down framing adds round the drawing (camera.h frameTopDownView): left and
/// right together, top and bottom together, and the right's share of the width.
constexpr float kMarginX = 2.2f;
constexpr float kMarginRightShare = 0.06f;
constexpr float kMarginY = 2.0f;

void checkPlanes(const Topology& topo, float aspect)
{
    if (!canDrawPlanes(topo))
        throw Error("the " + topo.displayName() +
                    " cannot be drawn as planes side by side: that drawing is for 3-D meshes and tori");
    if (!(aspect > 0.0f) || !std::isfinite(aspect))
        throw Error("planes side by side: the view's aspect (width / height) must be a positive number");
}

} // namespace

std::string_view gridDrawingName(GridDrawing drawing)
{
    return drawing == GridDrawing::Planes ? "planes" : "tower";
}

std::optional<GridDrawing> parseGridDrawing(std::string_view text)
{
    for (GridDrawing d : {GridDrawing::Tower, GridDrawing::Planes})
        if (text == gridDrawingName(d))
            return d;
    return std::nullopt;
}

bool canDrawPlanes(const Topology& topo)
{
    return (topo.isMesh() || topo.isTorus()) && topo.dims() == 3;
}

GridDrawing defaultGridDrawing(const Topology& topo)
{
    return canDrawPlanes(topo) ? GridDrawing::Planes : GridDrawing::Tower;
}

PlanesGrid planesGrid(const Topology& topo, float aspect)
{
    checkPlanes(topo, aspect);
    PlanesGrid best;
    best.planes = topo.side(kPlanesDimension);
    best.pitchX = static_cast<float>(topo.side(0) - 1) + kPlanesGapX;
    best.pitchY = static_cast<float>(topo.side(1) - 1) + kPlanesGapY;
    double bestScale = -1;
    for (int columns = 1; columns <= best.planes; ++columns) {
        const int rows = (best.planes + columns - 1) / columns;
        if (columns > 1 && (rows - 1) * columns >= best.planes)
            continue; // a column would stay empty
        const float width = static_cast<float>(columns) * best.pitchX - kPlanesGapX;
        const float height = static_cast<float>(rows) * best.pitchY - kPlanesGapY + kPlaneTitleRoom;
        const double scale = std::min(static_cast<double>(aspect) / (width * (1 + kMarginRightShare) + kMarginX),
                                      1.0 / (height + kMarginY));
        if (scale > bestScale * (1 + 1e-9)) {
            bestScale = scale;
            best.columns = columns;
            best.rows = rows;
        }
    }
    return best;
}

std::vector<Vec3> planesPositions(const Topology& topo, float aspect)
{
    const PlanesGrid grid = planesGrid(topo, aspect);
    const float width = static_cast<float>(grid.columns) * grid.pitchX - kPlanesGapX;
    const float height = static_cast<float>(grid.rows) * grid.pitchY - kPlanesGapY;
    std::vector<Vec3> pos(topo.nodeCount());
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        const int plane = topo.coord(v, kPlanesDimension);
        const float ox = static_cast<float>(plane % grid.columns) * grid.pitchX;
        const float oy = -static_cast<float>(plane / grid.columns) * grid.pitchY;
        pos[v] = {ox + static_cast<float>(topo.coord(v, 0)) - 0.5f * width,
                  oy - static_cast<float>(topo.coord(v, 1)) + 0.5f * height, 0.0f};
    }
    return pos;
}

float planeTitleShare(int labelPixels, int height)
{
    const int plate = labelPlateSize("z = 0", labelPixels).height + 4;
    return std::clamp(static_cast<float>(plate) / static_cast<float>(std::max(1, height)), 0.0f, 0.4f);
}

std::string planeTitle(int plane)
{
    return "z = " + std::to_string(plane);
}

std::vector<PlaneTitle> planeTitles(const Topology& topo, const std::vector<Vec3>& positions)
{
    std::vector<PlaneTitle> titles;
    for (int plane = 0; plane < topo.side(kPlanesDimension); ++plane) {
        const Vec3& corner = positions[topo.idUnchecked({0, 0, plane})];
        titles.push_back({planeTitle(plane), {corner[0], corner[1] + kPlaneTitleLift, corner[2]}});
    }
    return titles;
}

std::vector<PlaneTitle> planeTitles(const Topology& topo, float aspect)
{
    return planeTitles(topo, planesPositions(topo, aspect));
}

std::array<Vec3, 2> planeBoundsOf(const Topology& topo, const std::vector<Vec3>& positions, NodeId v)
{
    // The plane's corners: (0, 0, z) top left, (sx−1, sy−1, z) bottom right.
    const int z = topo.coord(v, kPlanesDimension);
    const Vec3& first = positions[topo.idUnchecked({0, 0, z})];
    const Vec3& last = positions[topo.idUnchecked({topo.side(0) - 1, topo.side(1) - 1, z})];
    return {Vec3{std::min(first[0], last[0]), std::min(first[1], last[1]), 0.0f},
            Vec3{std::max(first[0], last[0]), std::max(first[1], last[1]), 0.0f}};
}

Vec3 planeJumpBulge(const Vec3& a, const Vec3& b)
{
    float dx = b[0] - a[0], dy = b[1] - a[1];
    if (dx < 0 || (dx == 0 && dy < 0)) { // both directions of a link bow to the same side
        dx = -dx;
        dy = -dy;
    }
    const float len = std::hypot(dx, dy);
    if (len <= 0)
        return {0, 0, 0};
    const float h = 0.12f * len + 0.3f;
    return {-dy / len * h, dx / len * h, 0.0f};
}

} // namespace topocast
