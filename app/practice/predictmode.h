#pragma once

#include "scene/markinstances.h"
#include "session/snapshot.h"

#include "topocast/analysis/grade.h"

#include <QObject>
#include <QPointF>
#include <QString>

#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QKeyEvent;
class QLabel;
class QMainWindow;
class QTableWidget;

namespace topocast::app {

class SceneView;
class Session;
class Timeline;

/// The colour of a mark of `shape` (each shape has its own, and its own outline).
Rgba markColour(MarkShape shape);

/// The node the keyboard cursor moves to from node `from` when an arrow key points along
/// `direction` (window pixels, y down), given where every node is drawn (`screen`): the nearest
/// node within 60° of the direction, nearer the direction preferred; `from` when there is none.
/// `from` −1 (no cursor yet): the node drawn nearest the centroid of all nodes. Plain maths.
long long nodeInDirection(const std::vector<QPointF>& screen, long long from, QPointF direction);

/// View ▸ Predict (key P): before each step is shown the student marks the nodes they think
/// receive in it (a click or Space toggles a mark; arrow keys move a cursor over the nodes,
/// Page Up/Down step it through the nodes in order); Enter checks. The view then shows the step
/// with every node marked right, missed or wrong (core gradeStep; distinct outlines and
/// colours, MarkInstances), the narration says why (core explainGrade), and the score keeps one
/// row per checked step and a total (core tallyGrades) until it is reset or another schedule is
/// opened. Enter again: predict the next step. "Receives in step k" is core stepReceivers: the
/// destination of at least one transfer of step k, whatever the pattern (broadcast, scatter,
/// all-gather, all-to-all).
///
/// Input arrives through an event filter on the 3-D view's window, installed after SceneView's
/// own, so while the mode is on a click marks a node instead of choosing the source and the
/// arrows move the cursor instead of the timeline. Owns its menu action and its dock (score and
/// legend); the window owns both through Qt parents.
class PredictMode : public QObject {
    Q_OBJECT
public:
    enum class Phase { Predicting, Checked };

    PredictMode(QMainWindow* window, Session* session, Timeline* timeline, SceneView* scene);

    /// View ▸ Predict: checkable, shortcut P.
    QAction* action() const { return m_action; }
    /// The score and legend dock (hidden while the mode is off).
    QDockWidget* dock() const { return m_dock; }

    bool isActive() const { return m_active; }
    Phase phase() const { return m_phase; }
    /// The step being predicted (Predicting) or the step just checked (Checked); 0 when the
    /// schedule has no step left to predict.
    std::uint32_t targetStep() const;
    /// The nodes marked now, ascending.
    std::vector<NodeId> marked() const;
    /// The keyboard cursor's node, −1 before the first arrow key.
    long long cursor() const { return m_cursor; }
    /// The last checked step's grade (Checked), nullopt while predicting.
    const std::optional<StepGrade>& lastGrade() const { return m_grade; }
    /// One row per checked step, in the order checked.
    const std::vector<StepGrade>& score() const { return m_score; }
    GradeTally total() const { return tallyGrades(m_score); }
    /// What the narration line shows while the mode is on.
    QString narration() const;
    /// The score table's text, for tests: one "step right missed wrong" line per row and "total …".
    QString scoreText() const;

public slots:
    void setActive(bool on);
    /// Marks or unmarks `node` (Predicting; in Checked, starts predicting the next step first).
    void toggleMark(topocast::NodeId node);
    /// Enter: checks the marks (Predicting) or moves on to predict the next step (Checked).
    void enter();
    /// Arrow key `key` (Qt::Key_Left …): moves the cursor over the nodes as drawn on screen.
    void moveCursor(int key);
    /// Page Down / Page Up: the next / previous node by id (reaches nodes hidden behind others).
    void stepCursor(int delta);
    void resetScore();

signals:
    void activeChanged(bool on);
    /// The narration, the marks or the score changed.
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The keys of predicting (arrows, Page Up/Down, Space, Enter) in the 3-D view; true when used.
    bool predictKey(QKeyEvent* event);
    void snapshotChanged(SnapshotPtr snap);
    void timelineMoved(int step);
    void startPredicting();
    void refreshMarks();
    void refreshScore();

    Session* m_session;
    Timeline* m_timeline;
    SceneView* m_scene;
    QAction* m_action = nullptr;
    QDockWidget* m_dock = nullptr;
    QLabel* m_hint = nullptr;
    QTableWidget* m_table = nullptr;

    SnapshotPtr m_snap;
    bool m_active = false;
    Phase m_phase = Phase::Predicting;
    std::vector<std::uint8_t> m_marks; ///< per node: 1 if marked
    long long m_cursor = -1;
    std::optional<StepGrade> m_grade;
    std::vector<StepGrade> m_score;
    bool m_moving = false; ///< the timeline moves because of a check (not the user)
    QPointF m_pressPos;
    bool m_pressed = false;
};

} // namespace topocast::app
