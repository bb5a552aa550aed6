#pragma once
// The status bar's permanent corner: receivers the view hides, the busy bar with Cancel (Esc) and
// what the session is computing, and the frame time (View ▸ Show frame time).

#include <QObject>
#include <QString>

class QAction;
class QLabel;
class QMainWindow;
class QTimer;

namespace topocast::app {

class SceneView;
class Session;

class StatusReport : public QObject {
    Q_OBJECT
public:
    /// Adds its widgets to `window`'s status bar; it reports on the single view `scene` while it
    /// shows (the split view's two report nothing here).
    StatusReport(QMainWindow* window, Session* session, SceneView* scene);

    /// Shows or hides the smoothed frame time, refreshed twice a second; keeps `action` checked alike.
    void showFrameTime(bool on);
    /// The frame-time text (empty until it is first shown).
    QString frameTimeText() const;
    void setFrameTimeAction(QAction* action) { m_frameTimeAction = action; }
    /// "7 of 40 receivers hidden — press E to explode" (or the advice that works for the drawing
    /// shown: Ctrl+R on a flat one, L on an exploded tower, drag on a cube), or nothing when none
    /// is hidden.
    void updateHidden();
    /// Off while the split view replaces the single view (its hidden receivers are not reported).
    void setViewShown(bool shown);

private:
    void updateFrameTime();

    QMainWindow* m_window;
    SceneView* m_scene;
    bool m_viewShown = true;
    QLabel* m_hidden = nullptr;
    QLabel* m_frameTime = nullptr; ///< "frame 23.4 ms (43 frames/s)", created when first shown
    QTimer* m_frameTimer = nullptr;
    QAction* m_frameTimeAction = nullptr;
};

} // namespace topocast::app
