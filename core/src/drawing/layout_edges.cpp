#include "topocast/drawing/layout_edges.h"

#include <algorithm>

namespace topocast {

std::vector<DrawnChannel> drawnChannels(const Topology& topo, bool planes)
{
    std::vector<DrawnChannel> straight, wraps, jumps;
    straight.reserve(static_cast<std::size_t>(topo.channelCount()));
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        for (int p = 0; p < topo.portsPerNode(); ++p) {
            const Port port = topo.portAt(p);
            NodeId next;
            if (!topo.step(v, port.dim, port.sign, next))
                continue;
            const ChannelId ch = topo.channel(v, port.dim, port.sign);
            const DrawnChannel d{ch, v, next, port.dim, topo.isWrapChannel(ch), planes && isPlaneJump(port.dim)};
            (d.jump ? jumps : d.wrap ? wraps : straight).push_back(d);
        }
    }
    straight.insert(straight.end(), wraps.begin(), wraps.end());
    straight.insert(straight.end(), jumps.begin(), jumps.end());
    return straight;
}

std::size_t straightCount(const std::vector<DrawnChannel>& channels)
{
    return static_cast<std::size_t>(
        std::find_if(channels.begin(), channels.end(), [](const DrawnChannel& c) { return c.wrap || c.jump; }) -
        channels.begin());
}

std::size_t stubbedCount(const std::vector<DrawnChannel>& channels)
{
    return static_cast<std::size_t>(
        std::count_if(channels.begin(), channels.end(), [](const DrawnChannel& c) { return c.wrap && !c.jump; }));
}

std::vector<DrawnLink> drawnLinks(const Topology& topo, const std::vector<Vec3>& positions, bool planes)
{
    const auto bounds = layoutBounds(positions);
    std::vector<DrawnChannel> ones;
    for (const DrawnChannel& c : drawnChannels(topo, planes))
        if (!c.jump && (c.wrap ? topo.channelPort(c.channel).sign > 0 : !(c.head < c.tail)))
            ones.push_back(c); // the channel that stands for its link
    std::sort(ones.begin(), ones.end(),
              [](const DrawnChannel& a, const DrawnChannel& b) { return a.channel < b.channel; }); // node, port
    std::vector<DrawnLink> links;
    links.reserve(ones.size());
    for (const DrawnChannel& c : ones) {
        DrawnLink link{c.tail, c.head, c.wrap, {}};
        if (c.wrap)
            link.points = arcPolyline(positions[c.tail], positions[c.head],
                                      wrapArcBulge(topo, planes ? planeBoundsOf(topo, positions, c.tail) : bounds,
                                                   positions[c.tail], positions[c.head], c.dim));
        else
            link.points = {positions[c.tail], positions[c.head]};
        links.push_back(std::move(link));
    }
    return links;
}

} // namespace topocast
