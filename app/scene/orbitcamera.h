#pragma once

#include <QVector3D>

namespace Qt3DRender { class QCamera; }

namespace topocast::app {

/// Orbit/pan/zoom about a centre, driven by the scene view's mouse and keyboard handling
/// (Qt3D's own controller would also take the arrow keys, which belong to the timeline).
class OrbitCamera {
public:
    explicit OrbitCamera(Qt3DRender::QCamera* camera) : m_camera(camera) {}

    /// Frames a box of half-diagonal `radius` about `centre`; `flat` looks straight down −Z.
    void reset(const QVector3D& centre, float radius, bool flat);
    void orbit(float yawDegrees, float pitchDegrees);
    /// Pan by a fraction of the view (dx, dy in −1..1 of the viewport).
    void pan(float dx, float dy);
    void zoom(float factor);
    void setAspect(float aspect);
    void apply();

private:
    Qt3DRender::QCamera* m_camera;
    QVector3D m_centre;
    float m_distance = 10.0f;
    float m_yaw = 0.0f;
    float m_pitch = 0.0f;
};

} // namespace topocast::app
