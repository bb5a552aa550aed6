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

/// The file opened the one way every front end opens it (core openScheduleFile: a schedule JSON, a
/// student's CSV — `topology` used where it names none —, an MSCCL XML or a GOAL program placed on
/// `topology`, rank r on node r), with its one verdict, as a snapshot to animate (a GOAL
/// program's notes added to its note) and a broadcast measured against the best known. Throws
/// topocast::Error naming the file, the line and what is allowed, or why a program has nothing to
/// show (cannotShow); nothing is shown then.
OpenedSchedulePtr openScheduleFile(const QString& path, const std::optional<Topology>& topology = std::nullopt);

} // namespace topocast::app
