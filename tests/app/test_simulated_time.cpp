// Simulated time in the app (View ▸ Simulated time, the Links dock): every link drawn in the
// colour of the messages crossing it at the moment shown, checked against the simulation's own
// hop intervals forwards and back; the messages a frame moves; the legend, the narration, the
// Links dock's rows and a click that finds a link; and, on GL, the contended links' pixels.
#include "helpers.h"
#include "mainwindow.h"
#include "panels/linkspanel.h"
#include "scene/sceneview.h"
#include "scene/simulatedframes.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "window/linksdock.h"

#include "topocast/analysis/simulate.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QTest>

#include <memory>

using namespace topocast;
using namespace topocast::app;

namespace {

/// Rabenseifner's all-reduce on torus:8x8 at 1 MiB: its first steps send over 4 hops, four
/// messages to a link.
Scenario simulatedScenario()
{
    Scenario s = test::scenario("torus:8x8", "rabenseifner", NodeId{0});
    NetworkModel net;
    net.message = std::uint64_t{1} << 20;
    s.network = net;
    return s;
}

std::shared_ptr<const SimulatedPlayback> simulatedPlayback(const Snapshot& snap)
{
    auto sim = std::make_shared<const Simulation>(simulateSchedule(snap.schedule, snap.scenario.network.value()));
    return std::make_shared<const SimulatedPlayback>(snap.schedule, std::move(sim));
}

/// Messages crossing `channel` at `t`, and whether one had crossed it before.
std::pair<std::uint32_t, bool> simulatedBrute(const Simulation& s, ChannelId channel, double t)
{
    std::uint32_t n = 0;
    bool before = false;
    for (std::size_t k = 0; k < s.hopTimes.size(); ++k)
        if (s.routeLinks[k] == channel && s.hopTimes[k].end > s.hopTimes[k].start) {
            n += s.hopTimes[k].start <= t && t < s.hopTimes[k].end ? 1 : 0;
            before = before || s.hopTimes[k].start < t;
        }
    return {n, before};
}

} // namespace

TEST_CASE("simulated time: every link in the colour of the messages crossing it at the moment, forwards and back",
          "[app][simulate]")
{
    REQUIRE(simulationAvailable());
    const SnapshotPtr snap = buildSnapshot(simulatedScenario());
    const auto playback = simulatedPlayback(*snap);
    SceneView scene;
    scene.setSnapshot(snap);
    const auto channels = drawnChannels(snap->topology());
    const std::size_t nodes = snap->topology().nodeCount();
    const FrameStyle steps = scene.frame().style;
    scene.setSimulation(playback);
    REQUIRE(scene.simulation() == playback);
    std::uint32_t most = 0;
    for (const auto& [step, fraction] : std::vector<std::pair<int, float>>{
             {1, 0.0f}, {1, 0.3f}, {1, 0.8f}, {3, 0.5f}, {2, 0.2f}, {1, 0.1f}, {7, 0.6f}, {12, 1.0f}, {4, 0.9f}}) {
        scene.setStep(step);
        scene.setFraction(fraction);
        const double t = playback->timeAt(static_cast<std::uint32_t>(step), fraction);
        REQUIRE(scene.simulatedTime() == t);
        const FrameStyle& f = scene.frame().style;
        REQUIRE(f.channelColour.size() == channels.size());
        for (std::size_t i = 0; i < channels.size(); ++i) {
            const auto [n, before] = simulatedBrute(playback->simulation(), channels[i].channel, t);
            INFO("step " << step << " fraction " << fraction << ", "
                         << snap->topology().channelName(channels[i].channel) << ": " << n << " messages");
            REQUIRE(f.channelColour[i] == simulatedLinkColour(scene.choice().palette(), nodes, n, before));
            most = std::max(most, n);
        }
        // The messages drawn: every hop of the step's window (its own and other steps' messages).
        const auto hops = playback->hopsBetween(playback->stepEnd(step - 1), playback->stepEnd(step));
        CHECK(static_cast<std::size_t>(scene.layers().messages->instanceCount()) == hops.size());
    }
    CHECK(most == 4); // four messages over 4 hops share a link in Rabenseifner's first step

    // Steps again: the step's own colours.
    scene.setSimulation(nullptr);
    scene.setStep(0);
    CHECK(scene.frame().style.channelColour == steps.channelColour);
    // A new schedule drops a simulation made for another.
    scene.setSimulation(playback);
    scene.setSnapshot(buildSnapshot(test::scenario("torus:8x8", "ring", NodeId{0})));
    CHECK(scene.simulation() == nullptr);
}

