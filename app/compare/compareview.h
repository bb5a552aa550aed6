#pragma once

#include "compare/comparesnapshot.h"
#include "style/scenestyle.h"

#include <QImage>
#include <QWidget>

#include <array>

class QFrame;
class QLabel;

namespace topocast::app {

class CompareMetrics;
class SceneView;
class Session;
class Timeline;

/// View ▸ Compare: two 3-D views side by side on one network, with one camera (turn one, both
/// turn) and one timeline (step k on both; the shorter schedule holds its last state), and
/// CompareMetrics under them. Each side has its own Session (algorithm, mode, pattern,
/// parameters, source); clicking a side makes it the active one, which the scenario panel edits
/// (its frame is drawn in its colour, the other's in grey). Owns its sessions and scenes; the
/// timeline belongs to the window.
class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(Timeline* timeline, QWidget* parent = nullptr);
    ~CompareView() override;

    /// Shows `scenario` (A) beside its compare side (B; A itself when it has none), computed off
    /// the GUI thread. A side that fails keeps what it showed and failed() says why.
    void setScenario(const Scenario& scenario);
    /// The same, synchronously (start-up, tests); false and failed() on error.
    bool setScenarioNow(const Scenario& scenario);
    /// A is a schedule read from a file (File ▸ Open schedule), B `other` computed beside it:
    /// an imported MSCCL ring against topocast's bucket on the same torus.
    void compareWithFile(SnapshotPtr file, const Scenario& other);
    /// A with B as its compare side: the latest requested scenarios (what File ▸ Save writes).
    Scenario scenario() const;
    /// The latest requested scenario of side 0 (A) or 1 (B).
    Scenario sideScenario(int side) const;

    int activeSide() const { return m_active; }
    void setActiveSide(int side);
    /// A panel edit: becomes the active side's scenario. A new topology goes to both sides
    /// (one network); the other side keeps its source when the new network has it.
    void setActiveScenario(const Scenario& scenario);
    /// A click on a node of side `side` (the source map's Shift+click goes to B).
    void setSideSource(int side, NodeId source);

    CompareSnapshotPtr compareSnapshot() const { return m_cmp; }
    SceneView* sceneView(int side) const { return m_scenes[side == 0 ? 0 : 1]; }
    Session* session(int side) const { return m_sessions[side == 0 ? 0 : 1]; }
    CompareMetrics* metrics() const { return m_metrics; }
    /// True while either side computes.
    bool busy() const;

    void setMode(ViewMode mode);
    void setCumulativeHeat(bool on);
    void setHighContrast(bool on);
    /// Both sides' frames rendered now, side by side as the window shows them (window screenshot).
    std::array<QImage, 2> captureFrames();

signals:
    /// The active side changed or its scenario was recomputed: the panel shows this one.
    void activeScenarioChanged(const topocast::Scenario& scenario);
    void compareReady(topocast::app::CompareSnapshotPtr cmp);
    void failed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void sideReady(int side);
    void showStep(int step);
    void showFraction(float fraction);
    void syncCamera(int from);
    void updateFrames();

    Timeline* m_timeline;
    std::array<Session*, 2> m_sessions{};
    std::array<SceneView*, 2> m_scenes{};
    std::array<QFrame*, 2> m_frames{};
    std::array<QLabel*, 2> m_titles{};
    CompareMetrics* m_metrics = nullptr;
    CompareSnapshotPtr m_cmp;
    int m_active = 0;
    ViewMode m_mode = ViewMode::Plain;
    bool m_syncing = false;
};

} // namespace topocast::app
