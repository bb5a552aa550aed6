#pragma once
// A schedule file named on the command line, opened the one way every front end opens it (core
// io/schedule_file.h): `validate`, `import`, `time`, `simulate` and `export`.

#include "topocast/io/schedule_file.h"
#include "topocast/model/op_program.h"
#include "topocast/model/schedule.h"

#include <string>
#include <vector>

namespace topocast::cli {

/// The request for `file` with --topology `topology` and --ranks `ranks` as given (empty: not
/// given). Throws Error for a topology spec that does not parse, and in the command line's words
/// for a flag the file does not take (--topology for schedule JSON, --ranks for JSON and CSV) or
/// lacks (--topology for an MSCCL or GOAL program).
ScheduleFileRequest scheduleFileRequest(const std::string& file, const std::string& topology, const std::string& ranks,
                                        bool allowContention = false);

/// Where the ranks of a GOAL program `file` sit on `topology`: as the placement file `ranksFile`
/// says (one node per line), or rank r on node r (empty). Throws Error for more ranks than
/// nodes and for a bad placement file.
std::vector<NodeId> goalPlacement(const OpProgram& program, const Topology& topology, const std::string& ranksFile,
                                  const std::string& file);

/// The schedule in `file` (openScheduleFile with --topology and --ranks). Throws Error as it
/// does, for a program with no schedule (cannotShow), and for an MSCCL program that is not a
/// correct collective (a wrong program is neither timed nor exported; `validate` lists its
/// findings).
Schedule readScheduleFile(const std::string& file, const std::string& topology, const std::string& ranks);

} // namespace topocast::cli
