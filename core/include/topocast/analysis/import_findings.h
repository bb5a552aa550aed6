#pragma once

// What a schedule file records of the program it was imported from when that program was found
// wrong and written anyway (`topocast-cli import --force`): the findings of the program's own
// check, kept in the file as "import_findings" so that every reader judges the file as the
// program's check did (validate, topocast-mpi, the app). The moves of a schedule do not say
// whether a receive adds or copies; the program does, so its findings travel with the file.

#include "topocast/model/schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace topocast {

struct ImportFindings {
    std::string file;        ///< the program's file as given to import
    std::string collective;  ///< "allreduce", … (what the program claims to do)
    std::uint64_t count = 0; ///< findings in all (texts lists the first ones)
    std::vector<std::string> texts;
    /// The findings as the program's check gives them (JSON objects as text, one per listed
    /// finding; written into the file as they are).
    std::vector<std::string> structured;
};

/// The schedule file's key.
inline constexpr const char* kImportFindingsKey = "import_findings";

/// The findings `schedule` records (Schedule::fileInfo "import_findings"), or nullopt. Throws
/// Error when the key is there but not {"file", "collective", "count", "findings": [{"text", …}]}.
/// O(findings).
std::optional<ImportFindings> importFindings(const Schedule& schedule);
/// Records `findings` in `schedule` (replacing any recorded before), so that writeScheduleJson
/// writes them. O(findings).
void recordImportFindings(Schedule& schedule, const ImportFindings& findings);

} // namespace topocast
