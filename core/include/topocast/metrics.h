#pragma once

#include "topocast/schedule.h"

#include <cstdint>
#include <vector>

namespace topocast {

/// A directed channel used by more than one transfer of the same step.
struct Contention {
    std::uint32_t step = 0;
    ChannelId channel = 0;
    std::vector<std::size_t> transfers;  ///< indices into Schedule::transfers()
};

/// Figures of a schedule. All counts are exact integers.
struct Metrics {
    std::uint32_t steps = 0;
    std::uint64_t transfers = 0;
    /// Total communication distance: Σ route lengths (hops) over all transfers.
    std::uint64_t tcd = 0;
    /// TCD of each step (index step−1).
    std::vector<std::uint64_t> tcdPerStep;
    /// Step contention: every (step, channel) used by ≥ 2 transfers, in step then channel order.
    std::vector<Contention> contentions;
    /// Number of conflicting channel uses: Σ over contentions of the transfers involved.
    std::uint64_t contentionUses = 0;
    /// Largest number of transfers on one channel in one step (1 when contention-free).
    std::uint32_t maxStepLoad = 0;
    /// Largest number of transfers on one channel over the whole schedule (depth contention).
    std::uint32_t maxLinkLoad = 0;
    /// Channels used in more than one step (depth contention, information only).
    std::uint64_t depthContendedChannels = 0;
    /// Most sends / receives by one node in one step.
    std::uint32_t maxSendsPerNodeStep = 0;
    std::uint32_t maxReceivesPerNodeStep = 0;
    /// Longest route (hops).
    std::uint32_t maxHops = 0;
};

/// Computes every metric in one pass over the expanded routes.
/// O(total hops + nodes·ports) time, O(channel slots) memory. `contentionLimit` caps how many
/// Contention records are kept (the counts stay exact).
Metrics computeMetrics(const Schedule& schedule, std::size_t contentionLimit = 10000);

/// Total uses of every channel (index = ChannelId) over the whole schedule.
std::vector<std::uint32_t> cumulativeChannelLoad(const Schedule& schedule);
/// Uses of every channel in one step (index = ChannelId).
std::vector<std::uint32_t> stepChannelLoad(const Schedule& schedule, std::uint32_t step);

} // namespace topocast
