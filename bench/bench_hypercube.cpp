// Hypercube spanning graphs: build SBnT and nESBT for n = 20 (1,048,576 nodes) with all
// per-dimension counters, and generate the one-to-all personalized schedule for n = 16.
// Run: ./build/bench/bench_hypercube --benchmark_filter=… (one at a time under /usr/bin/time -v
// for peak memory).

#include "topocast/algorithms/hypercube.h"
#include "topocast/algorithms/hypercube_graphs.h"
#include "topocast/algorithms/hypercube_schedule.h"

#include <benchmark/benchmark.h>

using namespace topocast;
using namespace topocast::hypercube;

namespace {

void buildGraphOnly(benchmark::State& state, GraphKind kind)
{
    const int n = static_cast<int>(state.range(0));
    for (auto _ : state) {
        SpanningGraph g = buildGraph(kind, n);
        benchmark::DoNotOptimize(g.parent.data());
    }
    state.counters["nodes"] = static_cast<double>(1u << n);
}

void buildGraphAndCounters(benchmark::State& state, GraphKind kind)
{
    const int n = static_cast<int>(state.range(0));
    for (auto _ : state) {
        const SpanningGraph g = buildGraph(kind, n);
        const Counters k = computeCounters(g);
        benchmark::DoNotOptimize(k.r.data());
    }
    state.counters["nodes"] = static_cast<double>(1u << n);
}

void scatterSchedule(benchmark::State& state, const char* algorithm, Ports ports, bool convert)
{
    const int n = static_cast<int>(state.range(0));
    const ScheduleRequest rq{algorithm, Pattern::Scatter, ports, {n, 1, 1, 1.0, 1.0}, NodeId{0}, ""};
    std::size_t transfers = 0, moves = 0;
    for (auto _ : state) {
        RawSchedule raw = generateSchedule(rq);
        transfers = raw.transfers.size();
        moves = 0;
        for (const auto& t : raw.transfers)
            moves += t.blocks.size();
        if (convert) {
            Schedule s = hypercubeSchedule(raw, rq, Topology::hypercube(n));
            benchmark::DoNotOptimize(s.transfers().data());
        }
        benchmark::DoNotOptimize(raw.transfers.data());
    }
    state.counters["transfers"] = static_cast<double>(transfers);
    state.counters["block_moves"] = static_cast<double>(moves);
}

} // namespace

BENCHMARK_CAPTURE(buildGraphOnly, sbnt, GraphKind::Sbnt)->Arg(20)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(buildGraphOnly, nesbt, GraphKind::Nesbt)->Arg(20)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(buildGraphAndCounters, sbnt, GraphKind::Sbnt)->Arg(20)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK_CAPTURE(buildGraphAndCounters, nesbt, GraphKind::Nesbt)
    ->Arg(20)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);
BENCHMARK_CAPTURE(scatterSchedule, sbnt_nport, "sbnt", Ports::N, false)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);
BENCHMARK_CAPTURE(scatterSchedule, sbt_oneport, "sbt", Ports::One, false)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);
BENCHMARK_CAPTURE(scatterSchedule, sbnt_nport_to_schedule, "sbnt", Ports::N, true)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);
BENCHMARK_CAPTURE(scatterSchedule, sbntc_nport, "sbntc", Ports::N, false)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK_MAIN();
