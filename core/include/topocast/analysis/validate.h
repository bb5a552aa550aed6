#pragma once

#include "topocast/model/schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topocast {

struct ValidateOptions {
    /// Treat step contention (two transfers of one step on one directed channel) as a violation.
    /// Wormhole schedules promise none; store-and-forward personalized schedules may combine.
    bool forbidStepContention = true;
    /// For Broadcast/Allgather: also require that no node receives a block it already holds.
    bool forbidDuplicateReceives = true;
    /// Stop collecting after this many violations (the count is still reported).
    std::size_t maxViolations = 50;
};

/// The options that check what `schedule` promises: step contention forbidden only when the
/// schedule is contentionFree (schedule.h). O(1).
ValidateOptions promisedValidateOptions(const Schedule& schedule);

/// Which rule a finding breaks.
enum class FindingKind : std::uint8_t {
    InformedTwice, ///< a node receives data it already holds (the source included)
    NotYetHolding, ///< a sender does not hold what it sends at the end of the previous step
    ChannelShared, ///< two or more transfers of one step on one directed channel
    NeverReached,  ///< nodes that do not end with all the data the pattern requires
    PortLimit,     ///< a node sends or receives more than its port model allows in a step
    BadRoute,      ///< a route that is not a connected path of channels from sender to receiver
    BadTransfer,   ///< a transfer outside the topology, with step 0, to itself, or a missing payload
    WrongData,     ///< a transfer carries a block that is not data of the pattern
    /// The program the schedule was imported from was found wrong there (`import --force` records
    /// its findings in the file: whether a receive adds or copies is in the program only).
    FoundWrongAtImport,
};

/// The short name of a rule: "informed twice", "not yet holding", "channel shared",
/// "never reached", "port limit", "bad route", "bad transfer", "wrong data", "found wrong at import".
std::string toString(FindingKind kind);

/// One broken rule in a form a front end can show: where (step, nodes, channel) and what (kind).
struct Finding {
    FindingKind kind = FindingKind::BadTransfer;
    /// The step the rule is broken in (1-based); NeverReached: the schedule's last step (0 when
    /// the schedule is empty); 0 also for a transfer that has step 0.
    StepNo step{};
    /// The nodes involved, the one that breaks the rule first: InformedTwice (receiver, sender),
    /// NotYetHolding (sender, receiver), ChannelShared (sender, receiver of each transfer on the
    /// channel), NeverReached (every such node), PortLimit (the node, its partners).
    std::vector<NodeId> nodes;
    /// ChannelShared: the shared directed channel; −1 otherwise.
    std::int64_t channel = -1;
    /// The sentence also listed in Validation::violations.
    std::string text;
};

struct Validation {
    bool ok() const { return violationCount == 0; }
    std::size_t violationCount = 0;
    /// Human-readable sentences, e.g. "step 3: (1,1) sends to (2,1) but holds no message yet".
    std::vector<std::string> violations;
    /// The same violations (same order, same count) with their rule, step and nodes.
    std::vector<Finding> findings;
};

/// One line per finding for a terminal: "step 4, informed twice, nodes (2,0) (3,0): <text>".
std::string findingLine(const Topology& topo, const Finding& finding);

/// Checks a schedule against its pattern and port model:
/// * every node ends holding exactly what the pattern requires (broadcast: every part of the
///   source's message; scatter: its own blocks; allgather: every node's message; alltoall: the
///   block every node addressed to it; gather: the root every node's message), and no node
///   receives a block twice;
/// * reduce, reduce-scatter, allreduce (ReductionReplay, reduction.h): no contribution is
///   combined twice into one partial result (a message whose partial shares a contribution with
///   the receiver's and does not contain it), no partial is received twice, and every node ends
///   with each chunk it must have combined over all N contributions — each finding names the
///   step, the nodes, the chunk and the contribution;
/// * no node sends a block it did not hold at the end of the previous step;
/// * the port model holds in every step;
/// * every route is a connected path of existing channels from sender to receiver;
/// * (optionally) no directed channel carries two transfers in one step.
/// O(total hops + Σ payload blocks · log) time.
Validation validate(const Schedule& schedule, const ValidateOptions& options = {});

} // namespace topocast
