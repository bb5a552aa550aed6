#include "topocast/drawing/layout_edges.h"

namespace topocast {

std::vector<DrawnLink> drawnLinks(const Topology& topo, const std::vector<Vec3>& positions, bool planes)
{
    const auto bounds = layoutBounds(positions);
    std::vector<DrawnLink> links;
    for (NodeId v{}; v < topo.nodeCount(); ++v)
        for (int p = 0; p < topo.portsPerNode(); ++p) {
            const Port port = topo.portAt(p);
            NodeId next{};
            if (!topo.step(v, port.dim, port.sign, next))
                continue;
            const bool wrap = topo.isWrapChannel(topo.channel(v, port.dim, port.sign));
            if (wrap ? port.sign < 0 : next < v)
                continue; // one entry per link
            if (planes && isPlaneJump(port.dim))
                continue;
            DrawnLink link{v, next, wrap, {}};
            if (wrap)
                link.points = arcPolyline(positions[v], positions[next],
                                          wrapArcBulge(topo, planes ? planeBoundsOf(topo, positions, v) : bounds,
                                                       positions[v], positions[next], port.dim));
            else
                link.points = {positions[v], positions[next]};
            links.push_back(std::move(link));
        }
    return links;
}

} // namespace topocast
