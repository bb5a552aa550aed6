#pragma once

#include "topocast/params.h"
#include "topocast/schedule.h"
#include "topocast/topology.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace topocast {

/// What a user saves and shares: topology, algorithm (+ its parameters), source, and view
/// preferences. Versioned: {"format": "topocast-scenario", "version": 1, …}.
struct Scenario {
    std::string title;
    Topology topology = Topology::mesh({8, 8, 8});
    std::string algorithm = "cang-wu";
    NodeId source = 0;
    /// Algorithm parameters: "mode", "pattern", "message", "packet", "ports", "tau", "tc",
    /// "variant", "order", divisible-load "A", "C", "S", "V", "epsilon", "p", "layers", …
    Params params;
    /// Free-form view settings for the app (camera, colour mode, step); kept as they are.
    nlohmann::json view = nlohmann::json::object();

    friend bool operator==(const Scenario& a, const Scenario& b)
    {
        return a.title == b.title && a.topology == b.topology && a.algorithm == b.algorithm &&
               a.source == b.source && a.params == b.params && a.view == b.view;
    }
};

/// The scenario topocast opens by default: an 8×8×8 mesh, minimum-TCD broadcast from an eye.
Scenario defaultScenario();

nlohmann::ordered_json toJson(const Scenario& scenario);
/// Throws Error naming the JSON path of the first problem.
Scenario scenarioFromJson(const nlohmann::json& doc);
Scenario loadScenario(const std::filesystem::path& path);
/// Atomic save (temp + rename).
void saveScenario(const Scenario& scenario, const std::filesystem::path& path);

/// Builds the scenario's schedule (buildSchedule with its algorithm, topology, source, params).
Schedule buildScenario(const Scenario& scenario);

} // namespace topocast
