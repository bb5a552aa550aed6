#include "topocast/drawing/camera.h"

#include "topocast/drawing/planes.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace topocast {

namespace {

float radians(float degrees)
{
    return degrees * std::numbers::pi_v<float> / 180.0f;
}

Eigen::Vector3f vec(const Vec3& v)
{
    return {v[0], v[1], v[2]};
}

Mat4 toArray(const Eigen::Matrix4f& m)
{
    Mat4 out{};
    Eigen::Map<Eigen::Matrix4f>(out.data()) = m; // Eigen's default storage is column-major too
    return out;
}

} // namespace

Vec3 OrbitView::eye() const
{
    const float y = radians(yaw), p = radians(pitch);
    return {centre[0] + std::sin(y) * std::cos(p) * distance, centre[1] + std::sin(p) * distance,
            centre[2] + std::cos(y) * std::cos(p) * distance};
}

float OrbitView::nearPlane() const
{
    return std::max(0.05f, distance * 0.01f);
}

float OrbitView::farPlane() const
{
    return distance * 10.0f + 100.0f;
}

Mat4 OrbitView::viewMatrix() const
{
    const Eigen::Vector3f e = vec(eye());
    const Eigen::Vector3f forward = (vec(centre) - e).normalized();
    const Eigen::Vector3f side = forward.cross(Eigen::Vector3f(0, 1, 0)).normalized();
    const Eigen::Vector3f up = side.cross(forward);
    Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
    m.block<1, 3>(0, 0) = side.transpose();
    m.block<1, 3>(1, 0) = up.transpose();
    m.block<1, 3>(2, 0) = -forward.transpose();
    m(0, 3) = -side.dot(e);
    m(1, 3) = -up.dot(e);
    m(2, 3) = forward.dot(e);
    return toArray(m);
}

Mat4 OrbitView::projectionMatrix() const
{
    const float half = radians(fovDegrees) * 0.5f;
    const float cotan = std::cos(half) / std::sin(half);
    const float n = nearPlane(), f = farPlane();
    Eigen::Matrix4f m = Eigen::Matrix4f::Zero();
    m(0, 0) = cotan / aspect;
    m(1, 1) = cotan;
    m(2, 2) = -(n + f) / (f - n);
    m(2, 3) = -(2.0f * n * f) / (f - n);
    m(3, 2) = -1.0f;
    return toArray(m);
}

Mat4 OrbitView::viewProjection() const
{
    const Mat4 p = projectionMatrix(), v = viewMatrix();
    return toArray(Eigen::Map<const Eigen::Matrix4f>(p.data()) * Eigen::Map<const Eigen::Matrix4f>(v.data()));
}

OrbitView frameBox(OrbitView base, const Vec3& centre, float radius, bool flat)
{
    base.centre = centre;
    const float halfFov = radians(base.fovDegrees * 0.5f);
    base.distance = std::max(2.0f, radius / std::sin(halfFov) * 1.05f);
    base.yaw = flat ? 0.0f : kDefaultYaw;
    base.pitch = flat ? 0.0f : kDefaultPitch;
    return base;
}

OrbitView frameTopDownView(OrbitView base, const std::array<Vec3, 2>& bounds, float titleRoom, float topShare)
{
    const auto& [lo, hi] = bounds;
    const float width = hi[0] - lo[0];
    const Eigen::Vector2f boxLo(lo[0] - 1.2f, lo[1] - 0.7f);
    const Eigen::Vector2f boxHi(hi[0] + 1.0f + 0.06f * width, hi[1] + 1.3f + titleRoom);
    const Eigen::Vector2f c = (boxLo + boxHi) * 0.5f;
    const float share = std::clamp(topShare, 0.0f, 0.5f);
    const float half = std::max(0.5f * (boxHi.y() - boxLo.y()) / (1.0f - share),
                                0.5f * (boxHi.x() - boxLo.x()) / std::max(0.1f, base.aspect));
    // The box in the lower part of the picture, the top `share` of its height left free.
    base.centre = {c.x(), c.y() + share * half, lo[2]};
    base.distance = std::max(2.0f, half / std::tan(radians(base.fovDegrees * 0.5f)));
    base.yaw = 0.0f;
    base.pitch = 0.0f;
    return base;
}

OrbitView defaultView(const Topology& topo, const std::vector<Vec3>& positions, float aspect, float topShare)
{
    OrbitView view;
    view.fovDegrees = kDefaultFov;
    view.aspect = aspect;
    if (positions.empty())
        return frameBox(view, {0, 0, 0}, 5.0f, false);
    const auto [lo, hi] = layoutBounds(positions);
    const Eigen::Vector3f l = vec(lo), h = vec(hi);
    const Eigen::Vector3f c = (l + h) * 0.5f;
    if ((h.z() - l.z()) < 1e-3f)
        return canDrawPlanes(topo) ? frameTopDownView(view, {lo, hi}, kPlaneTitleRoom, topShare)
                                   : frameTopDownView(view, {lo, hi});
    return frameBox(view, {c.x(), c.y(), c.z()}, std::max(1.0f, 0.5f * (h - l).norm() + 0.6f), false);
}

Vec3 projectPoint(const Mat4& viewProjection, const Vec3& p)
{
    const Eigen::Vector4f c =
        Eigen::Map<const Eigen::Matrix4f>(viewProjection.data()) * Eigen::Vector4f(p[0], p[1], p[2], 1.0f);
    if (c.w() <= 0.0f)
        return {0, 0, 2};
    return {c.x() / c.w(), c.y() / c.w(), c.z() / c.w()};
}

std::vector<bool> visibleNodes(const OrbitView& view, const std::vector<Vec3>& positions, float radius)
{
    const Mat4 vp = view.viewProjection();
    const Vec3 eye = view.eye();
    std::vector<bool> visible(positions.size(), false);
    for (std::size_t v = 0; v < positions.size(); ++v) {
        const Vec3 ndc = projectPoint(vp, positions[v]);
        if (std::abs(ndc[0]) > 1.0f || std::abs(ndc[1]) > 1.0f || std::abs(ndc[2]) > 1.0f)
            continue;
        const Vec3 dir{positions[v][0] - eye[0], positions[v][1] - eye[1], positions[v][2] - eye[2]};
        visible[v] = pickNode(eye, dir, positions, radius) == static_cast<long long>(v);
    }
    return visible;
}

float drawnNodeRadius(std::size_t nodes)
{
    if (nodes > 4096)
        return 0.2f; // 32×32×32 and up: a few pixels wide, else they vanish
    // 16×16×16: 16 exploded planes seen from 22° above put nodes of one plane near the rays to
    // nodes of another; thinner spheres (0.11, measured with `topocast-cli visibility`) let every
    // preset show ≥ 95 % of each step's active nodes. Smaller networks keep the full size.
    return nodes > 2048 ? 0.11f : kNodeRadius;
}

} // namespace topocast
