#include "helpers.h"
#include "mainwindow.h"
#include "panels/metricsmodel.h"
#include "panels/scenariopanel.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("main window: an invalid source shows a message and keeps the previous scenario", "[app][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    const Scenario before = w.session()->scenario();
    const QString tcdBefore = w.metricsModel()->value(QStringLiteral("tcd"));
    w.scenarioPanel()->sourceField()->setText(QStringLiteral("9,9"));
    w.applyPanel();
    CHECK(w.errorText().contains(QStringLiteral("9")));
    CHECK(w.session()->scenario() == before);
    CHECK(w.metricsModel()->value(QStringLiteral("tcd")) == tcdBefore);
}

TEST_CASE("main window: an algorithm that does not apply is refused with its reason", "[app][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "recursive-doubling")));
    const Scenario before = w.session()->scenario();
    QSignalSpy failed(w.session(), &Session::failed);
    w.scenarioPanel()->sideBox(0)->setValue(6); // 6×4: recursive-doubling needs powers of two
    w.applyPanel();
    REQUIRE(failed.wait(10000));
    CHECK(w.errorText().contains(QStringLiteral("power of two")));
    CHECK(w.session()->scenario() == before);
    // The panel greys out recursive-doubling for 6×4 and says why.
    const int idx = w.scenarioPanel()->algorithmBox()->findText(QStringLiteral("recursive-doubling"));
    CHECK(w.scenarioPanel()
              ->algorithmBox()
              ->itemData(idx, Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("power of two")));
}

TEST_CASE("main window: choosing a node as source recomputes the metrics", "[app][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:8x8", "binomial", NodeId{0})));
    const QString tcd0 = w.metricsModel()->value(QStringLiteral("tcd"));
    QSignalSpy ready(w.session(), &Session::scheduleReady);
    emit w.sceneView()->input().nodeClicked(NodeId{27}); // what a click on node (3,3) emits
    REQUIRE(ready.wait(10000));
    CHECK(w.session()->scenario().source == 27);
    CHECK(w.scenarioPanel()->sourceField()->text() == QStringLiteral("(3,3)"));
    CHECK(w.metricsModel()->value(QStringLiteral("tcd")) != tcd0);
}

TEST_CASE("main window: one editable model — a click sets the source once, and the panel shows the request",
          "[app][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:8x8", "binomial", NodeId{0})));
    // The panel shows every field of the request, the source too (an empty field would also read
    // back as node 0, so "nothing changed" is no reason to leave it).
    CHECK(w.scenarioPanel()->sourceField()->text() == QStringLiteral("(0,0)"));
    QSignalSpy requested(w.session(), &Session::requestChanged);
    QSignalSpy ready(w.session(), &Session::scheduleReady);
    emit w.sceneView()->input().nodeClicked(NodeId{27});
    // At once, before the build ends: the session's request holds the source, the panel shows it.
    CHECK(requested.count() == 1);
    CHECK(w.session()->requestedScenario().source == 27);
    CHECK(w.scenarioPanel()->sourceField()->text() == QStringLiteral("(3,3)"));
    REQUIRE(ready.wait(10000));
    CHECK(requested.count() == 1); // the result is the request: nothing new to show
    // A panel edit starts from the request: the title and view it does not show are kept.
    Scenario titled = w.session()->requestedScenario();
    titled.title = "mine";
    titled.view.mode = "contention";
    REQUIRE(w.session()->setScenarioNow(titled));
    w.scenarioPanel()->sideBox(0)->setValue(4); // 4×8
    w.applyPanel();
    CHECK(w.session()->requestedScenario().topology == Topology::mesh({4, 8}));
    CHECK(w.session()->requestedScenario().title == "mine");
    CHECK(w.session()->requestedScenario().view.mode == "contention");
}

