#include "topocast/drawing/drawing.h"

#include "topocast/drawing/camera.h"

namespace topocast {

DrawingSettings defaultDrawing(const Topology& topo)
{
    // The 6-cube drawn as a cube is a knot in which no label finds room; its flat drawing labels
    // every node. Smaller cubes read well as cubes (a 3-cube is one).
    const bool flat = topo.isHypercube() && topo.dims() == kFlatHypercubeMaxDims;
    return {flat ? HypercubeDrawing::Flat : HypercubeDrawing::Cube, defaultGridDrawing(topo), defaultExplode(topo)};
}

bool drawsPlanes(const Topology& topo, const DrawingSettings& settings)
{
    return settings.grid == GridDrawing::Planes && canDrawPlanes(topo);
}

bool explodes(const Topology& topo, const DrawingSettings& settings)
{
    if (drawsPlanes(topo, settings))
        return false;
    if (topo.isHypercube() && settings.hypercube == HypercubeDrawing::Flat && topo.dims() <= kFlatHypercubeMaxDims)
        return false;
    return canExplode(topo);
}

std::vector<Vec3> drawingPositions(const Topology& topo, const DrawingSettings& settings, float aspect)
{
    if (drawsPlanes(topo, settings))
        return planesPositions(topo, aspect);
    if (explodes(topo, settings) && settings.explode > 0.0f)
        return nodePositions(topo, settings.explode);
    return nodePositions(topo, topo.dims() <= kFlatHypercubeMaxDims ? settings.hypercube : HypercubeDrawing::Cube);
}

float drawingNodeRadius(const Topology& topo, const DrawingSettings& settings)
{
    return drawsPlanes(topo, settings) ? kPlanesNodeRadius : drawnNodeRadius(topo.nodeCount());
}

} // namespace topocast
