#pragma once
// The collectives machine-learning training and every parallel-computing course run after
// broadcast: ring all-gather, reduce-scatter and all-reduce, and the binomial
// tree's reduce and gather. No paper: the textbook algorithms (Thakur, Rabenseifner & Gropp,
// "Optimization of Collective Communication Operations in MPICH", IJHPCA 2005), with their
// costs in the α–β model.

#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <optional>
#include <string>
#include <vector>

namespace topocast {

/// Why `topo` has no Hamiltonian cycle topocast can build, or nullopt when it has one: tori
/// (any sides), meshes with an even number of nodes and at least two dimensions (or a 1-D mesh
/// of two), hypercubes. A mesh with an odd number of nodes has none (it is bipartite with
/// unequal sides). O(d).
std::optional<std::string> hamiltonianCycleWhyNot(const Topology& topo);

/// A Hamiltonian cycle starting at node 0: consecutive nodes (and the last and the first) are
/// neighbours. Mesh/torus: with c a dimension such that the other sides' product is even (or,
/// on a torus, any), the rows along c are walked as a snake over columns 1..n_c − 1 in the
/// boustrophedon order of the other dimensions, and column 0 brings the cycle back (across the
/// wrap of c when the number of rows is odd). Hypercube: the binary-reflected Gray code. Throws
/// Error with hamiltonianCycleWhyNot's reason. O(N).
std::vector<NodeId> hamiltonianCycle(const Topology& topo);

/// The ring algorithm on hamiltonianCycle(topo), one-port, every step each node sends one block
/// to its successor (single-hop routes, so no two transfers of a step share a channel):
/// - allgather: N − 1 steps; in step s node h_i forwards the message of h_{i−s+1} (size 1 = M);
/// - reduce-scatter: N − 1 steps on a vector of N chunks of M/N (blocks {*, owner, 0}); in step
///   s h_i sends its partial of h_{i−s}'s chunk;
/// - allreduce: that reduce-scatter on chunks 0..N−1 (chunk j ends complete at h_j), then an
///   all-gather of the complete chunks: 2(N − 1) steps, 2(N − 1)/N · M sent per node.
/// Throws Error for another pattern (naming the three) or a network without a cycle. O(N²).
Schedule ringSchedule(const Topology& topo, Pattern pattern);

/// MPICH's binomial reduce: binomialBroadcast(topo, root) reversed in time and direction, every
/// message a partial result of the one chunk (size 1 = M). ⌈log₂ N⌉ steps, one-port. O(N).
Schedule binomialReduce(const Topology& topo, NodeId root);

/// MPICH's binomial gather: the same reversed tree, every node forwarding the messages of its
/// whole subtree (origin blocks, size = their number). ⌈log₂ N⌉ steps. O(N log N).
Schedule binomialGather(const Topology& topo, NodeId root);

/// The bucket algorithm of torus machines: rings along each dimension in turn (a torus's own
/// rings; a mesh line folded as 0, 2, 4, …, 5, 3, 1 so every link is at most two hops and no two
/// transfers of a step share a channel; a hypercube's dimensions are rings of two). On a vector
/// of N chunks: reduce-scatter ring by ring in dimension order, each ring leaving every node a
/// k-th of what it held; all-gather in the reverse order; all-reduce both. Σ(k_d − 1) steps per
/// half, the same 2(N − 1)/N·M per node as the ring. Refuses other patterns. O(N · Σ k_d).
Schedule bucketSchedule(const Topology& topo, Pattern pattern);

/// Why rabenseifner does not apply to `topo` (a side that is not a power of two), or nullopt.
std::optional<std::string> rabenseifnerWhyNot(const Topology& topo);

/// Rabenseifner's reduce-scatter by recursive halving (log₂N exchanges with the partner at
/// distance N/2, N/4, … in each dimension, each sending the half the partner keeps) and
/// all-reduce as that followed by recursive doubling: 2·log₂N steps, 2(N − 1)/N·M per node — both
/// lower bounds at once. Hypercubes (one hop per exchange) and meshes/tori whose sides are powers
/// of two (by embedding: exchanges of one step may then share channels). O(N log N).
Schedule rabenseifnerSchedule(const Topology& topo, Pattern pattern);

/// Recursive-doubling all-reduce (Thakur, Rabenseifner & Gropp 2005, §4.4; MPICH's choice for
/// short messages): log₂N steps, in each every node exchanges its whole partial vector with the
/// node at distance 1, 2, 4, … along each dimension in turn and adds what it receives —
/// the fewest steps, log₂N·M per node. Sides must be powers of two; exchanges farther than one
/// hop may share channels within a step. O(N log N).
Schedule recursiveDoublingAllreduce(const Topology& topo);

/// A broadcast run backwards as a reduce, or a scatter as a gather, to the same root: every
/// transfer from→to in step t becomes to→from in step T + 1 − t; broadcast part p becomes chunk
/// p (a partial result), scatter block (root → v, part p) becomes v's own block. The port model,
/// the steps (less idle steps before the original's first transfer) and the TCD are the original's; a schedule whose
/// messages are all one hop keeps its promise of no shared channels (each reversed link is distinct where the originals
/// were). Step labels are reversed too; figures are kept with "(reversed)" in the formula of a hypercube schedule.
/// Throws Error for another pattern. O(transfers + Σ payload blocks).
Schedule reversedSchedule(const Schedule& schedule);

/// The α–β cost of a collective schedule with message size M (elements per node's message;
/// the whole vector for reduce-scatter and allreduce): startups and the data the busiest node
/// receives, and the lower bounds every algorithm meets (Thakur et al. 2005, §3): allgather and
/// gather (N − 1)·M, reduce-scatter (N − 1)/N·M, allreduce 2(N − 1)/N·M, reduce M; startups
/// ⌈log₂ N⌉ for all of them.
struct CollectiveCost {
    double startups = 0;
    double data = 0; ///< in units of M
    double lowerBoundStartups = 0;
    double lowerBoundData = 0; ///< in units of M
    std::string formula;       ///< "2(N−1)·α + 2(N−1)/N·M·β", …
};
/// The closed form for an algorithm ("ring", "bucket", "rabenseifner", "recursive-doubling",
/// "binomial") and pattern on
/// `topo` (bucket's start-ups depend on its sides).
CollectiveCost collectiveCost(const std::string& algorithm, Pattern pattern, const Topology& topo);
/// The α–β lower bound alone (lowerBoundStartups ⌈log₂N⌉, lowerBoundData the least data per
/// node of `pattern`; the other fields 0), for algorithms whose figures are their own (the
/// hypercube graphs). Throws Error for broadcast, scatter and all-to-all. O(1).
CollectiveCost collectiveLowerBound(Pattern pattern, const Topology& topo);

} // namespace topocast
