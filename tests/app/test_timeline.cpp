#include "helpers.h"
#include "scene/scenestyle.h"
#include "snapshot.h"
#include "timeline.h"

#include <catch2/catch.hpp>

#include <QSignalSpy>

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

TEST_CASE("timeline: stepping forward then back restores exactly the same frame", "[app][timeline]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("torus:4x4x4", "binomial", 21));
    const auto channels = drawnChannels(snap->topology());
    const Palette pal = Palette::normal();
    for (ViewMode mode : {ViewMode::Plain, ViewMode::Contention, ViewMode::Heatmap, ViewMode::Layers}) {
        Timeline t;
        t.setStepCount(static_cast<int>(snap->stepCount()));
        t.setStep(2);
        const FrameStyle before = frameStyle(*snap, channels, t.step(), mode, true, pal);
        t.stepForward();
        t.stepForward();
        const FrameStyle ahead = frameStyle(*snap, channels, t.step(), mode, true, pal);
        t.stepBack();
        t.stepBack();
        const FrameStyle after = frameStyle(*snap, channels, t.step(), mode, true, pal);
        CHECK(after.nodeColour == before.nodeColour);
        CHECK(after.nodeScale == before.nodeScale);
        CHECK(after.channelColour == before.channelColour);
        CHECK_FALSE(ahead.nodeColour == before.nodeColour);
    }
}

TEST_CASE("scene style: a channel used twice in a step is red and counted", "[app][style]")
{
    const SnapshotPtr snap = snapshotFromSchedule(Scenario{}, test::contendedSchedule());
    const Topology& topo = snap->topology();
    REQUIRE(snap->metrics.contentions.size() == 1);
    const ChannelId contended = topo.channel(1, 0, +1);
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
    CHECK(parseViewMode(QStringLiteral("TCDmap")) == ViewMode::TcdMap);
    CHECK_FALSE(parseViewMode(QStringLiteral("rainbow")));
}

TEST_CASE("scene style: torus wrap-around channels are listed after the grid", "[app][style]")
{
    const auto ch = drawnChannels(Topology::torus({4, 4}));
    REQUIRE(ch.size() == 64);  // 4·4 nodes × 4 ports
    const auto firstWrap = std::find_if(ch.begin(), ch.end(), [](const DrawnChannel& c) { return c.wrap; });
    CHECK(std::distance(ch.begin(), firstWrap) == 48);
    CHECK(std::all_of(firstWrap, ch.end(), [](const DrawnChannel& c) { return c.wrap; }));
}
