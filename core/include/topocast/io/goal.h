#pragma once

// GOAL, the text format of LogGOPSim's schedules (Hoefler, Schneider & Lumsdaine, "LogGOPSim",
// HPDC 2010, §3; written by its schedule generator, read by its txt2bin): per rank, labelled
// sends, receives and calcs, and "a requires b" / "a irequires b" between labels of one rank.
//
//   num_ranks 2
//   rank 0 {
//   l1: send 1024b to 1 tag 0
//   l2: calc 500
//   l2 requires l1
//   }
//   rank 1 {
//   l1: recv 1024b from 0 tag 0
//   }
//
// `from -1` and `tag -1` match any source and any tag; `cpu N` and `nic N` pick a processor and
// a network interface; comments are /* … */ and // to the end of the line.

#include "topocast/analysis/goal_schedule.h"
#include "topocast/model/op_program.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// The most ops a GOAL file may hold (16 Mi: about 1 GiB of engine state), and its largest size.
inline constexpr std::size_t kGoalMaxOps = std::size_t{1} << 24;
inline constexpr std::uint64_t kGoalMaxBytes = std::uint64_t{1} << 30;

/// Whether `path` names a GOAL program (ends in .goal, any case).
bool isGoalPath(const std::filesystem::path& path);

/// Parses GOAL `text`; `name` (the file) starts every error. Throws Error "NAME:LINE: what is
/// wrong; what is allowed" for text that is not GOAL: an unknown statement, a rank outside
/// num_ranks or given twice, a peer outside the ranks, an unknown or repeated label, a missing
/// `}`, more than kGoalMaxOps ops. O(text).
OpProgram parseGoal(std::string_view text, const std::string& name);

/// Reads and parses the file at `path` (at most kGoalMaxBytes). Throws Error as parseGoal and
/// readFileText do.
OpProgram readGoal(const std::filesystem::path& path);

/// What is wrong with a program that parses: receives no send can match and sends no receive
/// takes (counted per source, destination and tag, wildcards matching anything), and cycles of
/// dependencies; each "NAME:LINE: …" where the op came from a file. At most `limit` findings,
/// then one line saying how many more. O(ops + dependencies).
std::vector<std::string> checkGoal(const OpProgram& program, const std::string& name, std::size_t limit = 20);

/// Throws Error "NAME cannot run to its end:" with checkGoal's findings, one a line, where it
/// has any. O(ops + dependencies).
void requireGoalRuns(const OpProgram& program, const std::string& name);

/// Rank r on node r for every rank of `program`. Throws Error "NAME has R ranks; the … has N
/// nodes …" where there are more ranks than nodes. O(ranks).
std::vector<NodeId> goalIdentityPlacement(const OpProgram& program, const Topology& topology, const std::string& name);

/// The GOAL file at `path` as a schedule on `topology` (scheduleFromGoal), rank r on node
/// placement[r] (empty: rank r on node r). Throws Error as readGoal does, with checkGoal's
/// findings for a program that cannot run to its end, and as scheduleFromGoal does.
GoalSchedule readGoalSchedule(const std::filesystem::path& path, const Topology& topology,
                              std::span<const NodeId> placement = {});

/// Writes `program` as GOAL that LogGOPSim's txt2bin reads (labels l<i> per rank, in op order;
/// the receiver's port of a send is not written: GOAL has one "nic" for both ends). O(ops).
void writeGoal(std::ostream& out, const OpProgram& program);

} // namespace topocast
