#pragma once
// One road for a schedule file: the reader its name picks, the network and rank placement it
// needs, the one check every front end shows — the app's File ▸ Open schedule, `topocast-cli
// validate`, `import`, `time`, `simulate`, `export` and topocast-mpi — and the words for a file
// that cannot be shown.

#include "topocast/analysis/msccl.h"
#include "topocast/analysis/validate.h"
#include "topocast/model/op_program.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace topocast {

/// What a schedule file holds, by its name.
enum class ScheduleFileKind : std::uint8_t {
    Json,     ///< a topocast schedule JSON (`topocast-cli schedule --json`), which names its network
    Csv,      ///< a student's CSV (step,from,to[,route]), which may name its network
    MscclXml, ///< an MSCCL XML program (.xml), ranks placed on a network
    Goal,     ///< a GOAL program (.goal, LogGOPSim's format), ranks placed on a network
};

/// "json", "csv", "msccl-xml", "goal".
std::string toString(ScheduleFileKind kind);

/// By the name: .xml an MSCCL program, .goal a GOAL program, .csv a CSV, anything else schedule
/// JSON (any case). O(name).
ScheduleFileKind scheduleFileKind(const std::filesystem::path& path);

/// What to open and how.
struct ScheduleFileRequest {
    std::filesystem::path file;
    /// The network: needed by an MSCCL or GOAL program (they name none) and by a CSV that names
    /// none; refused for schedule JSON (it names its own) and for a CSV that names another.
    std::optional<Topology> topology;
    /// MSCCL and GOAL: where the ranks sit, one node per line (line r: rank r); empty: rank r on
    /// node r. Refused for schedule JSON and CSV.
    std::filesystem::path ranks;
    /// Do not count step contention even where the file promises none (`validate
    /// --allow-contention`: store-and-forward schedules).
    bool allowContention = false;
};

/// A schedule file read and checked.
struct OpenedScheduleFile {
    ScheduleFileKind kind = ScheduleFileKind::Json;
    /// Finalized. Empty for an MSCCL program whose structure is broken (nothing can run then) and
    /// for a file that sends nothing.
    Schedule schedule;
    /// The one verdict: validate() with what the file promises (promisedValidateOptions: step
    /// contention counted only where the file forbids it, unless allowContention); an MSCCL
    /// program's findings from checkMscclProgram (its rank's node, its step, a rule by kind).
    Validation validation;
    /// The options the verdict was reached with (MSCCL: those of its schedule, for what follows).
    ValidateOptions options;
    /// An MSCCL program: its check (collective, ranks, chunk transfers, findings as MSCCL words);
    /// the schedule it made is `schedule` above (the check's own is left empty).
    std::optional<MscclCheck> msccl;
    /// A GOAL program as read, each send's hops set from the placement (for timing the program).
    std::optional<OpProgram> program;
    /// What a GOAL program's schedule leaves out of it (calcs, a receive of another size, …).
    std::vector<std::string> notes;
};

/// Reads `request.file` by its kind, places it, checks it. Throws Error naming the file (and the
/// line where one is to blame) and what is allowed: a file that cannot be read or parsed, a
/// network missing or not taken, a placement that does not fit, a GOAL program that cannot run
/// to its end. A program that parses but cannot run or sends nothing is returned — its verdict
/// holds — and cannotShow() says why there is nothing to show.
OpenedScheduleFile openScheduleFile(const ScheduleFileRequest& request);

/// The rank placement file `file` for a program of `ranks` ranks on `topology`: one node per line
/// (as Topology::parseNode reads them; blank lines and '#' comments skipped), line r holding rank
/// r. Throws Error naming the file and line (parseRankPlacement), or for a file past 16 MiB.
std::vector<NodeId> readRankPlacement(const std::filesystem::path& file, const Topology& topology, int ranks);

/// Why an opened MSCCL or GOAL program has no schedule to show, time or write: "F cannot run: N
/// problems with its structure, the first: rank R: …" (the first about its structure, else the
/// first deadlock: "N problems, the first: …"), or "F sends nothing: there is no schedule
/// in it"; nullopt when it has one. A schedule JSON or CSV without transfers is shown, its verdict
/// saying what it leaves out.
std::optional<std::string> cannotShow(const OpenedScheduleFile& opened, const std::string& file);

/// The findings of an MSCCL check as a Validation: each finding's rank as its node (rank r on
/// placement[r]; empty: on node r, where that is one of `topology`'s nodes), its step, its rule by kind (incomplete:
/// never reached, data: wrong data, otherwise a bad transfer), the MSCCL words as its text.
Validation mscclValidation(const MscclCheck& check, const Topology& topology, std::span<const NodeId> placement = {});

} // namespace topocast
