// Issue #17: what the app now asks of core. The TCD landscape by brute force (one schedule per
// source, on one worker and on all cores) and the channel load history (built once per schedule,
// then any step's loads in O(channel slots)).
#include "topocast/algorithms/registry.h"
#include "topocast/landscape.h"
#include "topocast/metrics.h"

#include <benchmark/benchmark.h>

#include <thread>

using namespace topocast;

namespace {

void BM_LandscapeTcd(benchmark::State& state, const char* algorithm)
{
    const Topology topo = Topology::mesh({8, 8, 8});
    LandscapeOptions options;
    options.threads = static_cast<unsigned>(state.range(0));
    for (auto _ : state) {
        const auto landscape = computeLandscape(algorithm, topo, Params{}, LandscapeMetric::Tcd, options);
        benchmark::DoNotOptimize(landscape->values.data());
    }
    state.counters["threads"] = options.threads ? options.threads : std::thread::hardware_concurrency();
    state.counters["sources"] = topo.nodeCount();
}
BENCHMARK_CAPTURE(BM_LandscapeTcd, bfs, "bfs")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LandscapeTcd, binomial, "binomial")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

const Schedule& bigSchedule(const char* algorithm)
{
    static const Schedule rd = [] {
        Schedule s = buildSchedule("recursive-doubling", Topology::mesh({32, 32, 32}), 0, Params{});
        s.finalize();
        return s;
    }();
    static const Schedule bfs = [] {
        Schedule s = buildSchedule("bfs", Topology::mesh({32, 32, 32}), 0, Params{});
        s.finalize();
        return s;
    }();
    return std::string_view(algorithm) == "bfs" ? bfs : rd;
}

void BM_MetricsOnly(benchmark::State& state, const char* algorithm)
{
    const Schedule& s = bigSchedule(algorithm);
    for (auto _ : state)
        benchmark::DoNotOptimize(computeMetrics(s, 2000).tcd);
}
BENCHMARK_CAPTURE(BM_MetricsOnly, recursive_doubling_32cube, "recursive-doubling")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MetricsOnly, bfs_32cube, "bfs")->Unit(benchmark::kMillisecond);

void BM_MetricsAndLoadHistory(benchmark::State& state, const char* algorithm)
{
    const Schedule& s = bigSchedule(algorithm);
    for (auto _ : state) {
        ChannelLoadHistory loads;
        benchmark::DoNotOptimize(computeMetrics(s, 2000, loads).tcd);
        state.counters["checkpoints"] = static_cast<double>(loads.checkpointCount());
        state.counters["history_MiB"] = static_cast<double>(loads.memoryBytes()) / (1024.0 * 1024.0);
    }
}
BENCHMARK_CAPTURE(BM_MetricsAndLoadHistory, recursive_doubling_32cube, "recursive-doubling")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MetricsAndLoadHistory, bfs_32cube, "bfs")->Unit(benchmark::kMillisecond);

void BM_LoadsAtEveryStep(benchmark::State& state, const char* algorithm)
{
    const Schedule& s = bigSchedule(algorithm);
    const ChannelLoadHistory history(s);
    ChannelLoads loads;
    for (auto _ : state)
        for (std::uint32_t step = 0; step <= s.stepCount(); ++step) {
            history.loadsAt(step, loads);
            benchmark::DoNotOptimize(loads.cumulative.data());
        }
    state.counters["steps"] = s.stepCount();
    state.counters["per_step_ms"] = benchmark::Counter(static_cast<double>(s.stepCount() + 1) * state.iterations(),
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK_CAPTURE(BM_LoadsAtEveryStep, recursive_doubling_32cube, "recursive-doubling")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadsAtEveryStep, bfs_32cube, "bfs")->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
