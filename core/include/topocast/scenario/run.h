#pragma once
// A scenario computed: its schedule and what every front end draws and counts from it — metrics,
// the layout, who holds what after every step, the source map and the optimum it gives, the time
// on the scenario's network and its bound. The app's snapshot is one (it adds what only a window
// needs); progress and cancellation are plain atomics a GUI or a command line can read.

#include "topocast/algorithms/hypercube_graphs.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/source_map.h"
#include "topocast/analysis/time_bound.h"
#include "topocast/drawing/drawing.h"
#include "topocast/drawing/layout.h"
#include "topocast/model/schedule.h"
#include "topocast/scenario/scenario.h"

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace topocast {

/// One scenario computed: an immutable value once built (front ends share it read-only).
struct ScenarioRun {
    Scenario scenario;
    Schedule schedule;
    Metrics metrics;
    /// How the scenario's view draws the network (scenarioDrawing, read once here).
    DrawingSettings drawing;
    /// The layout without explode (drawingPositions with explode 0; planes side by side for a
    /// 16:9 view). A view adds its own explode and lays planes out for its own shape.
    std::vector<Vec3> positions;
    /// Step in which each node first holds data (informedSteps(): 0 for the source,
    /// kNeverInformed = UINT32_MAX if never).
    std::vector<std::uint32_t> informedStep;
    /// What every node holds after every step: the Data held mode colours each node by the share
    /// of its final data it holds, the hover lists its blocks.
    std::shared_ptr<const Holdings> holdings;
    /// Every channel's load at every step, built once: a step change asks it for that step in
    /// O(channels) instead of recounting steps 1..k.
    ChannelLoadHistory channelLoads;
    /// TCD of every step so far: prefixTcd[s] = Σ TCD of steps 1..s (prefixTcd[0] = 0).
    std::vector<std::uint64_t> prefixTcd;
    /// The source map: `sourceMapMetric` of the schedule from every node as source
    /// (computeSourceMap; NaN where the algorithm has no schedule), empty when not available.
    std::vector<double> sourceMap;
    SourceMapMetric sourceMapMetric = SourceMapMetric::Tcd;
    /// The metrics this algorithm's source map can show, and the unit of its time ("s", or empty
    /// for model units).
    std::vector<SourceMapMetric> sourceMapMetrics;
    std::string sourceMapTimeUnit;
    /// The member trees of a hypercube schedule's spanning graph (scheduleTrees()), per tree as
    /// edges parent → child from the schedule's source; empty for other schedules.
    std::vector<std::vector<hypercube::TreeEdge>> trees;
    /// The best TCD over all sources: the algorithm's own figure (Cang-Wu's OD_k), else the least
    /// TCD of the map of TCDs; none when neither is known.
    std::optional<std::uint64_t> optimum;
    /// True when `optimum` is the algorithm's own figure, false when it is only the best TCD of
    /// this algorithm over all sources.
    bool optimumFromFigures = false;
    /// The sources whose schedule has the TCD `optimum`, in node order (from the map of TCDs; empty
    /// where none was computed).
    std::vector<NodeId> optimumSources;
    /// The schedule's time on the scenario's network model (the time engine: each send as soon as
    /// its data and ports allow; contention not charged), in ns, and its bound; empty where it
    /// was not timed, `networkTimeWhy` saying why.
    std::optional<double> networkTime;
    TimeBound networkBound;
    std::string networkTimeWhy;
    /// Why another algorithm is shown ("cang-wu is not available in this build; showing bfs"),
    /// else empty.
    std::string fallback;
    /// Time spent computing (ms).
    double computeMs = 0;

    std::uint32_t stepCount() const { return schedule.stepCount(); }
    const Topology& topology() const { return schedule.topology(); }
};

/// Shared by a run on a worker thread and whoever shows it: the stage it is in, and whether it
/// should stop. Stages are coarse: an algorithm is not interrupted inside, so a cancel takes
/// effect at the next stage (or the next source of a brute-force source map).
struct RunProgress {
    enum Stage : int { Schedule, Derived, SourceMap, Done };
    std::atomic<int> stage{Schedule};
    std::atomic<std::uint32_t> mapDone{0};  ///< brute-force source map: sources done (on all cores)
    std::atomic<std::uint32_t> mapTotal{0}; ///< … of this many (0: not brute force)
    /// The brute force's estimate, said before it starts (estimateSourceMap; 0: none, for maps
    /// under kEstimateSourceMapFrom sources), and the threads it assumes.
    std::atomic<double> mapSeconds{0.0};
    std::atomic<unsigned> mapWorkers{0};
    std::atomic<bool> cancelled{false};
};

/// What a run is doing, in words: "building the schedule", "metrics, contention and layout",
/// "source map: source 40 of 512 (about 8 min on 2 cores)", "done".
std::string runStageText(const RunProgress& progress);

/// Thrown by runScenario when its RunProgress was cancelled (not a topocast::Error: nothing was
/// wrong with the input).
class RunCancelled : public std::exception {
public:
    const char* what() const noexcept override { return "cancelled"; }
};

/// Largest node count for which a source map is computed by building one schedule per source
/// when the algorithm has no closed form (or symmetry) for it.
inline constexpr std::uint32_t kBruteForceSourceMapLimit = 512;
/// Brute-force source maps of at least this many sources are estimated before they start (the
/// estimate times up to 9 schedules: not worth it for a map that takes less).
inline constexpr std::uint32_t kEstimateSourceMapFrom = 128;
/// Schedules of more transfers are not timed on the network when a scenario runs (topocast-cli
/// time times them).
inline constexpr std::size_t kRunTimedTransfers = std::size_t{1} << 22;

struct RunOptions {
    /// When the scenario's algorithm is not registered, run recursive-doubling (or bfs) and say so
    /// in ScenarioRun::fallback.
    bool allowFallback = false;
    /// A run whose topology, algorithm and params match lends its source map and layout, so a new
    /// source costs one schedule (may be null).
    const ScenarioRun* previous = nullptr;
    /// Progress, and cancellation (throws RunCancelled); may be null.
    RunProgress* progress = nullptr;
    /// What the source map shows.
    SourceMapMetric metric = SourceMapMetric::Tcd;
};

/// Runs `scenario` into `out`: the algorithm's schedule, its metrics, layout, holdings and time
/// on the network, the source map (the closed form where the algorithm has one, else one schedule
/// per source up to kBruteForceSourceMapLimit sources; none beyond) and the optimum. Throws Error as
/// buildSchedule does, RunCancelled when cancelled.
void runScenario(const Scenario& scenario, ScenarioRun& out, const RunOptions& options = {});

/// `out` for a schedule already built (read from a file, made by a test): metrics, layout,
/// holdings and time; no source map. The scenario's topology and source are the schedule's.
void runSchedule(Scenario scenario, Schedule schedule, ScenarioRun& out);

} // namespace topocast
