#include "topocast/analysis/time_bound.h"

#include "topocast/analysis/time_engine.h"
#include "topocast/model/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <vector>

namespace topocast {

namespace {

double ns(double seconds)
{
    return std::round(seconds * 1e15) / 1e6;
}

/// The time the greedy LogP broadcast informs its N-th node: every informed node starts a send
/// every `delta`, each informing a new node `c` later (Karp et al. 1993; optimal for one item).
/// delta = 0: every node at once, c. O(N log N).
double greedyBroadcast(std::uint64_t n, double c, double delta)
{
    if (n <= 1)
        return 0;
    if (delta <= 0)
        return c;
    std::priority_queue<double, std::vector<double>, std::greater<>> next;
    next.push(0);
    double last = 0;
    for (std::uint64_t informed = 1; informed < n; ++informed) {
        const double t = next.top();
        next.pop();
        last = t + c;
        next.push(t + delta);
        next.push(last);
    }
    return last;
}

/// Hops from `source` to the node farthest from it.
int eccentricity(const Topology& topo, NodeId source)
{
    int hops = 0;
    for (int d = 0; d < topo.dims(); ++d) {
        const int side = topo.side(d);
        if (topo.isHypercube())
            hops += 1;
        else if (topo.isTorus())
            hops += side / 2;
        else {
            const int c = topo.coord(source, d);
            hops += std::max(c, side - 1 - c);
        }
    }
    return hops;
}

int diameter(const Topology& topo)
{
    int hops = 0;
    for (int d = 0; d < topo.dims(); ++d)
        hops += topo.isHypercube() ? 1 : topo.isTorus() ? topo.side(d) / 2 : topo.side(d) - 1;
    return hops;
}

/// The most links any node has.
int maxDegree(const Topology& topo)
{
    int degree = 0;
    for (int d = 0; d < topo.dims(); ++d)
        degree += topo.isHypercube() ? 1 : topo.isTorus() ? 2 : topo.side(d) >= 3 ? 2 : topo.side(d) == 2 ? 1 : 0;
    return std::max(degree, 1);
}

/// timeBound, with `sourceSends` the bytes the source sends in all where the schedule says so
/// (divisible load: the whole load; 0 otherwise).
TimeBound boundOf(const Topology& topology, Pattern pattern, NodeId source, const NetworkModel& network,
                  std::uint32_t participants, double sourceSends)
{
    TimeBound b;
    if (!isCollective(pattern)) {
        b.latencyReason = b.bandwidthReason = "a program of messages has no collective's bound";
        return b;
    }
    const std::uint64_t n = participants ? participants : topology.nodeCount();
    if (n <= 1) {
        b.latencyReason = b.bandwidthReason = "one node: nothing to send";
        return b;
    }
    const double o = ns(network.overhead), L = ns(network.latency), g = ns(network.gap), G = ns(network.perByte);
    const double hop = ns(network.hopLatency);
    const double c = 2 * o + L;
    const int degree = maxDegree(topology);
    // (Half-duplex: the one-port bound, still below every time — a half-duplex port only waits more.)
    const int ports = network.ports == NetworkPorts::One || network.ports == NetworkPorts::Half ? 1
                      : network.ports == NetworkPorts::K ? std::min(network.k, degree)
                                                         : degree;
    const double delta = ports == 1 ? std::max(o, g) : o;

    // Latency: the greedy rounds to reach every node, and the farthest node's hops.
    const double rounds = greedyBroadcast(n, c, delta);
    const bool rooted = hasRoot(pattern);
    // (Some nodes only: the farthest of them is not known here, so no hops are counted.)
    const int far = participants != 0 ? 0 : rooted ? eccentricity(topology, source) : diameter(topology);
    const double reach = c + far * hop;
    if (rounds >= reach) {
        b.latency = rounds;
        b.latencyReason = fmt::format("{} nodes reached at best as a greedy tree does (a message {} from send to data, "
                                      "a send every {} per node)",
                                      n, formatSeconds(c * 1e-9), formatSeconds(delta * 1e-9));
    } else {
        b.latency = reach;
        b.latencyReason = fmt::format("{} hop{} to the farthest node", far, far == 1 ? "" : "s");
    }

    // Bandwidth: the bytes that must cross one node, spread over its ports.
    const double m = static_cast<double>(network.message);
    const double share = static_cast<double>(n - 1) / static_cast<double>(n);
    double bytes = 0;
    std::string what;
    switch (pattern) {
    case Pattern::Broadcast:
        bytes = m;
        what = "into every node but the source";
        break;
    case Pattern::Reduce:
        bytes = m;
        what = "into the root";
        break;
    case Pattern::Scatter:
        bytes = sourceSends > 0 ? sourceSends : share * m;
        what = "out of the source";
        break;
    case Pattern::Gather:
        bytes = share * m;
        what = "into the root";
        break;
    case Pattern::Allgather:
        bytes = share * m;
        what = "into every node";
        break;
    case Pattern::Alltoall:
        bytes = share * m;
        what = "into every node";
        break;
    case Pattern::ReduceScatter:
        bytes = share * m;
        what = "out of every node";
        break;
    case Pattern::Allreduce:
        bytes = 2 * share * m;
        what = "out of every node";
        break;
    case Pattern::PointToPoint:
        break; // (timeBound(Schedule) bounds a program by its messages)
    }
    const double perPort = std::ceil(bytes / ports);
    b.bandwidth = c + std::max(0.0, perPort - 1) * std::min(g, G);
    b.bandwidthReason = fmt::format("{} {} over {} port{}", formatSize(static_cast<std::uint64_t>(std::ceil(bytes))),
                                    what, ports, ports == 1 ? "" : "s");
    b.total = std::max(b.latency, b.bandwidth);
    return b;
}

} // namespace

TimeBound timeBound(const Topology& topology, Pattern pattern, NodeId source, const NetworkModel& network,
                    std::uint32_t participants)
{
    return boundOf(topology, pattern, source, network, participants, 0);
}

namespace {

/// A program of messages (PointToPoint) ends no sooner than its longest message alone: c, a
/// latency per hop, and its bytes through one port (the bandwidth part's rule for one message).
TimeBound messagesBound(const Schedule& schedule, const NetworkModel& network)
{
    TimeBound b;
    const double o = ns(network.overhead), L = ns(network.latency), g = ns(network.gap), G = ns(network.perByte);
    const double hop = ns(network.hopLatency);
    const TransferBytes bytesOf(schedule, network.message);
    for (const Transfer& t : schedule.transfers()) {
        const std::uint64_t bytes = bytesOf(t);
        const int hops = schedule.hops(t);
        const double time = 2 * o + L + hops * hop + static_cast<double>(bytes - 1) * std::min(g, G);
        if (time > b.total) {
            b.total = b.bandwidth = time;
            b.bandwidthReason = fmt::format("its longest message alone ({} over {} hop{})", formatSize(bytes), hops,
                                            hops == 1 ? "" : "s");
        }
    }
    b.latencyReason = "a program of messages has no collective's latency bound";
    if (b.bandwidthReason.empty())
        b.bandwidthReason = "no messages";
    return b;
}

} // namespace

TimeBound timeBound(const Schedule& schedule, const NetworkModel& network)
{
    if (!isCollective(schedule.pattern()))
        return messagesBound(schedule, network);
    // A divisible load leaves the source whole (its share stays), in transfers sized in load units.
    const double sourceSends = schedule.sizeUnit == "load" ? static_cast<double>(network.message) : 0.0;
    return boundOf(schedule.topology(), schedule.pattern(), schedule.source(), network,
                   static_cast<std::uint32_t>(schedule.participants.size()), sourceSends);
}

double busBandwidthFactor(Pattern pattern, std::uint64_t nodes)
{
    const double n = static_cast<double>(std::max<std::uint64_t>(nodes, 1));
    switch (pattern) {
    case Pattern::Allreduce:
        return 2 * (n - 1) / n;
    case Pattern::Broadcast:
    case Pattern::Reduce:
        return 1;
    case Pattern::PointToPoint:
        return 0; // no collective: no bus bandwidth
    default:
        return (n - 1) / n;
    }
}

std::string aboveBound(double time, double bound)
{
    if (bound <= 0)
        return "no bound";
    const double above = (time - bound) / bound;
    if (std::abs(above) <= 1e-9)
        return "at the bound";
    if (above < 0)
        return fmt::format("{:.3g} % BELOW the bound", -100 * above);
    return fmt::format("{:.3g} % above the bound", 100 * above);
}

} // namespace topocast
