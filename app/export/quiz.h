#pragma once

#include "export/animationexport.h"
#include "session/snapshot.h"

#include <QSize>
#include <QString>

#include <cstdint>
#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace topocast::app {

class ExportActions;
class Session;

/// What File ▸ Export ▸ Quiz and `topocast quiz` write.
struct QuizSettings {
    std::uint32_t firstStep = 1;
    std::uint32_t lastStep = 0; ///< 0: the schedule's last step
    /// Colouring of the pictures; view.size is the picture's size, legend strip included.
    ViewSettings view;
    QString request; ///< the command that asked for it, recorded in the file
};

/// What writeQuiz wrote.
struct QuizResult {
    QString path;
    int questions = 0;
    int numerical = 0; ///< of them, steps with more than 20 receivers: "how many receive?"
    QSize pictureSize;
};

/// Writes a Moodle XML quiz of `snap`'s steps firstStep..lastStep: per step, core stepQuestion
/// ("Which nodes receive in step 3?", the step's receivers right, the other nodes wrong), with the
/// picture of the network before the step (the step before it at rest, its legend below; PNG
/// embedded) and the step's narration as feedback, in a category named after the scenario.
/// Atomic (on any error the file is untouched). Needs OpenGL for the pictures. Throws Error naming
/// a bad step range or a write failure.
QuizResult writeQuiz(const SnapshotPtr& snap, const QString& path, const QuizSettings& settings);

/// Adds File ▸ Export ▸ "Quiz (Moodle XML)…": a dialog for the steps, a file dialog, then
/// writeQuiz with the window's colouring; the result or the error goes to `report`.
QAction* addQuizAction(QMenu* exportMenu, QWidget* window, Session* session, ExportActions* exportActions,
                       std::function<void(const QString&)> report);

} // namespace topocast::app
