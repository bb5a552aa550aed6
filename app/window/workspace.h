#pragma once
// The window's workspace: one session in the single view, or two side by side (View ▸ Compare),
// and which of them the scenario panel edits. The panel, the metrics table, the legend, the
// narration, the scenario memory and the exports ask it what is shown instead of asking whether
// the split view is on; it also decides what the split view shows — a scenario with its compare
// side, a useful contrast made from the scenario shown, or a schedule opened from a file against
// topocast's own algorithm for its collective.

#include "compare/comparesnapshot.h"
#include "scene/orbitcamera.h"
#include "session/snapshot.h"

#include <QImage>
#include <QObject>
#include <QString>

#include <utility>

class QAction;
class QLabel;
class QMainWindow;

namespace topocast::app {

class CompareView;
class FindingsPanel;
class ScenarioMemory;
class SceneView;
class Session;

class Workspace : public QObject {
    Q_OBJECT
public:
    struct Parts {
        Session* session = nullptr;     ///< the single view's (side A's scenario while split)
        SceneView* scene = nullptr;     ///< the single view (hidden while split)
        QLabel* narration = nullptr;    ///< the single view's narration (hidden alike)
        CompareView* compare = nullptr; ///< the split view, its two sessions and scenes
        FindingsPanel* findings = nullptr;
        ScenarioMemory* memory = nullptr;
    };
    Workspace(QMainWindow* window, Parts parts);

    /// True while the split view shows two sessions.
    bool isSplit() const { return m_split; }
    /// View ▸ Compare side by side, kept checked with the split view (no signal).
    void setAction(QAction* action) { m_action = action; }

    /// The scenario the panel edits: the active side's while split, else the session's latest
    /// request.
    Scenario editedScenario() const;
    /// A panel edit: to the active side while split, else to the session when it differs from
    /// its latest request (an edit back to what is shown while another computes is a request too).
    void edit(const Scenario& scenario);
    /// What File ▸ Save writes: A with B as its compare side while split, else the session's.
    Scenario savedScenario() const;
    /// The snapshot whose pattern and data the legend follows (side A's while split).
    SnapshotPtr legendSnapshot() const;
    /// True when the links shown carry a simulation's flows (the single view only).
    bool showsSimulation() const;
    /// The narration shown: the single view's, or A's and B's on two lines.
    QString narration() const;
    /// The whole window with the 3-D views shown painted in (a plain grab leaves them out).
    QImage grab();
    /// The split view's snapshot and camera for File ▸ Export (nothing while single).
    std::pair<CompareSnapshotPtr, OrbitCamera::State> compareExport() const;

    /// On: the scenario's compare side, else a contrast to it (an opened file: against an
    /// algorithm). Off: the single view shows A, keeping B as its compare side for the next time.
    void setSplit(bool on);
    /// The split view of `scenario` and its compare side; false (and failed()) if refused.
    bool open(const Scenario& scenario);
    /// The split view with the opened file as A and topocast's algorithm for its collective on
    /// its network as B; false (and failed()) when no algorithm builds that collective there.
    bool compareOpenedFile();

signals:
    /// A snapshot for the single view and what follows it (timeline, menus, title, status).
    void shown(topocast::app::SnapshotPtr snap);
    /// The scenario the panel shows: the session's request, or the active side's.
    void editedScenarioChanged(const topocast::Scenario& scenario);
    /// The snapshot the metrics table shows: the single view's, or the active side's.
    void activeSnapshotChanged(topocast::app::SnapshotPtr snap);
    void failed(const QString& message);
    /// The split view replaced the single view (true), or the single view is back (false).
    void splitChanged(bool split);

private:
    void sessionReady(SnapshotPtr snap);
    void activeSideChanged(const Scenario& scenario);
    /// The split view closed on a snapshot already computed: the panel, table and view show it.
    void backToSingle(SnapshotPtr snap);
    void showSplitView();

    QMainWindow* m_window;
    Parts m_parts;
    QAction* m_action = nullptr;
    bool m_split = false;
    bool m_comparingFile = false; ///< the split view shows an opened file against an algorithm
};

} // namespace topocast::app
