// Arrowheads at the receiving end of each transfer, node labels (coordinates,
// binary addresses), source-map numbers, the orthographic top-down view of 2-D networks; and
// item 3's flat hypercube drawing in the app.
#include "helpers.h"
#include "launch/startup.h"
#include "mainwindow.h"
#include "scene/arrowinstances.h"
#include "scene/labelinstances.h"
#include "scene/messageinstances.h"
#include "scene/orbitcamera.h"
#include "scene/picking.h"
#include "scene/sceneview.h"
#include "session/session.h"

#include "topocast/algorithms/cang_wu.h"
#include "topocast/drawing/layout.h"
#include "topocast/io/scenario_file.h"
#include "topocast/model/routing.h"
#include "topocast/scenario/scenario.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <QAction>
#include <QImage>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace topocast;
using namespace topocast::app;

namespace {
std::size_t countWithText(const LabelInstances& labels, const QString& text)
{
    std::size_t n = 0;
    for (const auto& l : labels.labels())
        n += l.text == text;
    return n;
}
} // namespace

TEST_CASE("arrows: two transfers in opposite directions over one link run in two lanes, not over each other",
          "[app][scene][arrows]")
{
    // At step 1 of the binomial reduce the two transfers over (3,2)–(3,3) merged into a bow-tie,
    // and with lanes narrower than the heads the two arrowheads still overlapped. Every step of these schedules that
    // sends both ways over a link is checked.
    SceneView scene;
    int pairs = 0;
    for (Scenario sc :
         {test::scenario("mesh:4x4", "binomial", NodeId{0}), test::scenario("torus:4x4", "ring", NodeId{0}),
          test::scenario("hypercube:3", "recursive-doubling", NodeId{0})}) {
        sc.params.set("pattern", sc.algorithm == "binomial" ? "reduce" : "allreduce");
        const SnapshotPtr snap = buildSnapshot(sc);
        scene.setSnapshot(snap);
        const Schedule& s = snap->schedule;
        for (std::uint32_t step = 1; step <= s.stepCount(); ++step) {
            scene.setStep(static_cast<int>(step));
            const auto& arrows = scene.layers().arrows->arrows();
            for (std::size_t i = 0; i < arrows.size(); ++i)
                for (std::size_t j = i + 1; j < arrows.size(); ++j) {
                    // Two arrows on one link in opposite directions: apart across the link.
                    const auto& a = arrows[i];
                    const auto& b = arrows[j];
                    const double across = std::hypot(a.tip[0] - b.from[0], a.tip[1] - b.from[1], a.tip[2] - b.from[2]);
                    const double along = std::hypot(a.tip[0] - a.from[0], a.tip[1] - a.from[1], a.tip[2] - a.from[2]);
                    if (across < 0.5 * along &&
                        std::hypot(a.from[0] - b.tip[0], a.from[1] - b.tip[1], a.from[2] - b.tip[2]) < 0.5 * along) {
                        INFO(sc.topology.spec() << " " << sc.algorithm << " step " << step);
                        // The two heads side by side: apart by more than their width (0.55 of a length
                        // on each side of its axis), the moving messages' lanes narrower.
                        const float length = scene.layers().arrows->length() * a.scale;
                        CHECK(across ==
                              Approx(2 * std::max(0.5f * scene.shape().nodeRadius(), ArrowInstances::kLane * length))
                                  .epsilon(0.01));
                        CHECK(across > 2 * 0.55 * length);
                        ++pairs;
                    }
                }
        }
        CHECK(laneOffset({0, 0, 0}, {1, 0, 0}, 0.1f)[1] == -laneOffset({1, 0, 0}, {0, 0, 0}, 0.1f)[1]);
    }
    CHECK(pairs > 0);
}

