// The reductions: the ring all-reduce on torus:32x32 (1024 nodes, 2046 steps,
// 2.1 million transfers) and the bucket all-reduce on torus:16x16x16 (4096 nodes and chunks, 90
// steps) — build, check every partial result, index what every node holds, and every node's
// share of its result at every step — and the binomial reduce on a 16-cube.
// Run: ./build/bench/bench_collectives (under /usr/bin/time -v for peak memory).

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/validate.h"

#include "holdings_fixtures.h"

#include <benchmark/benchmark.h>

using namespace topocast;
using topocast::bench::benchSchedule;
using topocast::bench::check;
using topocast::bench::everyStepShares;

namespace {

void build(benchmark::State& state, const char* algorithm, const char* topology, const char* pattern)
{
    std::size_t transfers = 0;
    for (auto _ : state)
        transfers = benchSchedule(algorithm, topology, pattern).size();
    state.counters["transfers"] = static_cast<double>(transfers);
}

void holdings(benchmark::State& state, const char* algorithm, const char* topology, const char* pattern)
{
    const Schedule s = benchSchedule(algorithm, topology, pattern);
    for (auto _ : state) {
        const Holdings h(s);
        benchmark::DoNotOptimize(h.countAt(NodeId{1}, StepNo{1}));
    }
}

} // namespace

BENCHMARK_CAPTURE(build, ring_allreduce_torus_32x32, "ring", "torus:32x32", "allreduce")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(check, ring_allreduce_torus_32x32, "ring", "torus:32x32", "allreduce")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(holdings, ring_allreduce_torus_32x32, "ring", "torus:32x32", "allreduce")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(everyStepShares, ring_allreduce_torus_32x32, "ring", "torus:32x32", "allreduce")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build, bucket_allreduce_torus_16x16x16, "bucket", "torus:16x16x16", "allreduce")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(check, bucket_allreduce_torus_16x16x16, "bucket", "torus:16x16x16", "allreduce")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(holdings, bucket_allreduce_torus_16x16x16, "bucket", "torus:16x16x16", "allreduce")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(everyStepShares, bucket_allreduce_torus_16x16x16, "bucket", "torus:16x16x16", "allreduce")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(build, binomial_reduce_16cube, "binomial", "hypercube:16", "reduce")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(check, binomial_reduce_16cube, "binomial", "hypercube:16", "reduce")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
