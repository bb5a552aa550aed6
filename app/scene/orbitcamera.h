#pragma once

#include "topocast/drawing/camera.h"

#include <QVector3D>

namespace Qt3DRender {
class QCamera;
}

namespace topocast::app {

/// Orbit/pan/zoom about a centre, driven by the scene view's mouse and keyboard handling
/// (Qt3D's own controller would also take the arrow keys, which belong to the timeline).
/// The camera itself is core's OrbitView (topocast/drawing/camera.h): this class changes it and copies
/// it into the QCamera, so the app's picture and topocast-cli visibility use the same numbers.
class OrbitCamera {
public:
    /// Where the camera is: what File ▸ Export copies from the window's view to the exporter's.
    struct State {
        QVector3D centre;
        float distance = 10.0f;
        float yaw = 0.0f;
        float pitch = 0.0f;
        bool orthographic = false; ///< parallel projection (the view's height still follows distance)
    };

    explicit OrbitCamera(Qt3DRender::QCamera* camera);

    /// Frames a box of half-diagonal `radius` about `centre`; `flat` looks straight down −Z
    /// (core frameBox).
    void reset(const QVector3D& centre, float radius, bool flat);
    void orbit(float yawDegrees, float pitchDegrees);
    /// Pan by a fraction of the view (dx, dy in −1..1 of the viewport).
    void pan(float dx, float dy);
    void zoom(float factor);
    void setAspect(float aspect);
    /// Orthographic (parallel) or perspective projection. In orthographic the view shows the
    /// same height at the centre as the perspective one at `distance` (zoom works alike), and
    /// the camera stands back far enough that nothing of the scene is behind it.
    void setOrthographic(bool on);
    bool orthographic() const { return m_orthographic; }
    void apply();
    State state() const;
    void setState(const State& state);
    /// The camera as core sees it (for visibility), and setting it whole (the default view).
    const OrbitView& view() const { return m_view; }
    void setView(const OrbitView& view);

private:
    Qt3DRender::QCamera* m_camera;
    OrbitView m_view;
    bool m_orthographic = false;
};

} // namespace topocast::app