TEST_CASE("arrows and messages on a wrap-around follow its arc, not the straight line across the grid",
          "[app][scene][arrows]")
{
    // The bucket all-reduce on the 4x4 torus (rings along x, then y): each ring's wrap hop arrived
    // as an arrowhead pointing along the chord, over the grid's own links, where it read as a
    // transfer between the neighbours in the middle.
    SceneView scene;
    Scenario sc = test::scenario("torus:4x4", "bucket", NodeId{0});
    sc.params.set("pattern", "allreduce");
    const SnapshotPtr snap = buildSnapshot(sc);
    scene.setSnapshot(snap);
    const Schedule& s = snap->schedule;
    const Topology& topo = s.topology();
    const auto bounds = layoutBounds(snap->positions);
    int wraps = 0;
    for (std::uint32_t step = 1; step <= s.stepCount(); ++step) {
        scene.setStep(static_cast<int>(step));
        const auto& arrows = scene.layers().arrows->arrows();
        const auto transfers = s.stepTransfers(StepNo{step});
        REQUIRE(arrows.size() == transfers.size());
        std::size_t hops = 0, arcHops = 0;
        for (std::size_t i = 0; i < transfers.size(); ++i) {
            const auto nodes =
                routeNodes(topo, transfers[i].from, transfers[i].to, transfers[i].route, s.dimensionOrder);
            hops += nodes.size() - 1;
            for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
                const Vec3 &a = snap->positions[nodes[k]], &b = snap->positions[nodes[k + 1]];
                const double chord = std::hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
                const int dim = topo.coord(nodes[k], 0) != topo.coord(nodes[k + 1], 0) ? 0 : 1;
                if (std::abs(topo.coord(nodes[k], dim) - topo.coord(nodes[k + 1], dim)) == 1)
                    continue; // neighbours in the drawing: a straight link
                ++arcHops;
                if (k + 2 != nodes.size())
                    continue;
                // The last hop is a wrap-around: the arrowhead points along the arc's end.
                const Vec3 bulge = wrapArcBulge(topo, bounds, a, b, dim);
                const Vec3 end{(b[0] - a[0]) - 4 * bulge[0], (b[1] - a[1]) - 4 * bulge[1],
                               (b[2] - a[2]) - 4 * bulge[2]};
                const Vec3& tip = arrows[i].tip;
                const Vec3& from = arrows[i].from;
                const Vec3 dir{tip[0] - from[0], tip[1] - from[1], tip[2] - from[2]};
                const double cosEnd = (dir[0] * end[0] + dir[1] * end[1] + dir[2] * end[2]) /
                                      std::hypot(dir[0], dir[1], dir[2]) / std::hypot(end[0], end[1], end[2]);
                const double cosChord = (dir[0] * (b[0] - a[0]) + dir[1] * (b[1] - a[1]) + dir[2] * (b[2] - a[2])) /
                                        std::hypot(dir[0], dir[1], dir[2]) / chord;
                INFO("step " << step << ": " << topo.nodeName(nodes[k]) << " -> " << topo.nodeName(nodes[k + 1]));
                CHECK(cosEnd == Approx(1.0).margin(1e-4));
                CHECK(cosChord < 0.9);
                ++wraps;
            }
        }
        // The messages: one instance per straight hop, kArcSegments along each arc, the first
        // piece of an arc leaving its sender sideways (out of the grid).
        CHECK(scene.layers().messages->instanceCount() ==
              static_cast<int>(hops - arcHops + arcHops * static_cast<std::size_t>(kArcSegments)));
    }
    CHECK(wraps > 0);
}

TEST_CASE("arrows: one per transfer of the step, at the receiver, along the last hop of its route",
          "[app][scene][arrows]")
{
    SceneView scene;
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8", "cang-wu", NodeId{0}));
    scene.setSnapshot(snap);
    const Schedule& s = snap->schedule;
    const bool tagged = std::any_of(s.transfers().begin(), s.transfers().end(),
                                    [&](const Transfer& t) { return t.tag != s.transfers().front().tag; });
    for (int step : {1, 2, 3}) {
        INFO("step " << step);
        scene.setStep(step);
        const auto transfers = s.stepTransfers(StepNo{static_cast<std::uint32_t>(step)});
        const auto& arrows = scene.layers().arrows->arrows();
        REQUIRE(arrows.size() == transfers.size());
        REQUIRE(transfers.size() == (1u << (step - 1))); // a broadcast doubles the informed set per step
        for (std::size_t i = 0; i < transfers.size(); ++i) {
            const Transfer& t = transfers[i];
            const auto nodes = routeNodes(s.topology(), t.from, t.to, t.route, s.dimensionOrder);
            CHECK(arrows[i].tip == snap->positions[t.to]);
            CHECK(arrows[i].from == snap->positions[nodes[nodes.size() - 2]]);
            // The last hop is one channel: the arrow's direction is a unit step of the grid.
            const double dx = arrows[i].tip[0] - arrows[i].from[0], dy = arrows[i].tip[1] - arrows[i].from[1];
            CHECK(std::hypot(dx, dy) == Approx(1.0));
            // Coloured as the transfer's message (white in the plain mode, whatever the tags: the
            // legend names one message colour there).
            CHECK(arrows[i].colour ==
                  messageColour(scene.choice().mode, scene.choice().palette(), static_cast<int>(t.tag), tagged));
            CHECK(arrows[i].colour == scene.choice().palette().message);
        }
    }
    scene.setStep(0);
    CHECK(scene.layers().arrows->arrows().empty());
    // Shown at rest, hidden while messages move.
    scene.setStep(2);
    scene.setFraction(0.5f);
    CHECK_FALSE(scene.layers().arrows->shown());
    scene.setFraction(1.0f);
    CHECK(scene.layers().arrows->shown());
}

