#pragma once

// A GOAL program (io/goal.h) as a topocast schedule, so that it animates, validates, exports and
// times like any other. GOAL says who sends how many bytes to whom and what each op waits for,
// not what the bytes are, so the schedule's pattern is Pattern::PointToPoint: each transfer
// carries a token of its own and the tokens of the receives its send waited for, which makes
// the checker test causality (a sender holds what it sends) and the time engine wait as the
// program did.
//
// What a schedule cannot hold is said, not hidden: calcs (their time), receives that wait for
// something before they are posted, a send that waits for another send to complete rather than
// to start. The program's own time (timeProgram) stands beside the schedule's so a reader sees
// whether the two agree; for a schedule topocast wrote as GOAL (export --format goal) they do.

#include "topocast/model/op_program.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <span>
#include <string>
#include <vector>

namespace topocast {

struct GoalSchedule {
    Schedule schedule;
    /// What the schedule leaves out of the program, each once with how often ("3 calcs (their
    /// 1500 ns of computation) are not transfers: …").
    std::vector<std::string> notes;
    /// Receives with a wildcard source or tag: paired as they matched when the program ran with
    /// LogGOPSim's defaults (a different network could pair them differently).
    std::size_t wildcardReceives = 0;
};

/// The schedule of `program` (it must run to its end: checkGoal finds nothing and every op ran)
/// on `topology`, rank r on node placement[r] (one distinct node per rank). Each send and the
/// receive it matched become one transfer of the send's bytes (size unit "bytes") along the
/// dimension-order route; its step is the program's dependency level: one more than the latest
/// step of a receive the send waits for (through calcs), no earlier than the rank's send before
/// it (in the order the program runs them). Port model multi-port (GOAL has none; the network
/// model's ports decide the time), steps may share channels. `name` starts every error. Throws
/// Error for a program that does not run to its end, a rank sending to itself, two ranks on one
/// node, or a placement of the wrong size. O((ops + dependencies) · log ops + Σ tokens).
GoalSchedule scheduleFromGoal(const OpProgram& program, const Topology& topology, std::span<const NodeId> placement,
                              const std::string& name);

} // namespace topocast
