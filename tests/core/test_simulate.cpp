// The flow-level simulation (analysis/simulate.h): the physics of shared links, as tests. One
// message alone takes the model's time; two in one direction through one link take twice as long
// on the wire, opposite directions do not share; the papers' contention-free schedules simulate
// to the engine's time to the nanosecond, and contended ones are slower where their links say.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/simulate.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/model/error.h"
#include "topocast/model/network.h"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace topocast;

namespace {

/// Transfers on a 1-D mesh of `side` nodes, all in step 1 (a broadcast's blocks: M bytes each).
Schedule simLineTransfers(int side, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs)
{
    Schedule s(Topology::mesh({side}), NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    for (const auto& [from, to] : pairs)
        s.add(NodeId{from}, NodeId{to}, StepNo{1});
    s.finalize();
    return s;
}

NetworkModel simBigMessages(std::uint64_t bytes)
{
    NetworkModel m = networkPreset("cluster");
    m.message = bytes;
    m.rendezvous = std::uint64_t{1} << 40;
    return m;
}

/// The engine's time up to the bytes: o, L, the hops, o (what sharing a link does not change).
double simFixedPart(const NetworkModel& m, std::uint32_t hops)
{
    return 2 * m.overhead * 1e9 + m.latency * 1e9 + hops * m.hopLatency * 1e9;
}

Schedule simBuild(const std::string& algorithm, const std::string& topology, const std::string& pattern,
                  NodeId source = NodeId{0})
{
    return buildSchedule(algorithm, Topology::parse(topology), source, {{"pattern", pattern}});
}

} // namespace

TEST_CASE("one message of M bytes over h hops simulates to the model's time", "[simulate]")
{
    REQUIRE(simulationAvailable());
    for (const Routing routing : {Routing::CutThrough, Routing::StoreAndForward})
        for (std::uint32_t hops : {1u, 3u, 7u})
            for (std::uint64_t bytes : {std::uint64_t{1}, std::uint64_t{4096}, std::uint64_t{1} << 20}) {
                NetworkModel m = simBigMessages(bytes);
                m.routing = routing;
                const Schedule s = simLineTransfers(8, {{0, hops}});
                const Simulation sim = simulateSchedule(s, m);
                const TimeResult engine = timeSchedule(s, m);
                INFO(toString(routing) << ", " << hops << " hops, " << bytes << " B");
                CHECK(sim.time.model == "simgrid");
                CHECK(sim.contentionFree.model == "loggp");
                CHECK(sim.time.total == Approx(engine.total).epsilon(1e-12));
                CHECK(sim.contentionFree.total == engine.total);
                CHECK(sim.contentionCost() == Approx(0).margin(1e-12));
                REQUIRE(sim.routeFirst.size() == 2);
                CHECK(sim.routeFirst[1] == hops);
                for (const LinkLoad& l : sim.links) {
                    CHECK(l.shared == 0);
                    CHECK(l.transfers == 1);
                    CHECK(l.most == 1);
                }
            }
}

TEST_CASE("two messages in one direction through one link take twice as long on the wire", "[simulate]")
{
    const NetworkModel m = simBigMessages(std::uint64_t{1} << 20);
    // 0→2 and 1→3 on a line of 4 both cross 1→2, starting together (two hops each).
    const Schedule same = simLineTransfers(4, {{0, 2}, {1, 3}});
    const Simulation sim = simulateSchedule(same, m);
    const double wire = static_cast<double>((1u << 20) - 1) * m.perByte * 1e9;
    CHECK(sim.contentionFree.total == Approx(simFixedPart(m, 2) + wire).epsilon(1e-12));
    CHECK(sim.time.total == Approx(simFixedPart(m, 2) + 2 * wire).epsilon(1e-9));
    CHECK(sim.time.transfers[0].end == Approx(sim.time.transfers[1].end).epsilon(1e-12));
    REQUIRE(!sim.links.empty());
    const LinkLoad& busiest = sim.links.front();
    CHECK(same.topology().channelName(busiest.channel) == "(1)→(2)");
    CHECK(busiest.most == 2);
    CHECK(busiest.transfers == 2);
    CHECK(busiest.shared == Approx(2 * wire).epsilon(1e-9));
    CHECK(busiest.mostStep == StepNo{1});
    CHECK(sim.contentionCost() > 0.9);
    const LinkIntervals shared = linkIntervals(sim, busiest.channel);
    REQUIRE(shared.shared.size() == 1);
    CHECK(shared.shared[0].end - shared.shared[0].start == Approx(2 * wire).epsilon(1e-9));
    CHECK(shared.busy.size() == 1);
    // The links only one of them crosses are busy, never shared.
    for (std::size_t i = 1; i < sim.links.size(); ++i) {
        CHECK(sim.links[i].shared == 0);
        CHECK(sim.links[i].most == 1);
    }
}

TEST_CASE("messages in opposite directions of one channel do not share it", "[simulate]")
{
    const NetworkModel m = simBigMessages(std::uint64_t{1} << 20);
    const Schedule opposite = simLineTransfers(4, {{0, 2}, {3, 1}});
    const Simulation sim = simulateSchedule(opposite, m);
    CHECK(sim.time.total == Approx(sim.contentionFree.total).epsilon(1e-12));
    for (const LinkLoad& l : sim.links)
        CHECK(l.shared == 0);
    CHECK(sim.links.size() == 4);
}

TEST_CASE("the papers' contention-free broadcasts simulate to the engine's time to the nanosecond", "[simulate]")
{
    // In the papers' reading (a barrier between steps) every one is free of contention; without
    // barriers the 2-D ones stay so, and binomial on an 8x8 mesh too (its distances halve: no two
    // of its messages ever meet), while Tsay-Wang's 3-D phases overlap where nothing holds them.
    for (const auto& [algorithm, topology, withoutBarriers] :
         std::vector<std::tuple<std::string, std::string, bool>>{{"cang-wu", "mesh:8x8", true},
                                                                 {"cang-wu", "torus:8x8", true},
                                                                 {"tsay-wang", "torus:8x8", true},
                                                                 {"tsay-wang", "torus:6x6x6", false},
                                                                 {"binomial", "mesh:8x8", true}})
        for (const bool steps : {false, true})
            for (const std::uint64_t bytes : {std::uint64_t{64}, std::uint64_t{1} << 20}) {
                if (!steps && !withoutBarriers)
                    continue;
                INFO(algorithm << " on " << topology << (steps ? ", steps" : ", no barriers") << ", " << bytes << " B");
                const Schedule s = simBuild(algorithm, topology, "broadcast", NodeId{3});
                const NetworkModel m = simBigMessages(bytes);
                const Simulation sim = simulateSchedule(s, m, {.steps = steps});
                CHECK(sim.time.model == (steps ? "simgrid-steps" : "simgrid"));
                CHECK(sim.time.total == Approx(sim.contentionFree.total).epsilon(1e-12));
                CHECK(sim.time.stepEnds.size() == s.stepCount());
                for (const LinkLoad& l : sim.links)
                    CHECK(l.shared == 0);
            }
}

TEST_CASE("contended schedules simulate slower, on the links that are shared", "[simulate]")
{
    const NetworkModel m = simBigMessages(std::uint64_t{1} << 20);
    // The checker counts 2 channels shared within a step for binomial on the 5x5 torus (the
    // preset "binomial broadcast with contention"); Rabenseifner's exchanges over 2 and 4 hops
    // share links four at a time.
    for (const auto& [algorithm, topology, pattern, steps] :
         std::vector<std::tuple<std::string, std::string, std::string, bool>>{
             {"binomial", "torus:5x5", "broadcast", true},
             {"rabenseifner", "torus:8x8", "allreduce", true},
             {"rabenseifner", "torus:8x8", "allreduce", false}}) {
        INFO(algorithm << " on " << topology << (steps ? ", steps" : ", no barriers"));
        const Schedule s = simBuild(algorithm, topology, pattern);
        const Simulation sim = simulateSchedule(s, m, {.steps = steps});
        CHECK(sim.time.total > sim.contentionFree.total * 1.05);
        REQUIRE(!sim.links.empty());
        CHECK(sim.links.front().shared > 0);
        CHECK(sim.links.front().most >= 2);
        // Never faster than the engine, transfer by transfer.
        for (std::size_t i = 0; i < s.size(); ++i)
            CHECK(sim.time.transfers[i].end >= sim.contentionFree.transfers[i].end - 1e-6);
    }
}

TEST_CASE("all-reduce on torus:8x8 in lock-step takes the times SimGrid gave each transfer on its route", "[simulate]")
{
    // Independent reference: the same schedules sent by SimGrid 3.32 (CM02) over dimension-order
    // routes, one link per directed channel of 10 GB/s and 1 us, steps in lock-step, no
    // overheads (figures measured outside topocast and reported with the request for this
    // simulation). Here the 1 us is topocast's latency per hop and SimGrid's links have none.
    NetworkModel m = networkPreset("cluster");
    setNetworkField(m, "bandwidth", "10GB/s");
    setNetworkField(m, "latency", "0ns");
    setNetworkField(m, "hop_latency", "1us");
    setNetworkField(m, "overhead", "0ns");
    setNetworkField(m, "gap", "0ns");
    struct Reference {
        const char* algorithm;
        std::uint64_t bytes;
        double microseconds;
    };
    for (const Reference& r :
         {Reference{"bucket", 1u << 20, 234}, Reference{"ring", 1u << 20, 332}, Reference{"bucket", 64, 28.01},
          Reference{"ring", 64, 126}, Reference{"rabenseifner", 64, 28.04}}) {
        INFO(r.algorithm << " at " << r.bytes << " B");
        m.message = r.bytes;
        const Simulation sim = simulateSchedule(simBuild(r.algorithm, "torus:8x8", "allreduce"), m, {.steps = true});
        CHECK(sim.time.total / 1e3 == Approx(r.microseconds).margin(r.microseconds < 100 ? 0.005 : 0.5));
    }
    // Rabenseifner at 1 MiB: 678 us there, where CM02 shares a link by latency (a message over
    // more hops of 1 us each gets less of it); topocast's links have no latency of their own, so
    // every message gets an equal share, and the time is 4.5 % less.
    m.message = 1u << 20;
    const Simulation rab = simulateSchedule(simBuild("rabenseifner", "torus:8x8", "allreduce"), m, {.steps = true});
    CHECK(rab.time.total / 1e3 == Approx(647.312).margin(0.001));
    CHECK(rab.contentionFree.total / 1e3 == Approx(234.437).margin(0.001));
}

TEST_CASE("a simulation refuses what it cannot do with the reason", "[simulate]")
{
    NetworkModel m = networkPreset("cluster");
    m.perByte = 0; // no bandwidth
    CHECK_THROWS_WITH(simulateSchedule(simBuild("ring", "torus:4x4", "allreduce"), m), Catch::Contains("bandwidth"));
    const SimulationEstimate small = estimateSimulation(simBuild("ring", "torus:4x4", "allreduce"));
    const SimulationEstimate big = estimateSimulation(simBuild("bucket", "torus:8x8x8", "allreduce"));
    CHECK(small.seconds < big.seconds);
    CHECK(small.bytes < big.bytes);
}
