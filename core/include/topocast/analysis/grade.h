#pragma once

#include "topocast/model/schedule.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// A student's guess of one step's receivers, graded against the schedule (the app's Predict
/// mode and `topocast-cli grade`). Each list is ascending by node id.
struct StepGrade {
    StepNo step{};
    std::vector<NodeId> right;  ///< marked and receives in the step
    std::vector<NodeId> missed; ///< receives in the step but not marked
    std::vector<NodeId> wrong;  ///< marked but receives nothing in the step
};

/// The nodes that receive in step `step` (1-based) of `schedule`: the destinations of its
/// transfers in that step, each once, ascending. Throws Error when `step` is not 1..stepCount().
/// O(transfers of the step · log).
std::vector<NodeId> stepReceivers(const Schedule& schedule, StepNo step);

/// Grades the marked nodes `guess` against step `step`'s receivers. Throws Error when the step is
/// out of range, a node is not in the topology, or a node is marked twice.
StepGrade gradeStep(const Schedule& schedule, StepNo step, std::span<const NodeId> guess);

/// The totals of several graded steps (Predict mode's score).
struct GradeTally {
    std::uint64_t steps = 0;
    std::uint64_t right = 0;
    std::uint64_t missed = 0;
    std::uint64_t wrong = 0;
    friend bool operator==(const GradeTally&, const GradeTally&) = default;
};
/// Sums the right, missed and wrong nodes of `grades` (steps = how many). O(grades).
GradeTally tallyGrades(std::span<const StepGrade> grades);

/// Why `v` receives in step `step`, one clause per transfer into it, as the narration says it:
/// "(5,3) receives from the eye (2,3) over 3 hops" — the sender is called "the source" when it is
/// the schedule's source, "the eye" when it is one of the schedule's eyes (info "eyes",
/// Cang-Wu), "the source, an eye," when both; several transfers are joined ("… over 1 hop and from (2,0) over 1 hop").
/// Throws Error when the step is out of range or `v` receives nothing in it. O(transfers of the step).
std::string explainReceiver(const Schedule& schedule, StepNo step, NodeId v);

/// Why `v` (marked by mistake) receives nothing in step `step`: "(1,1) receives nothing in step
/// 2; it receives in step 3" (the next step it receives in), "…; it received in step 1" (none
/// later), "(0,0) is the source; it receives nothing" or "(1,1) receives nothing in this
/// schedule". Throws Error when the step is out of range or `v` does receive in it. O(transfers).
std::string explainNonReceiver(const Schedule& schedule, StepNo step, NodeId v);

/// The narration of a graded step: "Step 2: 1 right, 1 missed, 1 wrong. Missed: (0,3) receives
/// from (0,2) over 2 hops. Right: (0,1) receives from the source (0,0) over 1 hop. Wrong: (1,1)
/// receives nothing in step 2; it receives in step 3." At most `maxClauses` nodes are explained
/// per group ("… and 5 more"); "Step 2: all 2 right." when nothing was missed or wrong still
/// explains the receivers. O(maxClauses · transfers).
std::string explainGrade(const Schedule& schedule, const StepGrade& grade, std::size_t maxClauses = 4);

/// Parses a list of nodes separated by ';' ("1,2;3,0" on a mesh or torus, "5;0b0110" on a
/// hypercube; spaces allowed; empty text is the empty list) with Topology::parseNode. Throws
/// Error naming the item that is not a node of `topo`.
std::vector<NodeId> parseNodeList(const Topology& topo, std::string_view text);

} // namespace topocast
