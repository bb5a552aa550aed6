#include "topocast/algorithms/baselines.h"

#include "topocast/model/error.h"
#include "topocast/model/graph.h"

#include <bit>

namespace topocast {

Schedule binomialBroadcast(const Topology& topo, NodeId source)
{
    Schedule s(topo, source, Pattern::Broadcast, PortModel::OnePort);
    s.algorithm = "binomial";
    s.contentionFree = false; // MPICH's tree ignores the network: routes of one step may share channels
    const std::uint32_t n = topo.nodeCount();
    s.reserve(n - 1);
    // MPICH's MPIR_Bcast_intra_binomial: the root first sends to relative rank 2^(m−1)
    // (m = ⌈log2 N⌉), then 2^(m−2), …; in step t every rank that is a multiple of 2·half sends to
    // rank + half, half = 2^(m−t).
    const std::uint64_t top = std::bit_ceil(std::uint64_t{n});
    StepNo step{1};
    for (std::uint64_t half = top / 2; half >= 1; half /= 2, ++step)
        for (std::uint64_t r = 0; r + half < n; r += 2 * half) {
            const auto from = static_cast<NodeId>((r + source) % n);
            const auto to = static_cast<NodeId>((r + half + source) % n);
            s.add(from, to, step);
        }
    s.finalize();
    return s;
}

Schedule recursiveDoublingBroadcast(const Topology& topo, NodeId source)
{
    for (int k = 0; k < topo.dims(); ++k)
        if (!std::has_single_bit(static_cast<unsigned>(topo.side(k))))
            throw Error("recursive-doubling needs every side to be a power of two; got " + topo.displayName());
    Schedule s(topo, source, Pattern::Broadcast, PortModel::OnePort);
    s.algorithm = "recursive-doubling";
    s.contentionFree = false; // halving ignores the routes: those of one step may share channels
    s.reserve(topo.nodeCount() - 1);

    std::vector<NodeId> informed{source};
    informed.reserve(topo.nodeCount());
    StepNo step{1};
    for (int k = 0; k < topo.dims(); ++k) {
        const std::uint32_t stride = topo.stride(k);
        for (int half = topo.side(k) / 2; half >= 1; half /= 2, ++step) {
            const std::size_t count = informed.size();
            for (std::size_t i = 0; i < count; ++i) {
                const NodeId from = informed[i];
                const int x = topo.coord(from, k);
                const int px = x ^ half; // same relative position in the other half of the box
                const NodeId to{from - static_cast<std::uint32_t>(x) * stride +
                                static_cast<std::uint32_t>(px) * stride};
                s.add(from, to, step);
                informed.push_back(to);
            }
        }
    }
    s.finalize();
    return s;
}

Schedule bfsBroadcast(const Topology& topo, NodeId source)
{
    Schedule s(topo, source, Pattern::Broadcast, PortModel::AllPort);
    s.algorithm = "bfs";
    std::vector<std::uint32_t> level;
    const std::vector<NodeId> parent = bfsTree(topo, source, &level);
    s.reserve(topo.nodeCount() - 1);
    // Added level by level, in node order within a level (a counting sort): finalize() finds
    // them sorted and has nothing to sort.
    std::uint32_t depth = 0;
    for (std::uint32_t l : level)
        depth = std::max(depth, l);
    std::vector<std::uint32_t> first(std::size_t{depth} + 2, 0);
    for (std::uint32_t l : level)
        ++first[l + 1];
    for (std::size_t l = 1; l < first.size(); ++l)
        first[l] += first[l - 1];
    std::vector<NodeId> byLevel(topo.nodeCount());
    for (NodeId v{}; v < topo.nodeCount(); ++v)
        byLevel[first[level[v]]++] = v;
    for (NodeId v : byLevel)
        if (v != source)
            s.add(parent[v], v, StepNo{level[v]});
    s.finalize();
    return s;
}

} // namespace topocast
