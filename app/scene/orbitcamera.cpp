#include "scene/orbitcamera.h"

#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraLens>

#include <QtMath>

#include <algorithm>
#include <cmath>

namespace topocast::app {

namespace {
/// How far an orthographic camera stands back beyond `distance` (scene units): more than any
/// drawn network's extent, so zooming in never puts part of the scene behind the camera.
constexpr float kOrthographicStandOff = 200.0f;
} // namespace

OrbitCamera::OrbitCamera(Qt3DRender::QCamera* camera)
    : m_camera(camera), m_fov(camera->fieldOfView()), m_aspect(camera->aspectRatio())
{
}

void OrbitCamera::reset(const QVector3D& centre, float radius, bool flat)
{
    m_centre = centre;
    const float halfFov = qDegreesToRadians(m_fov * 0.5f);
    m_distance = std::max(2.0f, radius / std::sin(halfFov) * 1.05f);
    m_yaw = flat ? 0.0f : 28.0f;
    m_pitch = flat ? 0.0f : 22.0f;
    apply();
}

void OrbitCamera::frameTopDown(const QVector3D& centre, float halfWidth, float halfHeight)
{
    m_centre = centre;
    const float half = std::max(halfHeight, halfWidth / std::max(0.1f, m_aspect));
    m_distance = std::max(2.0f, half / std::tan(qDegreesToRadians(m_fov * 0.5f)));
    m_yaw = 0.0f;
    m_pitch = 0.0f;
    apply();
}

void OrbitCamera::orbit(float yawDegrees, float pitchDegrees)
{
    m_yaw += yawDegrees;
    m_pitch = std::clamp(m_pitch + pitchDegrees, -89.0f, 89.0f);
    apply();
}

void OrbitCamera::pan(float dx, float dy)
{
    const QVector3D forward = (m_camera->viewCenter() - m_camera->position()).normalized();
    const QVector3D right = QVector3D::crossProduct(forward, m_camera->upVector()).normalized();
    const QVector3D up = QVector3D::crossProduct(right, forward).normalized();
    const float scale = m_distance * std::tan(qDegreesToRadians(m_fov * 0.5f));
    m_centre += (-right * dx * m_aspect + up * dy) * scale;
    apply();
}

void OrbitCamera::zoom(float factor)
{
    m_distance = std::clamp(m_distance * factor, 0.5f, 5000.0f);
    apply();
}

void OrbitCamera::setState(const State& state)
{
    m_centre = state.centre;
    m_distance = std::clamp(state.distance, 0.5f, 5000.0f);
    m_yaw = state.yaw;
    m_pitch = std::clamp(state.pitch, -89.0f, 89.0f);
    m_orthographic = state.orthographic;
    apply();
}

void OrbitCamera::setAspect(float aspect)
{
    m_aspect = aspect;
    apply();
}

void OrbitCamera::setOrthographic(bool on)
{
    m_orthographic = on;
    apply();
}

void OrbitCamera::apply()
{
    const float yaw = qDegreesToRadians(m_yaw);
    const float pitch = qDegreesToRadians(m_pitch);
    const QVector3D dir(std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch));
    const float back = m_orthographic ? m_distance + kOrthographicStandOff : m_distance;
    const float nearPlane = std::max(0.05f, m_distance * 0.01f);
    const float farPlane = back + m_distance * 10.0f + 100.0f;
    if (m_orthographic) {
        const float h = m_distance * std::tan(qDegreesToRadians(m_fov * 0.5f));
        m_camera->lens()->setOrthographicProjection(-h * m_aspect, h * m_aspect, -h, h, nearPlane, farPlane);
    } else {
        m_camera->lens()->setPerspectiveProjection(m_fov, m_aspect, nearPlane, farPlane);
    }
    m_camera->setUpVector(QVector3D(0, 1, 0));
    m_camera->setPosition(m_centre + dir * back);
    m_camera->setViewCenter(m_centre);
}

} // namespace topocast::app
