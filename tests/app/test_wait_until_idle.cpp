// Start-up waits without busy loops: app/main.cpp waits for the start-up
// schedule with waitUntilIdle (a QEventLoop woken by Session::busyChanged) and lets the window
// draw with runEventLoopFor (a QTimer), where it used to spin processEvents every 50 ms.
#include "helpers.h"
#include "session/session.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>
#include <regex>
#include <string>

using namespace topocast;
using namespace topocast::app;

namespace {

/// Holds each asynchronous build of `session` until `release` is set (or it is cancelled).
void holdBuilds(Session& session, const std::shared_ptr<std::atomic<bool>>& release)
{
    session.setBuildHook([release](RunProgress& control) {
        QElapsedTimer t;
        t.start();
        while (!*release && !control.cancelled && t.elapsed() < 60000)
            QThread::msleep(2);
    });
}

} // namespace

TEST_CASE("waitUntilIdle: returns once the sessions' requests are in, with their results delivered",
          "[app][session][wait]")
{
    Session a, b;
    REQUIRE(a.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    REQUIRE(b.setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{0})));
    auto release = std::make_shared<std::atomic<bool>>(false);
    holdBuilds(a, release);
    holdBuilds(b, release);
    QSignalSpy readyA(&a, &Session::scheduleReady);
    QSignalSpy readyB(&b, &Session::scheduleReady);

    SECTION("idle sessions: at once")
    {
        QElapsedTimer t;
        t.start();
        CHECK(waitUntilIdle({&a, &b}, 5000));
        CHECK(t.elapsed() < 1000);
    }
    SECTION("both computing: after both are in")
    {
        a.setScenario(test::scenario("mesh:8x8", "binomial", NodeId{3}));
        b.setScenario(test::scenario("torus:5x5", "bfs", NodeId{7}));
        QTimer::singleShot(200, [release] { *release = true; });
        REQUIRE(waitUntilIdle({&a, &b}, 60000));
        CHECK_FALSE(a.busy());
        CHECK_FALSE(b.busy());
        CHECK(readyA.count() == 1); // delivered before waitUntilIdle returned
        CHECK(readyB.count() == 1);
        CHECK(a.scenario().topology == Topology::mesh({8, 8}));
        CHECK(b.snapshot()->schedule.source() == 7);
    }
    SECTION("a failed request ends the wait too, its message delivered")
    {
        QSignalSpy failed(&a, &Session::failed);
        *release = true;
        a.setScenario(test::scenario("mesh:6x6", "recursive-doubling", NodeId{0})); // not a power of two
        REQUIRE(waitUntilIdle({&a}, 60000));
        CHECK(failed.count() == 1);
    }
    SECTION("still computing at the time limit: false, after about that long")
    {
        a.setScenario(test::scenario("mesh:8x8", "binomial", NodeId{3}));
        QElapsedTimer t;
        t.start();
        CHECK_FALSE(waitUntilIdle({&a, &b}, 300));
        CHECK(t.elapsed() >= 290);
        CHECK(t.elapsed() < 5000);
        CHECK(a.busy());
        *release = true;
        REQUIRE(waitUntilIdle({&a}, 60000));
    }
    *release = true;
    REQUIRE(test::waitFor([] { return QThreadPool::globalInstance()->activeThreadCount() == 0; }, 60000));
}

TEST_CASE("runEventLoopFor: delivers events for about that long", "[app][wait]")
{
    int ticks = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] { ++ticks; });
    tick.start(10);
    QElapsedTimer t;
    t.start();
    runEventLoopFor(200);
    CHECK(t.elapsed() >= 195);
    CHECK(t.elapsed() < 3000);
    CHECK(ticks >= 5); // the event loop ran: the timer fired while it waited
}

TEST_CASE("app/main.cpp waits on signals and timers, never in a processEvents loop", "[app][wait]")
{
    QFile main(QStringLiteral(TOPOCAST_SOURCE_DIR "/app/main.cpp"));
    REQUIRE(main.open(QIODevice::ReadOnly));
    const std::string text = main.readAll().toStdString();
    CHECK(text.find("processEvents") == std::string::npos);
    CHECK_FALSE(std::regex_search(text, std::regex(R"(\b(msleep|usleep|sleep_for|QThread::sleep)\b)")));
    CHECK(text.find("waitUntilIdle(") != std::string::npos);
}