TEST_CASE("messages: drawn while the step is under way, not at rest where the arrowheads show it",
          "[app][scene][arrows]")
{
    SceneView scene;
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8", "cang-wu", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setStep(3);
    // One instance per hop of the step's transfers, in both states.
    std::size_t hops = 0;
    for (const Transfer& t : snap->schedule.stepTransfers(StepNo{3}))
        hops += routeNodes(snap->topology(), t.from, t.to, t.route, snap->schedule.dimensionOrder).size() - 1;
    REQUIRE(hops > 0);
    CHECK(scene.layers().messages->instanceCount() == static_cast<int>(hops));
    scene.setFraction(0.5f);
    CHECK(scene.layers().messages->drawn());
    CHECK_FALSE(scene.layers().arrows->shown());
    scene.setFraction(1.0f); // at rest: every message is inside its receiver; the arrowheads say who sent
    CHECK_FALSE(scene.layers().messages->drawn());
    CHECK(scene.layers().arrows->shown());
    CHECK(scene.layers().messages->instanceCount() == static_cast<int>(hops));
    scene.setStep(0);
    scene.setFraction(0.5f);
    CHECK_FALSE(scene.layers().messages->drawn()); // no step, no messages
}

namespace {

/// Where the scene point `p` is drawn (pixels, y down), and the radius on screen of a sphere of
/// `radius` there (the camera's own matrices).
QPointF onScreen(const SceneView& scene, const Vec3& p)
{
    return projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(), p);
}

double radiusOnScreen(const SceneView& scene, const Vec3& p, float radius)
{
    const QMatrix4x4 view = static_cast<Qt3DExtras::Qt3DWindow*>(scene.window())->camera()->viewMatrix();
    const Vec3 side{p[0] + view(0, 0) * radius, p[1] + view(0, 1) * radius, p[2] + view(0, 2) * radius};
    const QPointF a = onScreen(scene, p), b = onScreen(scene, side);
    return std::hypot(b.x() - a.x(), b.y() - a.y());
}

/// Where the view draws node label `label` (pixels, y down), by the label shader's geometry: the
/// plate `offset` from the anchor's projection, moved kLabelGap of the node's radius on screen
/// toward its side.
QRectF drawnPlate(const SceneView& scene, const LabelInstances::Label& label, float nodeRadius)
{
    const QPointF at = onScreen(scene, label.anchor);
    const double lift = kLabelGap * radiusOnScreen(scene, label.anchor, nodeRadius);
    const QSize plate = LabelInstances::plateSizeFor(label.text, 14);
    auto sign = [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; };
    const double cx = at.x() + lift * sign(label.offsetX) + label.offsetX;
    const double cy = at.y() - lift * sign(label.offsetY) - label.offsetY;
    return {cx - 0.5 * plate.width(), cy - 0.5 * plate.height(), static_cast<double>(plate.width()),
            static_cast<double>(plate.height())};
}

} // namespace

TEST_CASE("labels: no two node labels overlap and none covers another node taking part, at any size",
          "[app][scene][labels]")
{
    // The pictures: 64 labels piled on each other in a 640×360 video of the 4×4×4, the
    // 4-cube's "0010" behind "0100". Now each label sits on a free side of its node or is left out.
    SceneView scene;
    for (const char* net : {"mesh:4x4x4", "torus:4x4x4", "hypercube:4", "hypercube:6", "mesh:8x8", "mesh:8x8x8"})
        for (const Scenario& sc : {test::scenario(net, net[0] == 'h' ? "nesbt" : "bfs", NodeId{5}),
                                   test::towerScenario(net, net[0] == 'h' ? "nesbt" : "bfs", NodeId{5})})
            for (QSize size : {QSize(1280, 720), QSize(640, 360), QSize(320, 240), QSize(1024, 768)}) {
                INFO(net << " " << sc.view.layout.value_or("default") << " at " << size.width() << "×"
                         << size.height());
                scene.window()->resize(size);
                const SnapshotPtr snap = buildSnapshot(sc);
                scene.setSnapshot(snap);
                scene.camera().resetView();
                scene.setStep(1);
                const auto& labels = scene.layers().nodeLabels->labels();
                const float radius = scene.shape().nodeRadius();
                std::vector<QRectF> plates;
                for (const auto& l : labels)
                    plates.push_back(drawnPlate(scene, l, radius));
                for (std::size_t a = 0; a < plates.size(); ++a) {
                    for (std::size_t b = a + 1; b < plates.size(); ++b)
                        CHECK_FALSE(plates[a].intersects(plates[b]));
                    for (NodeId v{}; v < snap->topology().nodeCount(); ++v) {
                        // A label may lie over a node that holds nothing yet and takes no part in
                        // the step, on a network too dense to label otherwise (Frame::coverable).
                        if (labels[a].anchor == scene.shape().positions()[v] || scene.frame().coverable[v])
                            continue;
                        const QPointF c = scene.camera().nodeOnScreen(v);
                        const double cx = std::clamp(c.x(), plates[a].left(), plates[a].right());
                        const double cy = std::clamp(c.y(), plates[a].top(), plates[a].bottom());
                        // Clear of the node's disc (its radius on screen, less a pixel of rounding).
                        CHECK(std::hypot(cx - c.x(), cy - c.y()) >=
                              radiusOnScreen(scene, scene.shape().positions()[v], radius) - 1.0);
                    }
                }
                // The source is named wherever there is room beside it (always in the roomy views).
                if (size.width() >= 1024 && snap->topology().nodeCount() <= 64)
                    CHECK(labels.size() >= snap->topology().nodeCount() / 2);
            }
}

