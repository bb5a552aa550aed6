#pragma once
// A schedule read from a file on the command line, the one way `time` and `export` read it.

#include "topocast/model/schedule.h"

#include <string>

namespace topocast::cli {

/// The schedule in `file`: schedule JSON (which names its topology), a CSV (on `topology` where
/// it names none) or an MSCCL XML program placed on `topology` (ranks on the nodes `ranks` lists,
/// empty: rank r on node r). Throws Error for a --topology or --ranks the file does not take, and
/// for an MSCCL program that is not a correct collective (a wrong program is neither timed nor
/// exported; `validate` lists its findings).
Schedule readScheduleFile(const std::string& file, const std::string& topology, const std::string& ranks);

} // namespace topocast::cli
