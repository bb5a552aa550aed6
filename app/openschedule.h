#pragma once

#include "snapshot.h"

#include "topocast/reference.h"
#include "topocast/validate.h"

#include <QString>

class QWidget;

#include <memory>
#include <optional>

namespace topocast::app {

/// A schedule read from a file (File ▸ Open schedule): the snapshot the view animates, the rules
/// it breaks (core validate) and what it is measured against (core broadcastReference).
struct OpenedSchedule {
    SnapshotPtr snapshot;
    Validation validation;
    /// The best known for the schedule's source and port model; nullopt for patterns other than
    /// broadcast.
    std::optional<BroadcastReference> reference;
    QString file;
};
using OpenedSchedulePtr = std::shared_ptr<const OpenedSchedule>;

/// True when the file at `path` is read as CSV (a .csv name) and names no topology itself
/// ("# topology: …"): the caller must choose one. Throws topocast::Error when it cannot be read.
bool scheduleFileNeedsTopology(const QString& path);

/// Asks for the topology of `file` (a CSV that names none) in a dialog, `suggestion` first;
/// nullopt when cancelled. A malformed spec is explained and asked again.
std::optional<Topology> chooseTopology(QWidget* parent, const QString& file, const Topology& suggestion);

/// Reads a schedule JSON (`topocast-cli schedule --json`) or a student's CSV (README "Your own
/// schedule as CSV"; `topology` is used when the CSV names none), checks it with validate() (no
/// step contention allowed, as `topocast-cli validate`) and measures it against the best known.
/// Throws topocast::Error naming the file, the line and what is allowed; nothing is shown then.
OpenedSchedulePtr openScheduleFile(const QString& path, const std::optional<Topology>& topology = std::nullopt);

} // namespace topocast::app