TEST_CASE("labels: every node up to 64 nodes, binary addresses on hypercubes, only the source above",
          "[app][scene][labels]")
{
    SceneView scene;
    SECTION("8×8 mesh: the coordinates, the source's first in the source colour")
    {
        scene.window()->resize(1280, 720);
        const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8", "cang-wu", NodeId{19}));
        scene.setSnapshot(snap);
        const auto& labels = scene.layers().nodeLabels->labels();
        REQUIRE(labels.size() >= 48); // a few near the edges may find no free side
        REQUIRE(labels.size() <= 64);
        std::set<QString> texts;
        for (const auto& l : labels) {
            const auto it = std::find(snap->positions.begin(), snap->positions.end(), l.anchor);
            REQUIRE(it != snap->positions.end());
            CHECK(l.text == QString::fromStdString(
                                nodeLabel(snap->topology(), static_cast<NodeId>(it - snap->positions.begin()))));
            CHECK(std::hypot(l.offsetX, l.offsetY) > 0); // beside the node, not over it
            texts.insert(l.text);
        }
        CHECK(texts.size() == labels.size());
        CHECK(labels[0].text == QStringLiteral("(3,2)"));
        CHECK(labels[0].colour == scene.choice().palette().source.to<QColor>());
        CHECK(labels[1].colour != scene.choice().palette().source.to<QColor>());
    }
    SECTION("4-cube: binary addresses")
    {
        scene.window()->resize(1280, 720);
        scene.setSnapshot(buildSnapshot(test::scenario("hypercube:4", "nesbt", NodeId{5})));
        const auto& labels = scene.layers().nodeLabels->labels();
        REQUIRE(labels.size() == 16);
        std::set<QString> texts;
        for (const auto& l : labels)
            texts.insert(l.text);
        CHECK(labels[0].text == QStringLiteral("0101")); // the source first
        CHECK(texts.count(QStringLiteral("0000")) == 1);
        CHECK(texts.count(QStringLiteral("1111")) == 1);
        CHECK(texts.size() == 16);
    }
    SECTION("9×9 mesh (81 nodes): only the source")
    {
        const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:9x9", "binomial", NodeId{40}));
        scene.setSnapshot(snap);
        const auto& labels = scene.layers().nodeLabels->labels();
        REQUIRE(labels.size() == 1);
        CHECK(labels[0].text == QStringLiteral("(4,4)"));
        CHECK(labels[0].anchor == snap->positions[40]);
        // A new source moves the label.
        scene.setSnapshot(buildSnapshot(test::scenario("mesh:9x9", "binomial", NodeId{0})));
        REQUIRE(scene.layers().nodeLabels->labels().size() == 1);
        CHECK(scene.layers().nodeLabels->labels()[0].text == QStringLiteral("(0,0)"));
    }
}

TEST_CASE("labels: the source map shows each node's TCD as a number up to 256 nodes (Cang-Wu's table)",
          "[app][scene][labels]")
{
    SceneView scene;
    scene.setMode(ViewMode::SourceMap);
    SECTION("8×8 mesh: the 64 numbers are core's TCD source map; the corner's is 79 (Cang-Wu 2-D, §2)")
    {
        const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8", "cang-wu", NodeId{0}));
        scene.setSnapshot(snap);
        const auto want = cangWuTcdSourceMap(snap->topology(), CangWuMode::Optimal);
        const auto& labels = scene.layers().nodeLabels->labels();
        REQUIRE(labels.size() == 64 + 1); // the numbers and the source's coordinates
        std::size_t numbers = 0;
        for (const auto& l : labels) {
            if (l.offsetY < 0) { // below the node: a number
                const auto v = static_cast<std::size_t>(
                    std::find(snap->positions.begin(), snap->positions.end(), l.anchor) - snap->positions.begin());
                REQUIRE(v < 64);
                CHECK(l.text == QString::number(want[v]));
                ++numbers;
            }
        }
        CHECK(numbers == 64);
        CHECK(want[0] == 79);
        CHECK(countWithText(*scene.layers().nodeLabels, QStringLiteral("79")) >= 4); // the four corners
        CHECK(countWithText(*scene.layers().nodeLabels, QStringLiteral("(0,0)")) == 1);
        // Back to plain: coordinates again.
        scene.setMode(ViewMode::Plain);
        CHECK(scene.layers().nodeLabels->labels().size() == 64);
        CHECK(countWithText(*scene.layers().nodeLabels, QStringLiteral("79")) == 0);
    }
    SECTION("16×16 mesh: 256 numbers; 32×32: none, only the source")
    {
        const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:16x16", "cang-wu", NodeId{0}));
        scene.setSnapshot(snap);
        const auto want = cangWuTcdSourceMap(snap->topology(), CangWuMode::Optimal);
        REQUIRE(scene.layers().nodeLabels->labels().size() == 256 + 1);
        CHECK(scene.layers().nodeLabels->labels()[0].text == QString::number(want[0]));
        scene.setSnapshot(buildSnapshot(test::scenario("mesh:32x32", "cang-wu", NodeId{0})));
        REQUIRE(scene.layers().nodeLabels->labels().size() == 1);
        CHECK(scene.layers().nodeLabels->labels()[0].text == QStringLiteral("(0,0)"));
    }
}

