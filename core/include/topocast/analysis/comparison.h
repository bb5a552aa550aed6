#pragma once

#include "topocast/analysis/metrics.h"
#include "topocast/model/schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topocast {

/// Two schedules on one network side by side (the app's split view and its export): the
/// figures of both on one timeline of max(steps A, steps B) positions, where the shorter
/// schedule holds its last state, and the nodes the two inform at different steps.
struct Comparison {
    /// Timeline positions 0..steps; steps = max of the two schedules' step counts.
    std::uint32_t steps = 0;
    /// TCD of each step (index step−1), 0 past a schedule's last step (it holds its last state).
    std::vector<std::uint64_t> tcdPerStepA, tcdPerStepB;
    /// TCD of steps 1..s (index s = 0..steps); flat past a schedule's last step.
    std::vector<std::uint64_t> cumulativeTcdA, cumulativeTcdB;
    /// informedSteps() of each schedule (kNeverInformed: never).
    std::vector<std::uint32_t> informedA, informedB;
    /// Nodes whose informed step differs between A and B, in id order.
    std::vector<NodeId> differing;

    /// The nodes informed on one side only after timeline position `step`: those of `differing`
    /// with min(informed A, informed B) ≤ step < max(…) — where one schedule is ahead of the other
    /// (none at the end, once both have informed every node). O(differing).
    std::vector<NodeId> informedOnOneSide(std::uint32_t step) const;

    /// One row of the metrics table: the figure of each side and B − A.
    struct Row {
        std::string name;
        double a = 0;
        double b = 0;
        double difference() const { return b - a; }
    };
    /// steps, transfers, TCD, max hops, contention uses, max step load, max link load, and
    /// "time (cost model)" when both schedules carry the algorithm's time figure (info "time").
    std::vector<Row> rows;
};

/// Compares two finalized schedules on the same topology (Error "the two schedules are on
/// different networks: …; a comparison needs one network" otherwise) with their metrics.
/// O(transfers + nodes + steps).
Comparison compareSchedules(const Schedule& a, const Metrics& ma, const Schedule& b, const Metrics& mb);

/// Position `step` of a comparison's shared timeline on one side with `sideSteps` steps: the
/// shorter schedule holds its last state (min(step, sideSteps)). O(1).
constexpr std::uint32_t sideStep(std::uint32_t step, std::uint32_t sideSteps)
{
    return step < sideSteps ? step : sideSteps;
}

} // namespace topocast
