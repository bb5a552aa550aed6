// The flow-level simulation (analysis/simulate.h) on the schedules the issue sizes it by — the
// bucket all-reduce on torus:16x16x16 (368,640 transfers, one hop each), Rabenseifner on the same
// torus (98,304 transfers over up to 8 hops, contended), the ring on torus:32x32 — beside the
// time engine on the same schedule, measured in one run, with the estimate printed as a counter
// (estimateSimulation's constants come from here). The simulation runs in a child process;
// run under /usr/bin/time -v for the peak memory (children included).
// Run: ./build/bench/bench_simulate

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/simulate.h"
#include "topocast/analysis/time_engine.h"

#include "holdings_fixtures.h"

#include <benchmark/benchmark.h>

using namespace topocast;
using topocast::bench::benchSchedule;

namespace {

NetworkModel megabyte()
{
    NetworkModel m;
    m.message = std::uint64_t{1} << 20;
    return m;
}

void simulated(benchmark::State& state, const char* algorithm, const char* topology, bool steps)
{
    const Schedule s = benchSchedule(algorithm, topology, "allreduce");
    double total = 0, cost = 0;
    for (auto _ : state) {
        const Simulation sim = simulateSchedule(s, megabyte(), {.steps = steps});
        total = sim.time.total;
        cost = sim.contentionCost();
    }
    state.counters["total_us"] = total / 1e3;
    state.counters["contention_pct"] = cost * 100;
    state.counters["estimate_s"] = estimateSimulation(s).seconds;
    state.counters["transfers"] = static_cast<double>(s.size());
}

void engine(benchmark::State& state, const char* algorithm, const char* topology, bool steps)
{
    const Schedule s = benchSchedule(algorithm, topology, "allreduce");
    double total = 0;
    for (auto _ : state)
        total = timeSchedule(s, megabyte(), {.steps = steps, .fold = false}).total;
    state.counters["total_us"] = total / 1e3;
}

} // namespace

BENCHMARK_CAPTURE(simulated, bucket_torus_16x16x16, "bucket", "torus:16x16x16", false)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(engine, bucket_torus_16x16x16, "bucket", "torus:16x16x16", false)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(simulated, bucket_torus_16x16x16_steps, "bucket", "torus:16x16x16", true)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(simulated, rabenseifner_torus_16x16x16, "rabenseifner", "torus:16x16x16", false)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(engine, rabenseifner_torus_16x16x16, "rabenseifner", "torus:16x16x16", false)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(simulated, ring_torus_32x32, "ring", "torus:32x32", false)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(simulated, rabenseifner_torus_8x8, "rabenseifner", "torus:8x8", true)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