TEST_CASE("camera: 2-D networks open orthographic and top-down (x right, y down), 3-D has a toggle, zoom works",
          "[app][scene][ortho][gl]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    scene.window()->show();
    const SnapshotPtr mesh2 = buildSnapshot(test::scenario("mesh:8x8", "cang-wu", NodeId{0}));
    scene.setSnapshot(mesh2);
    CHECK(scene.camera().orthographic());
    CHECK(static_cast<Qt3DExtras::Qt3DWindow*>(scene.window())->camera()->projectionType() ==
          Qt3DRender::QCameraLens::OrthographicProjection);
    const Topology& t = mesh2->topology();
    const QPointF a = scene.camera().nodeOnScreen(t.id({0, 0})), b = scene.camera().nodeOnScreen(t.id({7, 0})),
                  c = scene.camera().nodeOnScreen(t.id({0, 7}));
    CHECK(b.x() > a.x() + 100); // x right
    CHECK(b.y() == Approx(a.y()).margin(0.5));
    CHECK(c.y() > a.y() + 100); // y down
    CHECK(c.x() == Approx(a.x()).margin(0.5));
    // Parallel projection: equal steps are equal on screen anywhere in the grid.
    const QPointF d = scene.camera().nodeOnScreen(t.id({1, 0})), e = scene.camera().nodeOnScreen(t.id({7, 7})),
                  f = scene.camera().nodeOnScreen(t.id({6, 7}));
    CHECK(d.x() - a.x() == Approx(e.x() - f.x()).margin(0.01));
    // Zoom in: the grid grows on screen.
    const double before = b.x() - a.x();
    scene.camera().orbit().zoom(0.5f);
    CHECK(scene.camera().nodeOnScreen(t.id({7, 0})).x() - scene.camera().nodeOnScreen(t.id({0, 0})).x() ==
          Approx(2 * before).epsilon(0.01));
    // Picking works in the parallel projection.
    CHECK(scene.camera().nodeAt(scene.camera().nodeOnScreen(t.id({3, 2}))) == static_cast<long long>(t.id({3, 2})));

    const SnapshotPtr mesh3 = buildSnapshot(test::towerScenario("mesh:4x4x4", "cang-wu", NodeId{0}));
    scene.setSnapshot(mesh3);
    CHECK_FALSE(scene.camera().orthographic());
    CHECK(static_cast<Qt3DExtras::Qt3DWindow*>(scene.window())->camera()->projectionType() ==
          Qt3DRender::QCameraLens::PerspectiveProjection);
    scene.camera().setOrthographic(true);
    CHECK(scene.camera().orthographic());
    // Picking: the node hit under a node's projection is that node or one drawn in front of it
    // at (nearly) the same spot (parallel rays: a node behind may be covered exactly).
    for (NodeId v : {NodeId{0}, NodeId{5}, NodeId{21}, NodeId{63}}) {
        const long long hit = scene.camera().nodeAt(scene.camera().nodeOnScreen(v));
        REQUIRE(hit >= 0);
        const QPointF off = scene.camera().nodeOnScreen(static_cast<NodeId>(hit)) - scene.camera().nodeOnScreen(v);
        CHECK(std::hypot(off.x(), off.y()) < 12.0);
    }
    // The choice holds for the next 3-D network; 2-D ones are orthographic anyway.
    scene.setSnapshot(buildSnapshot(test::towerScenario("mesh:8x8x8", "cang-wu", NodeId{0})));
    CHECK(scene.camera().orthographic());
    scene.camera().setOrthographic(false);
    scene.setSnapshot(mesh2);
    CHECK(scene.camera().orthographic());
    scene.setSnapshot(mesh3);
    CHECK_FALSE(scene.camera().orthographic());
    // Exports copy the projection with the camera state.
    CHECK_FALSE(scene.camera().orbit().state().orthographic);
}

TEST_CASE("arrows: the picture shows the arrowhead at the receiving end (not blank there)", "[app][scene][arrows][gl]")
{
    SceneView scene;
    scene.window()->resize(900, 700);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8", "cang-wu", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setStep(1);
    scene.setFraction(1.0f);
    const auto& arrows = scene.layers().arrows->arrows();
    REQUIRE(arrows.size() == 1);
    // A point inside the arrowhead: back from the tip (at the sphere's surface) by 0.6 of its length.
    const Vec3 tip = arrows[0].tip, from = arrows[0].from;
    const float len = std::hypot(tip[0] - from[0], tip[1] - from[1]);
    const float back = 0.16f + 0.6f * scene.layers().arrows->length();
    const Vec3 inside{tip[0] - (tip[0] - from[0]) / len * back, tip[1] - (tip[1] - from[1]) / len * back, tip[2]};
    const QPointF p = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(), inside);
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    const Rgba want = arrows[0].colour;
    auto isArrow = [want](QColor c) {
        return std::abs(c.redF() - want.r) < 0.12 && std::abs(c.greenF() - want.g) < 0.12 &&
               std::abs(c.blueF() - want.b) < 0.12;
    };
    CHECK(test::pixelNear(img, p, 1, isArrow));
    // While the message moves the arrowhead is hidden: that spot shows the channel, not the arrow.
    scene.setFraction(0.25f);
    const QImage moving = scene.capture().frame();
    REQUIRE_FALSE(moving.isNull());
    CHECK_FALSE(test::pixelNear(moving, p, 1, isArrow));
}

