#include "helpers.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"
#include "timeline/timeline.h"

#include <catch2/catch.hpp>

#include <QSignalSpy>

#include <algorithm>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("timeline: controls stay within 0..steps", "[app][timeline]")
{
    Timeline t;
    t.setStepCount(5);
    QSignalSpy changed(&t, &Timeline::stepChanged);
    t.stepBack();
    CHECK(t.step() == 0);
    CHECK(changed.isEmpty());
    t.last();
    CHECK(t.step() == 5);
    t.stepForward();
    CHECK(t.step() == 5);
    t.first();
    CHECK(t.step() == 0);
    t.setStep(3);
    t.setStepCount(2);
    CHECK(t.step() == 2);
}

TEST_CASE("timeline: playing advances through every step and stops at the end", "[app][timeline]")
{
    Timeline t;
    t.setStepCount(3);
    t.setSpeed(50);
    QSignalSpy changed(&t, &Timeline::stepChanged);
    t.play();
    REQUIRE(test::waitFor([&] { return !t.playing(); }, 5000));
    CHECK(t.step() == 3);
    REQUIRE(changed.count() == 3);
    CHECK(changed.at(0).at(0).toInt() == 1);
    CHECK(changed.at(2).at(0).toInt() == 3);
}

TEST_CASE("timeline: stepping forward then back shows the step's informed nodes again", "[app][timeline]")
{
    // Binomial broadcast on 64 nodes: after step s, 2^s nodes hold the message — the source,
    // the 2^(s−1) receivers of step s and the 2^(s−1) − 1 informed earlier; the other 64 − 2^s
    // are not yet informed (64 nodes: nothing recedes, so they have the palette's own colour).
    const SnapshotPtr snap = buildSnapshot(test::scenario("torus:4x4x4", "binomial", NodeId{21}));
    REQUIRE(snap->stepCount() == 6);
    const auto channels = drawnChannels(snap->topology());
    const Palette pal = Palette::normal();
    auto count = [](const FrameStyle& f, const Rgba& c) {
        return std::count(f.nodeColour.begin(), f.nodeColour.end(), c);
    };
    auto checkStep = [&](const FrameStyle& f, int s) {
        INFO("step " << s);
        const long informed = 1L << s;
        CHECK(count(f, pal.source) == 1);
        CHECK(count(f, pal.receiving) == informed / 2);
        CHECK(count(f, pal.informed) == informed / 2 - 1);
        CHECK(count(f, pal.uninformed) == 64 - informed);
        CHECK(f.nodeColour[21] == pal.source);
    };
    for (ViewMode mode : {ViewMode::Plain, ViewMode::Contention}) {
        Timeline t;
        t.setStepCount(static_cast<int>(snap->stepCount()));
        QSignalSpy changed(&t, &Timeline::stepChanged);
        t.setStep(2);
        checkStep(frameStyle(*snap, channels, t.step(), mode, true, pal), 2);
        t.stepForward();
        t.stepForward();
        REQUIRE(t.step() == 4);
        checkStep(frameStyle(*snap, channels, t.step(), mode, true, pal), 4);
        t.stepBack();
        t.stepBack();
        REQUIRE(t.step() == 2);
        checkStep(frameStyle(*snap, channels, t.step(), mode, true, pal), 2);
        REQUIRE(changed.count() == 5);
        CHECK(changed.at(4).at(0).toInt() == 2);
    }
}

TEST_CASE("scene style: a channel used twice in a step is red and counted", "[app][style]")
{
    const SnapshotPtr snap = snapshotFromSchedule(Scenario{}, test::contendedSchedule());
    const Topology& topo = snap->topology();
    REQUIRE(snap->metrics.contentions.size() == 1);
    const ChannelId contended = topo.channel(NodeId{1}, 0, +1);
    CHECK(snap->metrics.contentions[0].channel == contended);
    const auto channels = drawnChannels(topo);
    const Palette pal = Palette::normal();
    for (ViewMode mode : {ViewMode::Plain, ViewMode::Contention}) {
        const FrameStyle f2 = frameStyle(*snap, channels, 2, mode, false, pal);
        CHECK(f2.contendedNow == 1);
        for (std::size_t i = 0; i < channels.size(); ++i) {
            if (channels[i].channel == contended)
                CHECK(f2.channelColour[i] == pal.contention);
            else
                CHECK_FALSE(f2.channelColour[i] == pal.contention);
        }
        const FrameStyle f1 = frameStyle(*snap, channels, 1, mode, false, pal);
        CHECK(f1.contendedNow == 0);
    }
    // Heat map: step 2 load 2 on the contended channel is the top of the fixed scale.
    const FrameStyle h = frameStyle(*snap, channels, 2, ViewMode::Heatmap, false, pal);
    CHECK(h.heatMax == 2);
    for (std::size_t i = 0; i < channels.size(); ++i)
        if (channels[i].channel == contended)
            CHECK(h.channelColour[i] == heatColour(2, 2));
}

TEST_CASE("scene style: heat map uses one fixed scale", "[app][style]")
{
    CHECK(heatColour(0, 5) == heatColour(0, 9));
    CHECK(heatColour(5, 5) == heatColour(9, 9));
    CHECK_FALSE(heatColour(1, 5) == heatColour(5, 5));
    CHECK(parseViewMode(QStringLiteral("TCDmap")) == ViewMode::SourceMap);
    CHECK_FALSE(parseViewMode(QStringLiteral("rainbow")));
}

TEST_CASE("scene style: torus wrap-around channels are listed after the grid", "[app][style]")
{
    const auto ch = drawnChannels(Topology::torus({4, 4}));
    REQUIRE(ch.size() == 64); // 4·4 nodes × 4 ports
    const auto firstWrap = std::find_if(ch.begin(), ch.end(), [](const DrawnChannel& c) { return c.wrap; });
    CHECK(std::distance(ch.begin(), firstWrap) == 48);
    CHECK(std::all_of(firstWrap, ch.end(), [](const DrawnChannel& c) { return c.wrap; }));
}
