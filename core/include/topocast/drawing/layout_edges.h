#pragma once
// The links of a network as every output draws them: each directed channel with what kind of line
// it is (the 3-D view colours channels), and each link once as a polyline (a torus's wrap links as
// arcs around the outside, core arcPolyline) for the layout command and the web page — the second
// made from the first, so the outputs cannot disagree on which links are drawn how.

#include "topocast/drawing/layout.h"
#include "topocast/drawing/planes.h"
#include "topocast/model/topology.h"

#include <vector>

namespace topocast {

/// One drawn directed channel.
struct DrawnChannel {
    ChannelId channel{};
    NodeId tail{};
    NodeId head{};
    int dim = 0;
    bool wrap = false; ///< torus wrap-around channel (drawn as an arc outside the grid)
    bool jump = false; ///< planes side by side: a channel between two planes (an arc, while in use)
};
/// Every directed channel of the topology: straight ones first, then the arcs — wrap-arounds,
/// then (`planes`: the network drawn as planes side by side) the channels between planes, a
/// z wrap-around among them. O(channels).
std::vector<DrawnChannel> drawnChannels(const Topology& topo, bool planes = false);
/// How many of `channels` (drawnChannels order) are drawn straight, and how many of the arcs
/// after them get a stub (the wrap-arounds that are not jumps between planes). O(channels).
std::size_t straightCount(const std::vector<DrawnChannel>& channels);
std::size_t stubbedCount(const std::vector<DrawnChannel>& channels);

/// One drawn link: its two nodes and the points of its line (two for a straight link).
struct DrawnLink {
    NodeId from{};
    NodeId to{};
    bool wrap = false;
    std::vector<Vec3> points;
};

/// Every link of `topo` once, at `positions` (nodePositions with or without explode): the
/// drawnChannels one channel of each link stands for — a wrap link's + channel, any other's from
/// its lower node — in node then port order. `planes` (positions are planesPositions): the links
/// between planes are left out (the 3-D view draws them only while in use) and a wrap link arcs
/// beside its own plane. O(links log links).
std::vector<DrawnLink> drawnLinks(const Topology& topo, const std::vector<Vec3>& positions, bool planes = false);

} // namespace topocast