TEST_CASE("flat hypercube drawing: the scenario view.layout picks it: 2-D, orthographic, binary labels",
          "[app][scene][flat]")
{
    Scenario sc = test::scenario("hypercube:6", "nesbt", NodeId{0});
    // The 6-cube opens flat (as a cube it is a knot where no label finds room); the 5-cube as a cube.
    CHECK(scenarioDrawing(sc).hypercube == HypercubeDrawing::Flat);
    CHECK(scenarioDrawing(test::scenario("hypercube:5", "nesbt", NodeId{0})).hypercube == HypercubeDrawing::Cube);
    sc.view.layout = "flat";
    CHECK(scenarioDrawing(sc).hypercube == HypercubeDrawing::Flat);
    const SnapshotPtr flat = buildSnapshot(sc);
    CHECK(flat->positions == nodePositions(flat->topology(), HypercubeDrawing::Flat));
    for (const Vec3& p : flat->positions)
        CHECK(p[2] == 0.0f);
    SceneView scene;
    scene.setSnapshot(flat);
    CHECK(scene.camera().orthographic());
    REQUIRE(scene.layers().nodeLabels->labels().size() == 64);
    CHECK(scene.layers().nodeLabels->labels()[42].text == QStringLiteral("101010"));
    // The same network drawn as a cube: new positions, perspective.
    sc.view.layout = "cube";
    const SnapshotPtr cube = buildSnapshot(sc, {.previous = flat.get()});
    CHECK(cube->positions == nodePositions(cube->topology()));
    scene.setSnapshot(cube);
    CHECK_FALSE(scene.camera().orthographic());
    // n > 6 falls back to the cube drawing.
    Scenario big = test::scenario("hypercube:7", "nesbt", NodeId{0});
    big.view.layout = "flat";
    CHECK(scenarioDrawing(big).hypercube == HypercubeDrawing::Cube);
}

TEST_CASE("--layout: a bad value and flat for n > 6 are refused by name", "[app][flat]")
{
    QTemporaryDir dir;
    QString error;
    ScreenshotOptions o;
    o.output = dir.filePath(QStringLiteral("x.png"));
    o.layout = QStringLiteral("round");
    CHECK(renderScreenshot(o, error) == 2);
    CHECK(error.contains(QStringLiteral("--layout round is not one of cube, flat")));
}

TEST_CASE("main window: View ▸ Flat hypercube drawing redraws a hypercube flat and back, View ▸ Orthographic follows",
          "[app][window][flat]")
{
    MainWindow w(false);
    auto action = [&](const QString& text) -> QAction* {
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == text)
                return a;
        return nullptr;
    };
    QAction* flat = action(QStringLiteral("&Flat hypercube drawing"));
    QAction* ortho = action(QStringLiteral("&Orthographic projection"));
    REQUIRE(flat);
    REQUIRE(ortho);
    REQUIRE(w.session()->setScenarioNow(test::towerScenario("mesh:4x4x4", "cang-wu", NodeId{0})));
    CHECK_FALSE(flat->isEnabled()); // not a hypercube
    CHECK_FALSE(ortho->isChecked());
    ortho->trigger(); // 3-D networks: orthographic on request
    CHECK(w.sceneView()->camera().orthographic());

    REQUIRE(w.session()->setScenarioNow(test::scenario("hypercube:5", "nesbt", NodeId{0})));
    REQUIRE(flat->isEnabled());
    CHECK_FALSE(flat->isChecked());
    const auto cubePositions = w.session()->snapshot()->positions;
    flat->trigger();
    REQUIRE(test::waitFor([&] { return w.session()->snapshot()->drawing.hypercube == HypercubeDrawing::Flat; }));
    CHECK(flat->isChecked());
    CHECK(w.sceneView()->snapshot()->positions == nodePositions(Topology::hypercube(5), HypercubeDrawing::Flat));
    CHECK(w.sceneView()->camera().orthographic());
    CHECK(ortho->isChecked());
    CHECK(w.session()->snapshot()->scenario.view.layout == "flat"); // saved with the scenario
    flat->trigger();
    REQUIRE(test::waitFor([&] { return w.session()->snapshot()->drawing.hypercube == HypercubeDrawing::Cube; }));
    CHECK(w.sceneView()->snapshot()->positions == cubePositions);
    CHECK_FALSE(flat->isChecked());

    REQUIRE(w.session()->setScenarioNow(test::scenario("hypercube:7", "nesbt", NodeId{0})));
    CHECK_FALSE(flat->isEnabled()); // the flat drawing is for n ≤ 6
}

