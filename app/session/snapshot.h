#pragma once

#include "topocast/algorithms/hypercube_graphs.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/landscape.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/time_bound.h"
#include "topocast/drawing/layout.h"
#include "topocast/io/scenario.h"
#include "topocast/model/schedule.h"

#include <QMetaType>
#include <QString>

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

namespace topocast::app {

/// One computed scenario as the GUI sees it: an immutable value shared by the models, the
/// scene and the timeline (std::shared_ptr<const Snapshot>), built off the GUI thread by Session.
struct Snapshot {
    Scenario scenario;
    Schedule schedule;
    Metrics metrics;
    /// How the scenario's view draws the network (core scenarioDrawing, read once here).
    DrawingSettings drawing;
    /// The layout without explode (core drawingPositions with explode 0; planes side by side for
    /// a 16:9 view). The 3-D view draws, picks and places everything at SceneView::positions(),
    /// which adds the view's explode and lays planes out for its own shape: use that for drawing.
    std::vector<Vec3> positions;
    /// Step in which each node first holds data (core informedSteps(): 0 for the source,
    /// kNeverInformed = UINT32_MAX if never).
    std::vector<std::uint32_t> informedStep;
    /// What every node holds after every step (core Holdings): the Data held mode colours each
    /// node by the share of its final data it holds, the hover lists its blocks.
    std::shared_ptr<const Holdings> holdings;
    /// Every channel's load at every step (core ChannelLoadHistory, built once here): a step
    /// change asks it for that step in O(channels) instead of recounting steps 1..k.
    ChannelLoadHistory channelLoads;
    /// TCD of every step so far: prefixTcd[s] = Σ TCD of steps 1..s (prefixTcd[0] = 0), core
    /// cumulativeTcd().
    std::vector<std::uint64_t> prefixTcd;
    /// Minimum TCD from every node as source (the "TCD map"), empty when not available;
    /// kNoTcd where the algorithm has no schedule from that node.
    std::vector<std::uint64_t> tcdMap;
    static constexpr std::uint64_t kNoTcd = ~std::uint64_t{0};
    /// The source map: `landscapeMetric` of the schedule from every node as source (core
    /// computeLandscape; NaN where the algorithm has no schedule), empty when not available.
    std::vector<double> landscape;
    LandscapeMetric landscapeMetric = LandscapeMetric::Tcd;
    /// The metrics this algorithm's source map can show (core landscapeMetrics), and the unit of
    /// its time ("s", or empty for model units).
    std::vector<LandscapeMetric> landscapeMetrics;
    std::string landscapeTimeUnit;
    /// The member trees of a hypercube schedule's spanning graph (core scheduleTrees()), per tree
    /// as edges parent → child from the schedule's source; empty for other schedules.
    std::vector<std::vector<hypercube::TreeEdge>> trees;
    /// The best TCD over all sources (the algorithm's own figure, e.g. Cang-Wu's OD_k, or the TCD
    /// map's minimum).
    std::optional<std::uint64_t> optimum;
    /// True when `optimum` is the algorithm's own figure (CangWuFigures::optimum), false when it is only
    /// the best TCD of this algorithm over all sources.
    bool optimumFromFigures = false;
    /// The schedule's time on the scenario's network model (the time engine: each send as soon as
    /// its data and ports allow; contention not charged), in ns, and its bound; empty where it
    /// was not timed, `networkTimeWhy` saying why.
    std::optional<double> networkTime;
    TimeBound networkBound;
    std::string networkTimeWhy;
    /// Note for the status bar (e.g. "cang-wu is not available; showing recursive-doubling").
    QString note;
    /// The file the schedule was read from (File ▸ Open schedule); empty when it was computed.
    /// Such a snapshot is not remembered as the last scenario (its algorithm cannot rebuild it).
    QString scheduleFile;
    /// Time spent computing (ms), for the status bar and the benchmark.
    double computeMs = 0;

