#pragma once

#include "topocast/algorithms/hypercube_graphs.h"
#include "topocast/io/scenario.h"
#include "topocast/layout.h"
#include "topocast/metrics.h"
#include "topocast/schedule.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
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
    std::vector<Vec3> positions;
    /// Step in which each node first receives anything (0 for the source, UINT32_MAX if never).
    std::vector<std::uint32_t> informedStep;
    /// TCD of every step so far: prefixTcd[s] = Σ TCD of steps 1..s (prefixTcd[0] = 0).
    std::vector<std::uint64_t> prefixTcd;
    /// Minimum TCD from every node as source (the "TCD map"), empty when not available.
    std::vector<std::uint64_t> tcdMap;
    /// The member trees of a hypercube schedule's spanning graph (core scheduleTrees()), per tree
    /// as edges parent → child from the schedule's source; empty for other schedules.
    std::vector<std::vector<hypercube::TreeEdge>> trees;
    /// The optimum TCD for this topology (schedule.info "optimum", or the TCD map's minimum).
    std::optional<std::uint64_t> optimum;
    /// True when `optimum` is the algorithm's own figure (info "optimum"), false when it is only
    /// the best TCD of this algorithm over all sources.
    bool optimumFromInfo = false;
    /// Note for the status bar (e.g. "cang-wu is not available; showing recursive-doubling").
    QString note;
    /// Time spent computing (ms), for the status bar and the benchmark.
    double computeMs = 0;

    std::uint32_t stepCount() const { return schedule.stepCount(); }
    const Topology& topology() const { return schedule.topology(); }
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

/// Builds a snapshot synchronously: runs the scenario's algorithm, metrics, layout and the TCD
/// map (when the algorithm offers one or the network is small). Throws topocast::Error.
/// When `allowFallback` and the scenario's algorithm is not registered, uses recursive-doubling
/// (or bfs) and says so in `note`.
/// `previous` (may be null): a snapshot whose topology/algorithm/params match lends its TCD map
/// and layout, so a new source costs one schedule.
SnapshotPtr buildSnapshot(const Scenario& scenario, bool allowFallback = false, const Snapshot* previous = nullptr);

/// Wraps an already built schedule (e.g. read from a file or made by a test) into a snapshot:
/// metrics, layout and per-node informed steps; no TCD map. The scenario's topology and source
/// are taken from the schedule.
SnapshotPtr snapshotFromSchedule(Scenario scenario, Schedule schedule);

/// Node ids with state per timeline position `step` (0..stepCount): the view shows the network
/// after step `step`, whose receivers are "receiving".
enum class NodeState : std::uint8_t { Uninformed, Informed, Receiving, Source };
std::vector<NodeState> nodeStates(const Snapshot& snap, std::uint32_t step);

/// Largest node count for which the app computes a TCD map by building one schedule per source
/// when the algorithm has no cheap tcdMap of its own.
inline constexpr std::uint32_t kBruteForceTcdMapLimit = 512;

} // namespace topocast::app

Q_DECLARE_METATYPE(topocast::app::SnapshotPtr)