TEST_CASE("main window: timeline keys step forwards and backwards to identical states", "[app][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4x4", "binomial", NodeId{0})));
    Timeline* t = w.timeline();
    t->first();
    t->stepForward();
    const QString narration1 = w.narration();
    const auto style1 = w.sceneView()->frame().style;
    emit w.sceneView()->input().timelineKey(Qt::Key_Right);
    CHECK(t->step() == 2);
    CHECK(w.narration().startsWith(QStringLiteral("Step 2")));
    emit w.sceneView()->input().timelineKey(Qt::Key_Left);
    CHECK(t->step() == 1);
    CHECK(w.narration() == narration1);
    CHECK(w.sceneView()->frame().style.nodeColour == style1.nodeColour);
    CHECK(w.sceneView()->frame().style.channelColour == style1.channelColour);
    emit w.sceneView()->input().timelineKey(Qt::Key_End);
    CHECK(t->step() == t->stepCount());
    emit w.sceneView()->input().timelineKey(Qt::Key_Home);
    CHECK(t->step() == 0);
}

TEST_CASE("main window: save and reopen a scenario", "[app][window]")
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.json"));
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("torus:5x5", "bfs", NodeId{7})));
    REQUIRE(w.saveScenario(path));
    MainWindow w2(false);
    QSignalSpy ready(w2.session(), &Session::scheduleReady);
    REQUIRE(w2.openScenario(path));
    REQUIRE(ready.wait(10000));
    CHECK(w2.session()->scenario().topology == Topology::torus({5, 5}));
    CHECK(w2.session()->scenario().source == 7);
    CHECK_FALSE(w2.openScenario(dir.filePath(QStringLiteral("missing.json"))));
    CHECK_FALSE(w2.errorText().isEmpty());
}

TEST_CASE("main window: a long computation shows a busy bar with Cancel, which keeps the previous scenario",
          "[app][window][robust]")
{
    MainWindow w(false); // not shown: no GL on the offscreen platform; isVisibleTo(&w) says what would show
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    const Scenario before = w.session()->scenario();
    QPushButton* cancel = nullptr;
    for (auto* b : w.statusBar()->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Cancel"))
            cancel = b;
    REQUIRE(cancel);
    CHECK_FALSE(cancel->isVisibleTo(&w));
    w.session()->setBuildHook([](RunProgress& control) { // hold the build until cancelled
        QElapsedTimer t;
        t.start();
        while (!control.cancelled && t.elapsed() < 60000)
            QThread::msleep(2);
    });
    w.session()->setScenario(test::scenario("mesh:16x16x16", "bfs", NodeId{0}));
    CHECK(cancel->isVisibleTo(&w));
    REQUIRE(test::waitFor([&] { return w.statusBar()->currentMessage().startsWith(QStringLiteral("computing: ")); }));
    QTest::mouseClick(cancel, Qt::LeftButton);
    CHECK_FALSE(w.session()->busy());
    CHECK_FALSE(cancel->isVisibleTo(&w));
    CHECK(w.statusBar()->currentMessage().startsWith(QStringLiteral("cancelled")));
    CHECK(w.session()->scenario() == before);
    CHECK(w.scenarioPanel()->sideBox(0)->value() == 4);
    REQUIRE(test::waitFor([] { return QThreadPool::globalInstance()->activeThreadCount() == 0; }, 60000));
}

TEST_CASE("main window: every computed scenario is on disk at once, so a kill loses nothing (autosave)",
          "[app][window][robust]")
{
    static QTemporaryDir config; // for the rest of the process: later QSettings land here too
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, config.path());
    {
        MainWindow w(true);
        QSignalSpy ready(w.session(), &Session::scheduleReady);
        w.session()->setScenario(test::scenario("mesh:8x8", "cang-wu", NodeId{27}));
        REQUIRE(ready.wait(20000));
        // Read the settings file itself (not this process's cached QSettings): what a new process
        // would find after a SIGKILL now.
        const QString file = QSettings().fileName();
        REQUIRE(file.startsWith(config.path()));
        QSettings onDisk(file, QSettings::IniFormat);
        const QString saved = onDisk.value(QStringLiteral("lastScenario")).toString();
        REQUIRE_FALSE(saved.isEmpty());
        const Scenario back = scenarioFromJson(nlohmann::json::parse(saved.toStdString()));
        CHECK(back.topology == Topology::parse("mesh:8x8"));
        CHECK(back.algorithm == "cang-wu");
        CHECK(back.source == 27);
    }
}
