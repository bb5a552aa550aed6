#pragma once
// MSCCL XML in `validate` (cmd_validate.cpp) and `import` (cmd_msccl.cpp).

#include "commands.h"

#include "topocast/analysis/import_findings.h"
#include "topocast/analysis/msccl.h"

#include <string>

namespace topocast::cli {

/// Reads FILE, parses --topology and --ranks (one node per line; empty: rank r on node r) and
/// checks the program there. Throws Error for a missing topology and for bad input.
MscclCheck checkMscclFile(const std::string& file, const std::string& topology, const std::string& ranksFile);

/// The findings of `check` as `import --force` records them in the schedule file (each with the
/// text validate prints for it, "step 1, rank 3 …").
ImportFindings importFindingsOf(const MscclCheck& check, const std::string& file);

/// `validate FILE.xml --topology T [--ranks FILE] [--json]`: 0 when the program is a correct
/// collective, 1 with its findings otherwise.
int validateMscclFile(const std::string& file, const std::string& topology, const std::string& ranksFile, bool json,
                      Io& io);

} // namespace topocast::cli
