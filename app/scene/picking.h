#pragma once

#include "topocast/layout.h"

#include <QMatrix4x4>
#include <QPointF>
#include <QSizeF>

#include <vector>

namespace topocast::app {

struct Ray {
    Vec3 origin{};
    Vec3 direction{};
};

/// The world-space ray under window point `pos` (pixels, y down) for a camera with
/// `viewProjection` over a viewport of `size`. Plain maths, no GL.
Ray screenRay(const QMatrix4x4& viewProjection, const QSizeF& size, const QPointF& pos);

/// Where world point `p` lands in the window (pixels, y down).
QPointF projectToScreen(const QMatrix4x4& viewProjection, const QSizeF& size, const Vec3& p);

/// The node under window point `pos`, or −1: screenRay + topocast::pickNode.
long long pickAt(const QMatrix4x4& viewProjection, const QSizeF& size, const QPointF& pos,
                 const std::vector<Vec3>& positions, float radius);

} // namespace topocast::app
