#pragma once

#include "topocast/analysis/metrics.h"
#include "topocast/model/schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topocast {

/// The figures of one step, as a handout page lists them under the step's picture.
struct StepSummary {
    StepNo step{};                       ///< 1-based
    std::string label;                   ///< Schedule::stepLabels (empty when none)
    std::uint64_t transfers = 0;         ///< transfers in the step
    std::uint64_t receivers = 0;         ///< distinct destinations (stepReceivers)
    std::uint64_t tcd = 0;               ///< hops of the step's routes (Metrics::tcdPerStep)
    std::uint64_t tcdSoFar = 0;          ///< TCD of steps 1..step
    std::uint64_t informedSoFar = 0;     ///< nodes holding data after the step (informedSteps ≤ step)
    std::uint32_t maxHops = 0;           ///< longest route of the step
    std::uint64_t contendedChannels = 0; ///< channels used by ≥ 2 transfers in the step
    friend bool operator==(const StepSummary&, const StepSummary&) = default;
};

/// The summary of every step of `schedule` (index step−1), from its `metrics` (computeMetrics of
/// the same schedule; contended channels are counted from Metrics::contentions, so at most the
/// records it kept). Throws Error when the schedule is not finalized. O(transfers + nodes).
std::vector<StepSummary> summarizeSteps(const Schedule& schedule, const Metrics& metrics);

/// One line of figures: "6 transfers to 6 nodes, 6 hops (TCD so far 13, longest route 1 hop),
/// 14 of 64 nodes hold the message, no channel contended". O(1).
std::string describeStepSummary(const StepSummary& s, std::uint64_t nodeCount);

} // namespace topocast
