#pragma once

#include "topocast/drawing/layout.h"

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

/// The segment under window point `pos`: of the screen segments (a, b), in pixels, the one whose
/// middle part (from `from` to `to` of its length) passes nearest, if within `tolerance`
/// pixels; −1 otherwise. For picking the arrows and messages of a step. O(segments).
long long pickSegment(const std::vector<std::pair<QPointF, QPointF>>& segments, const QPointF& pos, double tolerance,
                      double from = 0.0, double to = 1.0);

} // namespace topocast::app