TEST_CASE("labels: core's plate size (what placement and topocast-cli assume) is never smaller than the app's",
          "[app][scene][labels]")
{
    const QStringList texts{QStringLiteral("(0,0,0)"), QStringLiteral("(15,15,15)"), QStringLiteral("010110"),
                            QStringLiteral("z = 15"),  QStringLiteral("x"),          QStringLiteral("1308"),
                            QStringLiteral("12.5"),    QStringLiteral("(3,2)")};
    for (int px : {10, 12, 14, 18, 29, 43})
        for (const QString& t : texts) {
            INFO(t.toStdString() << " at " << px << " px");
            const QSize qt = LabelInstances::plateSizeFor(t, px);
            const PlateSize core = labelPlateSize(t.toStdString(), px);
            CHECK(core.width >= qt.width());
            CHECK(core.height >= qt.height());
            CHECK(core.width <= qt.width() + t.size() + 2); // at most about a pixel per character more
        }
}

TEST_CASE("arrows: on every preset's flat drawing no label, glyph or plate covers an arrowhead, at every step shown",
          "[app][scene][arrows][gl]")
{
    int checked = 0;
    for (const QString& file : MainWindow::presetFiles()) {
        const Scenario scenario = loadScenario(file.toStdString());
        if (scenario.compare)
            continue;
        CAPTURE(file.toStdString());
        const SnapshotPtr snap = buildSnapshot(scenario);
        SceneView scene;
        scene.window()->resize(1200, 800);
        scene.window()->show();
        scene.setSnapshot(snap);
        scene.setMode(parseViewMode(QString::fromStdString(scenarioViewMode(scenario))).value_or(ViewMode::Plain));
        if (!scene.shape().flatNetwork())
            continue; // on a 3-D drawing a nearer node may hide an arrowhead, as it hides a node
        const int last = static_cast<int>(snap->stepCount());
        for (const int k : std::set<int>{1, (last + 1) / 2, last}) {
            CAPTURE(k);
            scene.setStep(k);
            scene.setFraction(1.0f);
            const QImage img = scene.capture().frame();
            REQUIRE_FALSE(img.isNull());
            const auto& arrows = scene.layers().arrows->arrows();
            for (std::size_t i = 0; i < std::min<std::size_t>(arrows.size(), 48); ++i) {
                // Points inside the head as the shader draws it (its point the node's radius short
                // of the receiver, the notched head (0, 0), (−1, ±0.55), (−0.7, 0) in its length):
                // near the point and inside each barb, along the hop as seen on screen.
                const ArrowInstances::Arrow& a = arrows[i];
                const QPointF t =
                    projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(), a.tip);
                const QPointF f =
                    projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(), a.from);
                const double world = std::hypot(a.tip[0] - a.from[0], a.tip[1] - a.from[1], a.tip[2] - a.from[2]);
                const double screen = std::hypot(t.x() - f.x(), t.y() - f.y());
                if (world <= 0 || screen <= 1)
                    continue;
                const QPointF dir = (t - f) / screen, side(-dir.y(), dir.x());
                const double unit = screen / world, length = scene.layers().arrows->length() * a.scale * unit;
                if (length < 12)
                    continue; // a head a few pixels long (16x16x16 planes) has no inside to sample
                const QPointF point = t - dir * scene.shape().nodeRadius() * unit;
                const Rgba want = a.colour;
                const std::pair<double, double> spots[] = {{0.25, 0.0}, {0.55, 0.2}, {0.55, -0.2}};
                for (const auto& [along, across] : spots) {
                    const QPointF inside = point - dir * along * length + side * across * length;
                    if (!QRectF(2, 2, img.width() - 4, img.height() - 4).contains(inside))
                        continue;
                    INFO("arrow " << i << " into " << a.tip[0] << "," << a.tip[1] << ", at " << inside.x() << ","
                                  << inside.y());
                    CHECK(test::pixelNear(img, inside, 0, [want](QColor c) {
                        return std::abs(c.redF() - want.r) < 0.12 && std::abs(c.greenF() - want.g) < 0.12 &&
                               std::abs(c.blueF() - want.b) < 0.12;
                    }));
                    ++checked;
                }
            }
        }
    }
    CHECK(checked > 600);
}

