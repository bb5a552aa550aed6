#pragma once

// The state a SceneView keeps, grouped by what it is about. Plain values (the Qt3D objects are
// owned by the scene's root entity; the structs only point to them), so each concern can be read
// and reset as one piece.

#include "scene/linkinstances.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/label_layout.h"
#include "topocast/scenario/frame.h"

#include <QPoint>
#include <QSize>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

class QWidget;
namespace Qt3DCore {
class QEntity;
}
namespace Qt3DExtras {
class Qt3DWindow;
}
namespace Qt3DRender {
class QClearBuffers;
class QDepthTest;
class QRenderCapture;
} // namespace Qt3DRender

namespace topocast::app {

class ArrowInstances;
class GlyphInstances;
class LabelInstances;
class MarkInstances;
class MessageInstances;
class NodeInstances;
class SceneCamera;
class SceneLabels;
class SceneShape;

/// The ring around a node that one side of a comparison informs before the other, and the
/// colour of the link chosen in the Links dock.
inline constexpr Rgba kHighlightColour{1.0f, 0.2f, 0.85f, 1.0f};

/// The window and the frame graph's pieces a scene reads back.
struct SceneFrame {
    Qt3DExtras::Qt3DWindow* window = nullptr;
    QWidget* container = nullptr;
    Qt3DCore::QEntity* root = nullptr;
    Qt3DRender::QRenderCapture* capture = nullptr;
    Qt3DRender::QClearBuffers* clear = nullptr;
    /// The arrowheads' depth test: over everything on a flat drawing (the labels keep clear of
    /// them where they can), behind nearer nodes on a 3-D one.
    Qt3DRender::QDepthTest* arrowDepth = nullptr;
};

/// The instanced layers: one entity (one geometry, per-instance buffers) per kind of thing drawn.
struct SceneLayers {
    NodeInstances* nodes = nullptr;
    LinkInstances* links = nullptr;
    LinkInstances* arcs = nullptr;
    LinkInstances* axes = nullptr;
    LinkInstances* stubs = nullptr;     ///< 3-D tori: a short stub per wrap channel
    LinkInstances* treeLinks = nullptr; ///< Trees mode: the member trees over the channels
    MessageInstances* messages = nullptr;
    GlyphInstances* glyphs = nullptr;
    MarkInstances* marks = nullptr;          ///< Predict mode's node marks
    LabelInstances* labels = nullptr;        ///< axis names or plane titles (opaque plates)
    LabelInstances* nodeLabels = nullptr;    ///< node labels and source-map numbers
    LabelInstances* messageLabels = nullptr; ///< block counts of the step's messages at rest
    LabelInstances* glyphTexts = nullptr;    ///< Data held: chunk numbers and counts in the cells
    ArrowInstances* arrows = nullptr;        ///< arrowheads at the receiving ends
    /// Every layer of text (each places its plates in the viewport's pixels; each has an atlas).
    std::array<LabelInstances*, 4> texts() const { return {labels, nodeLabels, messageLabels, glyphTexts}; }
};

/// What the labels are drawn at and where they sit now.
struct SceneLabelState {
    /// Where the titles and node labels shown sit on screen (device pixels, y down): the message
    /// labels keep clear of them.
    std::vector<LabelBox> boxes;
    int pixels = 14;       ///< text height of every label (device pixels)
    int messagePixels = 0; ///< the text height the message labels were drawn at
    std::string nodeKey;   ///< what the node labels say now (rebuilt when it changes)
    std::string glyphKey;  ///< what the glyphs' numbers say now and where
    bool compact = false;  ///< thumbnails: only the source's label
    /// The label atlases' generations (summed) when a capture last waited for them to load.
    std::uint64_t capturedAtlases = 0;
};

/// Sizes in scene units.
struct SceneSizes {
    float nodeRadius = 0.16f;
    float linkRadius = 0.035f;
    float glyphWidth = 0.5f; ///< glyphWidth of the positions
};

/// What the schedule's transfers carry (the messages' and glyphs' scale).
struct TransferScale {
    TransferSizes sizes;        ///< the largest transfer and whether all are equal (core messageScale)
    bool severalBlocks = false; ///< some transfer carries more than one block
};

/// What the view shows: the step, the colour mode and its options.
struct ViewChoice {
    int step = 0;
    ViewMode mode = ViewMode::Plain;
    bool cumulativeHeat = true;
    bool highContrast = false;
    bool print = false; ///< the print palette (handouts): white paper
    /// The colours these choices draw in.
    Palette palette() const { return Palette::of(highContrast, print); }
};

/// Explode: the gap between planes now, the one E goes back to, and the animation between two
/// layouts (and camera framings).
struct ExplodeMotion {
    float amount = 0.0f;
    float last = 1.0f;          ///< what E goes back to
    std::vector<Vec3> from;     ///< the animation's positions: from …
    std::vector<Vec3> target;   ///< … to (the layout at `amount`)
    OrbitView fromView, toView; ///< the camera's framing before and after
    bool cameraFollows = false;
};

/// The slice: one plane of one dimension shown, the rest ghosted.
struct SliceChoice {
    int dim = -1; ///< −1: no slice
    int plane = 0;
    bool follows = false; ///< the plane follows the step's busiest plane
};

/// The channels as drawn: straight ones first, then the wrap-around channels' arcs.
struct DrawnChannels {
    std::vector<DrawnChannel> channels;
    std::size_t straightCount = 0;
    std::vector<LinkInstances::Instance> arcShapes; ///< every wrap channel's arc
    std::vector<std::size_t> shownArcs;             ///< 3-D tori: the arcs drawn now (wrap index)
    bool wrapStubs = false;
};

/// The step's receivers, and those the view hides (behind nodes or outside it).
struct ReceiverCount {
    std::size_t receivers = 0;
    std::size_t hidden = 0;
};

/// Frames drawn and the time the last one took.
struct FrameStats {
    double timeMs = 0.0;
    long long drawn = 0;
};

/// A mouse press that may become a drag or a click.
struct DragState {
    QPoint press;
    QPoint last;
    Qt::MouseButtons buttons;
    bool dragged = false;
};

/// The camera as core's label placement takes it: the view-projection (column-major), the
/// camera's right in the scene, and the viewport in device pixels.
struct LabelCamera {
    Mat4 viewProjection{};
    Vec3 right{};
    QSize pixels;
};

/// What every part of a SceneView reads (and the view and its shape write): the window, the
/// layers, the snapshot shown, where its nodes are drawn and the frame drawn now. The parts
/// (camera, shape, labels, messages, input, capture) each keep their own state beside it.
struct SceneContext {
    SceneFrame frame;
    SceneLayers layers;
    SceneSizes sizes;
    SceneLabelState labelState;
    TransferScale transfers;
    ViewChoice choice;
    Palette palette = Palette::normal();
    SnapshotPtr snap;
    std::vector<Vec3> positions; ///< where every node is drawn now (SceneShape::positions)
    DrawnChannels drawn;
    Frame shown; ///< what the view draws now (core makeFrame; overlays, selection and slice applied to its style)
    bool atRest = true; ///< the step's fraction is 1
    float fraction = 1.0f;
    /// The parts that place things by the camera and the layout (set by the view that owns them).
    SceneCamera* camera = nullptr;
    SceneShape* shape = nullptr;
    SceneLabels* labels = nullptr;
};

} // namespace topocast::app
