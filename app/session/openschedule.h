#pragma once

#include "session/snapshot.h"

#include "topocast/analysis/reference.h"
#include "topocast/analysis/validate.h"

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

/// What the caller must do before openScheduleFile: nothing (a schedule JSON, a CSV that names
/// its topology), or pass a topology — `current` when an MSCCL XML program has one rank per node
/// of it (a GOAL program: no more ranks than nodes), else one the user chooses (a CSV that names none, a program of
/// another size).
struct TopologyNeed {
    bool choose = false;           ///< ask (chooseTopology)
    std::optional<Topology> given; ///< use this one
    QString question;              ///< what to ask
};
/// Throws topocast::Error when the file cannot be read.
TopologyNeed scheduleFileTopology(const QString& path, const Topology& current);

/// Asks `question` in a dialog, `suggestion` first; nullopt when cancelled. A malformed spec is
/// explained and asked again.
std::optional<Topology> chooseTopology(QWidget* parent, const QString& question, const Topology& suggestion);

/// Reads a schedule JSON (`topocast-cli schedule --json`), a student's CSV (README "Your own
/// schedule as CSV"; `topology` is used when the CSV names none), an MSCCL XML program (placed
/// on `topology`, rank r on node r; docs/msccl.md) or a GOAL program (placed the same way, a
/// program of point-to-point messages; what its schedule leaves out is added to the note), checks it — with validate()
/// on what the file promises (promisedValidateOptions: step contention counted only where the file forbids it), as
/// `topocast-cli validate` does, an MSCCL program with checkMscclProgram — and measures a broadcast against the best
/// known. Throws topocast::Error naming the file, the line and what is allowed; nothing is shown then.
OpenedSchedulePtr openScheduleFile(const QString& path, const std::optional<Topology>& topology = std::nullopt);

} // namespace topocast::app
