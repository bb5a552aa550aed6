// The wormhole cost-model fit (topocast/analysis/cost_model.h): fitLinearCost on synthetic samples, the
// size of a measured run's per-transfer medians (64 ranks × a few steps) up to a large replay.

#include "topocast/analysis/cost_model.h"

#include <benchmark/benchmark.h>

#include <vector>

using namespace topocast;

namespace {

// t = 20 µs + 1.5 µs/hop + 0.4 ns/B with a deterministic ±2 % wobble; hops 1..12, bytes 64 B..1 MiB.
std::vector<CostSample> samples(std::size_t n)
{
    std::vector<CostSample> s(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double hops = static_cast<double>(1 + i % 12);
        const double bytes = static_cast<double>(64u << (i % 15));
        const double wobble = 1.0 + 0.02 * (static_cast<double>((i * 7919) % 101) / 50.0 - 1.0);
        s[i] = {hops, bytes, (20e-6 + 1.5e-6 * hops + 0.4e-9 * bytes) * wobble};
    }
    return s;
}

void BM_FitLinearCost(benchmark::State& state)
{
    const auto s = samples(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(fitLinearCost(s));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_FitLinearCost)->Arg(16)->Arg(256)->Arg(65536);

// Every hop count equal: t_h and t_s are confounded, so several supports are singular.
void BM_FitLinearCostDegenerate(benchmark::State& state)
{
    auto s = samples(static_cast<std::size_t>(state.range(0)));
    for (auto& x : s)
        x.hops = 3.0;
    for (auto _ : state)
        benchmark::DoNotOptimize(fitLinearCost(s));
}
BENCHMARK(BM_FitLinearCostDegenerate)->Arg(256);

} // namespace

BENCHMARK_MAIN();
