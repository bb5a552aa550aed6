// Explode (positions from core, animated, everything follows,
// picking too), the slice view, the camera from core, and the status bar's hidden receivers.
#include "helpers.h"
#include "mainwindow.h"
#include "scene/linkinstances.h"
#include "scene/nodeinstances.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/layout.h"
#include "topocast/drawing/visibility.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <QLabel>
#include <QStatusBar>
#include <QTest>

using namespace topocast;
using namespace topocast::app;

namespace {
Vec3 linkEnd(const LinkInstances& links, std::size_t i, int end)
{
    const float* p = &links.buffer().data()[i * LinkInstances::kFloatsPerInstance + 3 * static_cast<std::size_t>(end)];
    return {p[0], p[1], p[2]};
}
Vec3 nodeAt(const NodeInstances& nodes, std::size_t v)
{
    const float* d = &nodes.buffer().data()[v * 8];
    return {d[0], d[1], d[2]};
}
} // namespace

TEST_CASE("explode: the scene starts at the default explode and every element follows a change",
          "[app][scene][explode]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    const SnapshotPtr snap = buildSnapshot(test::towerScenario("mesh:4x4x4", "binomial", NodeId{0}));
    scene.setSnapshot(snap);
    const Topology& topo = snap->topology();
    CHECK(scene.shape().canExplode());
    CHECK(scene.shape().explode() == defaultExplode(topo));
    CHECK(scene.shape().positions() == nodePositions(topo, defaultExplode(topo)));

    scene.setStep(2);
    for (float e : {0.0f, 2.0f}) {
        scene.shape().setExplode(e, false);
        const auto expected = nodePositions(topo, e);
        REQUIRE(scene.shape().positions() == expected);
        for (NodeId v{}; v < topo.nodeCount(); ++v)
            REQUIRE(nodeAt(*scene.layers().nodes, v) == expected[v]);
        const auto channels = drawnChannels(topo);
        for (std::size_t i = 0; i < static_cast<std::size_t>(scene.layers().links->instanceCount()); ++i) {
            REQUIRE(linkEnd(*scene.layers().links, i, 0) == expected[channels[i].tail]);
            REQUIRE(linkEnd(*scene.layers().links, i, 1) == expected[channels[i].head]);
        }
        // The camera frames the exploded network as core's default view, and picking finds nodes
        // where they are drawn now.
        const OrbitView framed = defaultView(topo, expected, scene.camera().orbit().view().aspect);
        CHECK(scene.camera().orbit().view().distance == Approx(framed.distance));
        const NodeId corner = topo.id({3, 0, 3}); // front top right: nothing in front of it
        CHECK(scene.camera().nodeAt(scene.camera().nodeOnScreen(corner)) == static_cast<long long>(corner));
    }
    const float y0 = scene.shape().positions()[topo.id({0, 0, 0})][1],
                y1 = scene.shape().positions()[topo.id({0, 1, 0})][1];
    CHECK(y0 - y1 == Approx(3.0f)); // explode 2: y-planes 3 apart

    // A 2-D mesh does not explode.
    scene.setSnapshot(buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    CHECK_FALSE(scene.shape().canExplode());
    scene.shape().setExplode(2.0f, false);
    CHECK(scene.shape().explode() == 0.0f);
    CHECK(scene.shape().positions() == nodePositions(Topology::mesh({4, 4})));
}

TEST_CASE("explode: the change animates over about 300 ms through positions in between", "[app][scene][explode]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    const SnapshotPtr snap = buildSnapshot(test::towerScenario("mesh:4x4x4", "binomial", NodeId{0}));
    scene.setSnapshot(snap);
    scene.shape().setExplode(0.0f, false);
    const NodeId v = snap->topology().id({0, 0, 0});
    const float from = scene.shape().positions()[v][1];
    const float to = nodePositions(snap->topology(), 2.0f)[v][1];
    bool between = false;
    scene.shape().setExplode(2.0f);
    CHECK(scene.shape().explode() == 2.0f);
    CHECK(test::waitFor(
        [&] {
            const float y = scene.shape().positions()[v][1];
            between = between || (y > from + 0.01f && y < to - 0.01f);
            return y == to;
        },
        3000));
    CHECK(between);
    CHECK(nodeAt(*scene.layers().nodes, v)[1] == to);
    // E toggles: back to 0, then to the last non-zero explode.
    scene.shape().toggleExplode();
    CHECK(scene.shape().explode() == 0.0f);
    scene.shape().toggleExplode();
    CHECK(scene.shape().explode() == 2.0f);
}

TEST_CASE("slice: other planes are ghosted, follow the step moves to the busiest plane", "[app][scene][slice]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    const SnapshotPtr snap = buildSnapshot(test::towerScenario("mesh:4x4x4", "binomial", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setStep(3);
    const FrameStyle full = scene.frame().style;
    scene.shape().setSlice(2, 1);
    CHECK(scene.shape().sliceDimension() == 2);
    CHECK(scene.shape().slicePlane() == 1);
    const Topology& topo = snap->topology();
    const NodeId in = topo.id({2, 2, 1}), out = topo.id({2, 2, 3});
    CHECK(scene.frame().style.nodeColour[in] == full.nodeColour[in]);
    CHECK(scene.frame().style.nodeScale[in] == full.nodeScale[in]);
    CHECK_FALSE(scene.frame().style.nodeColour[out] == full.nodeColour[out]);
    CHECK(scene.frame().style.nodeScale[out] == Approx(full.nodeScale[out] * 0.6f));
    scene.shape().setSlice(2, 99);
    CHECK(scene.shape().slicePlane() == 3); // clamped to the side
    scene.shape().setSliceFollowsStep(true);
    for (int k = 1; k <= static_cast<int>(snap->stepCount()); ++k) {
        scene.setStep(k);
        CHECK(scene.shape().slicePlane() == busiestPlane(snap->schedule, StepNo{static_cast<std::uint32_t>(k)}, 2));
    }
    scene.shape().setSliceFollowsStep(false);
    scene.setStep(3);
    scene.shape().setSlice(-1, 0);
    CHECK(scene.shape().sliceDimension() == -1);
    CHECK(scene.frame().style.nodeColour[out] == full.nodeColour[out]);
}

TEST_CASE("camera: the QCamera's matrices are core's OrbitView's", "[app][scene][camera]")
{
    SceneView scene;
    scene.window()->resize(900, 500);
    scene.setSnapshot(buildSnapshot(test::towerScenario("mesh:8x8x8", "binomial", NodeId{0})));
    scene.camera().resetView();
    scene.camera().orbit().orbit(10, -5);
    const OrbitView v = scene.camera().orbit().view();
    const Mat4 core = v.viewProjection();
    const QMatrix4x4 qt = scene.camera().viewProjection();
    for (int i = 0; i < 16; ++i)
        CHECK(qt.constData()[i] == Approx(core[static_cast<std::size_t>(i)]).margin(1e-4));
}

TEST_CASE("explode: E in the 3-D view explodes, the status bar says when receivers are hidden", "[app][explode][gl]")
{
    MainWindow w(false);
    w.resize(1300, 850);
    w.show();
    REQUIRE(w.session()->setScenarioNow(test::asTower(defaultScenario())));
    QWindow* window = w.sceneView()->window();
    REQUIRE(QTest::qWaitForWindowExposed(window));
    REQUIRE_FALSE(w.sceneView()->capture().frame().isNull());
    w.timeline()->pause();
    SceneView* scene = w.sceneView();
    auto* hidden = w.statusBar()->findChild<QLabel*>(QStringLiteral("hiddenLabel"));
    REQUIRE(hidden);

    scene->shape().setExplode(0.0f, false);
    scene->camera().resetView();
    w.timeline()->setStep(static_cast<int>(w.session()->snapshot()->stepCount())); // the last step: the most receivers
    scene->camera().updateVisibility();
    REQUIRE(scene->camera().hiddenReceivers() > 0);
    CHECK(hidden->text() == QStringLiteral("%1 of %2 receivers hidden — press E to explode")
                                .arg(scene->camera().hiddenReceivers())
                                .arg(scene->camera().stepReceivers()));
    const std::size_t before = scene->camera().hiddenReceivers();

    const auto flat = scene->shape().positions();
    window->requestActivate();
    QTest::keyClick(window, Qt::Key_E);
    CHECK(scene->shape().explode() == defaultExplode(w.session()->snapshot()->topology()));
    REQUIRE(test::waitFor(
        [&] {
            return scene->shape().positions() ==
                   nodePositions(w.session()->snapshot()->topology(), scene->shape().explode());
        },
        3000));
    CHECK_FALSE(scene->shape().positions() == flat);
    scene->camera().updateVisibility();
    CHECK(scene->camera().hiddenReceivers() < before / 4);
    CHECK_FALSE(hidden->text().contains(QStringLiteral("press E")));
    if (scene->camera().hiddenReceivers() > 0) // exploded, still a few hidden: the planes side by side hide none
        CHECK(hidden->text().endsWith(QStringLiteral("press L for planes side by side")));

    // Planes side by side hide nothing; zoomed in on one corner, the advice is to frame it again.
    REQUIRE(w.session()->setScenarioNow(defaultScenario()));
    REQUIRE(scene->shape().flatNetwork());
    scene->camera().orbit().zoom(0.3f);
    scene->camera().updateVisibility();
    REQUIRE(scene->camera().hiddenReceivers() > 0);
    CHECK(hidden->text().endsWith(QStringLiteral("Ctrl+R frames the whole network")));
    scene->camera().resetView();
    scene->camera().updateVisibility();
    CHECK(scene->camera().hiddenReceivers() == 0);
    CHECK(hidden->text().isEmpty());
}

TEST_CASE("slice: in the picture the plane in full is bright and the other planes are dim", "[app][slice][gl]")
{
    SceneView scene;
    scene.window()->resize(900, 700);
    scene.window()->show();
    REQUIRE(QTest::qWaitForWindowExposed(scene.window()));
    const SnapshotPtr snap = buildSnapshot(test::towerScenario("mesh:4x4x4", "binomial", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setStep(static_cast<int>(snap->stepCount())); // every node informed
    scene.shape().setSlice(1, 1);
    scene.camera().resetView();
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    if (qEnvironmentVariableIsSet("TOPOCAST_SHOTS"))
        img.save(qEnvironmentVariable("TOPOCAST_SHOTS") + QStringLiteral("/vis-slice-4x4x4.png"));
    const Topology& topo = snap->topology();
    auto lightness = [&](NodeId v) {
        const QPointF p = scene.camera().nodeOnScreen(v);
        return img.pixelColor(static_cast<int>(p.x()), static_cast<int>(p.y())).lightness();
    };
    // Front corner nodes (nothing in front of them): (3, 1, 3) in the slice, (3, 3, 3) outside it.
    CHECK(lightness(topo.id({3, 1, 3})) > lightness(topo.id({3, 3, 3})) + 40);
}
