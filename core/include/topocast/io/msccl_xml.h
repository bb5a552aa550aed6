#pragma once

// MSCCL XML: the schedule format of the MSCCL executor, written by the MSCCL tools (MSCCLang
// programs), TACOS and TE-CCL. Read with expat (no DOCTYPE, so no entities beyond the five XML
// ones, and a size limit) into the plain model of model/msccl_program.h; written back from it. What the program does,
// on which network, and whether it is right: msccl.h.

#include "topocast/model/msccl_program.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// Largest MSCCL XML file read (64 MiB). A 64-rank all-pairs all-reduce with one chunk per pair
/// is about 2 MB; anything far larger is refused before it is parsed.
inline constexpr std::uint64_t kMaxMscclXmlBytes = std::uint64_t{64} << 20;

/// Whether a file is read as MSCCL XML: a .xml name, any case.
bool isMscclXmlPath(const std::filesystem::path& path);

/// Parses MSCCL XML. `what` names the text in errors (a path, or "standard input").
/// Throws Error "WHAT:LINE: problem; what is allowed" for malformed XML, a DOCTYPE (refused before
/// its declarations are read, so no entity is ever expanded), an element other than algo/gpu/tb/
/// step in its place, a missing or non-integer attribute, an unknown op type or buffer, or text
/// past kMaxMscclXmlBytes. Values that are well-formed but wrong (a peer or offset out of range,
/// cnt ≤ 0, a dependency on a missing step) are kept: checkMscclProgram (msccl.h) reports them
/// with their rank. O(text size).
MscclProgram parseMscclXml(std::string_view text, std::string_view what = "MSCCL XML");
/// Reads and parses a file: refused before reading when it is larger than kMaxMscclXmlBytes.
MscclProgram readMscclXml(const std::filesystem::path& path);

/// Writes the program in the layout the MSCCL tools write (one attribute set per element,
/// indented by two spaces). parseMscclXml reads back an equal program (lines aside).
void writeMscclXml(std::ostream& out, const MscclProgram& program);

} // namespace topocast
