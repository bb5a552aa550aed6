#pragma once

#include "topocast/params.h"
#include "topocast/schedule.h"
#include "topocast/topology.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>

namespace topocast {

/// What a user saves and shares: topology, algorithm (+ its parameters), source, and view
/// preferences. Versioned: {"format": "topocast-scenario", "version": 1, …}.
struct Scenario {
    std::string title;
    Topology topology = Topology::mesh({8, 8, 8});
    std::string algorithm = "cang-wu";
    NodeId source{};
    /// Algorithm parameters: "mode", "pattern", "message", "packet", "ports", "tau", "tc",
    /// "variant", "order", divisible-load "A", "C", "S", "V", "epsilon", "p", "layers", …
    Params params;
    /// Free-form view settings for the app (camera, colour mode, step); kept as they are.
    nlohmann::json view = nlohmann::json::object();
    /// The second side of a comparison ("compare": {…} in the file), or null. It has the same
    /// topology as this scenario (scenarioFromJson refuses another) and no compare of its own.
    /// Shared and immutable: copy, change and reassign to edit it.
    std::shared_ptr<const Scenario> compare;

    friend bool operator==(const Scenario& a, const Scenario& b)
    {
        const bool sameCompare = a.compare == b.compare || (a.compare && b.compare && *a.compare == *b.compare);
        return a.title == b.title && a.topology == b.topology && a.algorithm == b.algorithm &&
               a.source == b.source && a.params == b.params && a.view == b.view && sameCompare;
    }
};

/// The scenario topocast opens by default: an 8×8×8 mesh, minimum-TCD broadcast from an eye.
Scenario defaultScenario();

nlohmann::ordered_json toJson(const Scenario& scenario);
/// Throws Error naming the JSON path of the first problem. An optional "compare" object holds a
/// second scenario with the same fields (no format, version or compare of its own); its
/// topology may be omitted (= this one's) and must otherwise equal this one's ("compare.topology:
/// … both sides of a comparison share one network …"); its source defaults to this one's.
Scenario scenarioFromJson(const nlohmann::json& doc);

/// The second side of `scenario` as a scenario of its own. Throws Error when `scenario` has no
/// compare side, or one on another network (checkComparable). O(params).
Scenario compareSide(const Scenario& scenario);

/// Checks that `b` can be compared with `a`: same topology; throws Error otherwise, e.g.
/// "a comparison needs one network on both sides: A is the 8×8 mesh (mesh:8x8), B is the
/// 4×4 mesh (mesh:4x4); give B the topology mesh:8x8 too". O(1).
void checkComparable(const Scenario& a, const Scenario& b);

/// `a` with `b` as its compare side (after checkComparable; b's own compare is dropped).
Scenario withCompare(Scenario a, const Scenario& b);
/// The explode the view of `scenario` starts with: its view's "explode" (0..kMaxExplode, checked
/// by scenarioFromJson) or defaultExplode(topology). O(1).
float scenarioExplode(const Scenario& scenario);

Scenario loadScenario(const std::filesystem::path& path);
/// Atomic save (temp + rename).
void saveScenario(const Scenario& scenario, const std::filesystem::path& path);

/// Builds the scenario's schedule (buildSchedule with its algorithm, topology, source, params).
Schedule buildScenario(const Scenario& scenario);

} // namespace topocast
