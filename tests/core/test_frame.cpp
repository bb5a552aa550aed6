// makeFrame: the one frame every output draws, recounted from the schedule's routes at every
// step — who holds data, what each drawn channel is doing (in use, shared, used earlier), one
// arrow per transfer along its last hop, two-way hops marked, the labels and the legend.
#include "topocast/drawing/layout_edges.h"
#include "topocast/model/routing.h"
#include "topocast/scenario/frame.h"
#include "topocast/scenario/run.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

using namespace topocast;

namespace {

Scenario frameScenario(const char* topology, const char* algorithm, const char* pattern)
{
    Scenario s;
    s.topology = Topology::parse(topology);
    s.algorithm = algorithm;
    s.source = NodeId{0};
    s.params = Params{};
    if (pattern)
        s.params.set("pattern", pattern);
    return s;
}

} // namespace

TEST_CASE("frame: states and channel roles and arrows recounted from the routes at every step", "[scenario][frame]")
{
    for (const Scenario& sc :
         {frameScenario("torus:5x5", "binomial", nullptr), frameScenario("torus:4x4", "bucket", "allreduce"),
          frameScenario("mesh:4x4", "binomial", "reduce"), frameScenario("hypercube:4", "sbnt", "scatter"),
          frameScenario("mesh:16x16", "cang-wu", nullptr)}) {
        ScenarioRun run;
        runScenario(sc, run);
        const Schedule& s = run.schedule;
        const Topology& topo = s.topology();
        const std::vector<DrawnChannel> channels = drawnChannels(topo);
        std::map<ChannelId, int> cumulative;
        for (std::uint32_t k = 0; k <= s.stepCount(); ++k) {
            INFO(sc.topology.spec() << " " << sc.algorithm << " step " << k);
            const Frame f = makeFrame(run, channels, {static_cast<int>(k), ViewMode::Contention});
            // The brute force: every hop of every transfer of the step.
            std::map<ChannelId, int> now;
            std::multiset<std::pair<NodeId, NodeId>> lastHops;
            std::set<std::pair<NodeId, NodeId>> hops;
            if (k >= 1)
                for (const Transfer& t : s.stepTransfers(StepNo{k})) {
                    const auto r = routeNodes(topo, t.from, t.to, t.route, s.dimensionOrder);
                    for (std::size_t i = 0; i + 1 < r.size(); ++i) {
                        ++now[*topo.channelBetween(r[i], r[i + 1])];
                        hops.insert({r[i], r[i + 1]});
                    }
                    lastHops.insert({r[r.size() - 2], r.back()});
                }
            for (const auto& [c, n] : now)
                cumulative[c] += n;
            REQUIRE(f.style.channelRole.size() == channels.size());
            for (std::size_t i = 0; i < channels.size(); ++i) {
                const int n = now.count(channels[i].channel) ? now[channels[i].channel] : 0;
                const int sum = cumulative.count(channels[i].channel) ? cumulative[channels[i].channel] : 0;
                const ChannelRole want = n >= 2    ? ChannelRole::Contended
                                         : n == 1  ? ChannelRole::InUse
                                         : sum > 0 ? ChannelRole::UsedEarlier
                                                   : ChannelRole::Idle;
                CHECK(f.style.channelRole[i] == want);
            }
            // One arrow per transfer, in the step's order, along its last hop; two-way where the
            // step also sends back over that link.
            REQUIRE(f.arrows.size() == lastHops.size());
            std::multiset<std::pair<NodeId, NodeId>> arrows;
            for (std::size_t i = 0; i < f.arrows.size(); ++i) {
                const FrameArrow& a = f.arrows[i];
                CHECK(a.transfer == s.stepBegin(StepNo{k}) + i);
                CHECK(a.to == s.transfers()[a.transfer].to);
                CHECK(a.twoWay == (hops.count({a.to, a.from}) > 0));
                CHECK(a.colour == Palette::normal().message);
                arrows.insert({a.from, a.to});
            }
            CHECK(arrows == lastHops);
            // States: the step's receivers that first hold data now are receiving; no node loses
            // its data; the source is the source.
            REQUIRE(f.states.size() == topo.nodeCount());
            for (NodeId v{}; v < topo.nodeCount(); ++v) {
                if (f.states[v] == NodeState::Receiving)
                    CHECK(run.informedStep[v] == k);
                if (hasRoot(s.pattern()) && v == s.source())
                    CHECK(f.states[v] == NodeState::Source);
                if (run.informedStep[v] < k && v != s.source())
                    CHECK(f.states[v] == NodeState::Informed);
            }
            CHECK(f.legend == modeLegend(&run, ViewMode::Contention, Palette::normal()));
            // Labels: every node's up to kLabelAllNodes, else the source's and the receivers',
            // lowest id first, up to kLabelReceivers.
            std::set<long long> named;
            for (const SceneLabel& l : f.labels)
                named.insert(l.node);
            if (topo.nodeCount() <= kLabelAllNodes) {
                CHECK(named.size() == topo.nodeCount());
            } else {
                std::set<long long> receivers;
                for (const auto& [from, to] : lastHops)
                    receivers.insert(static_cast<long long>(to));
                std::size_t shown = 0;
                for (const long long v : receivers)
                    if (shown++ < kLabelReceivers)
                        CHECK(named.count(v) == 1);
                CHECK(named.size() <= kLabelReceivers + 1);
                CHECK(named.count(static_cast<long long>(s.source())) == 1);
            }
        }
    }
}

TEST_CASE("frame: the mode and palette asked for are the colours drawn", "[scenario][frame]")
{
    ScenarioRun run;
    runScenario(frameScenario("torus:4x4", "ring", "allreduce"), run);
    const std::vector<DrawnChannel> channels = drawnChannels(run.topology());
    for (const ViewMode mode : {ViewMode::Plain, ViewMode::Heatmap, ViewMode::DataHeld, ViewMode::Layers}) {
        for (const Palette& pal : {Palette::normal(), Palette::print()}) {
            const Frame f = makeFrame(run, channels, {3, mode, false, pal});
            const FrameStyle style = frameStyle(run, channels, 3, mode, false, pal);
            CHECK(f.style.nodeColour == style.nodeColour);
            CHECK(f.style.channelColour == style.channelColour);
            CHECK(f.legend == modeLegend(&run, mode, pal));
            for (const FrameArrow& a : f.arrows)
                CHECK(a.colour == messageColour(mode, pal, 0, false));
        }
    }
    // Before step 1 nothing moves: no arrow.
    CHECK(makeFrame(run, channels, {0, ViewMode::Plain}).arrows.empty());
}
