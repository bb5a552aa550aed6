#pragma once
// View ▸ Compare: when the split view replaces the single one and what it shows — a scenario with
// its compare side, a useful contrast made from the scenario shown, or a schedule opened from a
// file against topocast's own algorithm for its collective.

#include "session/snapshot.h"

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QMainWindow;
class QWidget;

namespace topocast::app {

class CompareView;
class FindingsPanel;
class SceneView;
class Session;

class CompareFlow : public QObject {
    Q_OBJECT
public:
    struct Parts {
        Session* session = nullptr;
        SceneView* scene = nullptr;     ///< the single view (hidden while comparing)
        QWidget* narration = nullptr;   ///< the single view's narration (hidden alike)
        CompareView* compare = nullptr; ///< the split view
        FindingsPanel* findings = nullptr;
    };
    /// `showSingle` shows a snapshot in the single view again (when the split view closes on the
    /// snapshot already computed); `showError` reports a refusal.
    CompareFlow(QMainWindow* window, Parts parts, std::function<void(SnapshotPtr)> showSingle,
                std::function<void(const QString&)> showError);

    bool isOn() const { return m_on; }
    /// View ▸ Compare side by side, kept checked with the split view (no signal).
    void setAction(QAction* action) { m_action = action; }
    /// On: the scenario's compare side, else a contrast to it (an opened file: against an
    /// algorithm). Off: the single view shows A, keeping B as its compare side for the next time.
    void setOn(bool on);
    /// The split view of `scenario` and its compare side; false (and a message) if refused.
    bool open(const Scenario& scenario);
    /// The split view with the opened file as A and topocast's algorithm for its collective on
    /// its network as B; false (and a message) when no algorithm builds that collective there.
    bool compareOpenedFile();

private:
    void showSplitView();

    QMainWindow* m_window;
    Parts m_parts;
    std::function<void(SnapshotPtr)> m_showSingle;
    std::function<void(const QString&)> m_showError;
    QAction* m_action = nullptr;
    bool m_on = false;
    bool m_comparingFile = false; ///< the split view shows an opened file against an algorithm
};

} // namespace topocast::app
