// [gl] tests: render real frames (Xvfb + llvmpipe is enough) and check pixels.
#include "helpers.h"
#include "launch/startup.h"
#include "mainwindow.h"
#include "scene/picking.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("render: the source's colour is at its projected position", "[app][gl]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{6}));
    scene.setSnapshot(snap);
    scene.setStep(0);
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    REQUIRE(img.size() == QSize(800, 600));
    const Rgba src = Palette::normal().source;
    const QPointF p = scene.camera().nodeOnScreen(NodeId{6});
    INFO("source projects to " << p.x() << "," << p.y());
    CHECK(test::pixelNear(img, p, 2, [&](QColor c) { return test::colourNear(c, src); }));
    // The scene is asymmetric (source at (2,1)): the colour is not at the vertically mirrored spot,
    // which pins the capture's orientation.
    const QPointF mirrored(p.x(), img.height() - 1 - p.y());
    CHECK_FALSE(test::pixelNear(img, mirrored, 2, [&](QColor c) { return test::colourNear(c, src); }));
    // An uninformed node is grey.
    CHECK(test::pixelNear(img, scene.camera().nodeOnScreen(NodeId{15}), 2,
                          [](QColor c) { return test::colourNear(c, Palette::normal().uninformed); }));
}

TEST_CASE("render: a known contention shows a red channel", "[app][gl]")
{
    const SnapshotPtr snap = snapshotFromSchedule(Scenario{}, test::contendedSchedule());
    SceneView scene;
    scene.window()->resize(900, 700);
    scene.window()->show();
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::Contention);
    scene.setStep(2);
    scene.setFraction(1.0f);
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    // The contended channel (1,0)→(2,0): sample the middle of the link, clear of the spheres.
    const Vec3 a = snap->positions[1], b = snap->positions[2];
    const Vec3 q{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
    const QPointF p = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(), q);
    // The contention colour is the palette's vermillion (#d55e00, hue 26°), not pure red any more:
    // a saturated hue between red and the source's orange (41°).
    auto red = [](QColor col) {
        return col.hsvHue() >= 12 && col.hsvHue() <= 34 && col.hsvSaturation() > 180 && col.value() > 120;
    };
    CHECK(test::pixelNear(img, p, 4, red));
    // The uncontended channel (0,0)→(1,0) of step 1 is not red, nor is anything at step 1.
    const Vec3 a0 = snap->positions[0];
    const QPointF p0 = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                                       {(a0[0] + a[0]) / 2, (a0[1] + a[1]) / 2, (a0[2] + a[2]) / 2});
    CHECK_FALSE(test::pixelNear(img, p0, 4, red));
    scene.setStep(1);
    const QImage step1 = scene.capture().frame();
    CHECK_FALSE(test::pixelNear(step1, p, 4, red));
}

TEST_CASE("render: --screenshot writes a PNG of the requested size", "[app][gl]")
{
    QTemporaryDir dir;
    Scenario s = test::scenario("torus:4x4x4", "bfs", NodeId{0});
    const QString scenarioPath = dir.filePath(QStringLiteral("t.json"));
    saveScenario(s, scenarioPath.toStdString());
    const QString out = dir.filePath(QStringLiteral("out.png"));
    QString error;
    REQUIRE(renderScreenshot({scenarioPath, 1, ViewMode::Heatmap, out, QSize(640, 480)}, error) == 0);
    const QImage img(out);
    CHECK(img.size() == QSize(640, 480));
    CHECK(renderScreenshot({scenarioPath, 99, ViewMode::Plain, out, QSize(640, 480)}, error) == 2);
    CHECK(error.contains(QStringLiteral("99")));
}

TEST_CASE("render: --screenshot without --mode draws the scenario's own mode, as the window opens it", "[app][gl]")
{
    QTemporaryDir dir;
    const QString preset = QStringLiteral(TOPOCAST_SOURCE_DIR "/resources/scenarios/ring-allreduce-torus-4x4.json");
    const auto shot = [&](std::optional<ViewMode> mode, const char* name) {
        const QString out = dir.filePath(QString::fromLatin1(name));
        QString error;
        REQUIRE(renderScreenshot({preset, 8, mode, out, QSize(480, 320)}, error) == 0);
        return QImage(out).convertToFormat(QImage::Format_RGB32);
    };
    // The preset says "view": {"mode": "data"}: the picture is the Data held one, not plain.
    const QImage own = shot(std::nullopt, "own.png"), data = shot(ViewMode::DataHeld, "data.png"),
                 plain = shot(ViewMode::Plain, "plain.png");
    CHECK(own == data);
    CHECK(own != plain);
}

