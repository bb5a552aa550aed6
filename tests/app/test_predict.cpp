// Predict mode: the student marks the nodes that receive in the next step,
// Enter grades them (core gradeStep), the view marks right / missed / wrong, the score adds up.
#include "helpers.h"
#include "mainwindow.h"
#include "practice/predictmode.h"
#include "scene/markinstances.h"
#include "scene/picking.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QAction>
#include <QDockWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <set>
#include <utility>

using namespace topocast;
using namespace topocast::app;

namespace {

using Marks = std::set<std::pair<NodeId, MarkShape>>;

/// (node, shape) of every mark the view holds.
Marks marksOf(const SceneView& scene)
{
    Marks out;
    for (const MarkInstances::Mark& m : scene.layers().marks->marks())
        out.insert({m.node, m.shape});
    return out;
}

} // namespace

TEST_CASE("predict: the cursor moves to the nearest node the arrow points at", "[app][predict]")
{
    // A 3×3 grid drawn 100 px apart, ids row by row (y down, as in the window).
    std::vector<QPointF> grid;
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
            grid.emplace_back(100.0 * x, 100.0 * y);
    CHECK(nodeInDirection(grid, -1, {1, 0}) == 4); // no cursor yet: the node nearest the middle
    CHECK(nodeInDirection(grid, 4, {1, 0}) == 5);
    CHECK(nodeInDirection(grid, 4, {-1, 0}) == 3);
    CHECK(nodeInDirection(grid, 4, {0, -1}) == 1); // up the screen
    CHECK(nodeInDirection(grid, 4, {0, 1}) == 7);
    CHECK(nodeInDirection(grid, 5, {1, 0}) == 5); // at the edge it stays
    CHECK(nodeInDirection(grid, 0, {0, -1}) == 0);
    // Off-axis nodes count when nothing lies straight ahead, nearer the axis first.
    const std::vector<QPointF> skew = {{0, 0}, {100, 40}, {100, -90}};
    CHECK(nodeInDirection(skew, 0, {1, 0}) == 1);
    CHECK(nodeInDirection({}, -1, {1, 0}) == -1);
}

TEST_CASE("predict: every shape is a distinct outline and colour", "[app][predict]")
{
    for (int a = 0; a < kMarkShapeCount; ++a) {
        const auto sa = static_cast<MarkShape>(a);
        const auto tri = MarkInstances::shapeTriangles(sa);
        CHECK(!tri.empty());
        CHECK(tri.size() % 6 == 0);
        for (int b = a + 1; b < kMarkShapeCount; ++b) {
            const auto sb = static_cast<MarkShape>(b);
            CHECK(tri != MarkInstances::shapeTriangles(sb));
            CHECK_FALSE(markColour(sa) == markColour(sb));
        }
    }
}

