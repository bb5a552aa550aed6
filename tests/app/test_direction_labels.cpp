// Issue #14 item 4: arrowheads at the receiving end of each transfer, node labels (coordinates,
// binary addresses), source-map numbers, the orthographic top-down view of 2-D networks; and
// item 3's flat hypercube drawing in the app.
#include "helpers.h"
#include "scene/arrowinstances.h"
#include "scene/labelinstances.h"
#include "scene/messageinstances.h"
#include "scene/orbitcamera.h"
#include "scene/picking.h"
#include "scene/sceneview.h"
#include "mainwindow.h"
#include "session.h"
#include "startup.h"

#include "topocast/algorithms/cang_wu.h"
#include "topocast/layout.h"
#include "topocast/routing.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <QAction>
#include <QImage>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
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

TEST_CASE("arrows: one per transfer of the step, at the receiver, along the last hop of its route", "[app][scene][arrows]")
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
        const auto& arrows = scene.arrowInstances().arrows();
        REQUIRE(arrows.size() == transfers.size());
        REQUIRE(transfers.size() == (1u << (step - 1)));  // a broadcast doubles the informed set per step
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
            CHECK(arrows[i].colour == messageColour(scene.mode(), scene.palette(), static_cast<int>(t.tag), tagged));
            CHECK(arrows[i].colour == scene.palette().message);
        }
    }
    scene.setStep(0);
    CHECK(scene.arrowInstances().arrows().empty());
    // Shown at rest, hidden while messages move.
    scene.setStep(2);
    scene.setFraction(0.5f);
    CHECK_FALSE(scene.arrowInstances().shown());
    scene.setFraction(1.0f);
    CHECK(scene.arrowInstances().shown());
}

TEST_CASE("messages: drawn while the step is under way, not at rest where the arrowheads show it", "[app][scene][arrows]")
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
    CHECK(scene.messageInstances().instanceCount() == static_cast<int>(hops));
    scene.setFraction(0.5f);
    CHECK(scene.messageInstances().drawn());
    CHECK_FALSE(scene.arrowInstances().shown());
    scene.setFraction(1.0f);  // at rest: every message is inside its receiver; the arrowheads say who sent
    CHECK_FALSE(scene.messageInstances().drawn());
    CHECK(scene.arrowInstances().shown());
    CHECK(scene.messageInstances().instanceCount() == static_cast<int>(hops));
    scene.setStep(0);
    scene.setFraction(0.5f);
    CHECK_FALSE(scene.messageInstances().drawn());  // no step, no messages
}

TEST_CASE("labels: the axis letters and a lone source label are drawn over the network", "[app][scene][labels]")
{
    SceneView scene;
    // 8×8×8: only the source is labelled, over the links of the tower that run in front of it.
    scene.setSnapshot(buildSnapshot(test::scenario("mesh:8x8x8", "cang-wu", NodeId{0})));
    REQUIRE(scene.nodeLabelInstances().labels().size() == 1);
    CHECK(scene.nodeLabelsOnTop());
    // 4×4×4: all 64 labelled; nearer nodes hide the labels of the nodes behind them.
    scene.setSnapshot(buildSnapshot(test::scenario("mesh:4x4x4", "cang-wu", NodeId{0})));
    CHECK(scene.nodeLabelInstances().labels().size() == 64);
    CHECK_FALSE(scene.nodeLabelsOnTop());
    // And back: the setting follows the network shown.
    scene.setSnapshot(buildSnapshot(test::scenario("mesh:8x8x8", "cang-wu", NodeId{0})));
    CHECK(scene.nodeLabelsOnTop());
}

