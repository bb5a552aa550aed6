// Tsay & Wang all-port torus broadcast: build the schedule, and run the checker
// (validate + CDO start rule + step count + metrics) for d = 3, n = 49 (117,649 nodes) and
// d = 2, n = 625 (390,625 nodes), in both variants.
//   ./build-rel/bench/bench_tsay_wang
// Peak memory: /usr/bin/time -v ./build-rel/bench/bench_tsay_wang --benchmark_filter=<one>
#include "topocast/algorithms/tsay_wang.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"

#include <benchmark/benchmark.h>

#include <stdexcept>
#include <vector>

using namespace topocast;

namespace {

Topology cubicTorus(int d, int n)
{
    return Topology::torus(std::vector<int>(static_cast<std::size_t>(d), n));
}

TsayWangVariant variantOf(std::int64_t v)
{
    return v == 0 ? TsayWangVariant::Paper : TsayWangVariant::DirectFinal;
}

void BM_TsayWangBuild(benchmark::State& state)
{
    const Topology topo = cubicTorus(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    const TsayWangVariant v = variantOf(state.range(2));
    for (auto _ : state) {
        Schedule s = tsayWangBroadcast(topo, NodeId{topo.nodeCount() / 2}, v);
        benchmark::DoNotOptimize(s.size());
    }
    state.counters["transfers"] = static_cast<double>(topo.nodeCount() - 1);
    state.SetLabel(toString(v));
}

void BM_TsayWangCheck(benchmark::State& state)
{
    const Topology topo = cubicTorus(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    const TsayWangVariant v = variantOf(state.range(2));
    const Schedule s = tsayWangBroadcast(topo, NodeId{topo.nodeCount() / 2}, v);
    for (auto _ : state) {
        const Validation val = validate(s);
        const auto routes = cyclicRouteViolations(s);
        const auto steps = tsayWangStepViolations(s, v);
        if (!val.ok() || !routes.empty() || !steps.empty())
            throw std::runtime_error("tsay-wang schedule failed its check");
        benchmark::DoNotOptimize(val.violationCount);
    }
    state.SetLabel(toString(v));
}

void BM_TsayWangMetrics(benchmark::State& state)
{
    const Topology topo = cubicTorus(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    const TsayWangVariant v = variantOf(state.range(2));
    const Schedule s = tsayWangBroadcast(topo, NodeId{topo.nodeCount() / 2}, v);
    std::uint64_t tcd = 0;
    for (auto _ : state) {
        const Metrics m = computeMetrics(s);
        tcd = m.tcd;
        benchmark::DoNotOptimize(tcd);
    }
    state.counters["tcd"] = static_cast<double>(tcd);
    state.SetLabel(toString(v));
}

void sizes(benchmark::internal::Benchmark* b)
{
    for (std::int64_t v : {0, 1}) {
        b->Args({3, 49, v});
        b->Args({2, 625, v});
    }
    b->Unit(benchmark::kMillisecond);
}

} // namespace

BENCHMARK(BM_TsayWangBuild)->Apply(sizes);
BENCHMARK(BM_TsayWangCheck)->Apply(sizes);
BENCHMARK(BM_TsayWangMetrics)->Apply(sizes);

BENCHMARK_MAIN();
