#pragma once
// The links of a network as the app draws them: each once, as a polyline (a torus's wrap links as
// arcs around the outside, core arcPolyline), for the layout command and the web page.

#include "topocast/drawing/layout.h"
#include "topocast/drawing/planes.h"
#include "topocast/model/topology.h"

#include <vector>

namespace topocast {

/// One drawn link: its two nodes and the points of its line (two for a straight link).
struct DrawnLink {
    NodeId from{};
    NodeId to{};
    bool wrap = false;
    std::vector<Vec3> points;
};

/// Every link of `topo` once, at `positions` (nodePositions with or without explode): a wrap link
/// from its + channel's tail, any other from its lower node, in node then port order. `planes`
/// (positions are planesPositions): the links between planes are left out (the app draws them
/// only while in use) and a wrap link arcs beside its own plane. O(links).
std::vector<DrawnLink> drawnLinks(const Topology& topo, const std::vector<Vec3>& positions, bool planes = false);

} // namespace topocast
