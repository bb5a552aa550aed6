#pragma once
// A scenario file ({"format": "topocast-scenario", "version": 1, …}) read and written: the JSON
// object (toJson, scenarioFromJson) and the file and text around it.

#include "topocast/io/scenario_file.h"
#include "topocast/scenario/scenario.h"

#include <nlohmann/json.hpp>

namespace topocast {

nlohmann::ordered_json toJson(const Scenario& scenario);
/// Throws Error naming the JSON path of the first problem. An optional "compare" object holds a
/// second scenario with the same fields (no format, version or compare of its own); its
/// topology may be omitted (= this one's) and must otherwise equal this one's ("compare.topology:
/// … both sides of a comparison share one network …"); its source defaults to this one's.
Scenario scenarioFromJson(const nlohmann::json& doc);

} // namespace topocast