    std::uint32_t stepCount() const { return schedule.stepCount(); }
    const Topology& topology() const { return schedule.topology(); }
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

/// Shared by a snapshot build on a worker thread and the GUI: the stage it is in, and whether
/// it should stop. Stages are coarse: a core algorithm is not interrupted inside, so a cancel
/// takes effect at the next stage (or the next source of a brute-force TCD map).
struct BuildControl {
    enum Stage : int { Schedule, Derived, TcdMap, Done };
    std::atomic<int> stage{Schedule};
    std::atomic<std::uint32_t> mapDone{0};  ///< brute-force TCD map: sources done (on all cores)
    std::atomic<std::uint32_t> mapTotal{0}; ///< … of this many (0: not brute force)
    /// The brute force's estimate, said before it starts (core estimateLandscape; 0: none, for
    /// maps under kEstimateSourceMapFrom sources), and the threads it assumes.
    std::atomic<double> mapSeconds{0.0};
    std::atomic<unsigned> mapWorkers{0};
    std::atomic<bool> cancelled{false};
};

/// What the status bar says about a running build ("building the schedule", …).
QString buildStageText(const BuildControl& control);

/// Thrown by buildSnapshot when its BuildControl was cancelled (not a topocast::Error: nothing
/// was wrong with the input).
class BuildCancelled : public std::exception {
public:
    const char* what() const noexcept override { return "cancelled"; }
};

/// Builds a snapshot synchronously: runs the scenario's algorithm, metrics, layout and the TCD
/// map (when the algorithm offers one or the network is small). Throws topocast::Error.
/// When `allowFallback` and the scenario's algorithm is not registered, uses recursive-doubling
/// (or bfs) and says so in `note`.
/// `previous` (may be null): a snapshot whose topology/algorithm/params match lends its TCD map
/// and layout, so a new source costs one schedule.
/// `control` (may be null): progress for the GUI, and cancellation (throws BuildCancelled).
/// `metric`: what the source map shows (TCD by default).
SnapshotPtr buildSnapshot(const Scenario& scenario, bool allowFallback = false, const Snapshot* previous = nullptr,
                          BuildControl* control = nullptr, LandscapeMetric metric = LandscapeMetric::Tcd);

/// Wraps an already built schedule (e.g. read from a file or made by a test) into a snapshot:
/// metrics, layout and per-node informed steps; no TCD map. The scenario's topology and source
/// are taken from the schedule.
SnapshotPtr snapshotFromSchedule(Scenario scenario, Schedule schedule);

/// Node ids with state per timeline position `step` (0..stepCount): the view shows the network
/// after step `step`, whose receivers are "receiving"; a node holding data before step 1 (an
/// all-gather's every node) is informed from step 0.
enum class NodeState : std::uint8_t { Uninformed, Informed, Receiving, Source };
std::vector<NodeState> nodeStates(const Snapshot& snap, std::uint32_t step);

/// What the 3-D view holds per node and per directed channel (instance data on the CPU and the
/// GPU, colours, states, layout), for checkViewMemory.
inline constexpr std::uint64_t kViewBytesPerNode = 112;
inline constexpr std::uint64_t kViewBytesPerChannel = 72;
/// The most memory the 3-D view may take for one network (the app refuses larger networks;
/// topocast-cli handles any size up to the core's limits).
inline constexpr std::uint64_t kViewMemoryLimit = std::uint64_t{1} << 30;

/// Bytes the 3-D view would take for `topology`: nodes × 112 B + directed channels × 72 B
/// (saturating). O(1).
std::uint64_t viewMemoryBytes(const Topology& topology);

/// Throws topocast::Error "the 3-D view of the <network> would need <size> (<nodes> nodes × 112 B
/// + <channels> channels × 72 B); the view's limit is 1 GiB — …" before anything is allocated
/// when the network is too large to draw. O(1).
void checkViewMemory(const Topology& topology);

/// Largest node count for which the app computes a source map by building one schedule per source
/// when the algorithm has no closed form (or symmetry) for it.
inline constexpr std::uint32_t kBruteForceTcdMapLimit = 512;
/// Brute-force source maps of at least this many sources are estimated before they start (the
/// estimate times up to 9 schedules: not worth it for a map that takes less).
inline constexpr std::uint32_t kEstimateSourceMapFrom = 128;

} // namespace topocast::app

Q_DECLARE_METATYPE(topocast::app::SnapshotPtr)
