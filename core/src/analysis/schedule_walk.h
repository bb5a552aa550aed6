#pragma once
// Internal to the time engine: the walk over a schedule that makes its program (scheduleProgram)
// and finds whether every rank runs the same one (foldSchedule). One walk, so the two cannot
// disagree on what a send waits for.
#include "topocast/analysis/time_engine.h"

#include <cstdint>
#include <functional>
#include <span>

namespace topocast {

/// One transfer as its program sees it.
struct WalkedTransfer {
    std::size_t index = 0; ///< in the schedule's transfer order
    const Transfer& transfer;
    std::uint64_t bytes = 0; ///< TransferBytes at the network's message size
    std::uint32_t out = 0;   ///< the sender's port
    std::uint32_t in = 0;    ///< the receiver's port
    std::uint32_t hops = 0;
    bool sentBefore = false; ///< the sender has a send before this one (it starts no sooner)
    /// The transfers (of earlier steps) whose receives brought the blocks it carries to its
    /// sender, each once, in the order the blocks were found.
    std::span<const std::uint32_t> waitsFor;
};

/// Visits every transfer of the finalized `schedule` step by step, in transfer order; stops
/// early when `visit` returns false. O(transfers + Σ blocks).
void walkScheduleProgram(const Schedule& schedule, const NetworkModel& network,
                         const std::function<bool(const WalkedTransfer&)>& visit);

} // namespace topocast
