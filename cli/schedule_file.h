#pragma once
// A schedule read from a file on the command line, the one way `time` and `export` read it.

#include "topocast/analysis/goal_schedule.h"
#include "topocast/io/goal.h"
#include "topocast/model/op_program.h"
#include "topocast/model/schedule.h"

#include <string>
#include <vector>

namespace topocast::cli {

/// Where the ranks of a GOAL program `file` sit on `topology`: as the placement file `ranksFile`
/// says (one node per line), or rank r on node r (empty). Throws Error for more ranks than
/// nodes and for a bad placement file.
std::vector<NodeId> goalPlacement(const OpProgram& program, const Topology& topology, const std::string& ranksFile,
                                  const std::string& file);

/// The GOAL program `file` as a schedule on `topology` (needed: GOAL names no network), ranks
/// placed by goalPlacement. Throws Error for a program that cannot run to its end (checkGoal's
/// findings, with file and line) and as scheduleFromGoal does.
/// The program itself goes to `program` where one is given.
GoalSchedule readGoalScheduleFile(const std::string& file, const std::string& topology, const std::string& ranksFile,
                                  OpProgram* program = nullptr);

/// The schedule in `file`: schedule JSON (which names its topology), a CSV (on `topology` where
/// it names none), an MSCCL XML program or a GOAL program placed on `topology` (ranks on the
/// nodes `ranks` lists, empty: rank r on node r). Throws Error for a --topology or --ranks the file does not take, and
/// for an MSCCL program that is not a correct collective (a wrong program is neither timed nor
/// exported; `validate` lists its findings).
Schedule readScheduleFile(const std::string& file, const std::string& topology, const std::string& ranks);

} // namespace topocast::cli