TEST_CASE("predict mode: mark, check, score and reset on binomial 4x4", "[app][predict]")
{
    // Binomial from (0,0) on 4×4 (ranks row-major): step 1 sends 0 → 8 = (0,2); step 2 sends
    // 0 → 4 = (0,1) and 8 → 12 = (0,3); (1,1) = 5 receives in step 4.
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    PredictMode* p = w.predictMode();
    REQUIRE(p != nullptr);
    CHECK_FALSE(p->isActive());
    p->action()->trigger(); // View ▸ Predict
    REQUIRE(p->isActive());
    CHECK_FALSE(p->dock()->isHidden());
    CHECK(w.timeline()->step() == 0);
    CHECK(p->targetStep() == 1);
    CHECK_THAT(w.narration().toStdString(), Catch::StartsWith("Predict step 1 of 4"));

    p->toggleMark(NodeId{8});
    p->toggleMark(NodeId{9});
    p->toggleMark(NodeId{9}); // a second click takes the mark back
    CHECK(p->marked() == std::vector<NodeId>{NodeId{8}});
    CHECK(marksOf(*w.sceneView()) == Marks{{NodeId{8}, MarkShape::Marked}});
    p->enter();
    REQUIRE(p->phase() == PredictMode::Phase::Checked);
    CHECK(w.timeline()->step() == 1); // the step is shown now
    CHECK(p->lastGrade()->right == std::vector<NodeId>{NodeId{8}});
    CHECK(marksOf(*w.sceneView()) == Marks{{NodeId{8}, MarkShape::Right}});
    CHECK_THAT(w.narration().toStdString(),
               Catch::StartsWith("Step 1: all 1 right. Right: (0,2) receives from the source (0,0) over 2 hops."));

    p->enter(); // on to step 2
    CHECK(p->phase() == PredictMode::Phase::Predicting);
    CHECK(p->targetStep() == 2);
    CHECK(p->marked().empty());
    p->toggleMark(NodeId{4});
    p->toggleMark(NodeId{5});
    p->enter();
    CHECK(w.timeline()->step() == 2);
    CHECK(marksOf(*w.sceneView()) ==
          Marks{{NodeId{4}, MarkShape::Right}, {NodeId{12}, MarkShape::Missed}, {NodeId{5}, MarkShape::Wrong}});
    CHECK_THAT(w.narration().toStdString(),
               Catch::StartsWith("Step 2: 1 right, 1 missed, 1 wrong. Missed: (0,3) receives from (0,2) over 1 hop. "
                                 "Right: (0,1) receives from the source (0,0) over 1 hop. Wrong: (1,1) receives "
                                 "nothing in step 2; it receives in step 4."));
    CHECK_THAT(w.narration().toStdString(), Catch::Contains("Score: 2 right, 1 missed, 1 wrong over 2 steps."));
    CHECK(p->scoreText() == QStringLiteral("1 1 0 0\n2 1 1 1\ntotal 2 1 1"));
    CHECK(p->total() == GradeTally{2, 2, 1, 1});

    // Moving the timeline by hand starts a prediction of the step after it.
    w.timeline()->setStep(3);
    CHECK(p->phase() == PredictMode::Phase::Predicting);
    CHECK(p->targetStep() == 4);
    w.timeline()->setStep(4);
    CHECK(p->targetStep() == 0); // nothing left: Enter starts over
    CHECK_THAT(w.narration().toStdString(), Catch::Contains("the schedule is complete"));
    p->enter();
    CHECK(w.timeline()->step() == 0);
    CHECK(p->targetStep() == 1);

    // Reset: the button in the dock.
    auto* reset = p->dock()->findChild<QPushButton*>();
    REQUIRE(reset != nullptr);
    reset->click();
    CHECK(p->score().empty());
    CHECK(p->scoreText() == QStringLiteral("total 0 0 0"));

    // Off: no marks, the ordinary narration.
    p->action()->trigger();
    CHECK_FALSE(p->isActive());
    CHECK(w.sceneView()->layers().marks->marks().empty());
    CHECK_THAT(w.narration().toStdString(), Catch::StartsWith("Start: binomial"));
}

TEST_CASE("predict mode: an all-to-all pattern grades against every step's destinations", "[app][predict]")
{
    // Johnsson–Ho SBT all-to-all on the 3-cube: every transfer's destination receives.
    Scenario sc = test::scenario("hypercube:3", "sbt", NodeId{0});
    sc.params = Params{{"pattern", "alltoall"}};
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(sc));
    const SnapshotPtr snap = w.session()->snapshot();
    REQUIRE(snap->schedule.pattern() == Pattern::Alltoall);
    PredictMode* p = w.predictMode();
    p->setActive(true);
    for (std::uint32_t k = 1; k <= snap->stepCount(); ++k) {
        REQUIRE(p->targetStep() == k);
        for (NodeId v : stepReceivers(snap->schedule, StepNo{k}))
            p->toggleMark(v);
        p->enter();
        INFO("step " << k);
        CHECK(p->lastGrade()->missed.empty());
        CHECK(p->lastGrade()->wrong.empty());
        CHECK(p->lastGrade()->right == stepReceivers(snap->schedule, StepNo{k}));
        p->enter();
    }
    CHECK(p->total().missed == 0);
    CHECK(p->total().steps == snap->stepCount());
    // A new scenario starts a new score.
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    CHECK(p->score().empty());
    CHECK(p->targetStep() == 1);
}

