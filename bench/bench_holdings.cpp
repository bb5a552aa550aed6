// What each node holds: build the Holdings index of a large schedule, then ask
// every node's share of its final data at every step (what a "data held" view recolours per
// step), and list one node's blocks at the last step.
// Run: ./build/bench/bench_holdings (under /usr/bin/time -v for peak memory).

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/holdings.h"

#include "holdings_fixtures.h"

#include <benchmark/benchmark.h>

using namespace topocast;
using topocast::bench::benchSchedule;
using topocast::bench::everyStepShares;

namespace {

void buildIndex(benchmark::State& state, const char* algorithm, const char* topology, const char* pattern)
{
    const Schedule s = benchSchedule(algorithm, topology, pattern);
    for (auto _ : state) {
        const Holdings h(s);
        benchmark::DoNotOptimize(h.countAt(NodeId{1}, StepNo{1}));
    }
    state.counters["transfers"] = static_cast<double>(s.size());
}

void lastStepBlocks(benchmark::State& state, const char* algorithm, const char* topology, const char* pattern)
{
    const Schedule s = benchSchedule(algorithm, topology, pattern);
    const Holdings h(s);
    std::size_t blocks = 0;
    for (auto _ : state) {
        blocks = h.blocksAt(s, NodeId{1}, StepNo{s.stepCount()}).size();
        benchmark::DoNotOptimize(blocks);
    }
    state.counters["blocks"] = static_cast<double>(blocks);
}

} // namespace

BENCHMARK_CAPTURE(buildIndex, sbnt_allgather_12cube, "sbnt", "hypercube:12", "allgather")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(buildIndex, sbnt_alltoall_10cube, "sbnt", "hypercube:10", "alltoall")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(buildIndex, bfs_broadcast_torus_64x64x64, "bfs", "torus:64x64x64", "broadcast")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(everyStepShares, sbnt_allgather_12cube, "sbnt", "hypercube:12", "allgather")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lastStepBlocks, sbnt_allgather_12cube, "sbnt", "hypercube:12", "allgather")
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
