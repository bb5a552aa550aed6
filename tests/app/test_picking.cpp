#include "helpers.h"
#include "scene/picking.h"

#include <catch2/catch.hpp>

#include "topocast/layout.h"

using namespace topocast;
using namespace topocast::app;

TEST_CASE("picking: the ray under a node's projection hits that node (no GL)", "[app][picking]")
{
    const Topology topo = GENERATE(Topology::mesh({4, 4, 4}), Topology::torus({5, 5}), Topology::hypercube(5));
    const auto pos = nodePositions(topo);
    QMatrix4x4 proj, view;
    proj.perspective(40.0f, 1.5f, 0.1f, 200.0f);
    view.lookAt(QVector3D(4.0f, 5.0f, 12.0f), QVector3D(0, 0, 0), QVector3D(0, 1, 0));
    const QMatrix4x4 vp = proj * view;
    const QSizeF size(900, 600);
    int hits = 0;
    for (NodeId v = 0; v < topo.nodeCount(); ++v) {
        const QPointF p = projectToScreen(vp, size, pos[v]);
        const long long picked = pickAt(vp, size, p, pos, 0.16f);
        REQUIRE(picked >= 0);
        // A node hidden behind a nearer one picks the nearer one, which projects to the same spot.
        const QPointF q = projectToScreen(vp, size, pos[static_cast<std::size_t>(picked)]);
        CHECK(std::abs(q.x() - p.x()) < 40);
        CHECK(std::abs(q.y() - p.y()) < 40);
        hits += picked == v;
    }
    CHECK(hits > static_cast<int>(topo.nodeCount()) / 3);
    // Far outside the layout nothing is hit.
    CHECK(pickAt(vp, size, QPointF(2, 2), pos, 0.16f) == -1);
}

TEST_CASE("picking: screen ray origin lies on the near plane in front of the camera", "[app][picking]")
{
    QMatrix4x4 proj, view;
    proj.perspective(40.0f, 1.0f, 1.0f, 100.0f);
    view.lookAt(QVector3D(0, 0, 10), QVector3D(0, 0, 0), QVector3D(0, 1, 0));
    const Ray r = screenRay(proj * view, QSizeF(100, 100), QPointF(50, 50));
    CHECK(r.origin[2] == Approx(9.0f).margin(1e-3));
    CHECK(r.direction[0] == Approx(0.0f).margin(1e-3));
    CHECK(r.direction[2] < 0);
}
