// The time engine's fold (analysis/time_engine.h, foldSchedule): where every rank runs the same
// program, one rank stands for all. Every folded time is checked against the engine run on every
// rank — total, each rank's finish, each transfer's start and end, each step's end — across the
// reductions on tori and hypercubes, both presets, both readings and a range of sizes; and the
// schedules that must not fold (a source, a mesh's uneven hops) do not.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/sweep.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/model/units.h"

#include <catch2/catch.hpp>

#include <string>

using namespace topocast;

namespace {

Schedule build(const std::string& algorithm, const std::string& topology, const std::string& pattern)
{
    return buildSchedule(algorithm, Topology::parse(topology), NodeId{0}, {{"pattern", pattern}});
}

/// The folded time equals the time of every rank, op by op. Returns whether the fold was used
/// (it falls back to every rank where two events fall on one instant).
bool checkSameAsEveryRank(const Schedule& s, const NetworkModel& m, bool steps)
{
    const TimeResult folded = timeSchedule(s, m, {.steps = steps});
    const TimeResult whole = timeSchedule(s, m, {.steps = steps, .fold = false});
    REQUIRE(folded.total == whole.total);
    CHECK(folded.model == whole.model);
    CHECK(folded.rankFinish == whole.rankFinish);
    CHECK(folded.stepEnds == whole.stepEnds);
    REQUIRE(folded.transfers.size() == whole.transfers.size());
    for (std::size_t i = 0; i < whole.transfers.size(); ++i) {
        INFO("transfer " << i);
        CHECK(folded.transfers[i].start == whole.transfers[i].start);
        CHECK(folded.transfers[i].end == whole.transfers[i].end);
    }
    const TimeResult total = timeSchedule(s, m, {.steps = steps, .totalOnly = true});
    CHECK(total.total == whole.total);
    CHECK(total.transfers.empty());
    const auto f = foldSchedule(s, m);
    return f && timeFolded(s, *f, m, {.steps = steps});
}

} // namespace

TEST_CASE("A rank-symmetric schedule folds to one rank", "[time][fold]")
{
    const NetworkModel m = networkPreset("cluster");
    for (const auto& [algorithm, topology] :
         std::vector<std::pair<std::string, std::string>>{{"ring", "torus:4x4"},
                                                          {"ring", "torus:8x8"},
                                                          {"bucket", "torus:4x4x4"},
                                                          {"rabenseifner", "torus:8x8"},
                                                          {"rabenseifner", "hypercube:5"},
                                                          {"bucket", "hypercube:4"}}) {
        INFO(algorithm << " on " << topology);
        const Schedule s = build(algorithm, topology, "allreduce");
        const auto folded = foldSchedule(s, m);
        REQUIRE(folded);
        CHECK(folded->program.ranks == 1);
        CHECK(folded->example.size() * s.topology().nodeCount() == s.size());
    }
}

TEST_CASE("Schedules whose ranks differ do not fold", "[time][fold]")
{
    const NetworkModel m = networkPreset("cluster");
    // A broadcast has a source; a mesh's bucket folds its lines (hops 1 and 2); a reduce sends
    // from all but the root.
    CHECK_FALSE(foldSchedule(build("binomial", "torus:4x4", "broadcast"), m));
    CHECK_FALSE(foldSchedule(build("bucket", "mesh:4x4", "allreduce"), m));
    CHECK_FALSE(foldSchedule(build("binomial", "torus:4x4", "reduce"), m));
}

TEST_CASE("A folded time is the time of every rank, op by op", "[time][fold]")
{
    int cases = 0, used = 0;
    for (const std::string preset : {"cluster", "loggopsim"})
        for (const auto& [algorithm, topology, pattern] :
             std::vector<std::tuple<std::string, std::string, std::string>>{
                 {"ring", "torus:4x4", "allreduce"},
                 {"ring", "torus:6x4", "allgather"},
                 {"bucket", "torus:4x4x4", "allreduce"},
                 {"bucket", "torus:3x5", "reduce-scatter"},
                 {"rabenseifner", "torus:8x8", "allreduce"},
                 {"rabenseifner", "hypercube:5", "reduce-scatter"},
                 {"ring", "hypercube:4", "allreduce"}})
            for (const std::uint64_t size : {std::uint64_t{8}, std::uint64_t{4096}, std::uint64_t{1} << 20})
                for (const bool steps : {false, true}) {
                    NetworkModel m = networkPreset(preset);
                    m.message = size;
                    INFO(algorithm << " " << pattern << " on " << topology << ", " << preset << ", " << size
                                   << " B, steps " << steps);
                    ++cases;
                    used += checkSameAsEveryRank(build(algorithm, topology, pattern), m, steps) ? 1 : 0;
                }
    // Most cases are timed by the fold (the others fell back and still agree).
    CHECK(cases == 84);
    CHECK(used == 84);
}

TEST_CASE("A sweep times a ring on a 16x16x16 torus by its fold", "[time][fold][sweep]")
{
    SweepRequest request;
    request.topology = Topology::parse("torus:16x16x16");
    request.pattern = Pattern::Allreduce;
    request.algorithms = {"ring"};
    request.sizes = parseSizeList("8B,1MiB");
    const SweepSchedules schedules = sweepSchedules(request);
    REQUIRE(schedules.folded.size() == 1);
    REQUIRE(schedules.folded.front());
    CHECK(schedules.folded.front()->example.size() == 8190); // 2(N − 1) sends a rank
    const SweepTable table = runSweep(request, schedules);
    REQUIRE(table.rows.size() == 2);
    // 2(N−1) steps of one 1-hop message each, one after the other: at least 8190 × (o + L + hop)
    // on the cluster preset (200 ns + 1 µs + 10 ns).
    CHECK(table.rows[0].times[0] >= 8190 * 1210.0);
    CHECK(table.rows[1].times[0] > table.rows[0].times[0]);
}

TEST_CASE("A fold whose events fall on one instant falls back to every rank", "[time][fold]")
{
    // No overhead, gap, latency or hop latency: a ring's sends and arrivals coincide, so the
    // order between them is the queue's and the fold does not keep it.
    NetworkModel m = networkPreset("cluster");
    m.overhead = 0;
    m.gap = 0;
    m.latency = 0;
    m.hopLatency = 0;
    m.message = 16;
    const Schedule s = build("ring", "torus:4x4", "allreduce");
    const auto folded = foldSchedule(s, m);
    REQUIRE(folded);
    CHECK_FALSE(timeFolded(s, *folded, m));
    CHECK(timeSchedule(s, m).total == timeSchedule(s, m, {.fold = false}).total);
}
