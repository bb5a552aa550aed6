#pragma once

// The least time any schedule can take for a collective on a network model — the bound every
// time topocast prints stands beside. Two parts, each a lower bound under the time engine's
// rules (time_engine.h), and their maximum:
//
//  * latency: data must travel. A message costs at least c = 2o + L from its send's start to
//    its data being in place (and a latency per hop of its route), and a node starts at most one
//    send every δ (δ = max(o, g) with one port: its processor and its one interface; o with more
//    ports). So the nodes that can know something by time t grow at most as the greedy LogP
//    broadcast lets them (Karp, Sahay, Santos & Schauser 1993: every informed node sends as soon
//    as it can; optimal for one item), which must reach all N nodes — from the root, or from each
//    node for the patterns where every node's data reaches everyone (and, reversed, for reduce
//    and gather); and the farthest node is `eccentricity` (or `diameter`) hops away.
//  * bandwidth: bytes must cross a node's interfaces. A port takes g + (s − 1)·G between two
//    messages of s bytes and (s − 1)·G for the last, so B bytes through one port cost at least
//    c + (B − 1)·min(g, G); a node has at most its degree ports (one with one-port, k with
//    k-port). The bytes that must cross one node (M the collective's size as nccl-tests counts
//    it): broadcast, reduce — M into every non-root node (broadcast) or into the root (reduce);
//    scatter, gather — (N−1)/N·M out of or into the root; all-gather, all-to-all — (N−1)/N·M into
//    every node; reduce-scatter — (N−1)/N·M out of every node (its contributions to the others'
//    chunks); all-reduce — 2(N−1)/N·M out of every node (Patarasuk & Yuan 2009).
//
// Contention is not in it (nor in the engine): a bound on a contended network can only be higher.

#include "topocast/model/network.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <string>

namespace topocast {

struct TimeBound {
    double latency = 0;          ///< ns
    double bandwidth = 0;        ///< ns
    double total = 0;            ///< ns: the larger of the two
    std::string latencyReason;   ///< "⌈greedy rounds⌉ … to reach 64 nodes", "7 hops from the source"
    std::string bandwidthReason; ///< "1 MiB into every node but the source over 1 port"
};

/// The bound for `pattern` on `topology` from `source` (ignored by the patterns without a root)
/// under `network` (its message size included), over `participants` nodes (0: every node);
/// zero for Pattern::PointToPoint (the schedule's overload bounds a program by its messages).
/// O(N log N) for the greedy broadcast (N nodes), O(d) otherwise. Never throws.
TimeBound timeBound(const Topology& topology, Pattern pattern, NodeId source, const NetworkModel& network,
                    std::uint32_t participants = 0);

/// The bound for what `schedule` computes: its topology, pattern, source and participants. A
/// program of messages (Pattern::PointToPoint) has no collective's bound: its longest message
/// alone (latency, hops and its bytes through one port) bounds it; O(transfers) then.
TimeBound timeBound(const Schedule& schedule, const NetworkModel& network);

/// nccl-tests' bus-bandwidth factor F (busbw = algbw · F, algbw = M / t): 2(n−1)/n for
/// all-reduce, (n−1)/n for all-gather, reduce-scatter, all-to-all, scatter and gather, 1 for
/// broadcast and reduce; 0 for a program of messages (PointToPoint), which has none. O(1).
double busBandwidthFactor(Pattern pattern, std::uint64_t nodes);

/// "12 % above the bound", "at the bound" (within 10⁻⁹), from a time and its bound. Never throws.
std::string aboveBound(double time, double bound);

} // namespace topocast