TEST_CASE("render: clicking a node in the window makes it the source", "[app][gl]")
{
    MainWindow w(false);
    w.resize(1300, 850);
    w.show();
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:6x6", "binomial", NodeId{0})));
    REQUIRE(test::waitFor([&] { return w.sceneView()->window()->isExposed(); }));
    // Let the layout settle (the container may still resize the 3-D window) before projecting.
    REQUIRE_FALSE(w.sceneView()->capture().frame().isNull());
    w.sceneView()->camera().resetView();
    const NodeId target{20}; // (2,3)
    const QPoint p = w.sceneView()->camera().nodeOnScreen(target).toPoint();
    REQUIRE(w.sceneView()->camera().nodeAt(p) == target);
    QSignalSpy ready(w.session(), &Session::scheduleReady);
    // Deliver press and release straight to the 3-D window (what the windowing system does).
    const QPointF global = w.sceneView()->window()->mapToGlobal(p);
    QMouseEvent press(QEvent::MouseButtonPress, QPointF(p), global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QMouseEvent release(QEvent::MouseButtonRelease, QPointF(p), global, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(w.sceneView()->window(), &press);
    QCoreApplication::sendEvent(w.sceneView()->window(), &release);
    REQUIRE(ready.wait(10000));
    CHECK(w.session()->scenario().source == target);
}

TEST_CASE("render: the trees mode draws a tree edge in its member's colour", "[app][gl]")
{
    // nESBT on the 3-cube from 0, after the last step: every member edge carries its part, so
    // each is drawn in its full category colour over its channel.
    SceneView scene;
    scene.window()->resize(900, 700);
    scene.window()->show();
    Scenario sc = test::scenario("hypercube:3", "nesbt", NodeId{0});
    sc.params = Params{{"message", "3"}, {"packet", "1"}}; // one packet per tree
    const SnapshotPtr snap = buildSnapshot(sc);
    REQUIRE(snap->trees.size() == 3);
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::Trees);
    scene.setStep(static_cast<int>(snap->stepCount()));
    scene.setFraction(0.0f);
    // From 30° right and 20° above the default view the cube's edges hardly cover each other:
    // 19 of the 21 member edges show their tree's colour at their midpoint (the other two are
    // behind a nearer edge), at least 6 of each tree's 7.
    scene.camera().orbit().orbit(30.0f, 20.0f);
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    int seen = 0, total = 0;
    for (std::size_t t = 0; t < 3; ++t) {
        const Rgba want = treeColour(static_cast<int>(t), true, scene.choice().palette());
        // Lit by the head light: 55–100 % of the colour; compare the hue by channel ratios.
        auto isTree = [&](QColor c) {
            const double k = std::max({c.redF(), c.greenF(), c.blueF()}) / std::max({want.r, want.g, want.b});
            return k > 0.5 && std::abs(c.redF() - want.r * k) < 0.12 && std::abs(c.greenF() - want.g * k) < 0.12 &&
                   std::abs(c.blueF() - want.b * k) < 0.12;
        };
        int hits = 0;
        for (const hypercube::TreeEdge& e : snap->trees[t]) {
            const Vec3 a = snap->positions[e.parent], b = snap->positions[e.child];
            const QPointF p = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                                              {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2});
            hits += test::pixelNear(img, p, 4, isTree);
        }
        INFO("tree " << t << ": " << hits << " of 7 edge midpoints show its colour");
        CHECK(hits >= 6);
        seen += hits > 0;
        total += hits;
    }
    CHECK(seen == 3);
    CHECK(total >= 19);
}

TEST_CASE("render: QTest::mouseClick on the 3-D QWindow makes the node the source", "[app][gl]")
{
    MainWindow w(false);
    w.resize(1300, 850);
    w.show();
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:6x6", "binomial", NodeId{0})));
    QWindow* window = w.sceneView()->window();
    REQUIRE(QTest::qWaitForWindowExposed(window));
    REQUIRE_FALSE(w.sceneView()->capture().frame().isNull());
    w.sceneView()->camera().resetView();
    const std::uint64_t tcdBefore = w.session()->snapshot()->metrics.tcd;
    const NodeId target{20}; // (2,3)
    const QPoint p = w.sceneView()->camera().nodeOnScreen(target).toPoint();
    REQUIRE(w.sceneView()->camera().nodeAt(p) == target);
    QSignalSpy ready(w.session(), &Session::scheduleReady);
    // Through the window system interface, as a real click arrives (press, release at p).
    QSignalSpy clicked(&w.sceneView()->input(), &SceneInput::nodeClicked);
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, p);
    REQUIRE(clicked.count() == 1);
    CHECK(clicked.at(0).at(0).value<NodeId>() == target);
    // QTest::mouseClick processes events, so the new schedule may already have arrived (a
    // QSignalSpy::wait() alone would then wait for a second one and fail now and then).
    REQUIRE((ready.count() > 0 || ready.wait(10000)));
    CHECK(w.session()->scenario().source == target);
    CHECK(w.session()->snapshot()->schedule.source() == target);
    // binomial from a corner vs. from (2,3) on a 6×6 mesh: different total distance.
    CHECK(w.session()->snapshot()->metrics.tcd != tcdBefore);
}

