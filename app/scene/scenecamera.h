#pragma once

#include "scene/orbitcamera.h"
#include "scene/scenestate.h"

#include <QMatrix4x4>
#include <QObject>
#include <QPointF>
#include <QSizeF>

#include <cstddef>
#include <memory>
#include <optional>

class QTimer;

namespace topocast::app {

/// A SceneView's camera: the orbit camera over Qt3D's, the default framing and projection, the
/// level of detail by size on screen, where things land on the screen (and what lies under a
/// point), and how many of the step's receivers the camera sees. The maths is core's OrbitView
/// (topocast/drawing/camera.h).
class SceneCamera : public QObject {
    Q_OBJECT
public:
    SceneCamera(SceneContext& scene, QObject* parent);
    ~SceneCamera() override;

    /// The orbit camera (its state is copied between views for export).
    OrbitCamera& orbit() const { return *m_orbit; }

    /// The camera's view-projection matrix and the viewport size (for picking and tests).
    QMatrix4x4 viewProjection() const;
    QSizeF viewportSize() const;
    /// Where node `v` is drawn in the window (pixels, y down).
    QPointF nodeOnScreen(NodeId v) const;
    /// The node under window point `pos`, or −1.
    long long nodeAt(const QPointF& pos) const;
    /// The transfer (index into the schedule's transfers) whose arrow lies under window point
    /// `pos` while the step is at rest, or −1: what hovering a message lists.
    long long messageAt(const QPointF& pos) const;
    /// The camera as core's label placement takes it.
    LabelCamera labelCamera() const;

    /// Orthographic (parallel) projection. A 2-D network (all nodes in one plane, the flat
    /// hypercube drawing included) opens top-down and orthographic; a 3-D one opens in
    /// perspective unless orthographic was chosen for 3-D networks (this setter, on a 3-D one).
    void setOrthographic(bool on);
    bool orthographic() const;

    /// The current step's receivers, and how many of them the camera does not see (core
    /// visibleNodes with this camera and the positions drawn); updated shortly after a step,
    /// camera or explode change (visibilityChanged). Networks above 4096 nodes are not counted.
    std::size_t stepReceivers() const { return m_seen.receivers; }
    std::size_t hiddenReceivers() const { return m_seen.hidden; }

    /// Whether the camera is where resetView() (or an explode it followed) put it.
    bool showsDefaultFraming() const;
    /// The camera shows the default framing now (an explode it followed).
    void markFramed();

public slots:
    /// Frames the drawing as core's defaultView (a flat one top-down and orthographic).
    void resetView();
    /// Sphere detail and prisms or lines for the links by their size on screen (levelofdetail.h);
    /// called on every camera distance or viewport change.
    void updateLevelOfDetail();
    /// Counts the hidden receivers now (otherwise done ~100 ms after a change).
    void updateVisibility();
    /// Counts them ~100 ms from now (the camera may still be moving).
    void scheduleVisibility();

signals:
    /// The projection changed (a new network, or setOrthographic).
    void orthographicChanged(bool on);
    /// stepReceivers() / hiddenReceivers() were recounted (and the labels placed again).
    void visibilityChanged();

private:
    SceneContext& m_scene;
    std::unique_ptr<OrbitCamera> m_orbit;
    bool m_orthographic3d = false; ///< orthographic chosen for 3-D networks
    /// The camera's view when it last showed the default framing (resetView, an explode it
    /// followed): a resize frames the drawing again while the camera is still there.
    std::optional<OrbitView> m_framed;
    QTimer* m_visibilityTimer = nullptr;
    ReceiverCount m_seen;
};

} // namespace topocast::app
