#pragma once

#include "scene/arrowinstances.h"
#include "scene/linkinstances.h"
#include "scene/messageinstances.h"
#include "scene/orbitcamera.h"
#include "scene/scenestate.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "topocast/analysis/simulated_playback.h"
#include "topocast/scenario/frame.h"

#include "topocast/drawing/label_layout.h"

#include <QImage>
#include <QObject>
#include <QPoint>
#include <QSize>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QKeyEvent;
class QTimer;
class QVariantAnimation;
class QWidget;
class QWindow;
namespace Qt3DCore {
class QEntity;
class QTransform;
} // namespace Qt3DCore
namespace Qt3DExtras {
class Qt3DWindow;
}
namespace Qt3DRender {
class QClearBuffers;
class QDepthTest;
class QRenderCapture;
} // namespace Qt3DRender

namespace topocast::app {

class GlyphInstances;
class NodeInstances;
class LabelInstances;
class MarkInstances;
class MessageInstances;
class SimulatedFrames;

/// The 3-D view: a Qt3D window with one instanced entity per element type (nodes, straight
/// channels, wrap-around arcs, messages, axes). Everything Qt3D stays behind this class and
/// app/scene/. What it draws is a function of (snapshot, step, fraction, mode).
/// The ring around a node that one side of a comparison informs before the other.
inline constexpr Rgba kHighlightColour{1.0f, 0.2f, 0.85f, 1.0f};

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
    SnapshotPtr snapshot() const { return m_snap; }
    /// Drawn over each frame's style: called after frameStyle() with the step shown, so a feature
    /// (the findings of a schedule opened from a file) can recolour and enlarge nodes and
    /// channels. Empty: none. Refreshes the view.
    using StyleOverlay = std::function<void(FrameStyle& style, const std::vector<DrawnChannel>& channels, int step)>;
    void setStyleOverlay(StyleOverlay overlay);
    int step() const { return m_choice.step; }
    ViewMode mode() const { return m_choice.mode; }
    bool cumulativeHeat() const { return m_choice.cumulativeHeat; }
    bool highContrast() const { return m_choice.highContrast; }
    bool printTheme() const { return m_choice.print; }
    const FrameStyle& frameStyle() const { return m_shown.style; }
    /// The frame drawn (core makeFrame for the step, mode and palette shown; its style as drawn,
    /// the findings' overlay, the selected link and the slice applied): what every output of this
    /// view — the window, a screenshot, a handout page, a video frame — shows.
    const Frame& frame() const { return m_shown; }
    /// The instanced elements, for tests that check what is uploaded.
    const NodeInstances& nodeInstances() const { return *m_layers.nodes; }
    const LinkInstances& linkInstances() const { return *m_layers.links; }
    const LinkInstances& arcInstances() const { return *m_layers.arcs; }
    const LinkInstances& stubInstances() const { return *m_layers.stubs; }
    /// The Trees mode's member tree edges (one instance per edge; disabled in other modes).
    const LinkInstances& treeInstances() const { return *m_layers.treeLinks; }
    /// The axes drawn (x, y and z from the low corner; none on a hypercube).
    int axisInstanceCount() const;
    const Palette& palette() const { return m_palette; }
    /// The Data held mode's glyphs (dataglyphs.h): every node's chunks as a grid of cells in
    /// front of it, on networks up to kGlyphMaxNodes nodes and kGlyphMaxChunks chunks; none otherwise.
    const GlyphInstances& glyphInstances() const { return *m_layers.glyphs; }
    /// The numbers written in the glyphs' cells (outlined text, no plates): each cell's chunk at
    /// its top left and a partial sum's contributions ("13/16") under it, where a flat drawing
    /// shows the cell large enough (kGlyphTextMinPixels) and the text fits left of the bar.
    const LabelInstances& glyphTextInstances() const { return *m_layers.glyphTexts; }
    static constexpr int kGlyphTextMinPixels = 8;
    /// Marks around nodes (Predict mode's guesses and grades, its keyboard cursor); empty otherwise.
    MarkInstances& marks() { return *m_layers.marks; }
    const MarkInstances& marks() const { return *m_layers.marks; }
    /// The axis names or the planes' titles, where there is room for them.
    const LabelInstances& labelInstances() const { return *m_layers.labels; }
    /// Node labels beside the nodes: the source's and, up to kLabelAllNodes nodes, every node's
    /// nodeLabel() (coordinates; binary addresses on hypercubes), above that the step's receivers'
    /// (core nodeSceneLabels); in the source-map mode up to
    /// kMapNumberNodes nodes, every node's map value as a number below it (and the source's
    /// label). Each on the first side of its node where it covers no other label and no other
    /// node, or left out (core placeSceneLabels); placed again when the step or the camera
    /// changes, rebuilt only when what they say or where changes.
    const LabelInstances& nodeLabelInstances() const { return *m_layers.nodeLabels; }
    static constexpr std::size_t kMapNumberNodes = 256;
    /// The arrowheads: one per transfer of the step shown, at the receiving end of its route,
    /// pointing along its last hop, in the transfer's colour. Shown while the step is at rest
    /// (fraction 1: a paused view, a still picture, a handout, an export frame at a step
    /// boundary) and hidden while the messages move along their hops.
    const ArrowInstances& arrowInstances() const { return *m_layers.arrows; }
    /// The block counts of the step's messages ("8 blocks", "1 chunk"), one plate beside each
    /// message's last hop, while the step is at rest: where some message of the schedule carries
    /// more than one block and the step has at most kMessageLabels transfers (not in compact views).
    const LabelInstances& messageLabelInstances() const { return *m_layers.messageLabels; }
    static constexpr std::size_t kMessageLabels = 64;
    /// The transfer (index into the schedule's transfers) whose arrow lies under window point
    /// `pos` while the step is at rest, or −1: what hovering a message lists (messageHovered).
    long long messageAt(const QPointF& pos) const;
    /// How thick a message of `size` is drawn (arrowheads and moving messages): 1 where every
    /// transfer of the schedule has the same size, else 0.6 + 0.8·√(size / largest), so twice
    /// the data looks about twice as heavy.
    float messageScale(double size) const;
    /// The messages of the step shown: one instance per hop, drawn while the step is under way.
    const MessageInstances& messageInstances() const { return *m_layers.messages; }
    /// Simulated time (View ▸ Simulated time; null: steps): the schedule shown as simulated on
    /// its network (simulatedframes.h) — step s is the window from the end of step s − 1 to the
    /// end of step s as simulated, every message on the wire in it moves as the simulation moved
    /// it, and each link is coloured by how many messages share it at the moment shown. Made for
    /// the snapshot shown (a new snapshot drops it). Refreshes the view.
    void setSimulation(std::shared_ptr<const SimulatedPlayback> playback);
    std::shared_ptr<const SimulatedPlayback> simulation() const;
    /// The moment shown in simulated time (ns; 0 in steps).
    double simulatedTime() const;
    /// The link chosen in the Links dock: drawn in kHighlightColour, its two nodes ringed;
    /// nullopt: none. Dropped with the snapshot.
    void setSelectedChannel(std::optional<ChannelId> channel);
    std::optional<ChannelId> selectedChannel() const { return m_selected; }
    /// Orthographic (parallel) projection. A 2-D network (all nodes in one plane, the flat
    /// hypercube drawing included) opens top-down and orthographic; a 3-D one opens in
    /// perspective unless orthographic was chosen for 3-D networks (this setter, on a 3-D one).
    void setOrthographic(bool on);
    bool orthographic() const;