TEST_CASE("messages: routes sharing a hop in one direction run side by side in lanes of their own",
          "[app][scene][arrows]")
{
    // The contention preset (binomial on the 5x5 torus): in its contended steps two or more
    // routes run over one link the same way; their messages were drawn over each other.
    SceneView scene;
    const SnapshotPtr snap = buildSnapshot(loadScenario(
        std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/baseline-binomial-torus-contention.json"));
    scene.setSnapshot(snap);
    const Schedule& s = snap->schedule;
    const auto& pos = scene.shape().positions();
    int shared = 0;
    for (std::uint32_t step = 1; step <= s.stepCount(); ++step) {
        scene.setStep(static_cast<int>(step));
        scene.setFraction(0.5f);
        std::map<std::pair<NodeId, NodeId>, int> routesOn;
        for (const Transfer& t : s.stepTransfers(StepNo{step})) {
            const auto r = routeNodes(s.topology(), t.from, t.to, t.route, s.dimensionOrder);
            for (std::size_t k = 0; k + 1 < r.size(); ++k)
                ++routesOn[{r[k], r[k + 1]}];
        }
        const std::vector<float>& data = scene.layers().messages->buffer().data();
        for (const auto& [hop, n] : routesOn) {
            const Vec3 &u = pos[hop.first], &v = pos[hop.second];
            if (n < 2 || std::hypot(v[0] - u[0], v[1] - u[1], v[2] - u[2]) > 1.5) // shared, straight
                continue;
            // The message pieces on this link this way: their starts, each a lane apart.
            std::set<std::pair<long, long>> starts;
            for (std::size_t i = 0; i + 13 <= data.size(); i += 13) {
                const float ax = data[i], ay = data[i + 1], bx = data[i + 3], by = data[i + 4];
                const bool along = std::hypot(ax - u[0], ay - u[1]) < 3 * scene.shape().nodeRadius() &&
                                   std::hypot(bx - v[0], by - v[1]) < 3 * scene.shape().nodeRadius();
                if (along)
                    starts.insert({std::lround((ax - u[0]) / (0.25f * scene.shape().nodeRadius())),
                                   std::lround((ay - u[1]) / (0.25f * scene.shape().nodeRadius()))});
            }
            INFO("step " << step << ": " << s.topology().nodeName(hop.first) << " -> "
                         << s.topology().nodeName(hop.second) << ", " << n << " routes");
            CHECK(starts.size() == static_cast<std::size_t>(n));
            ++shared;
        }
    }
    CHECK(shared > 0);
}

TEST_CASE("labels: the atlas is painted again only for a plate it lacks, and keeps every node's name of a "
          "network up to 512 nodes",
          "[app][labels]")
{
    // A step's new receivers, or a label back from where it found no room, must not cost a new
    // texture (and with it a frame more for every handout page or video frame).
    using Label = LabelInstances::Label;
    LabelInstances labels;
    const QColor white(200, 205, 215), orange(230, 159, 0);
    labels.setLabels(
        {{{0, 0, 0}, QStringLiteral("(0,0)"), white, 0, 0}, {{1, 0, 0}, QStringLiteral("(1,0)"), white, 0, 0}}, 14,
        {{QStringLiteral("(2,0)"), white.rgba()}});
    const std::uint64_t first = labels.atlasGeneration();
    const QImage atlas = labels.atlas();
    // Moved, one left out, a spare shown: the same atlas.
    labels.setLabels({{{0, 1, 0}, QStringLiteral("(0,0)"), white, 3, 0}}, 14);
    CHECK(labels.atlasGeneration() == first);
    labels.setLabels({{{2, 0, 0}, QStringLiteral("(2,0)"), white, 0, 0}}, 14);
    CHECK(labels.atlasGeneration() == first);
    CHECK(labels.atlas() == atlas);
    // A text or a colour it lacks, or another size: painted again, keeping what it held.
    labels.setLabels({{{3, 0, 0}, QStringLiteral("(3,0)"), white, 0, 0}}, 14);
    CHECK(labels.atlasGeneration() == first + 1);
    labels.setLabels(
        {{{0, 0, 0}, QStringLiteral("(0,0)"), white, 0, 0}, {{3, 0, 0}, QStringLiteral("(3,0)"), white, 0, 0}}, 14);
    CHECK(labels.atlasGeneration() == first + 1);
    labels.setLabels({{{0, 0, 0}, QStringLiteral("(0,0)"), orange, 0, 0}}, 14);
    CHECK(labels.atlasGeneration() == first + 2);
    labels.setLabels({{{0, 0, 0}, QStringLiteral("(0,0)"), orange, 0, 0}}, 20);
    CHECK(labels.atlasGeneration() == first + 3);

    // The 8x8x8's view keeps all 512 names: stepping through the schedule paints no atlas.
    SceneView scene;
    scene.window()->resize(900, 600);
    scene.setSnapshot(buildSnapshot(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/default.json")));
    scene.setStep(1);
    const std::uint64_t shown = scene.layers().nodeLabels->atlasGeneration();
    std::size_t named = 0;
    for (int k = 2; k <= static_cast<int>(scene.snapshot()->stepCount()); ++k) {
        scene.setStep(k);
        named += scene.layers().nodeLabels->labels().size();
    }
    CHECK(named > 50); // the steps' receivers were named
    CHECK(scene.layers().nodeLabels->atlasGeneration() == shown);
    CHECK(scene.layers().nodeLabels->atlas().height() <= 4096);
}
