#pragma once

#include "style/scenestyle.h"

#include "topocast/io/scenario_json.h"
#include "topocast/model/schedule.h"

#include <QColor>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPointF>
#include <QRect>

#include <cstdlib>
#include <functional>
#include <vector>

namespace topocast::app::test {

/// Processes events until `done` holds or `timeoutMs` passes (no sleeps).
inline bool waitFor(const std::function<bool()>& done, int timeoutMs = 10000)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

inline Scenario scenario(const char* topology, const char* algorithm, NodeId source = NodeId{0})
{
    Scenario s;
    s.topology = Topology::parse(topology);
    s.algorithm = algorithm;
    s.source = source;
    return s;
}

/// The same, drawn as the tower (view.layout "tower": explode applies) rather than the planes
/// side by side a 3-D mesh or torus opens with.
inline Scenario towerScenario(const char* topology, const char* algorithm, NodeId source = NodeId{0})
{
    Scenario s = scenario(topology, algorithm, source);
    s.view.layout = "tower";
    return s;
}

/// `s` drawn as the tower.
inline Scenario asTower(Scenario s)
{
    s.view.layout = "tower";
    return s;
}

/// A 4×4 mesh schedule with a known contention: step 1 (0,0)→(1,0); step 2 (0,0)→(3,0) and
/// (1,0)→(2,0) both use the channel (1,0)→(2,0).
inline Schedule contendedSchedule()
{
    const Topology topo = Topology::mesh({4, 4});
    Schedule s(topo, NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    s.algorithm = "hand-made";
    s.add(NodeId{0}, NodeId{1}, StepNo{1});
    s.add(NodeId{0}, NodeId{3}, StepNo{2});
    s.add(NodeId{1}, NodeId{2}, StepNo{2});
    s.finalize();
    return s;
}

/// True if every channel of `c` is within `tolerance` (0..255) of `want`'s.
inline bool colourNear(QColor c, const Rgba& want, int tolerance = 40)
{
    return std::abs(c.red() - static_cast<int>(want.r * 255)) <= tolerance &&
           std::abs(c.green() - static_cast<int>(want.g * 255)) <= tolerance &&
           std::abs(c.blue() - static_cast<int>(want.b * 255)) <= tolerance;
}

/// True if some pixel within `radius` of `p` satisfies `pred`.
inline bool pixelNear(const QImage& img, QPointF p, int radius, const std::function<bool(QColor)>& pred)
{
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            const int x = static_cast<int>(p.x()) + dx, y = static_cast<int>(p.y()) + dy;
            if (x >= 0 && y >= 0 && x < img.width() && y < img.height() && pred(img.pixelColor(x, y)))
                return true;
        }
    return false;
}

/// Blobs of `want`'s colour (every channel within 40, 6 pixels or more, 8-connected) inside
/// `rect` of `image`: how many nodes a picture shows in one state's colour.
inline int colourBlobs(const QImage& image, const QRect& rect, const QColor& want)
{
    auto near = [&](int x, int y) {
        const QColor c = image.pixelColor(x, y);
        return std::abs(c.red() - want.red()) <= 40 && std::abs(c.green() - want.green()) <= 40 &&
               std::abs(c.blue() - want.blue()) <= 40;
    };
    std::vector<char> seen(static_cast<std::size_t>(image.width() * image.height()), 0);
    const auto at = [&](int x, int y) -> char& { return seen[static_cast<std::size_t>(y * image.width() + x)]; };
    int blobs = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x) {
            if (at(x, y) || !near(x, y))
                continue;
            int size = 0;
            std::vector<QPoint> stack{{x, y}};
            at(x, y) = 1;
            while (!stack.empty()) {
                const QPoint p = stack.back();
                stack.pop_back();
                ++size;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const int nx = p.x() + dx, ny = p.y() + dy;
                        if (!rect.contains(nx, ny) || at(nx, ny) || !near(nx, ny))
                            continue;
                        at(nx, ny) = 1;
                        stack.push_back({nx, ny});
                    }
            }
            blobs += size >= 6 ? 1 : 0;
        }
    return blobs;
}

/// Set by main(): whether an OpenGL context could be created (else [gl] tests are left out).
bool glAvailable();

} // namespace topocast::app::test
