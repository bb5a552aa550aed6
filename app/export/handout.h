#pragma once

#include "export/animationexport.h"
#include "session/snapshot.h"

#include <QPageSize>
#include <QSize>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

class QAction;
class QMenu;
class QWidget;

namespace topocast::app {

class ExportActions;
class Session;

/// What File ▸ Export ▸ Handout and `topocast-cli handout` write.
struct HandoutSettings {
    QPageSize::PageSizeId pageSize = QPageSize::A4;
    std::uint32_t firstStep = 1;
    std::uint32_t lastStep = 0; ///< 0: the schedule's last step
    int dpi = 300;              ///< print resolution of the pages and of the pictures on them
    /// Colouring and camera of the pictures (the size is set from the page); view.print: the
    /// light print palette (the default of File ▸ Export ▸ Handout and `topocast-cli handout`).
    ViewSettings view;
    /// An exercise: each step's page shows the network before the step, its receivers blank, and
    /// an empty table of its transfers to fill in; an answer key follows on pages of its own.
    bool exercise = false;
};

/// "A4" or "letter" (any letter case); nullopt otherwise.
std::optional<QPageSize::PageSizeId> parseHandoutPageSize(const QString& text);

/// What writeHandout wrote.
struct HandoutResult {
    QString path;
    int pages = 0;               ///< 1 title page + one per step (+ the answer key's)
    int answerKeyPages = 0;      ///< an exercise's answer key: its pages at the end
    QSize pictureSize;           ///< pixels of each step's picture (print resolution)
    double minPictureStdDev = 0; ///< the least pixel standard deviation over the step pictures (0: blank)
    /// The frame each picture drew, in page order (the title page's first): core makeFrame's
    /// values — the same frame the window shows at that step in that mode.
    std::vector<Frame> frames;
};

/// Writes a handout PDF of `snap`: a title page (the scenario, its totals as the metrics panel
/// lists them, the paper the algorithm comes from, and the network before the first printed step) and one
/// page per step firstStep..lastStep with the step's picture rendered from the 3-D view at the
/// page's print resolution, the step's narration and its figures (core summarizeSteps). Drawn
/// with QPdfWriter/QPainter and written atomically (QSaveFile): on any error the file is
/// untouched. Needs OpenGL (a display or xvfb-run) for the pictures. Throws topocast::Error
/// naming a bad step range ("steps 3-9 are not within 1..4"), no frame rendered, or a write
/// failure.
HandoutResult writeHandout(const SnapshotPtr& snap, const QString& path, const HandoutSettings& settings);

} // namespace topocast::app

namespace topocast::app {

/// Adds File ▸ Export ▸ "Handout (PDF)…" to `exportMenu`: a dialog for the page size and the
/// steps, then a file dialog, then writeHandout with the window's current colouring and camera
/// (ExportActions::currentView); the result or the error goes to `report` (the status bar).
QAction* addHandoutAction(QMenu* exportMenu, QWidget* window, Session* session, ExportActions* exportActions,
                          std::function<void(const QString&)> report);

} // namespace topocast::app
