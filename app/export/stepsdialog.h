#pragma once

#include "session/snapshot.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

class QFormLayout;
class QWidget;

namespace topocast::app {

/// The steps an export covers, as its dialog asked for them (first ≤ last).
struct StepRange {
    std::uint32_t first = 1;
    std::uint32_t last = 1;
};

/// The steps first..last of `snap` an export covers (last 0: the schedule's last). Throws
/// topocast::Error "nothing to `purpose`: no schedule has been computed", "the schedule has no
/// steps to `purpose` (a single node?)" or "steps 3-9 are not within the schedule's steps 1..4".
StepRange checkedStepRange(const SnapshotPtr& snap, std::uint32_t first, std::uint32_t last,
                           const std::string& purpose);

/// A modal dialog titled `title` asking for the first and last of `steps` steps (all by default),
/// with whatever rows `extraRows` adds to its form first (page size, exercise); nullopt when
/// cancelled. The handout's and the quiz's dialogs.
std::optional<StepRange> askStepRange(QWidget* window, const QString& title, int steps,
                                      const std::function<void(QFormLayout*)>& extraRows = {});

/// Runs `write` under a wait cursor and says how it went: its message to `report`, or, when it
/// throws, "`what` not written: reason" to `report` and in a warning box titled `title`.
void writeReported(QWidget* window, const QString& title, const QString& what, const std::function<QString()>& write,
                   const std::function<void(const QString&)>& report);

} // namespace topocast::app
