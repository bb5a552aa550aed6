#pragma once

#include "topocast/analysis/measured.h"
#include "topocast/io/measured_file.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace topocast {

/// The measured-times document. Never throws.
nlohmann::ordered_json toJson(const MeasuredTimes& measured);

/// Reads a measured-times document. Throws Error naming the JSON path of the first problem
/// ("steps[3].median_s: expected a number ≥ 0").
MeasuredTimes measuredFromJson(const nlohmann::json& doc);

} // namespace topocast