    /// Text height of the axis names in pixels (default 14; a handout's print-resolution
    /// pictures ask for more so the names stay readable on paper). Takes effect at the next
    /// setSnapshot with a new network.
    void setLabelPixelHeight(int pixels) { m_labelState.pixels = pixels; }

    /// The time between the view's last frames, smoothed (ms; 0 before the second frame): what
    /// View ▸ Show frame time reports. Measured from Qt3D's frame callbacks (QFrameAction), so it
    /// is the rate the view actually draws at, render and read-back included.
    double frameTimeMs() const { return m_frames.timeMs; }
    /// Frames drawn since the view was made.
    long long framesDrawn() const { return m_frames.drawn; }

    /// The orbit camera (its state is copied between views for export).
    OrbitCamera& camera() { return *m_orbit; }
    const OrbitCamera& camera() const { return *m_orbit; }

    /// Where every node is drawn now: core nodePositions(topology, explode), or on the way between
    /// two explodes while the change animates. The one source of node positions for everything
    /// the view draws (nodes, links, arcs, stubs, trees, messages, marks, axes) and for picking.
    const std::vector<Vec3>& positions() const { return m_positions; }
    /// The radius nodes are drawn with (scene units; core drawingNodeRadius).
    float nodeRadius() const { return m_sizes.nodeRadius; }
    /// The explode shown (or being animated to): extra gap between the planes of a 3-D network.
    float explode() const { return m_explode.amount; }
    /// Whether explode applies to the network shown (3-D meshes and tori).
    bool canExplode() const;
    /// Whether the network is drawn in one plane (2-D networks, planes side by side, the flat
    /// hypercube): seen top-down, nothing hides anything, only the framing can leave nodes out.
    bool flatNetwork() const;
    /// Whether the network could be drawn as planes side by side (a 3-D mesh or torus).
    bool canLayOutPlanes() const;
    /// The current step's receivers, and how many of them the camera does not see (core
    /// visibleNodes with this view's camera and positions); updated shortly after a step, camera
    /// or explode change (visibilityChanged). Networks above 4096 nodes are not counted (0, 0).
    std::size_t stepReceivers() const { return m_seen.receivers; }
    std::size_t hiddenReceivers() const { return m_seen.hidden; }
    /// Slice view: the dimension whose planes are sliced (−1: off) and the plane shown in full
    /// (its coordinate); the other planes' nodes and channels are ghosted (dimmed, smaller).
    int sliceDimension() const { return m_slice.dim; }
    int slicePlane() const { return m_slice.plane; }
    bool sliceFollowsStep() const { return m_slice.follows; }

