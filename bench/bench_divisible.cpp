// Divisible-load Scatter(p): cost of the embedding and of the whole schedule.
// The issue names no speed goal; the reference case is p = 6, h = 6: 117,649 nodes in a 49^3 mesh.

#include "topocast/algorithms/divisible_load.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"

#include <benchmark/benchmark.h>

using namespace topocast;

namespace {

void BM_Model(benchmark::State& state)
{
    DivisibleLoadParams pr;
    pr.ports = 6;
    pr.layers = static_cast<int>(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(solveDivisibleLoad(pr));
}
BENCHMARK(BM_Model)->Arg(6)->Arg(100);

void BM_DenseSolve(benchmark::State& state)
{
    DivisibleLoadParams pr;
    pr.ports = 6;
    pr.layers = static_cast<int>(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(solveDivisibleLoadSystem(pr));
}
BENCHMARK(BM_DenseSolve)->Arg(6)->Arg(12);

void BM_Mapping(benchmark::State& state)
{
    const int p = static_cast<int>(state.range(0));
    const int h = static_cast<int>(state.range(1));
    for (auto _ : state)
        benchmark::DoNotOptimize(scatterMapping(p, h));
    state.counters["nodes"] = static_cast<double>(scatterMapping(p, h).size());
}
BENCHMARK(BM_Mapping)->Args({6, 6})->Args({3, 9})->Unit(benchmark::kMillisecond);

void BM_Schedule(benchmark::State& state)
{
    const int p = static_cast<int>(state.range(0));
    const int h = static_cast<int>(state.range(1));
    const int side = static_cast<int>(state.range(2));
    const Topology topo = Topology::mesh({side, side, side});
    const auto box = scatterBox(p, h);
    const NodeId source = topo.id({box[2][0] - box[0][0], box[2][1] - box[0][1], box[2][2] - box[0][2]});
    const Params params{{"p", std::to_string(p)}, {"layers", std::to_string(h)}};
    std::size_t transfers = 0;
    for (auto _ : state) {
        Schedule s = buildSchedule("divisible-load", topo, source, params);
        transfers = s.size();
        benchmark::DoNotOptimize(s);
    }
    state.counters["transfers"] = static_cast<double>(transfers);
}
BENCHMARK(BM_Schedule)->Args({6, 6, 49})->Args({3, 6, 16})->Unit(benchmark::kMillisecond);

void BM_ValidateSchedule(benchmark::State& state)
{
    const Topology topo = Topology::mesh({49, 49, 49});
    const Schedule s =
        buildSchedule("divisible-load", topo, topo.id({24, 24, 24}), Params{{"p", "6"}, {"layers", "6"}});
    ValidateOptions vo;
    vo.forbidStepContention = false;
    for (auto _ : state)
        benchmark::DoNotOptimize(validate(s, vo));
}
BENCHMARK(BM_ValidateSchedule)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
