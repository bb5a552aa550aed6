#pragma once

#include "scene/scenecamera.h"
#include "scene/scenecapture.h"
#include "scene/sceneinput.h"
#include "scene/sceneshape.h"
#include "scene/scenestate.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "topocast/analysis/simulated_playback.h"
#include "topocast/scenario/frame.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QWidget;
class QWindow;
namespace Qt3DCore {
class QEntity;
}

namespace topocast::app {

class SceneLabels;
class SceneMessages;

/// Drawn over each frame's style: called after makeFrame with the step shown, so a feature (the
/// findings of a schedule opened from a file) can recolour and enlarge nodes and channels.
using SceneStyleOverlay = std::function<void(FrameStyle& style, const std::vector<DrawnChannel>& channels, int step)>;

/// The 3-D view: a Qt3D window with one instanced entity per element type (nodes, straight
/// channels, wrap-around arcs, messages, axes), drawing the frame core's makeFrame computes for
/// the snapshot, step and view choices shown. Everything Qt3D stays behind this class and its
/// parts in app/scene/: the camera (framing, picking, what is seen), the shape (positions,
/// explode, slice), the labels, the messages (steps, simulated time, the chosen link), the
/// input (mouse and keys) and the capture (frames read back).
class SceneView : public QObject {
    Q_OBJECT
public:
    explicit SceneView(QObject* parent = nullptr);
    ~SceneView() override;

    /// The window, for QWidget::createWindowContainer or for showing on its own.
    QWindow* window() const;
    /// A container widget owning the window (created on first call).
    QWidget* widget(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snap);
    SnapshotPtr snapshot() const { return m_scene.snap; }
    /// Empty: none. Refreshes the view.
    void setStyleOverlay(SceneStyleOverlay overlay);
    /// The step, colour mode and palette choices shown.
    const ViewChoice& choice() const { return m_scene.choice; }
    /// The frame drawn (core makeFrame for the step, mode and palette shown; its style as drawn,
    /// the findings' overlay, the selected link and the slice applied): what every output of this
    /// view — the window, a screenshot, a handout page, a video frame — shows.
    const Frame& frame() const { return m_scene.shown; }
    /// The instanced layers, for tests that check what is uploaded (and Predict mode's marks).
    const SceneLayers& layers() const { return m_scene.layers; }

    /// The view's parts.
    SceneCamera& camera() const { return *m_camera; }
    SceneShape& shape() const { return *m_shape; }
    SceneInput& input() const { return *m_input; }
    SceneCapture& capture() const { return *m_capture; }

    /// Simulated time (View ▸ Simulated time; null: steps): the schedule shown as simulated on
    /// its network (scenemessages.h). Made for the snapshot shown (a new snapshot drops it).
    /// Refreshes the view.
    void setSimulation(std::shared_ptr<const SimulatedPlayback> playback);
    std::shared_ptr<const SimulatedPlayback> simulation() const;
    /// The moment shown in simulated time (ns; 0 in steps).
    double simulatedTime() const;
    /// The link chosen in the Links dock: drawn in kHighlightColour, its two nodes ringed;
    /// nullopt: none. Dropped with the snapshot.
    void setSelectedChannel(std::optional<ChannelId> channel);
    std::optional<ChannelId> selectedChannel() const;
    /// Text height of the labels in pixels (default 14; a handout's print-resolution pictures ask
    /// for more so the names stay readable on paper). Takes effect at the next setSnapshot with
    /// a new network.
    void setLabelPixelHeight(int pixels) { m_scene.labelState.pixels = pixels; }

public slots:
    void setStep(int step);
    void setFraction(float fraction);
    void setMode(topocast::ViewMode mode);
    void setCumulativeHeat(bool cumulative);
    void setHighContrast(bool on);
    /// The print palette (white paper, Palette::print) for handouts, over the high contrast one.
    void setPrintTheme(bool on);
    /// Half-width views (the compare view, whose titles name the source): no node labels and no
    /// source-map numbers, which would run into each other there at a legible size, and wider
    /// Data held glyphs (kGlyphShareHalfView).
    void setCompactLabels(bool on);
    /// Compare view: a magenta ring (kHighlightColour, MarkShape::Right) around each of `nodes`
    /// (informed at another step on the other side) while their colours keep saying their
    /// state; empty: none. The source gets no ring.
    void setHighlight(std::vector<topocast::NodeId> nodes);

signals:
    void frameStyleChanged();

private:
    void buildFrameGraph(const std::vector<Qt3DCore::QEntity*>& drawOrder);
    void setPalette();
    void refresh();
    void uploadGlyphs();

    SceneContext m_scene;
    std::vector<NodeId> m_highlight;
    SceneStyleOverlay m_overlay;
    SceneCamera* m_camera = nullptr;
    SceneShape* m_shape = nullptr;
    SceneInput* m_input = nullptr;
    SceneCapture* m_capture = nullptr;
    std::unique_ptr<SceneLabels> m_labels;
    std::unique_ptr<SceneMessages> m_messages;
};

} // namespace topocast::app
