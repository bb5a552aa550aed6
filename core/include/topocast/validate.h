#pragma once

#include "topocast/schedule.h"

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

struct Validation {
    bool ok() const { return violationCount == 0; }
    std::size_t violationCount = 0;
    /// Human-readable sentences, e.g. "step 3: (1,1) sends to (2,1) but holds no message yet".
    std::vector<std::string> violations;
};

/// Checks a schedule against its pattern and port model:
/// * every node ends holding exactly what the pattern requires (broadcast: every part of the
///   source's message; scatter: its own blocks; allgather: every node's message; alltoall: the
///   block every node addressed to it), and no node receives a block twice;
/// * no node sends a block it did not hold at the end of the previous step;
/// * the port model holds in every step;
/// * every route is a connected path of existing channels from sender to receiver;
/// * (optionally) no directed channel carries two transfers in one step.
/// O(total hops + Σ payload blocks · log) time.
Validation validate(const Schedule& schedule, const ValidateOptions& options = {});

} // namespace topocast
