// View ▸ Show frame time: the app says how long the 3-D view takes per frame, so a
// user on software OpenGL can tell.
#include "helpers.h"
#include "mainwindow.h"
#include "scene/sceneview.h"
#include "session/session.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("View ▸ Show frame time puts the 3-D view's frame time in the status bar", "[app][window][gl][frametime]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4x4", "binomial", NodeId{0})));
    w.resize(1000, 700);
    w.show();
    REQUIRE(test::waitFor([&] { return w.isVisible() && w.sceneView()->widget()->width() > 0; }));

    QAction* action = nullptr;
    for (QAction* menu : w.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->text() == QStringLiteral("Show &frame time"))
                    action = a;
    REQUIRE(action != nullptr);
    CHECK(action->isCheckable());
    CHECK(w.frameTimeText().isEmpty());

    action->trigger();
    auto* label = w.findChild<QLabel*>(QStringLiteral("frameTimeLabel"));
    REQUIRE(label != nullptr);
    CHECK(label->isVisibleTo(&w));
    // Qt3D draws continuously: within a few seconds the view has drawn frames and says how long.
    const QRegularExpression shape(QStringLiteral("^frame [0-9]+\\.[0-9] ms \\([0-9]+ frames/s\\)$"));
    REQUIRE(test::waitFor([&] { return shape.match(w.frameTimeText()).hasMatch(); }, 10000));
    CHECK(w.sceneView()->capture().framesDrawn() >= 2);
    const double ms = w.sceneView()->capture().frameTimeMs();
    CHECK(ms > 0.0);
    CHECK(ms < 10000.0);

    action->trigger(); // off: the label goes
    CHECK_FALSE(label->isVisibleTo(&w));
}
