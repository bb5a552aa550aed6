#pragma once
// How the view draws a network, as typed settings (a scenario's view holds them as "layout" and
// "explode"; io/scenario.h's scenarioDrawing reads them), and the positions and node size they
// give. The app, topocast-cli visibility and the web page all draw from here.

#include "topocast/drawing/layout.h"
#include "topocast/drawing/planes.h"
#include "topocast/model/topology.h"

#include <vector>

namespace topocast {

struct DrawingSettings {
    HypercubeDrawing hypercube = HypercubeDrawing::Cube; ///< hypercubes of n ≤ 6: cube or flat
    GridDrawing grid = GridDrawing::Tower;               ///< 3-D meshes and tori: tower or planes
    float explode = 0.0f;                                ///< the tower's (and 4+-cube's) extra gap
};

/// What `topo` opens with: the cube drawing (the flat one for the 6-cube, whose cube drawing
/// leaves its labels no room), defaultGridDrawing, defaultExplode. O(1).
DrawingSettings defaultDrawing(const Topology& topo);

/// Whether `settings` draw `topo` as planes side by side (a 3-D mesh or torus with grid Planes).
bool drawsPlanes(const Topology& topo, const DrawingSettings& settings);

/// Whether explode changes the drawing: canExplode(topo), and neither planes nor the flat
/// hypercube drawing (those are planes already).
bool explodes(const Topology& topo, const DrawingSettings& settings);

/// Where each node is drawn in a view of aspect width / height (only the planes drawing depends
/// on it): planesPositions, nodePositions(topo, explode), or the hypercube's drawing. Throws
/// Error as those do. O(N) (the flat hypercube: see nodePositions).
std::vector<Vec3> drawingPositions(const Topology& topo, const DrawingSettings& settings, float aspect);

/// The radius nodes are drawn with: kPlanesNodeRadius for planes, drawnNodeRadius otherwise. O(1).
float drawingNodeRadius(const Topology& topo, const DrawingSettings& settings);

} // namespace topocast
