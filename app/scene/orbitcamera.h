#pragma once

#include <QVector3D>

namespace Qt3DRender { class QCamera; }

namespace topocast::app {

/// Orbit/pan/zoom about a centre, driven by the scene view's mouse and keyboard handling
/// (Qt3D's own controller would also take the arrow keys, which belong to the timeline).
class OrbitCamera {
public:
    /// Where the camera is: what File ▸ Export copies from the window's view to the exporter's.
    struct State {
        QVector3D centre;
        float distance = 10.0f;
        float yaw = 0.0f;
        float pitch = 0.0f;
        bool orthographic = false;  ///< parallel projection (the view's height still follows distance)
    };

    explicit OrbitCamera(Qt3DRender::QCamera* camera);

    /// Frames a box of half-diagonal `radius` about `centre`; `flat` looks straight down −Z.
    void reset(const QVector3D& centre, float radius, bool flat);
    /// Looks straight down −Z at `centre` from the distance at which a box of half-width
    /// `halfWidth` and half-height `halfHeight` just fits the view (at the current aspect).
    void frameTopDown(const QVector3D& centre, float halfWidth, float halfHeight);
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
    State state() const { return {m_centre, m_distance, m_yaw, m_pitch, m_orthographic}; }
    void setState(const State& state);

private:
    Qt3DRender::QCamera* m_camera;
    QVector3D m_centre;
    float m_distance = 10.0f;
    float m_yaw = 0.0f;
    float m_pitch = 0.0f;
    float m_fov = 40.0f;
    float m_aspect = 16.0f / 9.0f;
    bool m_orthographic = false;
};

} // namespace topocast::app
