// The window stays on the screen: every preset opened in turn on a 1280×800 screen (its own ctest
// entry runs this under such an Xvfb) keeps the window inside the screen's available geometry and
// the timeline's buttons visible.
#include "compare/compareview.h"
#include "helpers.h"
#include "mainwindow.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timelinebar.h"
#include "window/gettingstarted.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QPushButton>
#include <QScreen>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("screen fit: every preset in turn keeps the window on the screen and the timeline reachable", "[gl][screen]")
{
    MainWindow w(false);
    w.show();
    const QRect screen = w.screen()->availableGeometry();
    INFO("screen " << screen.width() << "x" << screen.height());
    for (const QString& file : MainWindow::presetFiles()) {
        INFO(QFileInfo(file).fileName().toStdString());
        REQUIRE(w.openScenario(file));
        REQUIRE(test::waitFor([&] { return !w.session()->busy() && w.session()->snapshot(); }, 120000));
        test::waitFor([] { return false; }, 300); // the layout settles
        const QRect frame = w.frameGeometry();
        INFO("window " << frame.x() << "," << frame.y() << " " << frame.width() << "x" << frame.height() << " minimum "
                       << w.minimumSizeHint().width() << "x" << w.minimumSizeHint().height());
        CHECK(screen.contains(frame));
        auto* play = w.findChild<TimelineBar*>()->playButton();
        REQUIRE(play);
        CHECK(play->isVisible());
        const QRect button(play->mapToGlobal(QPoint(0, 0)), play->size());
        CHECK(screen.contains(button));
    }
}

TEST_CASE("tour on a 1280x800 screen: every page's text fits, the panel never covers the view, Show me leaves the "
          "network readable",
          "[gl][screen]")
{
    MainWindow w(false);
    w.show();
    auto* tour = new GettingStarted(w.parts(), w.findChild<QAction*>(QStringLiteral("planesAction")),
                                    w.findChild<QAction*>(QStringLiteral("compareAction")));
    tour->show();
    QWidget* view = w.sceneView()->widget();
    for (int page = 0; page < GettingStarted::pageCount(); ++page) {
        INFO("page " << page + 1);
        tour->showPage(page);
        tour->showMe();
        REQUIRE(test::waitFor([&] { return !w.session()->busy() && w.session()->snapshot(); }, 120000));
        test::waitFor([] { return false; }, 300); // the docks settle
        CHECK(tour->textFits());
        const QRect tourRect(tour->mapToGlobal(QPoint(0, 0)), tour->size());
        const QWidget* shown = w.workspace()->isSplit() ? static_cast<QWidget*>(w.compareView()) : view;
        const QRect viewRect(shown->mapToGlobal(QPoint(0, 0)), shown->size());
        CHECK_FALSE(tourRect.intersects(viewRect));
        CHECK(w.screen()->availableGeometry().contains(w.frameGeometry()));
        // Readable: the network keeps a good part of the window (no strip squeezed by a panel).
        CHECK(shown->width() >= w.width() / 3);
        CHECK(shown->height() >= w.height() / 3);
    }
    tour->close();
}
