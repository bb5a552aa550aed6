#include "scene/orbitcamera.h"

#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraLens>

#include <QtMath>

#include <algorithm>
#include <cmath>

namespace topocast::app {

namespace {
QVector3D toQt(const Vec3& v)
{
    return {v[0], v[1], v[2]};
}

/// How far an orthographic camera stands back beyond `distance` (scene units): more than any
/// drawn network's extent, so zooming in never puts part of the scene behind the camera.
constexpr float kOrthographicStandOff = 200.0f;
} // namespace

OrbitCamera::OrbitCamera(Qt3DRender::QCamera* camera) : m_camera(camera)
{
    m_view.fovDegrees = camera->fieldOfView();
    m_view.aspect = camera->aspectRatio();
}

void OrbitCamera::reset(const QVector3D& centre, float radius, bool flat)
{
    m_view = frameBox(m_view, {centre.x(), centre.y(), centre.z()}, radius, flat);
    apply();
}

void OrbitCamera::orbit(float yawDegrees, float pitchDegrees)
{
    m_view.yaw += yawDegrees;
    m_view.pitch = std::clamp(m_view.pitch + pitchDegrees, -89.0f, 89.0f);
    apply();
}

void OrbitCamera::pan(float dx, float dy)
{
    const QVector3D forward = (m_camera->viewCenter() - m_camera->position()).normalized();
    const QVector3D right = QVector3D::crossProduct(forward, m_camera->upVector()).normalized();
    const QVector3D up = QVector3D::crossProduct(right, forward).normalized();
    const float scale = m_view.distance * std::tan(qDegreesToRadians(m_view.fovDegrees * 0.5f));
    const QVector3D c = toQt(m_view.centre) + (-right * dx * m_view.aspect + up * dy) * scale;
    m_view.centre = {c.x(), c.y(), c.z()};
    apply();
}

void OrbitCamera::zoom(float factor)
{
    m_view.distance = std::clamp(m_view.distance * factor, 0.5f, 5000.0f);
    apply();
}

OrbitCamera::State OrbitCamera::state() const
{
    return {toQt(m_view.centre), m_view.distance, m_view.yaw, m_view.pitch, m_orthographic};
}

void OrbitCamera::setState(const State& state)
{
    m_view.centre = {state.centre.x(), state.centre.y(), state.centre.z()};
    m_view.distance = std::clamp(state.distance, 0.5f, 5000.0f);
    m_view.yaw = state.yaw;
    m_view.pitch = std::clamp(state.pitch, -89.0f, 89.0f);
    m_orthographic = state.orthographic;
    apply();
}

void OrbitCamera::setView(const OrbitView& view)
{
    m_view = view;
    apply();
}

void OrbitCamera::setAspect(float aspect)
{
    m_view.aspect = aspect;
    apply();
}

void OrbitCamera::setOrthographic(bool on)
{
    m_orthographic = on;
    apply();
}

void OrbitCamera::apply()
{
    // In perspective the QCamera builds the same matrices from these as core's OrbitView (lookAt
    // with up +Y, perspective); tests/app/test_explode.cpp compares them. Orthographic keeps the
    // view's height at the centre and stands back so nothing is behind the camera.
    m_camera->setUpVector(QVector3D(0, 1, 0));
    if (m_orthographic) {
        const Vec3 eye = m_view.eye();
        const QVector3D dir = (toQt(eye) - toQt(m_view.centre)).normalized();
        const float back = m_view.distance + kOrthographicStandOff;
        const float h = m_view.distance * std::tan(qDegreesToRadians(m_view.fovDegrees * 0.5f));
        const float nearPlane = std::max(0.05f, m_view.distance * 0.01f);
        const float farPlane = back + m_view.distance * 10.0f + 100.0f;
        m_camera->lens()->setOrthographicProjection(-h * m_view.aspect, h * m_view.aspect, -h, h, nearPlane, farPlane);
        m_camera->setPosition(toQt(m_view.centre) + dir * back);
    } else {
        m_camera->lens()->setPerspectiveProjection(m_view.fovDegrees, m_view.aspect, m_view.nearPlane(),
                                                   m_view.farPlane());
        m_camera->setPosition(toQt(m_view.eye()));
    }
    m_camera->setViewCenter(toQt(m_view.centre));
}

} // namespace topocast::app
