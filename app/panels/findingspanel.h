#pragma once

#include "session/openschedule.h"
#include "style/scenestyle.h"

#include <QWidget>

class QLabel;
class QListWidget;

namespace topocast::app {

class SceneView;
class Timeline;

/// The rules a schedule opened from a file breaks (core validate's findings), listed with its
/// steps and TCD against the best known, and shown in the picture: at each finding's step its
/// nodes are drawn larger in the rule's colour and a shared channel in that colour too (a
/// SceneView style overlay). Clicking a finding jumps the timeline to its step and enlarges its
/// nodes further. Cleared when another schedule is shown.
class FindingsPanel : public QWidget {
    Q_OBJECT
public:
    FindingsPanel(Timeline* timeline, SceneView* scene, QWidget* parent = nullptr);

    /// Shows `opened` (null: clears the list and the overlay).
    void setOpened(OpenedSchedulePtr opened);
    OpenedSchedulePtr opened() const { return m_opened; }
    /// The listed findings, in validate's order, and their lines (core findingLine).
    int findingCount() const;
    QString findingLine(int row) const;
    /// The summary over the list: file, steps and TCD against the best known, verdict.
    QString summary() const;
    /// The finding last activated, or −1.
    int selected() const { return m_selected; }

    /// The colour a rule is drawn in (also the list's swatches).
    static Rgba findingColour(FindingKind kind);

public slots:
    /// Jumps to finding `row`'s step (pausing the timeline) and highlights it.
    void activateFinding(int row);
    /// A schedule was shown: anything but the opened one clears the panel.
    void snapshotShown(topocast::app::SnapshotPtr snap);

signals:
    void findingActivated(int row);

private:
    void applyOverlay(FrameStyle& style, const std::vector<DrawnChannel>& channels, int step) const;

    Timeline* m_timeline;
    SceneView* m_scene;
    QLabel* m_summary;
    QListWidget* m_list;
    OpenedSchedulePtr m_opened;
    int m_selected = -1;
};

} // namespace topocast::app
