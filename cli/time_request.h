#pragma once
// What `time` and `simulate` share: a time for JSON, the request that made a figure (the file or
// the scenario, the network, the sync), and --sync read once.

#include "topocast/analysis/time_engine.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/network.h"

#include <nlohmann/json.hpp>

#include <string>

namespace topocast::cli {

/// A time in nanoseconds for JSON: {"value": …, "unit": "ns"}, to the picosecond.
nlohmann::ordered_json nsJson(double nanoseconds);

/// The request behind a time: the schedule file (with --topology and --ranks where given) or the
/// scenario `sc`, the whole network model, the sync.
nlohmann::ordered_json timeRequestJson(const std::string& file, const std::string& topology, const std::string& ranks,
                                       const Scenario* sc, const NetworkModel& net, bool steps);

/// "last_node", "nodes" (each node's finish), "steps" (each step's end) and "transfers" (each one's
/// ends, bytes and hops) of the time `t` of `s`; with `free`, the contention-free end of each step
/// and transfer beside it. O(transfers).
void timedScheduleJson(nlohmann::ordered_json& doc, const Schedule& s, const NetworkModel& net, const TimeResult& t,
                       const TimeResult* free = nullptr);

/// --sync: true for "steps", false for "none"; throws Error naming both otherwise.
bool parseSync(const std::string& sync);

} // namespace topocast::cli
