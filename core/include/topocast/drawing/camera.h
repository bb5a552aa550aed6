#pragma once

#include "topocast/drawing/layout.h"

#include <array>
#include <vector>

namespace topocast {

/// A 4×4 matrix in column-major order (OpenGL's and QMatrix4x4::constData()'s layout):
/// element (row r, column c) is m[c * 4 + r].
using Mat4 = std::array<float, 16>;

/// The app's orbit camera as plain numbers: it looks at `centre` from `distance` away, from the
/// direction given by `yaw` (degrees about +Y, 0 = from +Z) and `pitch` (degrees above the XZ
/// plane), with up = +Y and a perspective projection of vertical field of view `fovDegrees`.
/// The app's OrbitCamera keeps one of these and copies it into its QCamera, so the app and
/// topocast-cli see the same picture.
struct OrbitView {
    Vec3 centre{0, 0, 0};
    float distance = 10.0f;
    float yaw = 0.0f;
    float pitch = 0.0f;
    float fovDegrees = 40.0f;
    float aspect = 16.0f / 9.0f;

    /// Where the camera is: centre + distance × (sin yaw cos pitch, sin pitch, cos yaw cos pitch).
    Vec3 eye() const;
    /// Near and far planes: max(0.05, distance / 100) and distance × 10 + 100.
    float nearPlane() const;
    float farPlane() const;
    /// The look-at view matrix (eye → centre, up +Y), as QMatrix4x4::lookAt builds it.
    Mat4 viewMatrix() const;
    /// The perspective projection (OpenGL clip space, z in −1..1), as QMatrix4x4::perspective.
    Mat4 projectionMatrix() const;
    /// projectionMatrix() × viewMatrix().
    Mat4 viewProjection() const;
};

/// The default yaw and pitch of a 3-D view (degrees); a flat (2-D) view uses 0, 0.
inline constexpr float kDefaultYaw = 28.0f;
inline constexpr float kDefaultPitch = 22.0f;
/// The field of view of the app's camera (degrees, vertical).
inline constexpr float kDefaultFov = 40.0f;

/// Frames a box of half-diagonal `radius` about `centre`: distance max(2, radius / sin(fov/2) ×
/// 1.05); `flat` looks straight down −Z (yaw = pitch = 0), otherwise yaw 28°, pitch 22°.
/// Keeps `fovDegrees` and `aspect` of `base`. O(1).
OrbitView frameBox(OrbitView base, const Vec3& centre, float radius, bool flat);

/// Frames a flat drawing of bounds {lo, hi} (every z the same) top-down (yaw = pitch = 0) to the
/// viewport's shape: the box from lo − (1.2, 0.7) to hi + (1.0 + 0.06 × width, 1.3) — room for the
/// axes at its top left, node labels to the right and numbers below — fills the view's height or
/// its width, whichever it reaches first (distance ≥ 2). Keeps `fovDegrees` and `aspect` of
/// `base`. `titleRoom` (scene units) more above, and the top `topShare` (0..0.5) of the picture's
/// height kept free besides (planes side by side: each plane's title, a plate of fixed pixels,
/// over its top row). In the plane z = lo.z the perspective and the app's orthographic projection
/// of this view agree. O(1).
OrbitView frameTopDownView(OrbitView base, const std::array<Vec3, 2>& bounds, float titleRoom = 0.0f,
                           float topShare = 0.0f);

/// The app's default view of `positions` (the layout of `topo`) in a viewport of aspect
/// width / height: a flat drawing (every node has z = 0: 2-D meshes and tori, planes side by
/// side — a 3-D mesh or torus drawn flat, with room for the planes' titles —, the flat hypercube)
/// frameTopDownView; otherwise frames the bounding box as a sphere
/// (radius = max(1, half its diagonal + 0.6)) from yaw 28°, pitch 22°. `topo` is not needed for
/// that since 2-D tori keep their arcs in the plane, and stays for callers that pass it.
/// `topShare`: planes side by side keep that share of the picture's height free above the top
/// row of titles (planeTitleShare). O(N).
OrbitView defaultView(const Topology& topo, const std::vector<Vec3>& positions, float aspect, float topShare = 0.0f);

/// Where `p` lands in normalized device coordinates (x, y in −1..1 inside the viewport, z the
/// depth) under `viewProjection`; {0, 0, 2} (outside) when `p` is behind the camera.
Vec3 projectPoint(const Mat4& viewProjection, const Vec3& p);

/// Which nodes are visible from the camera: node v is visible when it projects inside the
/// viewport and the ray from the eye through its centre hits v's sphere (of `radius`) before
/// any other node's (pickNode). Links are ignored. O(N²) (N rays against N spheres).
std::vector<bool> visibleNodes(const OrbitView& view, const std::vector<Vec3>& positions, float radius);

/// The radius the app draws nodes with for a network of `nodes` nodes: kNodeRadius up to 2048
/// nodes, 0.11 up to 4096 (16×16×16: the exploded planes' nodes stay clear of each other's
/// rays), 0.2 above (so they stay a few pixels wide).
float drawnNodeRadius(std::size_t nodes);

} // namespace topocast
