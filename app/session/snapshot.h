#pragma once

#include "topocast/scenario/frame_style.h"
#include "topocast/scenario/run.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace topocast::app {

/// One computed scenario as the GUI sees it: core's ScenarioRun (the schedule and all that follows
/// from it) and what only the window says. An immutable value shared by the models, the scene and
/// the timeline (std::shared_ptr<const Snapshot>), built off the GUI thread by Session.
struct Snapshot : ScenarioRun {
    /// Note for the status bar (e.g. "cang-wu is not available; showing recursive-doubling").
    QString note;
    /// The file the schedule was read from (File ▸ Open schedule); empty when it was computed.
    /// Such a snapshot is not remembered as the last scenario (its algorithm cannot rebuild it).
    QString scheduleFile;
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

/// What the status bar says about a running build (core runStageText: "building the schedule", …).
QString buildStageText(const RunProgress& progress);

/// Builds a snapshot synchronously (core runScenario with `options`, after checkViewMemory), the
/// fallback's words as its note. Throws topocast::Error, RunCancelled when cancelled.
SnapshotPtr buildSnapshot(const Scenario& scenario, const RunOptions& options = {});

/// Wraps an already built schedule (e.g. read from a file or made by a test) into a snapshot (core
/// runSchedule): metrics, layout and per-node informed steps; no source map. The scenario's
/// topology and source are taken from the schedule.
SnapshotPtr snapshotFromSchedule(Scenario scenario, Schedule schedule);

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

} // namespace topocast::app

Q_DECLARE_METATYPE(topocast::app::SnapshotPtr)
