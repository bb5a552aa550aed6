#pragma once

#include "window/windowparts.h"

#include "topocast/io/lessons.h"

#include <QString>
#include <QStringList>

#include <optional>

class QDockWidget;
class QMenu;

namespace topocast::app {

/// The lesson plans the app shows: share/topocast/lessons.json beside the program, else the
/// source tree's, else the copy built into the program. nullopt (and `error` set) when none reads.
std::optional<LessonBook> appLessons(QString* error = nullptr);

/// File ▸ Lessons: one entry per lesson ("2. Minimum total communication distance …"); choosing
/// one shows the Lesson dock (object name "lessonDock") with that lesson and opens its first
/// preset; the dock's links and its Previous / Next buttons open the others in order. Disabled,
/// with the reason as its tooltip, when no lessons file reads.
QMenu* addLessonsMenu(const WindowParts& window, QMenu* file, const std::optional<LessonBook>& book);

/// Fills File ▸ Presets: one submenu per lesson with its presets in the lesson's order, then the
/// presets no lesson opens; each preset by its title, its description as tooltip and status tip.
void fillPresetsMenu(const WindowParts& window, QMenu* presets, const QStringList& files,
                     const std::optional<LessonBook>& book);

/// Opens lesson `index` (0-based) as File ▸ Lessons does; false when there is no such lesson.
bool openLesson(const WindowParts& window, std::size_t index);

} // namespace topocast::app