TEST_CASE("labels: every node up to 64 nodes, binary addresses on hypercubes, only the source above", "[app][scene][labels]")
{
    SceneView scene;
    SECTION("8×8 mesh: 64 coordinate labels, the source's in the source colour")
    {
        const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8", "cang-wu", NodeId{19}));
        scene.setSnapshot(snap);
        const auto& labels = scene.nodeLabelInstances().labels();
        REQUIRE(labels.size() == 64);
        std::set<QString> texts;
        for (std::size_t v = 0; v < labels.size(); ++v) {
            CHECK(labels[v].anchor == snap->positions[v]);
            CHECK(labels[v].offsetX > 0);  // beside the node (up and to the right), not over it
            CHECK(labels[v].offsetY > 0);
            texts.insert(labels[v].text);
        }
        CHECK(texts.size() == 64);
        CHECK(labels[19].text == QStringLiteral("(3,2)"));
        CHECK(labels[19].colour == scene.palette().source.toColor());
        CHECK(labels[0].colour != scene.palette().source.toColor());
    }
    SECTION("4-cube: binary addresses")
    {
        scene.setSnapshot(buildSnapshot(test::scenario("hypercube:4", "nesbt", NodeId{5})));
        const auto& labels = scene.nodeLabelInstances().labels();
        REQUIRE(labels.size() == 16);
        CHECK(labels[0].text == QStringLiteral("0000"));
        CHECK(labels[5].text == QStringLiteral("0101"));
        CHECK(labels[15].text == QStringLiteral("1111"));
    }
    SECTION("9×9 mesh (81 nodes): only the source")
    {
        const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:9x9", "binomial", NodeId{40}));
        scene.setSnapshot(snap);
        const auto& labels = scene.nodeLabelInstances().labels();
        REQUIRE(labels.size() == 1);
        CHECK(labels[0].text == QStringLiteral("(4,4)"));
        CHECK(labels[0].anchor == snap->positions[40]);
        // A new source moves the label.
        scene.setSnapshot(buildSnapshot(test::scenario("mesh:9x9", "binomial", NodeId{0})));
        REQUIRE(scene.nodeLabelInstances().labels().size() == 1);
        CHECK(scene.nodeLabelInstances().labels()[0].text == QStringLiteral("(0,0)"));
    }
}

