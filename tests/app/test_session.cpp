#include "helpers.h"
#include "session/session.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <atomic>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("session: computes off the GUI thread and emits a snapshot", "[app][session]")
{
    Session session;
    QSignalSpy ready(&session, &Session::scheduleReady);
    session.setScenario(test::scenario("mesh:8x8", "recursive-doubling", NodeId{9}));
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
    session.setScenario(test::scenario("mesh:6x6", "recursive-doubling")); // 6 is not a power of two
    REQUIRE(failed.wait(10000));
    CHECK(failed.takeFirst().at(0).toString().contains(QStringLiteral("power of two")));
    CHECK(ready.isEmpty());
    CHECK(session.scenario() == before);
    CHECK(session.snapshot() == snapBefore);
}

TEST_CASE("session: only the latest of several quick requests is shown", "[app][session]")
{
    Session session;
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    QSignalSpy ready(&session, &Session::scheduleReady);
    for (NodeId s : {NodeId{1}, NodeId{2}, NodeId{3}, NodeId{4}, NodeId{5}})
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

TEST_CASE("session: a long computation keeps the event loop turning, reports its stage and can be cancelled",
          "[app][session][robust]")
{
    Session session;
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    const SnapshotPtr before = session.snapshot();
    // The worker is held before it builds until the build is cancelled (or 60 s pass), so the
    // computation is "long" on any machine.
    std::atomic<bool> held{false};
    session.setBuildHook([&held](RunProgress& control) {
        held = true;
        QElapsedTimer t;
        t.start();
        while (!control.cancelled && t.elapsed() < 60000)
            QThread::msleep(2);
    });
    QSignalSpy ready(&session, &Session::scheduleReady);
    QSignalSpy progress(&session, &Session::progress);
    QSignalSpy cancelled(&session, &Session::cancelled);
    QSignalSpy busy(&session, &Session::busyChanged);

    // A 10 ms timer on the GUI thread while the worker computes: it keeps firing.
    int ticks = 0;
    qint64 maxGap = 0;
    QElapsedTimer gap;
    QTimer timer;
    timer.setInterval(10);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        maxGap = std::max(maxGap, gap.restart());
        ++ticks;
    });
    gap.start();
    timer.start();
    session.setScenario(test::scenario("mesh:16x16x16", "bfs", NodeId{0}));
    CHECK(session.busy());
    // The hook holds the worker, so the build cannot finish: the GUI's timer must keep firing
    // meanwhile (10 ticks, however slow a loaded machine makes them) and progress keep coming.
    REQUIRE(test::waitFor([&] { return progress.count() >= 3 && ticks >= 10; }, 30000));
    CHECK(held);
    CHECK(session.busy());
    CHECK(maxGap < 2000); // never blocked (10 ms wanted; a loaded 2-core CI machine may stall a tick)
    CHECK(progress.first().first().toString() == QStringLiteral("building the schedule"));

    session.cancel();
    CHECK_FALSE(session.busy());
    CHECK(cancelled.count() == 1);
    CHECK(busy.count() == 2); // true, then false at once
    CHECK(session.snapshot() == before);
    // The worker stops at its next stage; its result is dropped whenever it comes.
    REQUIRE(test::waitFor([] { return QThreadPool::globalInstance()->activeThreadCount() == 0; }, 60000));
    QCoreApplication::processEvents();
    CHECK(ready.count() == 0);
    CHECK(session.snapshot() == before);
    CHECK(session.scenario().topology == Topology::parse("mesh:4x4"));

    // Without the hook, a brute-force TCD source map (8×8×8, BFS has no closed-form map) runs to the end.
    session.setBuildHook({});
    session.setScenario(test::scenario("mesh:8x8x8", "bfs", NodeId{0}));
    REQUIRE(test::waitFor([&] { return ready.count() == 1; }, 60000));
    CHECK(session.snapshot()->sourceMap.size() == 512);
    CHECK_FALSE(session.busy());
}

TEST_CASE("session: a build cancelled through its control stops with RunCancelled", "[app][session][robust]")
{
    RunProgress control;
    control.cancelled = true;
    CHECK_THROWS_AS(buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{0}), {.progress = &control}),
                    RunCancelled);
    RunProgress fresh;
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{0}), {.progress = &fresh});
    CHECK(fresh.stage == RunProgress::Done);
    CHECK(fresh.mapTotal == 16); // binomial has no closed-form TCD source map: one schedule per source
    CHECK(buildStageText(fresh) == QStringLiteral("done"));
    fresh.stage = RunProgress::SourceMap;
    fresh.mapDone = 39;
    fresh.mapTotal = 512;
    CHECK(buildStageText(fresh) == QStringLiteral("source map: source 40 of 512"));
    // A map of 128 sources or more is estimated before it starts, and the estimate is said.
    RunProgress large;
    buildSnapshot(test::scenario("mesh:16x8", "binomial", NodeId{0}), {.progress = &large});
    CHECK(large.mapTotal == 128);
    CHECK(large.mapWorkers >= 1u);
    CHECK(large.mapSeconds > 0.0);
    large.stage = RunProgress::SourceMap;
    large.mapDone = 9;
    large.mapSeconds = 480;
    large.mapWorkers = 2;
    CHECK(buildStageText(large) == QStringLiteral("source map: source 10 of 128 (about 8 min on 2 cores)"));
}

TEST_CASE("session: a network too large for the 3-D view is refused with what it would need", "[app][session][robust]")
{
    // 128³: 2 097 152 nodes × 112 B + 12 484 608 directed channels × 72 B = 1.06 GiB > 1 GiB.
    Session session;
    REQUIRE(session.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    QSignalSpy failed(&session, &Session::failed);
    CHECK_FALSE(session.setScenarioNow(test::scenario("mesh:128x128x128", "bfs", NodeId{0})));
    REQUIRE(failed.count() == 1);
    const QString message = failed.first().first().toString();
    CHECK(message.startsWith(
        QStringLiteral("the 3-D view of the 128×128×128 mesh would need 1.1 GiB (2097152 nodes × 112 B + "
                       "12484608 channels × 72 B); the view's limit is 1 GiB")));
    CHECK(session.scenario().topology == Topology::parse("mesh:4x4"));
    CHECK_THROWS_WITH(checkViewMemory(Topology::parse("hypercube:24")), Catch::Contains("24-cube would need"));
    // 96³ mesh: 884736 nodes × 112 B + 6 · 95·96² = 5253120 directed channels × 72 B = 455.2 MiB.
    CHECK(viewMemoryBytes(Topology::parse("mesh:96x96x96")) == 884736ull * 112 + 5253120ull * 72);
    CHECK(viewMemoryBytes(Topology::parse("mesh:96x96x96")) == 477315072ull);
    CHECK_NOTHROW(checkViewMemory(Topology::parse("mesh:96x96x96")));
    // 32³ torus: 32768 nodes × 112 B + 6 · 32768 channels × 72 B = 17 MiB.
    CHECK(viewMemoryBytes(Topology::parse("torus:32x32x32")) == 17825792ull);
    CHECK_NOTHROW(checkViewMemory(Topology::parse("torus:32x32x32")));
    // 128³ mesh: 2097152 × 112 B + 6 · 127·128² = 12484608 × 72 B = 1133772800 B > 1 GiB = 1073741824 B.
    CHECK(viewMemoryBytes(Topology::parse("mesh:128x128x128")) == 1133772800ull);
}
