#pragma once

#include "topocast/schedule.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace topocast {

/// A student's guess of one step's receivers, graded against the schedule (the app's Predict
/// mode and `topocast-cli grade`). Each list is ascending by node id.
struct StepGrade {
    std::uint32_t step = 0;
    std::vector<NodeId> right;   ///< marked and receives in the step
    std::vector<NodeId> missed;  ///< receives in the step but not marked
    std::vector<NodeId> wrong;   ///< marked but receives nothing in the step
};

/// The nodes that receive in step `step` (1-based) of `schedule`: the destinations of its
/// transfers in that step, each once, ascending. Throws Error when `step` is not 1..stepCount().
/// O(transfers of the step · log).
std::vector<NodeId> stepReceivers(const Schedule& schedule, std::uint32_t step);

/// Grades the marked nodes `guess` against step `step`'s receivers. Throws Error when the step is
/// out of range, a node is not in the topology, or a node is marked twice.
StepGrade gradeStep(const Schedule& schedule, std::uint32_t step, std::span<const NodeId> guess);

/// Parses a list of nodes separated by ';' ("1,2;3,0" on a mesh or torus, "5;0b0110" on a
/// hypercube; spaces allowed; empty text is the empty list) with Topology::parseNode. Throws
/// Error naming the item that is not a node of `topo`.
std::vector<NodeId> parseNodeList(const Topology& topo, std::string_view text);

} // namespace topocast
