#include "helpers.h"
#include "session.h"

#include <catch2/catch.hpp>

#include <QSignalSpy>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("session: computes off the GUI thread and emits a snapshot", "[app][session]")
{
    Session session;
    QSignalSpy ready(&session, &Session::scheduleReady);
    session.setScenario(test::scenario("mesh:8x8", "recursive-doubling", 9));
    REQUIRE(ready.wait(10000));
    const auto snap = ready.takeFirst().at(0).value<SnapshotPtr>();
    REQUIRE(snap);
    CHECK(snap->stepCount() == 6);
    CHECK(snap->schedule.source() == 9);
    CHECK(session.scenario().source == 9);
}

TEST_CASE("session: an invalid scenario reports a message and keeps the previous one", "[app][session]")
{
    Session session;
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "recursive-doubling")));
    const Scenario before = session.scenario();
    const SnapshotPtr snapBefore = session.snapshot();
    QSignalSpy failed(&session, &Session::failed);
    QSignalSpy ready(&session, &Session::scheduleReady);
    session.setScenario(test::scenario("mesh:6x6", "recursive-doubling"));  // 6 is not a power of two
    REQUIRE(failed.wait(10000));
    CHECK(failed.takeFirst().at(0).toString().contains(QStringLiteral("power of two")));
    CHECK(ready.isEmpty());
    CHECK(session.scenario() == before);
    CHECK(session.snapshot() == snapBefore);
}

TEST_CASE("session: only the latest of several quick requests is shown", "[app][session]")
{
    Session session;
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", 0)));
    QSignalSpy ready(&session, &Session::scheduleReady);
    for (NodeId s : {1u, 2u, 3u, 4u, 5u})
        session.setSource(s);
    REQUIRE(test::waitFor([&] { return !session.busy(); }));
    REQUIRE(ready.count() == 1);
    CHECK(session.scenario().source == 5);
}

TEST_CASE("session: an unregistered default algorithm falls back with a note", "[app][session]")
{
    Session session;
    Scenario s = test::scenario("mesh:4x4x4", "no-such-algorithm");
    CHECK_FALSE(session.setScenarioNow(s, false));
    REQUIRE(session.setScenarioNow(s, true));
    CHECK(session.snapshot()->scenario.algorithm == "recursive-doubling");
    CHECK(session.snapshot()->note.contains(QStringLiteral("no-such-algorithm")));
}