TEST_CASE("render: a message moves hop by hop, at 1/4, 1/2 and 3/4 of its step where its route says", "[app][gl]")
{
    // One transfer (0,0) → (3,0) on a 4×4 mesh: a 3-hop route along x. The message's head has
    // covered fraction f of the route: at 1/4 it is 0.75 of the way along hop 1, at 1/2 halfway
    // along hop 2, at 3/4 a quarter of the way along hop 3 — between nodes, where the white
    // message sphere shows on a grey link.
    const Topology topo = Topology::mesh({4, 4});
    Schedule s(topo, NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    s.algorithm = "hand-made";
    s.add(NodeId{0}, NodeId{3}, StepNo{1});
    s.finalize();
    const SnapshotPtr snap = snapshotFromSchedule(Scenario{}, s);
    SceneView scene;
    scene.window()->resize(800, 600);
    scene.window()->show();
    scene.setSnapshot(snap);
    scene.setStep(1);
    auto along = [&](float hops) {
        const Vec3 a = snap->positions[0], b = snap->positions[3];
        const float t = hops / 3.0f;
        return projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                               {a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t});
    };
    const Rgba white = Palette::normal().message;
    const float fractions[3] = {0.25f, 0.5f, 0.75f};
    for (int i = 0; i < 3; ++i) {
        scene.setFraction(fractions[i]);
        const QImage img = scene.capture().frame();
        REQUIRE_FALSE(img.isNull());
        for (int j = 0; j < 3; ++j) {
            const QPointF p = along(3.0f * fractions[j]);
            INFO("fraction " << fractions[i] << ", looking at " << fractions[j] << " (" << p.x() << "," << p.y()
                             << ")");
            CHECK(test::pixelNear(img, p, 1, [&](QColor c) { return test::colourNear(c, white, 30); }) == (i == j));
        }
    }
}

TEST_CASE("render: the timeline's keys work through real key events on the 3-D window", "[app][gl]")
{
    MainWindow w(false);
    w.resize(1300, 850);
    w.show();
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0}))); // 4 steps
    QWindow* window = w.sceneView()->window();
    REQUIRE(QTest::qWaitForWindowExposed(window));
    Timeline* t = w.timeline();
    t->pause();
    QTest::keyClick(window, Qt::Key_End);
    CHECK(t->step() == 4);
    CHECK(w.sceneView()->choice().step == 4);
    QTest::keyClick(window, Qt::Key_Home);
    CHECK(t->step() == 0);
    QTest::keyClick(window, Qt::Key_Right);
    QTest::keyClick(window, Qt::Key_Right);
    CHECK(t->step() == 2);
    CHECK(w.sceneView()->choice().step == 2);
    QTest::keyClick(window, Qt::Key_Left);
    CHECK(t->step() == 1);
    QTest::keyClick(window, Qt::Key_Left);
    QTest::keyClick(window, Qt::Key_Left); // stays at 0
    CHECK(t->step() == 0);
    QTest::keyClick(window, Qt::Key_Space);
    CHECK(t->playing());
    QTest::keyClick(window, Qt::Key_Space);
    CHECK_FALSE(t->playing());
    // + and − zoom by 0.85 and back; A turns the camera 5° to the left.
    const float distance = w.sceneView()->camera().orbit().state().distance;
    QTest::keyClick(window, Qt::Key_Plus);
    CHECK(w.sceneView()->camera().orbit().state().distance == Approx(distance * 0.85f));
    QTest::keyClick(window, Qt::Key_Minus);
    CHECK(w.sceneView()->camera().orbit().state().distance == Approx(distance));
    const float yaw = w.sceneView()->camera().orbit().state().yaw;
    QTest::keyClick(window, Qt::Key_A);
    CHECK(w.sceneView()->camera().orbit().state().yaw == Approx(yaw - 5.0f));
}

TEST_CASE("render: links thinner than a pixel are drawn as lines, and lines show", "[app][gl]")
{
    // A 12×12 mesh fitted into 320×240 pixels: about 12.8 px per unit, so its links (radius
    // 0.035) are under half a pixel thick and switch to 1-pixel lines (a prism that thin would
    // break into dashes without multisampling), drawn by a child entity in the links' layer.
    // Zoomed in 4×, they are prisms again. The pixel midway between two neighbours in the middle
    // of the mesh must show the link, not the background.
    SceneView scene;
    scene.window()->resize(320, 240);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:12x12", "binomial", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setStep(0);
    const QColor background = Palette::normal().background.to<QColor>();
    auto linkShows = [&](const QImage& img) {
        const Vec3 a = snap->positions[5 * 12 + 5], b = snap->positions[5 * 12 + 6]; // (5,5) — (6,5)
        const QPointF mid = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                                            {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2});
        return test::pixelNear(img, mid, 1, [&](QColor c) {
            return std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
                       std::abs(c.blue() - background.blue()) >
                   30;
        });
    };
    const QImage far = scene.capture().frame();
    REQUIRE_FALSE(far.isNull());
    CHECK(scene.layers().links->usesLines());
    CHECK(linkShows(far));
    scene.camera().orbit().zoom(0.25f);
    const QImage near = scene.capture().frame();
    REQUIRE_FALSE(near.isNull());
    CHECK_FALSE(scene.layers().links->usesLines());
    CHECK(linkShows(near));
}