TEST_CASE("labels: the source map shows each node's TCD as a number up to 256 nodes (Cang-Wu's table)", "[app][scene][labels]")
{
    SceneView scene;
    scene.setMode(ViewMode::TcdMap);
    SECTION("8×8 mesh: the 64 numbers are core's TCD map; the corner's is 79 (Cang-Wu 2-D, §2)")
    {
        const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8", "cang-wu", NodeId{0}));
        scene.setSnapshot(snap);
        const auto want = cangWuTcdMap(snap->topology(), CangWuMode::Optimal);
        const auto& labels = scene.nodeLabelInstances().labels();
        REQUIRE(labels.size() == 64 + 1);  // the numbers and the source's coordinates
        std::size_t numbers = 0;
        for (const auto& l : labels) {
            if (l.offsetY < 0) {  // below the node: a number
                const auto v = static_cast<std::size_t>(
                    std::find(snap->positions.begin(), snap->positions.end(), l.anchor) - snap->positions.begin());
                REQUIRE(v < 64);
                CHECK(l.text == QString::number(want[v]));
                ++numbers;
            }
        }
        CHECK(numbers == 64);
        CHECK(want[0] == 79);
        CHECK(countWithText(scene.nodeLabelInstances(), QStringLiteral("79")) >= 4);  // the four corners
        CHECK(countWithText(scene.nodeLabelInstances(), QStringLiteral("(0,0)")) == 1);
        // Back to plain: coordinates again.
        scene.setMode(ViewMode::Plain);
        CHECK(scene.nodeLabelInstances().labels().size() == 64);
        CHECK(countWithText(scene.nodeLabelInstances(), QStringLiteral("79")) == 0);
    }
    SECTION("16×16 mesh: 256 numbers; 32×32: none, only the source")
    {
        const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:16x16", "cang-wu", NodeId{0}));
        scene.setSnapshot(snap);
        const auto want = cangWuTcdMap(snap->topology(), CangWuMode::Optimal);
        REQUIRE(scene.nodeLabelInstances().labels().size() == 256 + 1);
        CHECK(scene.nodeLabelInstances().labels()[0].text == QString::number(want[0]));
        scene.setSnapshot(buildSnapshot(test::scenario("mesh:32x32", "cang-wu", NodeId{0})));
        REQUIRE(scene.nodeLabelInstances().labels().size() == 1);
        CHECK(scene.nodeLabelInstances().labels()[0].text == QStringLiteral("(0,0)"));
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
    CHECK(scene.orthographic());
    CHECK(scene.window()->camera()->projectionType() == Qt3DRender::QCameraLens::OrthographicProjection);
    const Topology& t = mesh2->topology();
    const QPointF a = scene.nodeOnScreen(t.id({0, 0})), b = scene.nodeOnScreen(t.id({7, 0})), c = scene.nodeOnScreen(t.id({0, 7}));
    CHECK(b.x() > a.x() + 100);       // x right
    CHECK(b.y() == Approx(a.y()).margin(0.5));
    CHECK(c.y() > a.y() + 100);       // y down
    CHECK(c.x() == Approx(a.x()).margin(0.5));
    // Parallel projection: equal steps are equal on screen anywhere in the grid.
    const QPointF d = scene.nodeOnScreen(t.id({1, 0})), e = scene.nodeOnScreen(t.id({7, 7})), f = scene.nodeOnScreen(t.id({6, 7}));
    CHECK(d.x() - a.x() == Approx(e.x() - f.x()).margin(0.01));
    // Zoom in: the grid grows on screen.
    const double before = b.x() - a.x();
    scene.camera().zoom(0.5f);
    CHECK(scene.nodeOnScreen(t.id({7, 0})).x() - scene.nodeOnScreen(t.id({0, 0})).x() == Approx(2 * before).epsilon(0.01));
    // Picking works in the parallel projection.
    CHECK(scene.nodeAt(scene.nodeOnScreen(t.id({3, 2}))) == static_cast<long long>(t.id({3, 2})));

    const SnapshotPtr mesh3 = buildSnapshot(test::scenario("mesh:4x4x4", "cang-wu", NodeId{0}));
    scene.setSnapshot(mesh3);
    CHECK_FALSE(scene.orthographic());
    CHECK(scene.window()->camera()->projectionType() == Qt3DRender::QCameraLens::PerspectiveProjection);
    scene.setOrthographic(true);
    CHECK(scene.orthographic());
    // Picking: the node hit under a node's projection is that node or one drawn in front of it
    // at (nearly) the same spot (parallel rays: a node behind may be covered exactly).
    for (NodeId v : {NodeId{0}, NodeId{5}, NodeId{21}, NodeId{63}}) {
        const long long hit = scene.nodeAt(scene.nodeOnScreen(v));
        REQUIRE(hit >= 0);
        const QPointF off = scene.nodeOnScreen(static_cast<NodeId>(hit)) - scene.nodeOnScreen(v);
        CHECK(std::hypot(off.x(), off.y()) < 12.0);
    }
    // The choice holds for the next 3-D network; 2-D ones are orthographic anyway.
    scene.setSnapshot(buildSnapshot(test::scenario("mesh:8x8x8", "cang-wu", NodeId{0})));
    CHECK(scene.orthographic());
    scene.setOrthographic(false);
    scene.setSnapshot(mesh2);
    CHECK(scene.orthographic());
    scene.setSnapshot(mesh3);
    CHECK_FALSE(scene.orthographic());
    // Exports copy the projection with the camera state.
    CHECK_FALSE(scene.camera().state().orthographic);
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
    const auto& arrows = scene.arrowInstances().arrows();
    REQUIRE(arrows.size() == 1);
    // A point inside the arrowhead: back from the tip (at the sphere's surface) by 0.6 of its length.
    const Vec3 tip = arrows[0].tip, from = arrows[0].from;
    const float len = std::hypot(tip[0] - from[0], tip[1] - from[1]);
    const float back = 0.16f + 0.6f * scene.arrowInstances().length();
    const Vec3 inside{tip[0] - (tip[0] - from[0]) / len * back, tip[1] - (tip[1] - from[1]) / len * back, tip[2]};
    const QPointF p = projectToScreen(scene.viewProjection(), scene.viewportSize(), inside);
    const QImage img = scene.captureFrame();
    REQUIRE_FALSE(img.isNull());
    const Rgba want = arrows[0].colour;
    auto isArrow = [want](QColor c) {
        return std::abs(c.redF() - want.r) < 0.12 && std::abs(c.greenF() - want.g) < 0.12 && std::abs(c.blueF() - want.b) < 0.12;
    };
    CHECK(test::pixelNear(img, p, 1, isArrow));
    // While the message moves the arrowhead is hidden: that spot shows the channel, not the arrow.
    scene.setFraction(0.25f);
    const QImage moving = scene.captureFrame();
    REQUIRE_FALSE(moving.isNull());
    CHECK_FALSE(test::pixelNear(moving, p, 1, isArrow));
}

TEST_CASE("flat hypercube drawing: the scenario view.layout picks it: 2-D, orthographic, binary labels",
          "[app][scene][flat]")
{
    Scenario sc = test::scenario("hypercube:6", "nesbt", NodeId{0});
    CHECK(drawingOf(sc) == HypercubeDrawing::Cube);
    sc.view["layout"] = "flat";
    CHECK(drawingOf(sc) == HypercubeDrawing::Flat);
    const SnapshotPtr flat = buildSnapshot(sc);
    CHECK(flat->positions == nodePositions(flat->topology(), HypercubeDrawing::Flat));
    for (const Vec3& p : flat->positions)
        CHECK(p[2] == 0.0f);
    SceneView scene;
    scene.setSnapshot(flat);
    CHECK(scene.orthographic());
    REQUIRE(scene.nodeLabelInstances().labels().size() == 64);
    CHECK(scene.nodeLabelInstances().labels()[42].text == QStringLiteral("101010"));
    // The same network drawn as a cube: new positions, perspective.
    sc.view["layout"] = "cube";
    const SnapshotPtr cube = buildSnapshot(sc, false, flat.get());
    CHECK(cube->positions == nodePositions(cube->topology()));
    scene.setSnapshot(cube);
    CHECK_FALSE(scene.orthographic());
    // n > 6 falls back to the cube drawing.
    Scenario big = test::scenario("hypercube:7", "nesbt", NodeId{0});
    big.view["layout"] = "flat";
    CHECK(drawingOf(big) == HypercubeDrawing::Cube);
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
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4x4", "cang-wu", NodeId{0})));
    CHECK_FALSE(flat->isEnabled());  // not a hypercube
    CHECK_FALSE(ortho->isChecked());
    ortho->trigger();  // 3-D networks: orthographic on request
    CHECK(w.sceneView()->orthographic());

    REQUIRE(w.session()->setScenarioNow(test::scenario("hypercube:5", "nesbt", NodeId{0})));
    REQUIRE(flat->isEnabled());
    CHECK_FALSE(flat->isChecked());
    const auto cubePositions = w.session()->snapshot()->positions;
    flat->trigger();
    REQUIRE(test::waitFor([&] { return drawingOf(w.session()->snapshot()->scenario) == HypercubeDrawing::Flat; }));
    CHECK(flat->isChecked());
    CHECK(w.sceneView()->snapshot()->positions == nodePositions(Topology::hypercube(5), HypercubeDrawing::Flat));
    CHECK(w.sceneView()->orthographic());
    CHECK(ortho->isChecked());
    CHECK(w.session()->snapshot()->scenario.view["layout"] == "flat");  // saved with the scenario
    flat->trigger();
    REQUIRE(test::waitFor([&] { return drawingOf(w.session()->snapshot()->scenario) == HypercubeDrawing::Cube; }));
    CHECK(w.sceneView()->snapshot()->positions == cubePositions);
    CHECK_FALSE(flat->isChecked());

    REQUIRE(w.session()->setScenarioNow(test::scenario("hypercube:7", "nesbt", NodeId{0})));
    CHECK_FALSE(flat->isEnabled());  // the flat drawing is for n ≤ 6
}