TEST_CASE("predict mode: real clicks and keys on the 3-D view mark nodes, Enter grades, the marks show",
          "[app][predict][gl]")
{
    MainWindow w(false);
    w.resize(1300, 850);
    w.show();
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    QWindow* window = w.sceneView()->window();
    REQUIRE(QTest::qWaitForWindowExposed(window));
    REQUIRE_FALSE(w.sceneView()->capture().frame().isNull());
    w.sceneView()->camera().resetView();
    w.timeline()->pause();
    w.timeline()->setStep(0);
    PredictMode* p = w.predictMode();

    QTest::keyClick(window, Qt::Key_P); // View ▸ Predict's key
    REQUIRE(p->isActive());

    QSignalSpy ready(w.session(), &Session::scheduleReady);
    auto click = [&](std::uint32_t node) {
        const NodeId v{node};
        const QPoint at = w.sceneView()->camera().nodeOnScreen(v).toPoint();
        REQUIRE(w.sceneView()->camera().nodeAt(at) == v);
        QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, at);
    };
    click(8); // (0,2): receives in step 1
    click(9); // (1,2)
    click(9); // unmarked again
    click(1); // (1,0): does not receive in step 1
    CHECK(p->marked() == std::vector<NodeId>{NodeId{1}, NodeId{8}});
    CHECK(ready.count() == 0); // a click in Predict mode marks; it does not choose a new source
    CHECK(w.session()->scenario().source == 0);

    // The marks are in the picture: dashed rings of the "marked" colour around nodes 1 and 8,
    // about 0.85 of the mark radius from the node's centre.
    const auto& pos = w.session()->snapshot()->positions;
    auto ringPixels = [&](std::uint32_t v) {
        const Vec3 side{pos[v][0] + 0.85f * w.sceneView()->layers().marks->radius(), pos[v][1], pos[v][2]};
        const QPointF d =
            projectToScreen(w.sceneView()->camera().viewProjection(), w.sceneView()->camera().viewportSize(), side) -
            w.sceneView()->camera().nodeOnScreen(NodeId{v});
        return static_cast<int>(std::hypot(d.x(), d.y())) + 2;
    };
    QImage img = w.sceneView()->capture().frame();
    REQUIRE_FALSE(img.isNull());
    for (NodeId v : {NodeId{1}, NodeId{8}})
        CHECK(test::pixelNear(img, w.sceneView()->camera().nodeOnScreen(v), ringPixels(v),
                              [](QColor c) { return test::colourNear(c, markColour(MarkShape::Marked), 30); }));
    CHECK_FALSE(test::pixelNear(img, w.sceneView()->camera().nodeOnScreen(NodeId{9}), ringPixels(9),
                                [](QColor c) { return test::colourNear(c, markColour(MarkShape::Marked), 30); }));

    // Enter checks: step 1 is shown, (0,2) right, (1,0) wrong, and the arrows did not move the
    // timeline (the keys belong to Predict mode while it is on).
    QTest::keyClick(window, Qt::Key_Return);
    REQUIRE(p->phase() == PredictMode::Phase::Checked);
    CHECK(w.timeline()->step() == 1);
    CHECK(marksOf(*w.sceneView()) == Marks{{NodeId{8}, MarkShape::Right}, {NodeId{1}, MarkShape::Wrong}});
    img = w.sceneView()->capture().frame();
    REQUIRE_FALSE(img.isNull());
    CHECK(test::pixelNear(img, w.sceneView()->camera().nodeOnScreen(NodeId{8}), ringPixels(8),
                          [](QColor c) { return test::colourNear(c, markColour(MarkShape::Right), 30); }));
    // The cross lies over the node's centre.
    CHECK(test::pixelNear(img, w.sceneView()->camera().nodeOnScreen(NodeId{1}), 2,
                          [](QColor c) { return test::colourNear(c, markColour(MarkShape::Wrong), 30); }));

    // Keyboard only: Enter goes on to step 2; Page Down puts the cursor on node 0, the arrows
    // move it over the grid as drawn (x right, y down), Space marks.
    QTest::keyClick(window, Qt::Key_Return);
    CHECK(p->targetStep() == 2);
    QTest::keyClick(window, Qt::Key_PageDown);
    CHECK(p->cursor() == 0);
    QTest::keyClick(window, Qt::Key_Right);
    CHECK(p->cursor() == 1);
    QTest::keyClick(window, Qt::Key_Down);
    CHECK(p->cursor() == 5);
    QTest::keyClick(window, Qt::Key_Left);
    CHECK(p->cursor() == 4);
    CHECK(w.timeline()->step() == 1); // ← and → did not step the timeline
    QTest::keyClick(window, Qt::Key_Space);
    CHECK_FALSE(w.timeline()->playing()); // Space marked; it did not play
    QTest::keyClick(window, Qt::Key_Down);
    QTest::keyClick(window, Qt::Key_Down);
    CHECK(p->cursor() == 12);
    QTest::keyClick(window, Qt::Key_Space);
    CHECK(p->marked() == std::vector<NodeId>{NodeId{4}, NodeId{12}});
    CHECK(marksOf(*w.sceneView()) ==
          Marks{{NodeId{4}, MarkShape::Marked}, {NodeId{12}, MarkShape::Marked}, {NodeId{12}, MarkShape::Cursor}});
    img = w.sceneView()->capture().frame();
    REQUIRE_FALSE(img.isNull());
    CHECK(test::pixelNear(img, w.sceneView()->camera().nodeOnScreen(NodeId{12}), ringPixels(12) * 3 / 2 + 4,
                          [](QColor c) { return test::colourNear(c, markColour(MarkShape::Cursor), 30); }));
    QTest::keyClick(window, Qt::Key_Enter);
    CHECK(w.timeline()->step() == 2);
    CHECK(p->lastGrade()->right == std::vector<NodeId>{NodeId{4}, NodeId{12}});
    CHECK(p->scoreText() == QStringLiteral("1 1 0 1\n2 2 0 0\ntotal 3 0 1"));

    // P again leaves the mode: clicks choose the source once more.
    QTest::keyClick(window, Qt::Key_P);
    CHECK_FALSE(p->isActive());
    CHECK(w.sceneView()->layers().marks->marks().empty());
}

