#pragma once

#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <optional>
#include <string>

namespace topocast {

/// What a hand-made broadcast is measured against: the fewest steps any broadcast can take and
/// the smallest TCD among the schedules topocast's algorithms build for the same source.
struct BroadcastReference {
    /// Lower bound on steps: every informed node informs at most k others per step, so after t
    /// steps at most (k+1)^t nodes hold the message; ⌈log_{k+1} N⌉ with k = 1 for the one-port,
    /// one-port-exchange and half-duplex models and k = ports per node (2d on a mesh or torus, n
    /// on an n-cube) for all-port. 0 when unknown (multi-port).
    std::uint32_t minSteps = 0;
    /// Why minSteps, in words: "⌈log2 16⌉ = 4, one-port: the informed nodes at most double each step".
    std::string minStepsReason;
    /// Smallest TCD of a valid broadcast from the source with the same port model among the
    /// registry's algorithms (cang-wu optimal on 2^k meshes is the proven minimum), if any applies.
    std::optional<std::uint64_t> bestTcd;
    /// Steps of that schedule.
    std::uint32_t bestTcdSteps = 0;
    /// The algorithm that gave bestTcd: "cang-wu (optimal)".
    std::string bestTcdAlgorithm;
};

/// The reference for a broadcast from `source` under `ports` on `topo`: builds each registered
/// algorithm that applies (whyNot empty, broadcast pattern, default mode), keeps those that
/// validate() passes with the same port model, and returns the smallest TCD. Algorithms that throw
/// (a topology too large for them) are skipped. Throws Error for a source outside the topology.
/// Cost: one schedule build + check per applicable algorithm.
BroadcastReference broadcastReference(const Topology& topo, NodeId source, PortModel ports);

} // namespace topocast
