#pragma once

#include "topocast/model/schedule.h"

namespace topocast {

/// MPICH-style binomial-tree broadcast over ranks in node-id order (row-major, x fastest),
/// relative rank r = (id − source) mod N, as MPICH's MPIR_Bcast_intra_binomial does it: with
/// m = ⌈log2 N⌉, in step t (1-based) every rank that is a multiple of 2^(m−t+1) sends to
/// r + 2^(m−t) (if < N): the farthest rank first. m steps, one-port, dimension-ordered routes.
/// O(N) time and memory.
Schedule binomialBroadcast(const Topology& topo, NodeId source);

/// Naive time-step-optimal recursive doubling on a mesh/torus/hypercube whose sides are powers
/// of two: dimension by dimension, halve the current box; every informed node sends to the
/// node at the same relative position in the other half. log2 N steps, one-port.
/// Throws Error if a side is not a power of two. O(N).
Schedule recursiveDoublingBroadcast(const Topology& topo, NodeId source);

/// All-port BFS-tree broadcast: Boost.Graph's breadth-first tree from the source, one step per
/// level, every parent sends to all its children at once over single-hop routes.
/// eccentricity(source) steps. O(N + channels).
Schedule bfsBroadcast(const Topology& topo, NodeId source);

} // namespace topocast