TEST_CASE("simulated time: the legend names the link colours drawn, the step mode's are gone",
          "[app][simulate][legend]")
{
    const SnapshotPtr snap = buildSnapshot(simulatedScenario());
    const Palette pal = Palette::normal();
    for (const ViewMode mode : {ViewMode::Plain, ViewMode::Contention, ViewMode::Heatmap}) {
        const auto entries = legendEntries(snap.get(), mode, pal, true);
        auto has = [&](const QString& text, Rgba colour) {
            return std::any_of(entries.begin(), entries.end(),
                               [&](const auto& e) { return e.second == text && e.first == colour.to<QColor>(); });
        };
        const std::size_t n = snap->topology().nodeCount();
        CHECK(has(QStringLiteral("one message: all of the link's bandwidth"), simulatedLinkColour(pal, n, 1, false)));
        CHECK(has(QStringLiteral("two messages share the link: half each"), simulatedLinkColour(pal, n, 2, false)));
        CHECK(has(QStringLiteral("three or more share it: a third or less each"), pal.contention));
        CHECK(has(QStringLiteral("link idle, used earlier"), pal.linkUsed));
        for (const auto& e : entries) {
            CHECK(e.second != QStringLiteral("channel in use now"));
            CHECK(e.second != QStringLiteral("unused channel"));
        }
    }
    // Two messages and three are told apart, and neither is the one-message yellow.
    const Rgba two = simulatedLinkColour(pal, 64, 2, false);
    CHECK_FALSE(test::colourNear(two.to<QColor>(), pal.inFlight, 30));
    CHECK_FALSE(test::colourNear(two.to<QColor>(), pal.contention, 30));
}

TEST_CASE(
    "simulated time in the window: the Links dock charts the links, a click finds one, the narration says the cost",
    "[app][simulate][window]")
{
    REQUIRE(simulationAvailable());
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(simulatedScenario()));
    setSimulatedTime(w, true);
    REQUIRE(waitForSimulation(w, 60000));
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("linksDock"));
    REQUIRE(dock);
    CHECK(dock->isVisibleTo(&w));
    REQUIRE(w.sceneView()->simulation());
    auto* panel = w.findChild<LinksPanel*>();
    REQUIRE(panel);
    const auto& rows = panel->gantt().rows();
    REQUIRE(rows.size() >= 2);
    for (std::size_t i = 1; i < rows.size(); ++i)
        CHECK(rows[i - 1].shared >= rows[i].shared); // the most shared first
    CHECK(rows.front().most == 4);
    CHECK(panel->summary().contains(QStringLiteral("Contention costs")));
    CHECK(panel->summary().contains(QStringLiteral("M = 1 MiB")));

    w.timeline()->setStep(1);
    CHECK(w.narration().contains(QStringLiteral("Simulated: step 1's last message arrives at")));
    CHECK(w.narration().contains(QStringLiteral("carries 4 messages at once")));

    // A click on the second row chooses its link: drawn in the highlight colour.
    auto& gantt = const_cast<LinkGantt&>(panel->gantt());
    QTest::mouseClick(&gantt, Qt::LeftButton, {}, QPoint(20, LinkGantt::kAxisHeight + LinkGantt::kRowHeight + 5));
    REQUIRE(w.sceneView()->selectedChannel() == rows[1].channel);
    const auto channels = drawnChannels(w.sceneView()->snapshot()->topology());
    for (std::size_t i = 0; i < channels.size(); ++i)
        if (channels[i].channel == rows[1].channel)
            CHECK(w.sceneView()->frame().style.channelColour[i] == kHighlightColour);

    // Steps in lock-step by default (each step's messages in its own window); without the barrier
    // the schedule is simulated again, each send as soon as its data and ports allow.
    CHECK(w.sceneView()->simulation()->simulation().time.model == "simgrid-steps");
    CHECK(panel->summary().contains(QStringLiteral("a barrier between steps")));
    auto* barrier = panel->findChild<QCheckBox*>(QStringLiteral("barrierBox"));
    REQUIRE(barrier);
    barrier->setChecked(false);
    REQUIRE(test::waitFor(
        [&] {
            return w.sceneView()->simulation() && w.sceneView()->simulation()->simulation().time.model == "simgrid";
        },
        60000));
    CHECK(panel->summary().contains(QStringLiteral("each send as soon as its data and ports allow")));

    setSimulatedTime(w, false);
    CHECK(w.sceneView()->simulation() == nullptr);
    CHECK_FALSE(w.narration().contains(QStringLiteral("Simulated:")));
}

TEST_CASE("simulated time: contended links show the contention colour on screen while their messages move",
          "[app][simulate][gl]")
{
    REQUIRE(simulationAvailable());
    const SnapshotPtr snap = buildSnapshot(simulatedScenario());
    const auto playback = simulatedPlayback(*snap);
    SceneView scene;
    scene.window()->resize(1200, 800);
    scene.window()->show();
    scene.setSnapshot(snap);
    scene.setSimulation(playback);
    scene.setStep(1);
    scene.setFraction(0.4f);
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    const double t = scene.simulatedTime();
    const Topology& topo = snap->topology();
    int contended = 0, seen = 0;
    for (const DrawnChannel& c : drawnChannels(topo)) {
        if (c.wrap || simulatedBrute(playback->simulation(), c.channel, t).first < 3)
            continue;
        ++contended;
        // A quarter of the way along the link: clear of the nodes and of the messages in its middle.
        const QPointF a = scene.camera().nodeOnScreen(c.tail), b = scene.camera().nodeOnScreen(c.head);
        const QPointF p = a + (b - a) * 0.3;
        seen += test::pixelNear(
            img, p, 4, [&](QColor px) { return test::colourNear(px, scene.choice().palette().contention, 40); });
    }
    INFO(seen << " of " << contended << " contended links show the contention colour");
    REQUIRE(contended > 20);
    CHECK(seen >= contended * 9 / 10);
}
