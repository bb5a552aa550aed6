#pragma once

// Step-by-step schedules of the hypercube spanning-graph algorithms (Johnsson & Ho §4–§7; where the
// paper gives only the cost, the cycle-by-cycle schedule is ours): which blocks cross which directed
// edge in which cycle, with the data of several trees/sources on one link in one cycle combined into
// one message, as the paper's cost formulas assume.

#include "topocast/algorithms/hypercube_cost.h"

#include <string>
#include <vector>

namespace topocast::hypercube {

/// One combined message: `from` sends `size` elements (the union of `blocks`) to the neighbour
/// `to` in 0-based cycle `cycle`. `tag` = the smallest tree/part index among the blocks.
struct RawTransfer {
    std::uint32_t cycle = 0;
    NodeId from{};
    NodeId to{};
    std::uint32_t tag = 0;
    Rational size;
    std::vector<Block> blocks; ///< sorted, distinct
};

/// A generated schedule before it becomes a topocast::Schedule.
struct RawSchedule {
    int n = 1;
    NodeId source{};
    Pattern pattern = Pattern::Broadcast;
    Ports ports = Ports::One;
    GraphKind graph = GraphKind::Sbt;
    std::string discipline;  ///< "label schedule (§6.2)", "reverse breadth-first (§2)", …
    std::uint32_t parts = 1; ///< blocks per message: part 0..parts−1
    std::uint32_t cycles = 0;
    std::vector<RawTransfer> transfers; ///< sorted by (cycle, from, to)
};

/// What to schedule.
struct ScheduleRequest {
    std::string algorithm; ///< hp, sbt, tcbt, nrsbt, nesbt, sbnt, sbntc
    Pattern pattern = Pattern::Broadcast;
    Ports ports = Ports::One;
    CostParams cost;
    NodeId source{};
    /// "" (default), "nopipe" (hp broadcast), "postorder" / "subtree" (sbt one-port scatter).
    std::string variant;
};

/// Generates the schedule. Throws Error for bad parameters, a pattern or port model the graph
/// does not serve, or a size too large to enumerate (more than ~2·10^7 block moves).
/// O(block moves · log) time.
RawSchedule generateSchedule(const ScheduleRequest& request);

/// Figures counted from a schedule (§2): D_t = largest message on any link in cycle t;
/// start-ups Σ⌈D_t/B⌉, transfer Σ D_t.
struct CountedCost {
    std::uint32_t cycles = 0;
    Rational startups;
    Rational transfer;
    std::vector<Rational> perCycle; ///< D_t
};
CountedCost countCost(const RawSchedule& schedule, long long packet);

/// Independent checker of spec §11: adjacency, port model, senders hold what they send, every
/// node ends with exactly what the pattern requires, nothing received twice. Returns the
/// violations (empty = ok), at most `limit` of them. O(Σ blocks · log).
std::vector<std::string> verifySchedule(const RawSchedule& schedule, std::size_t limit = 20);

} // namespace topocast::hypercube
