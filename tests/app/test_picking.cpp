#include "helpers.h"
#include "scene/picking.h"

#include <catch2/catch.hpp>

#include "topocast/drawing/layout.h"

using namespace topocast;
using namespace topocast::app;

TEST_CASE("picking: the ray under a node's projection hits that node (no GL)", "[app][picking]")
{
    // Clicking where node v's centre projects casts the ray from the eye through v's centre. The
    // node picked must be, by brute force over every node, the nearest one along that ray whose
    // sphere (radius 0.16) the ray meets: v itself unless a nearer node hides it.
    const Topology topo = GENERATE(Topology::mesh({4, 4, 4}), Topology::torus({5, 5}), Topology::hypercube(5));
    const auto pos = nodePositions(topo);
    const QVector3D eye(4.0f, 5.0f, 12.0f);
    QMatrix4x4 proj, view;
    proj.perspective(40.0f, 1.5f, 0.1f, 200.0f);
    view.lookAt(eye, QVector3D(0, 0, 0), QVector3D(0, 1, 0));
    const QMatrix4x4 vp = proj * view;
    const QSizeF size(900, 600);
    const float radius = 0.16f;
    auto at = [&](NodeId u) { return QVector3D(pos[u][0], pos[u][1], pos[u][2]); };
    int hidden = 0;
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        const QVector3D dir = (at(v) - eye).normalized();
        long long expected = -1;
        float nearest = 1e30f;
        for (NodeId u{}; u < topo.nodeCount(); ++u) {
            const QVector3D d = at(u) - eye;
            const float along = QVector3D::dotProduct(d, dir);
            const float off = (d - dir * along).length();
            if (off <= radius && along < nearest) {
                nearest = along;
                expected = u;
            }
        }
        REQUIRE(expected >= 0); // at least v itself
        INFO("node " << v);
        CHECK(pickAt(vp, size, projectToScreen(vp, size, pos[v]), pos, radius) == expected);
        hidden += expected != static_cast<long long>(v);
    }
    // The hypercube and the 2-D torus hide nothing from this eye; the 4×4×4 mesh hides a few.
    if (topo.dims() != 3)
        CHECK(hidden == 0);
    // Far outside the layout nothing is hit.
    CHECK(pickAt(vp, size, QPointF(2, 2), pos, radius) == -1);
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
