#pragma once

#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace topocast {

/// Largest schedule CSV read (32 MiB, some 600 000 rows of the export): a student's schedule is a
/// few hundred rows and the export's read back (ring all-gather on the 7×7×7 torus, 17.7 MiB)
/// fits; anything far larger is refused before it is parsed.
inline constexpr std::uint64_t kMaxScheduleCsvBytes = std::uint64_t{32} << 20;
/// Largest step number a schedule CSV may use (the step index takes 8 B per step).
inline constexpr std::uint32_t kMaxScheduleCsvStep = 1000000;

/// A student's broadcast schedule written as CSV (README "Your own schedule as CSV"):
///
///     # topology: mesh:4x4        (optional when the caller gives the topology)
///     # source: 0,0               (optional; default: the sender of the first row)
///     # ports: one-port           (optional; default one-port)
///     step,from,to,route          (header line, required; route is optional, any column order)
///     1,"0,0","2,0"
///     2,"0,0","0,2",xy
///
/// The export (writeTransfersCsv) writes its settings as columns after the transfer's instead —
/// topology, algorithm, mode, source, pattern, ports, max_sends_per_step, step_contention,
/// dimension_order, parts, participants — filled in its first row, so the header is the first
/// line and any CSV reader takes the file as it is; they are read as the '# key:' lines are (a
/// row with settings and no transfer is only settings).
/// Lines starting with '#' are comments (the three keys above are read from them), blank lines
/// are skipped, fields follow RFC 4180 (a field holding a comma is quoted, "" is a quote inside a
/// quoted field; a quoted field may not run past its line). `step` is a whole number 1..
/// kMaxScheduleCsvStep; `from`/`to` are nodes as Topology::parseNode reads them ("0,0", "(0,0)";
/// a hypercube address "5" or "0b0101"). `route` is empty (dimension-ordered), a dimension order
/// ("xy", "yx"; one per file), "cyclic:<dim><+|->", or the nodes of the path separated by ';'
/// ("0,0;1,0;2,0"), which must be the dimension-ordered route or a cyclic one.
/// The result is a finalized Broadcast schedule (algorithm "student"), not validated: validate()
/// reports the rules it breaks.
/// Throws Error "WHAT:LINE: problem; what is allowed" for a wrong or missing column, a bad step,
/// a node out of range, malformed quotes, a missing or conflicting topology, or text past
/// kMaxScheduleCsvBytes. `topology` is used when the file names none; when both are given they
/// must agree. O(text size).
Schedule scheduleFromCsv(std::string_view text, const std::string& what,
                         const std::optional<Topology>& topology = std::nullopt);

/// Reads a file (Error if it cannot be read or is past kMaxScheduleCsvBytes, checked before
/// reading) and parses it with scheduleFromCsv.
Schedule readScheduleCsv(const std::filesystem::path& path, const std::optional<Topology>& topology = std::nullopt);

/// The topology named by a "# topology: SPEC" comment in the CSV text or in the topology column
/// of its first row, if any (the app asks for one when there is none). Throws Error for a malformed spec.
std::optional<Topology> csvTopology(std::string_view text);

/// True when `path` ends in ".csv" (any letter case): the front ends read such files as CSV and
/// everything else as schedule JSON.
bool isCsvPath(const std::filesystem::path& path);

} // namespace topocast
