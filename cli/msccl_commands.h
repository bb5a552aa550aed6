#pragma once
// MSCCL XML in `validate` (cmd_validate.cpp) and `import` (cmd_msccl.cpp).

#include "commands.h"

#include "topocast/analysis/import_findings.h"
#include "topocast/analysis/msccl.h"

#include <string>

namespace topocast::cli {

/// The findings of `check` as `import --force` records them in the schedule file (each with the
/// text validate prints for it, "step 1, rank 3 …").
ImportFindings importFindingsOf(const MscclCheck& check, const std::string& file);

/// `validate FILE.xml --topology T [--ranks FILE] [--json]` once the file is opened (`check`
/// its program's check on `topology`): 0 when the program is a correct collective, 1 with its
/// findings otherwise.
int printMscclVerdict(const std::string& file, const MscclCheck& check, const Topology& topology, bool json, Io& io);

} // namespace topocast::cli
