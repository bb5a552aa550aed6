// Playing a simulation back (analysis/simulated_playback.h): the timeline's clock, the messages
// a frame draws and the link counts, checked against brute force over the simulation's own hop
// intervals on a contended schedule (binomial broadcast on torus:5x5) in both routings.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/simulate.h"
#include "topocast/analysis/simulated_playback.h"
#include "topocast/model/network.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace topocast;

namespace {

struct PlaybackCase {
    Schedule schedule;
    std::shared_ptr<const Simulation> sim;
};

PlaybackCase playbackCase(Routing routing, bool steps)
{
    Schedule s = buildSchedule("binomial", Topology::parse("torus:5x5"), NodeId{0}, {{"pattern", "broadcast"}});
    NetworkModel m = networkPreset("cluster");
    m.message = std::uint64_t{1} << 20;
    m.routing = routing;
    auto sim = std::make_shared<const Simulation>(simulateSchedule(s, m, {.steps = steps}));
    return {std::move(s), std::move(sim)};
}

/// Messages on `channel` at `t` by brute force: hops with start ≤ t < end.
std::uint32_t playbackBruteCount(const Simulation& s, ChannelId channel, double t)
{
    std::uint32_t n = 0;
    for (std::size_t k = 0; k < s.hopTimes.size(); ++k)
        if (s.routeLinks[k] == channel && s.hopTimes[k].start <= t && t < s.hopTimes[k].end)
            ++n;
    return n;
}

} // namespace

TEST_CASE("the playback clock runs from 0 to the last arrival, never back", "[simulate][playback]")
{
    REQUIRE(simulationAvailable());
    for (const bool steps : {false, true}) {
        const PlaybackCase c = playbackCase(Routing::CutThrough, steps);
        const SimulatedPlayback p(c.schedule, c.sim);
        REQUIRE(p.stepCount() == c.schedule.stepCount());
        CHECK(p.timeAt(0, 0.5) == 0.0);
        double last = 0;
        for (std::uint32_t k = 1; k <= p.stepCount(); ++k)
            for (const double f : {0.0, 0.25, 0.5, 1.0}) {
                const double t = p.timeAt(k, f);
                CHECK(t >= last);
                last = t;
            }
        double arrival = 0;
        for (const OpTiming& t : c.sim->time.transfers)
            arrival = std::max(arrival, t.end);
        CHECK(p.stepEnd(p.stepCount()) == arrival);
        CHECK(p.timeAt(p.stepCount(), 1.0) == arrival);
        CHECK(arrival <= c.sim->time.total);
        if (steps) // with barriers each step's end is its own last arrival
            for (std::uint32_t k = 1; k <= p.stepCount(); ++k)
                CHECK(p.stepEnd(k) == c.sim->time.stepEnds[k - 1]);
    }
}

TEST_CASE("link counts at any moment are the hops in flight there, forwards and back", "[simulate][playback]")
{
    REQUIRE(simulationAvailable());
    for (const Routing routing : {Routing::CutThrough, Routing::StoreAndForward}) {
        const PlaybackCase c = playbackCase(routing, false);
        const Simulation& s = *c.sim;
        const std::uint64_t channels = c.schedule.topology().channelCount();
        LinkOccupancy occ(s, channels);
        std::vector<std::uint32_t> before(channels, 0);
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> at(-1.0, s.time.total * 1.05);
        std::vector<double> moments{0.0, s.time.total};
        for (int i = 0; i < 60; ++i)
            moments.push_back(at(rng));
        for (const OpTiming& h : s.hopTimes) // exactly on beginnings and ends, too
            moments.push_back(h.start), moments.push_back(h.end);
        std::shuffle(moments.begin(), moments.end(), rng);
        moments.resize(std::min<std::size_t>(moments.size(), 150));
        std::uint32_t most = 0;
        for (const double t : moments) {
            const std::vector<ChannelId> changed = occ.moveTo(t);
            for (std::uint64_t ch = 0; ch < channels; ++ch) {
                const std::uint32_t n = playbackBruteCount(s, ChannelId{ch}, t);
                INFO(toString(routing) << " at " << t << " ns on " << c.schedule.topology().channelName(ChannelId{ch}));
                REQUIRE(occ.count(ChannelId{ch}) == n);
                if (n != before[ch])
                    CHECK(std::find(changed.begin(), changed.end(), ChannelId{ch}) != changed.end());
                before[ch] = n;
                most = std::max(most, n);
            }
        }
        // The most any link carried at once, as the simulation counted it, is reached.
        CHECK(most <= s.links.front().most);
        CHECK(s.links.front().most >= 2);
    }
}

