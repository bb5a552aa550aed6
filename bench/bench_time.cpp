// The time engine (analysis/time_engine.h) against the checker on the largest schedules the
// suite builds: the ring all-reduce on torus:32x32 (2046 steps, 2.1 million transfers) and the
// bucket all-reduce on torus:16x16x16 — the schedule as a program of sends and receives, the
// engine without barriers and with a barrier between steps, folded (every rank runs the same
// program, so one stands for all) and on every rank, and validate() beside them, measured in one
// run. Run: ./build/bench/bench_time (under /usr/bin/time -v for peak memory).

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/analysis/validate.h"

#include "holdings_fixtures.h"

#include <benchmark/benchmark.h>

using namespace topocast;
using topocast::bench::benchSchedule;
using topocast::bench::check;

namespace {

void program(benchmark::State& state, const char* algorithm, const char* topology, const char* pattern)
{
    const Schedule s = benchSchedule(algorithm, topology, pattern);
    for (auto _ : state)
        benchmark::DoNotOptimize(scheduleProgram(s, NetworkModel{}).ops.size());
}

void timed(benchmark::State& state, const char* algorithm, const char* topology, const char* pattern, bool steps,
           bool fold = true)
{
    const Schedule s = benchSchedule(algorithm, topology, pattern);
    NetworkModel m;
    m.message = std::uint64_t{1} << 20;
    double total = 0;
    for (auto _ : state)
        total = timeSchedule(s, m, {.steps = steps, .fold = fold}).total;
    state.counters["total_us"] = total / 1e3;
}

} // namespace

BENCHMARK_CAPTURE(check, ring_allreduce_torus_32x32, "ring", "torus:32x32", "allreduce")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(program, ring_allreduce_torus_32x32, "ring", "torus:32x32", "allreduce")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(timed, ring_allreduce_torus_32x32, "ring", "torus:32x32", "allreduce", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(timed, ring_allreduce_torus_32x32_steps, "ring", "torus:32x32", "allreduce", true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(timed, ring_allreduce_torus_32x32_every_rank, "ring", "torus:32x32", "allreduce", false, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(check, bucket_allreduce_torus_16x16x16, "bucket", "torus:16x16x16", "allreduce")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(timed, bucket_allreduce_torus_16x16x16, "bucket", "torus:16x16x16", "allreduce", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(timed, bucket_allreduce_torus_16x16x16_every_rank, "bucket", "torus:16x16x16", "allreduce", false,
                  false)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
