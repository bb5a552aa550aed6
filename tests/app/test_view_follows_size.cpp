// The 3-D view follows its size: opening a panel (Predict) narrows the view, and a drawing still at
// its default framing is framed again for the new shape — every node inside, no column cut off —
// while a camera the user turned stays where it is; every label layer places its plates in the
// viewport's real pixels, so labels keep their proportions at every size.
#include "compare/compareview.h"
#include "helpers.h"
#include "mainwindow.h"
#include "practice/predictmode.h"
#include "scene/labelinstances.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <QTest>
#include <Qt3DExtras/Qt3DWindow>

using namespace topocast;
using namespace topocast::app;

namespace {

/// How many nodes of the shown network project inside the 3-D view.
int nodesInside(const SceneView& view, std::uint32_t nodes)
{
    const QSizeF size = view.camera().viewportSize();
    int inside = 0;
    for (std::uint32_t v = 0; v < nodes; ++v) {
        const QPointF p = view.camera().nodeOnScreen(NodeId{v});
        if (p.x() >= 0 && p.y() >= 0 && p.x() <= size.width() && p.y() <= size.height())
            ++inside;
    }
    return inside;
}

QSize viewportPixels(const SceneView& view)
{
    return (view.camera().viewportSize() * view.window()->devicePixelRatio()).toSize();
}

} // namespace

TEST_CASE("the view follows its size: a narrower window narrows the 8x8 view and the drawing is framed again",
          "[app][gl]")
{
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    REQUIRE(w.session()->setScenarioNow(loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-8x8.json")));
    SceneView* view = w.sceneView();
    REQUIRE(QTest::qWaitForWindowExposed(view->window()));
    runEventLoopFor(300);
    view->camera().resetView();
    const double before = view->camera().viewportSize().width();
    CHECK(nodesInside(*view, 64) == 64);

    // View ▸ Predict opens its panel as a tab over the scenario panel: the view keeps its width.
    QTest::keyClick(view->window(), Qt::Key_P);
    REQUIRE(w.predictMode()->isActive());
    runEventLoopFor(300);
    CHECK(std::abs(view->camera().viewportSize().width() - before) < 2);
    QTest::keyClick(view->window(), Qt::Key_P);
    REQUIRE_FALSE(w.predictMode()->isActive());

    w.resize(1000, 720);
    REQUIRE(test::waitFor([&] { return view->camera().viewportSize().width() < before - 50; }));
    runEventLoopFor(300);
    INFO("view " << view->camera().viewportSize().width() << "x" << view->camera().viewportSize().height() << " (was "
                 << before << " wide)");
    CHECK(nodesInside(*view, 64) == 64);
    // Every label layer knows the viewport's real size (a stale one stretched the plates).
    for (const LabelInstances* labels :
         {&*view->layers().labels, &*view->layers().nodeLabels, &*view->layers().messageLabels})
        CHECK(labels->viewportSize() == viewportPixels(*view));

    // Turned by the user, the camera stays where it was when the window widens again.
    view->camera().orbit().orbit(20.0f, 0.0f);
    const float yaw = view->camera().orbit().view().yaw;
    w.resize(1280, 720);
    REQUIRE(test::waitFor([&] { return view->camera().viewportSize().width() > before - 50; }));
    runEventLoopFor(300);
    CHECK(view->camera().orbit().view().yaw == yaw);
    for (const LabelInstances* labels :
         {&*view->layers().labels, &*view->layers().nodeLabels, &*view->layers().messageLabels})
        CHECK(labels->viewportSize() == viewportPixels(*view));
}

TEST_CASE("the view follows its size: the compare view frames both 8x8 sides whole, labels in real pixels", "[app][gl]")
{
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    REQUIRE(w.openScenario(
        QStringLiteral(TOPOCAST_SOURCE_DIR "/resources/scenarios/compare-cang-wu-8x8-paper-vs-optimal.json")));
    REQUIRE(w.workspace()->isSplit());
    REQUIRE(waitUntilIdle({w.session(), w.compareView()->session(0), w.compareView()->session(1)}, 60000));
    for (int side : {0, 1}) {
        SceneView* view = w.compareView()->sceneView(side);
        REQUIRE(QTest::qWaitForWindowExposed(view->window()));
    }
    runEventLoopFor(300);
    for (int side : {0, 1}) {
        SceneView* view = w.compareView()->sceneView(side);
        INFO("side " << side << ": " << view->camera().viewportSize().width() << "x"
                     << view->camera().viewportSize().height());
        CHECK(nodesInside(*view, 64) == 64);
        for (const LabelInstances* labels :
             {&*view->layers().labels, &*view->layers().nodeLabels, &*view->layers().messageLabels})
            CHECK(labels->viewportSize() == viewportPixels(*view));
    }
}

TEST_CASE("the view follows its size: planes side by side take the grid of the new shape, every node inside",
          "[app][gl]")
{
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    REQUIRE(w.session()->setScenarioNow(defaultScenario())); // 8×8×8: planes side by side
    SceneView* view = w.sceneView();
    REQUIRE(QTest::qWaitForWindowExposed(view->window()));
    runEventLoopFor(300);
    w.timeline()->pause();
    view->camera().resetView();
    REQUIRE(view->shape().flatNetwork());
    CHECK(nodesInside(*view, 512) == 512);
    const std::vector<Vec3> wide = view->shape().positions();

    w.resize(900, 720); // a narrower view: a taller grid
    REQUIRE(test::waitFor([&] { return view->shape().positions() != wide; }));
    runEventLoopFor(300);
    INFO("view " << view->camera().viewportSize().width() << "x" << view->camera().viewportSize().height());
    CHECK(nodesInside(*view, 512) == 512);
    const auto narrow = layoutBounds(view->shape().positions());
    const auto before = layoutBounds(wide);
    // Taller than wide now, relative to before: fewer columns of planes.
    CHECK((narrow[1][0] - narrow[0][0]) / (narrow[1][1] - narrow[0][1]) <
          (before[1][0] - before[0][0]) / (before[1][1] - before[0][1]));
    // A click picks the node drawn under it in the new grid.
    const NodeId corner = w.session()->snapshot()->topology().id({7, 7, 7});
    CHECK(view->camera().nodeAt(view->camera().nodeOnScreen(corner)) == static_cast<long long>(corner));
}
