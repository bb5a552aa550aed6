#include "scene/picking.h"

#include <QVector4D>

#include <algorithm>
#include <cmath>

namespace topocast::app {

Ray screenRay(const QMatrix4x4& viewProjection, const QSizeF& size, const QPointF& pos)
{
    const float x = static_cast<float>(2.0 * pos.x() / size.width() - 1.0);
    const float y = static_cast<float>(1.0 - 2.0 * pos.y() / size.height());
    const QMatrix4x4 inv = viewProjection.inverted();
    QVector4D nearP = inv * QVector4D(x, y, -1.0f, 1.0f);
    QVector4D farP = inv * QVector4D(x, y, 1.0f, 1.0f);
    nearP /= nearP.w();
    farP /= farP.w();
    return {{nearP.x(), nearP.y(), nearP.z()}, {farP.x() - nearP.x(), farP.y() - nearP.y(), farP.z() - nearP.z()}};
}

QPointF projectToScreen(const QMatrix4x4& viewProjection, const QSizeF& size, const Vec3& p)
{
    QVector4D c = viewProjection * QVector4D(p[0], p[1], p[2], 1.0f);
    c /= c.w();
    return {(static_cast<double>(c.x()) + 1.0) * 0.5 * size.width(),
            (1.0 - static_cast<double>(c.y())) * 0.5 * size.height()};
}

long long pickAt(const QMatrix4x4& viewProjection, const QSizeF& size, const QPointF& pos,
                 const std::vector<Vec3>& positions, float radius)
{
    const Ray r = screenRay(viewProjection, size, pos);
    return pickNode(r.origin, r.direction, positions, radius);
}

long long pickSegment(const std::vector<std::pair<QPointF, QPointF>>& segments, const QPointF& pos, double tolerance,
                      double from, double to)
{
    long long best = -1;
    double bestDistance = tolerance;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const QPointF a = segments[i].first, d = segments[i].second - a;
        const double len2 = QPointF::dotProduct(d, d);
        const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(pos - a, d) / len2, from, to) : 0.0;
        const QPointF q = a + d * t - pos;
        const double distance = std::hypot(q.x(), q.y());
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = static_cast<long long>(i);
        }
    }
    return best;
}

} // namespace topocast::app