TEST_CASE("predict mode: every preset scenario, every step, the receivers marked are all right", "[app][predict]")
{
    // One scenario per algorithm family and pattern the app ships (resources/scenarios/): marking
    // exactly core stepReceivers of each step grades all right, with nothing missed or wrong.
    MainWindow w(false);
    PredictMode* p = w.predictMode();
    p->setActive(true);
    int presets = 0;
    for (const QString& file : MainWindow::presetFiles()) {
        INFO(file.toStdString());
        REQUIRE(w.session()->setScenarioNow(loadScenario(file.toStdString())));
        const SnapshotPtr snap = w.session()->snapshot();
        CHECK(p->score().empty()); // a new schedule: a new score
        for (std::uint32_t k = 1; k <= snap->stepCount(); ++k) {
            REQUIRE(p->targetStep() == k);
            const std::vector<NodeId> receivers = stepReceivers(snap->schedule, StepNo{k});
            for (NodeId v : receivers)
                p->toggleMark(v);
            p->enter();
            REQUIRE(p->lastGrade());
            CHECK(p->lastGrade()->right == receivers);
            CHECK(p->lastGrade()->missed.empty());
            CHECK(p->lastGrade()->wrong.empty());
            CHECK(w.sceneView()->layers().marks->marks().size() == receivers.size());
            p->enter();
        }
        CHECK(p->total().steps == snap->stepCount());
        ++presets;
    }
    CHECK(presets >= 15);
}