TEST_CASE("a frame's messages are the hops on their way in its window, in route order", "[simulate][playback]")
{
    REQUIRE(simulationAvailable());
    for (const Routing routing : {Routing::CutThrough, Routing::StoreAndForward}) {
        const PlaybackCase c = playbackCase(routing, false);
        const SimulatedPlayback p(c.schedule, c.sim);
        const Simulation& s = *c.sim;
        std::vector<bool> drawn(c.schedule.transfers().size(), false);
        std::size_t early = 0; // messages through before their step's window
        for (std::uint32_t k = 1; k <= p.stepCount(); ++k) {
            const double from = p.stepEnd(k - 1), to = p.stepEnd(k);
            const std::vector<PlaybackHop> hops = p.hopsBetween(from, to);
            // Every transfer whose bytes are on the wire in the window is drawn, each of its hops
            // once; without barriers a message of one step may travel in another step's window.
            for (std::size_t t = 0; t < c.schedule.transfers().size(); ++t) {
                const std::uint64_t first = s.routeFirst[t], last = s.routeFirst[t + 1];
                const bool onWire = first < last && s.hopTimes[first].start <= to && s.hopTimes[last - 1].end >= from;
                const auto n =
                    std::count_if(hops.begin(), hops.end(), [&](const PlaybackHop& h) { return h.transfer == t; });
                CHECK((n > 0) == onWire);
                CHECK(static_cast<std::uint64_t>(n) <= last - first);
                if (c.schedule.transfers()[t].step == StepNo{k})
                    drawn[t] = drawn[t] || n > 0;
            }
            for (std::size_t i = 0; i < hops.size(); ++i) {
                const PlaybackHop& h = hops[i];
                CHECK(h.begin < h.end);
                CHECK(h.end >= from);
                CHECK(h.begin <= to);
                // One after the other along the route, from the bytes' first moment to their last.
                if (i > 0 && hops[i - 1].transfer == h.transfer) {
                    CHECK(hops[i - 1].hop + 1 == h.hop);
                    CHECK(hops[i - 1].end <= h.begin + 1e-6);
                }
                if (h.hop == 0)
                    CHECK(h.begin == s.hopTimes[s.routeFirst[h.transfer]].start);
                if (h.hop + 1 == h.hops)
                    CHECK(h.end == Approx(s.hopTimes[s.routeFirst[h.transfer + 1] - 1].end));
            }
        }
        for (std::size_t t = 0; t < drawn.size(); ++t)
            if (!drawn[t]) { // arrived before its step's window began: drawn in an earlier one
                ++early;
                CHECK(s.hopTimes[s.routeFirst[t + 1] - 1].end < p.stepEnd(c.schedule.transfers()[t].step.value() - 1));
            }
        INFO(early << " messages arrive before their step's window");
        CHECK(early < drawn.size());
    }
}

TEST_CASE("the narration's sentences name the cost and the most shared link", "[simulate][playback]")
{
    REQUIRE(simulationAvailable());
    const PlaybackCase c = playbackCase(Routing::CutThrough, true);
    const Simulation& s = *c.sim;
    const Topology& topo = c.schedule.topology();
    const std::string whole = contentionSentence(s, topo);
    INFO(whole);
    CHECK(whole.rfind("contention costs ", 0) == 0);
    CHECK(whole.find(topo.channelName(s.links.front().channel)) != std::string::npos);
    const LinkLoad& worst = s.links.front();
    const std::string step = stepContentionSentence(s, topo, worst.mostStep);
    INFO(step);
    CHECK(step.find("step " + std::to_string(worst.mostStep.value())) != std::string::npos);
    CHECK(step.find(" messages at once") != std::string::npos);
    CHECK(stepContentionSentence(s, topo, StepNo{1}).find("as without contention") != std::string::npos);
    CHECK(stepContentionSentence(s, topo, StepNo{0}).empty());
}
