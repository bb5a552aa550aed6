// Foundation speed: build + check + metrics of the binomial baseline on a 128×128×128
// mesh (2,097,152 nodes), with a Boost.Graph BFS on the same mesh beside it.
#include "topocast/algorithms/baselines.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/model/graph.h"

#include <benchmark/benchmark.h>

using namespace topocast;

namespace {

const Topology& bigMesh()
{
    static const Topology t = Topology::mesh({128, 128, 128});
    return t;
}

void BM_BinomialBuild(benchmark::State& state)
{
    const Topology& t = bigMesh();
    for (auto _ : state) {
        Schedule s = binomialBroadcast(t, t.id({64, 64, 64}));
        benchmark::DoNotOptimize(s.transfers().data());
        state.counters["bytes_per_transfer"] = double(sizeof(Transfer));
        state.counters["transfers"] = double(s.size());
    }
}

void BM_BinomialValidate(benchmark::State& state)
{
    const Topology& t = bigMesh();
    const Schedule s = binomialBroadcast(t, t.id({64, 64, 64}));
    for (auto _ : state) {
        ValidateOptions o;
        o.forbidStepContention = false; // contention is measured by the metrics benchmark
        const Validation v = validate(s, o);
        benchmark::DoNotOptimize(v.violationCount);
    }
}

void BM_BinomialMetrics(benchmark::State& state)
{
    const Topology& t = bigMesh();
    const Schedule s = binomialBroadcast(t, t.id({64, 64, 64}));
    for (auto _ : state) {
        const Metrics m = computeMetrics(s);
        benchmark::DoNotOptimize(m.tcd);
        state.counters["tcd"] = double(m.tcd);
        state.counters["contention"] = double(m.contentionUses);
    }
}

void BM_BoostBfs(benchmark::State& state)
{
    const Topology& t = bigMesh();
    for (auto _ : state) {
        const auto levels = bfsLevels(t, t.id({64, 64, 64}));
        benchmark::DoNotOptimize(levels.data());
    }
}

void BM_BfsBroadcastBuild(benchmark::State& state)
{
    const Topology& t = bigMesh();
    for (auto _ : state) {
        Schedule s = bfsBroadcast(t, t.id({64, 64, 64}));
        benchmark::DoNotOptimize(s.transfers().data());
    }
}

} // namespace

BENCHMARK(BM_BinomialBuild)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BinomialValidate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BinomialMetrics)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BoostBfs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BfsBroadcastBuild)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
