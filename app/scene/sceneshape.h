#pragma once

#include "scene/scenestate.h"

#include <QObject>

#include <vector>

class QVariantAnimation;

namespace topocast::app {

/// Where a SceneView draws things: the network's geometry (nodes, links, wrap-around stubs and
/// arcs, axes, the Trees mode's edges) at the positions drawn now, explode and its animation,
/// planes side by side laid out for the view's shape, and the slice. The one place node
/// positions change (SceneContext::positions).
class SceneShape : public QObject {
    Q_OBJECT
public:
    SceneShape(SceneContext& scene, QObject* parent);

    /// Where every node is drawn now: core nodePositions(topology, explode), or on the way between
    /// two explodes while the change animates. The one source of node positions for everything
    /// the view draws (nodes, links, arcs, stubs, trees, messages, marks, axes) and for picking.
    const std::vector<Vec3>& positions() const { return m_scene.positions; }
    /// The layout the positions are going to (an explode animation's end).
    const std::vector<Vec3>& target() const { return m_explode.target; }
    /// The radius nodes are drawn with (scene units; core drawingNodeRadius).
    float nodeRadius() const { return m_scene.sizes.nodeRadius; }
    /// The explode shown (or being animated to): extra gap between the planes of a 3-D network.
    float explode() const { return m_explode.amount; }
    /// Whether explode applies to the network shown (3-D meshes and tori).
    bool canExplode() const;
    /// Whether an explode is being animated.
    bool animating() const;
    /// Whether the network is drawn in one plane (2-D networks, planes side by side, the flat
    /// hypercube): seen top-down, nothing hides anything, only the framing can leave nodes out.
    bool flatNetwork() const;
    /// Whether the network could be drawn as planes side by side (a 3-D mesh or torus).
    bool canLayOutPlanes() const;
    /// Slice view: the dimension whose planes are sliced (−1: off) and the plane shown in full
    /// (its coordinate); the other planes' nodes and channels are ghosted (dimmed, smaller).
    int sliceDimension() const { return m_slice.dim; }
    int slicePlane() const { return m_slice.plane; }
    bool sliceFollowsStep() const { return m_slice.follows; }

    /// A new network (or a new drawing of it): its explode and layout, the slice kept where it
    /// applies, the geometry built and framed by the camera.
    void adopt();
    /// The Data held glyphs' width for the positions drawn now (wider in a half-width view).
    void sizeGlyphs();
    /// The Trees mode's member tree edges at the positions drawn now.
    void rebuildTrees();
    /// Ghosts what lies outside the slice plane in the shown frame's style.
    void applySlice();
    /// Pushes the shown frame's channel colours to the links, stubs and arcs (arcs: those in use);
    /// `everyFrame`: a recolouring while messages move (LinkInstances::setColours deferPrisms).
    void uploadChannelColours(bool everyFrame = false);
    /// Planes side by side: lays the planes out again for the view's present shape; true when
    /// the grid changed (the caller frames it again).
    bool layOutPlanesAgain();

public slots:
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

signals:
    /// The explode shown changed (its target, at the start of the animation).
    void explodeChanged(float explode);
    /// The slice changed (dimension −1: off).
    void sliceChanged(int dim, int plane);
    /// The nodes moved or the slice changed: the frame is to be drawn again.
    void changed();

private:
    void rebuildGeometry();
    /// Everything that depends on the node positions (links, arcs, stubs, axes); the labels follow.
    void placeGeometry();
    /// The one place node positions change: places everything drawn at `positions`.
    void setPositions(std::vector<Vec3> positions);
    /// The snapshot's layout with `explode` applied (its own drawing where explode does not apply;
    /// planes side by side in the grid that fits this view's shape).
    std::vector<Vec3> layoutAt(float explode) const;
    void animateExplode(float t);

    SceneContext& m_scene;
    ExplodeMotion m_explode;
    QVariantAnimation* m_explodeAnimation = nullptr;
    SliceChoice m_slice;
};

} // namespace topocast::app
