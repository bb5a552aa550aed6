#pragma once
// A measured-times file (topocast-mpi --out) read, for front ends that need no JSON library (the
// app): the JSON itself is io/measured_json.h's.

#include "topocast/analysis/measured.h"

#include <filesystem>

namespace topocast {

/// Reads and parses a measured-times file (Error if unreadable or malformed).
MeasuredTimes readMeasuredTimes(const std::filesystem::path& path);

} // namespace topocast
