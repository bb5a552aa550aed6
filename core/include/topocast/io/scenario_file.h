#pragma once
// A scenario as a file and as one line of text, for front ends that need no JSON library (the
// app): the JSON itself is io/scenario_json.h's.

#include "topocast/scenario/scenario.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace topocast {

/// The scenario as one line of JSON (what saveScenario writes, without indentation), and back:
/// scenarioFromText throws Error naming `what` and the first problem. O(size).
std::string scenarioText(const Scenario& scenario);
Scenario scenarioFromText(std::string_view text, const std::string& what);

Scenario loadScenario(const std::filesystem::path& path);
/// Atomic save (temp + rename).
void saveScenario(const Scenario& scenario, const std::filesystem::path& path);

} // namespace topocast
