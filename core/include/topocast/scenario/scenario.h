#pragma once
// The central noun: a scenario — a network, an algorithm with its parameters, a source, how the
// view opens, the network model it is timed on and an optional second side to compare — and what
// follows from it without a file: its drawing, its start step and mode, its compare side and a
// contrast, its schedule. Read and written by io/scenario_json.h.

#include "topocast/drawing/drawing.h"
#include "topocast/model/network.h"
#include "topocast/model/params.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace topocast {

/// The view a scenario opens with (its file's "view" object), read and checked once where the file
/// is read. A key left out is the app's default.
struct ScenarioView {
    std::optional<std::string> mode;   ///< colour mode ("plain", "contention", …; colour::kColourModes)
    std::optional<long long> step;     ///< the step it opens at (clamped to the schedule's)
    std::optional<double> explode;     ///< extra gap between a 3-D network's planes, 0..kMaxExplode
    std::optional<std::string> layout; ///< "cube" | "flat" (hypercube), "tower" | "planes" (3-D grid)
    /// The keys this topocast does not read ("play", "camera", …, or a known key of another type),
    /// as JSON text: a file reads back as it was written.
    std::map<std::string, std::string> other;

    bool empty() const { return !mode && !step && !explode && !layout && other.empty(); }
    friend bool operator==(const ScenarioView&, const ScenarioView&) = default;
};

/// What a user saves and shares: topology, algorithm (+ its parameters), source, and view
/// preferences. Versioned: {"format": "topocast-scenario", "version": 1, …}.
struct Scenario {
    std::string title;
    /// One line saying what the scenario shows (the presets' menu and window title); may be empty.
    std::string description;
    Topology topology = Topology::mesh({8, 8, 8});
    std::string algorithm = "cang-wu";
    NodeId source{};
    /// Algorithm parameters: "mode", "pattern", "message", "packet", "ports", "tau", "tc",
    /// "variant", "order", divisible-load "A", "C", "S", "V", "epsilon", "p", "layers", …
    Params params;
    /// How the app opens it: colour mode, step, drawing.
    ScenarioView view;
    /// The network it runs on and the collective's size, for time ("network": {…}); none: the
    /// front ends use the "cluster" preset.
    std::optional<NetworkModel> network;
    /// The second side of a comparison ("compare": {…} in the file), or null. It has the same
    /// topology as this scenario (scenarioFromJson refuses another) and no compare of its own.
    /// Shared and immutable: copy, change and reassign to edit it.
    std::shared_ptr<const Scenario> compare;

    friend bool operator==(const Scenario& a, const Scenario& b)
    {
        const bool sameCompare = a.compare == b.compare || (a.compare && b.compare && *a.compare == *b.compare);
        return a.title == b.title && a.description == b.description && a.topology == b.topology &&
               a.algorithm == b.algorithm && a.source == b.source && a.params == b.params && a.view == b.view &&
               a.network == b.network && sameCompare;
    }
};

/// The scenario topocast opens by default: an 8×8×8 mesh, minimum-TCD broadcast from an eye.
Scenario defaultScenario();

/// The second side of `scenario` as a scenario of its own, drawn as A is (A's view layout and
/// explode, unless B's view names its own: one network drawn twice). Throws Error when `scenario`
/// has no compare side, or one on another network (checkComparable). O(params).
Scenario compareSide(const Scenario& scenario);

/// Checks that `b` can be compared with `a`: same topology; throws Error otherwise, e.g.
/// "a comparison needs one network on both sides: A is the 8×8 mesh (mesh:8x8), B is the
/// 4×4 mesh (mesh:4x4); give B the topology mesh:8x8 too". O(1).
void checkComparable(const Scenario& a, const Scenario& b);

/// `a` with `b` as its compare side (after checkComparable; b's own compare is dropped, and its view
/// layout and explode where they are A's: compareSide gives them back).
Scenario withCompare(Scenario a, const Scenario& b);
/// A useful other side for `a` (View ▸ Compare on a scenario without one), never a copy: Cang-Wu
/// and Tsay-Wang against their other mode (the paper's algorithm against the optimum or direct
/// variant); a hypercube spanning graph against SBT (SBT against nESBT, or SBnT where nESBT lacks
/// the pattern); a baseline against the paper algorithm that applies to the network (nESBT,
/// Cang-Wu optimal, Tsay-Wang direct); otherwise the same algorithm from its best source (least
/// TCD, or its first source map metric; brute force up to 1024 sources). Its title says what it
/// is. Throws Error when none of these exists (a one-node network, say). O(1), or the source map.
Scenario contrastScenario(const Scenario& a);

/// The explode the view of `scenario` starts with: its view's "explode" (0..kMaxExplode, checked
/// by scenarioFromJson) or defaultExplode(topology). O(1).
float scenarioExplode(const Scenario& scenario);
/// How the view of `scenario` draws its network: its view's "layout" ("cube" or "flat" for a
/// hypercube of n ≤ 6, "tower" or "planes" for a 3-D mesh or torus; a value for another kind of
/// network is ignored) and scenarioExplode, the rest defaultDrawing. O(1).
DrawingSettings scenarioDrawing(const Scenario& scenario);
/// The step the view of `scenario` opens at: its view's "step" (a whole number ≥ 0; the app
/// clamps it to the schedule's steps), else 0. O(1).
int scenarioStartStep(const Scenario& scenario);
/// The colour mode the view of `scenario` opens in: its view's "mode" ("plain", "contention", …),
/// else "plain". O(1).
std::string scenarioViewMode(const Scenario& scenario);

/// Builds the scenario's schedule (buildSchedule with its algorithm, topology, source, params).
Schedule buildScenario(const Scenario& scenario);

/// "the 8×8 mesh (mesh:8x8)": a network as the messages about a scenario name it.
std::string topologyText(const Topology& topology);

} // namespace topocast