    /// The camera's view-projection matrix and the viewport size (for picking and tests).
    QMatrix4x4 viewProjection() const;
    QSizeF viewportSize() const;
    /// Where node `v` is drawn in the window (pixels, y down).
    QPointF nodeOnScreen(NodeId v) const;
    /// The node under window point `pos`, or −1.
    long long nodeAt(const QPointF& pos) const;

    /// Renders and returns one frame (the first capture after a change is dropped); a null
    /// image after `timeoutMs` if nothing came back (no GL).
    /// `dropFirst` false: one capture only (exports that have rendered a warm-up frame already).
    /// Before the first capture, waits until every texture the view uses (the label atlas) has
    /// been loaded, so no frame shows a half-loaded scene.
    QImage captureFrame(int timeoutMs = 10000, bool dropFirst = true);
    /// Renders frames until the label atlas is on the GPU; false after `timeoutMs` or without GL.
    bool waitUntilLoaded(int timeoutMs = 10000);
    /// The OpenGL renderer's name (GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"); empty
    /// without GL. Probed once per process.
    static QString glRenderer();
    /// Multisampling of the 3-D window: 4× on a GPU, none on software OpenGL (Mesa llvmpipe,
    /// softpipe), where 4× made a 1280×720 frame 2–3× slower; TOPOCAST_SAMPLES=N
    /// overrides.
    static int surfaceSamples();
    /// Milliseconds per frame over `frames` captured frames (benchmark).
    double measureFrameMs(int frames);

public slots:
    void setStep(int step);
    void setFraction(float fraction);
    void setMode(topocast::ViewMode mode);
    void setCumulativeHeat(bool cumulative);
    void setHighContrast(bool on);
    /// The print palette (white paper, Palette::print) for handouts, over the high contrast one.
    void setPrintTheme(bool on);
    /// Half-width views (the compare view, whose titles name the source): no node labels and no
    /// source-map numbers, which would run into each other there at a legible size.
    void setCompactLabels(bool on);
    /// Compare view: a magenta ring (kHighlightColour, MarkShape::Right) around each of `nodes`
    /// (informed at another step on the other side) while their colours keep saying their
    /// state; empty: none. The source gets no ring.
    void setHighlight(std::vector<topocast::NodeId> nodes);
    void resetView();
    /// Pulls the planes of a 3-D network apart by `explode` (0..kMaxExplode, clamped); `animate`:
    /// over 300 ms (the camera follows when it shows the default framing). Ignored where explode
    /// does not apply.
    void setExplode(float explode, bool animate = true);
    /// E: explode 0 ↔ the last non-zero explode (the scenario's default at first).
    void toggleExplode();
    /// Slice view on dimension `dim` (−1: off) at plane `plane` (clamped to the side).
    void setSlice(int dim, int plane);
    /// "Follow the step": each step moves the slice to the plane with most of its receivers
    /// (core busiestPlane).
    void setSliceFollowsStep(bool follow);
    /// Counts the hidden receivers now (otherwise done ~100 ms after a change).
    void updateVisibility();
    /// Sphere detail and prisms or lines for the links by their size on screen (levelofdetail.h);
    /// called on every camera distance or viewport change.
    void updateLevelOfDetail();

signals:
    void nodeClicked(topocast::NodeId node);
    /// node −1: nothing under the pointer.
    void nodeHovered(long long node, QPoint globalPos);
    /// transfer −1: no message under the pointer (see messageAt).
    void messageHovered(long long transfer, QPoint globalPos);
    /// Space, ←, →, Home, End pressed in the 3-D view: the timeline's keys.
    void timelineKey(int key);
    void frameStyleChanged();
    /// The explode shown changed (its target, at the start of the animation).
    void explodeChanged(float explode);
    /// The slice changed (dimension −1: off).
    void sliceChanged(int dim, int plane);
    /// stepReceivers() / hiddenReceivers() were recounted.
    void visibilityChanged();
    /// The projection changed (a new network, or setOrthographic).
    void orthographicChanged(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool viewKey(QKeyEvent* e);
    void buildFrameGraph(const std::vector<Qt3DCore::QEntity*>& drawOrder);
    void rebuildGeometry();
    /// Everything that depends on the node positions (links, arcs, stubs, axes) from m_positions;
    /// the labels follow in refreshNodeLabels().
    void placeGeometry();
    /// The one place node positions change: places everything drawn at `positions`.
    void setPositions(std::vector<Vec3> positions);
    void scheduleVisibility();
    /// The snapshot's layout with `explode` applied (its own drawing where explode does not apply;
    /// planes side by side in the grid that fits this view's shape).
    std::vector<Vec3> layoutAt(float explode) const;
    /// The view's aspect (width / height) the planes grid is chosen for.
    float planesAspect() const;
    /// Planes side by side: lays the planes out again for the view's present shape; true when
    /// the grid changed (the caller frames it again).
    bool layOutPlanesAgain();
    /// Ghosts what lies outside the slice plane in m_shown.style.
    void applySlice();
    void rebuildTrees();
    void refresh();
    /// Pushes m_shown.style's channel colours to the links, stubs and arcs (arcs: those in use);
    /// `everyFrame`: a recolouring while messages move (LinkInstances::setColours deferPrisms).
    void uploadChannelColours(bool everyFrame = false);
    /// Simulated time: colours the links for the moment shown (`all`: every link, else those whose
    /// messages changed, uploading them) — scenesimulated.cpp.
    void restyleSimulated(bool all);
    std::vector<MessageInstances::Hop> simulatedHops() const;
    /// The step's messages: one hop per link of each route, an arrowhead at each receiving end;
    /// a link used both ways in the step carries them in two lanes (core laneOffset).
    void stepMessages(std::vector<MessageInstances::Hop>& hops, std::vector<ArrowInstances::Arrow>& arrows) const;
    void applySelection();
    void refreshNodeLabels();
    void refreshGlyphTexts();
    /// How far (scene units) from a node's centre labels keep: its radius, or its data glyph's half width.
    float labelClearance() const;
    /// The camera as core's label placement takes it: the view-projection (column-major), the
    /// camera's right in the scene, and the viewport in device pixels.
    struct LabelCamera {
        Mat4 viewProjection{};
        Vec3 right{};
        QSize pixels;
    };
    LabelCamera labelCamera() const;
    void refreshMessageLabels();
    /// Where nodes are drawn now (labels and arrows follow them).
    const std::vector<Vec3>& drawnPositions() const { return m_positions; }
    /// Whether the camera is where resetView() (or an explode it followed) put it.
    bool showsDefaultFraming() const;

    SceneFrame m_frame;
    SceneLayers m_layers;
    SceneLabelState m_labelState;
    SceneSizes m_sizes;
    TransferScale m_transfers;
    ViewChoice m_choice;
    bool m_atRest = true;          ///< the step's fraction is 1
    bool m_orthographic3d = false; ///< orthographic chosen for 3-D networks
    std::unique_ptr<OrbitCamera> m_orbit;
    std::vector<NodeId> m_highlight;
    SnapshotPtr m_snap;
    FrameStats m_frames;
    std::vector<Vec3> m_positions; ///< drawn now (see positions())
    ExplodeMotion m_explode;
    QVariantAnimation* m_explodeAnimation = nullptr;
    /// The camera's view when it last showed the default framing (resetView, an explode it
    /// followed): a resize frames the drawing again while the camera is still there.
    std::optional<OrbitView> m_framed;
    QTimer* m_visibilityTimer = nullptr;
    ReceiverCount m_seen;
    SliceChoice m_slice;
    DrawnChannels m_drawn;
    Frame m_shown; ///< what the view draws now (core makeFrame; overlays, selection and slice applied to its style)
    StyleOverlay m_overlay;
    Palette m_palette = Palette::normal();
    DragState m_drag;
    float m_fraction = 1.0f;                      ///< the step's fraction shown
    std::unique_ptr<SimulatedFrames> m_simulated; ///< simulated time; null: steps
    std::optional<ChannelId> m_selected;          ///< the link chosen in the Links dock
};

} // namespace topocast::app
