// Requests made while another is computing start from the latest *requested* scenario, not from
// the one still shown. Each build is held in Session's build hook until the
// test releases it, so "while computing" does not depend on the machine's speed.
#include "helpers.h"
#include "mainwindow.h"
#include "panels/scenariopanel.h"
#include "scene/sceneview.h"
#include "session/session.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSignalSpy>
#include <QSpinBox>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <memory>

using namespace topocast;
using namespace topocast::app;

namespace {

/// Holds every asynchronous build of `session` before it starts until release() (or until the
/// build is cancelled or overtaken, or 60 s pass).
class BuildGate {
public:
    explicit BuildGate(Session& session) : m_release(std::make_shared<std::atomic<bool>>(false))
    {
        session.setBuildHook([release = m_release](RunProgress& control) {
            QElapsedTimer t;
            t.start();
            while (!*release && !control.cancelled && t.elapsed() < 60000)
                QThread::msleep(2);
        });
    }
    void release() { *m_release = true; }

private:
    std::shared_ptr<std::atomic<bool>> m_release;
};

/// Sets the first side of the panel as a user would, but without starting the window's 120 ms
/// apply timer, so the test decides when the edit is applied.
void editFirstSide(MainWindow& w, int side)
{
    const QSignalBlocker quiet(w.scenarioPanel());
    w.scenarioPanel()->sideBox(0)->setValue(side);
}

bool settled(MainWindow& w)
{
    return test::waitFor([&] { return !w.session()->busy(); }, 60000) &&
           test::waitFor([] { return QThreadPool::globalInstance()->activeThreadCount() == 0; }, 60000);
}

} // namespace

TEST_CASE("latest request: a click while a panel edit is computing builds on the edit", "[app][window][requests]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    BuildGate gate(*w.session());
    QSignalSpy ready(w.session(), &Session::scheduleReady);

    editFirstSide(w, 8); // the panel now says 8×4
    w.applyPanel();      // … and that is being computed
    REQUIRE(w.session()->busy());
    emit w.sceneView()->input().nodeClicked(NodeId{2}); // a click on (2,0) before the 8×4 build is done
    gate.release();
    REQUIRE(settled(w));
    QCoreApplication::processEvents();

    REQUIRE(ready.count() == 1); // only the latest request is shown
    CHECK(w.session()->scenario().topology == Topology::mesh({8, 4}));
    CHECK(w.session()->scenario().source == 2);
    CHECK(w.scenarioPanel()->sideBox(0)->value() == 8);
    CHECK(w.scenarioPanel()->sourceField()->text() == QStringLiteral("(2,0)"));
}

TEST_CASE("latest request: an edit back to the scenario shown, while another edit computes, is not dropped",
          "[app][window][requests]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    BuildGate gate(*w.session());

    editFirstSide(w, 8);
    w.applyPanel(); // 8×4 computing
    REQUIRE(w.session()->busy());
    editFirstSide(w, 4);
    w.applyPanel(); // the user changed their mind: 4×4 again, as shown
    gate.release();
    REQUIRE(settled(w));
    QCoreApplication::processEvents();

    CHECK(w.session()->scenario().topology == Topology::mesh({4, 4}));
    CHECK(w.scenarioPanel()->sideBox(0)->value() == 4);
}

TEST_CASE("latest request: a panel edit while a click is computing keeps the clicked source", "[app][window][requests]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    BuildGate gate(*w.session());

    emit w.sceneView()->input().nodeClicked(NodeId{2}); // (2,0), computing
    REQUIRE(w.session()->busy());
    editFirstSide(w, 8);
    w.applyPanel();
    gate.release();
    REQUIRE(settled(w));
    QCoreApplication::processEvents();

    CHECK(w.session()->scenario().topology == Topology::mesh({8, 4}));
    CHECK(w.session()->scenario().source == 2); // (2,0) on the 8×4 mesh too
}

TEST_CASE("latest request: Session::setSource starts from the scenario being computed", "[app][session][requests]")
{
    Session session;
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    BuildGate gate(session);
    QSignalSpy ready(&session, &Session::scheduleReady);

    SECTION("while a request computes")
    {
        session.setScenario(test::scenario("torus:5x5", "bfs", NodeId{0}));
        session.setSource(NodeId{7});
        gate.release();
        REQUIRE(test::waitFor([&] { return ready.count() == 1; }, 60000));
        CHECK(session.scenario().topology == Topology::torus({5, 5}));
        CHECK(session.scenario().algorithm == "bfs");
        CHECK(session.scenario().source == 7);
    }
    SECTION("after a cancelled request: from the scenario shown")
    {
        session.setScenario(test::scenario("torus:5x5", "bfs", NodeId{0}));
        session.cancel();
        session.setSource(NodeId{7});
        gate.release();
        REQUIRE(test::waitFor([&] { return ready.count() == 1; }, 60000));
        CHECK(session.scenario().topology == Topology::mesh({4, 4}));
        CHECK(session.scenario().source == 7);
    }
    SECTION("after a failed request: from the scenario shown")
    {
        QSignalSpy failed(&session, &Session::failed);
        session.setScenario(test::scenario("mesh:6x6", "recursive-doubling", NodeId{0})); // not a power of two
        gate.release();
        REQUIRE(failed.wait(60000));
        session.setSource(NodeId{7});
        REQUIRE(test::waitFor([&] { return ready.count() == 1; }, 60000));
        CHECK(session.scenario().topology == Topology::mesh({4, 4}));
        CHECK(session.scenario().algorithm == "binomial");
        CHECK(session.scenario().source == 7);
    }
    REQUIRE(test::waitFor([] { return QThreadPool::globalInstance()->activeThreadCount() == 0; }, 60000));
}
