// Cang-Wu speed: the schedule from one source of a 128×128×128 mesh, and the TCD source map
// of every source of 512×512 and 64×64×64, per mode. "Cold" runs drop the cached SubmeshOptimal
// tables first, so they include the dynamic program; "warm" runs reuse them (the app's case when
// the user clicks through sources). Run a Release build by hand; numbers go into the issue notes.

#include "topocast/algorithms/cang_wu.h"

#include <benchmark/benchmark.h>

using namespace topocast;

namespace {

CangWuMode modeArg(const benchmark::State& state)
{
    return static_cast<CangWuMode>(state.range(0));
}

void setModeLabel(benchmark::State& state)
{
    state.SetLabel(toString(modeArg(state)));
}

// ---- the sends alone (pure generator) ---------------------------------------------------------

void BM_Sends128Cube(benchmark::State& state)
{
    const bool cold = state.range(1) != 0;
    const NodeId source{5 + (17u << 7) + (100u << 14)};
    for (auto _ : state) {
        if (cold) {
            state.PauseTiming();
            cangWuReleaseTables();
            state.ResumeTiming();
        }
        auto sends = cangWuSends(3, 7, source, modeArg(state));
        benchmark::DoNotOptimize(sends.data());
    }
    state.SetLabel(toString(modeArg(state)) + (cold ? " cold" : " warm"));
    state.SetItemsProcessed(state.iterations() * ((std::int64_t{1} << 21) - 1));
}
BENCHMARK(BM_Sends128Cube)->Args({0, 1})->Args({0, 0})->Args({1, 0})->Args({2, 0})->Unit(benchmark::kMillisecond);

// ---- the full Schedule (as `topocast-cli schedule` and the app build it) -----------------------

void BM_Schedule128Cube(benchmark::State& state)
{
    const Topology topo = Topology::mesh({128, 128, 128});
    const bool cold = state.range(1) != 0;
    const NodeId source = topo.id({5, 17, 100});
    for (auto _ : state) {
        if (cold) {
            state.PauseTiming();
            cangWuReleaseTables();
            state.ResumeTiming();
        }
        Schedule s = cangWuSchedule(topo, source, modeArg(state));
        benchmark::DoNotOptimize(s.transfers().data());
    }
    state.SetLabel(toString(modeArg(state)) + (cold ? " cold" : " warm"));
}
BENCHMARK(BM_Schedule128Cube)->Args({0, 1})->Args({0, 0})->Args({1, 0})->Args({2, 0})->Unit(benchmark::kMillisecond);

// ---- TCD of every source ------------------------------------------------------------------------

void tcdSourceMapBench(benchmark::State& state, int d, int k)
{
    for (auto _ : state) {
        if (modeArg(state) == CangWuMode::Optimal) {
            state.PauseTiming();
            cangWuReleaseTables(); // include the dynamic program
            state.ResumeTiming();
        }
        auto map = cangWuTcdSourceMap(d, k, modeArg(state));
        benchmark::DoNotOptimize(map.data());
    }
    setModeLabel(state);
    state.SetItemsProcessed(state.iterations() * (std::int64_t{1} << (d * k)));
}

void BM_TcdSourceMap512x512(benchmark::State& state)
{
    tcdSourceMapBench(state, 2, 9);
}
BENCHMARK(BM_TcdSourceMap512x512)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

void BM_TcdSourceMap64Cube(benchmark::State& state)
{
    tcdSourceMapBench(state, 3, 6);
}
BENCHMARK(BM_TcdSourceMap64Cube)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

void BM_TcdSourceMap4096x4096(benchmark::State& state)
{
    tcdSourceMapBench(state, 2, 12);
}
BENCHMARK(BM_TcdSourceMap4096x4096)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

BENCHMARK_MAIN();
