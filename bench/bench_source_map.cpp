// What the app now asks of core. The TCD source map by brute force (one schedule per
// source, on one worker and on all cores) and the channel load history (built once per schedule,
// then any step's loads in O(channel slots)).
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/source_map.h"
#include "topocast/analysis/source_map_estimate.h"

#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <thread>

using namespace topocast;

namespace {

void BM_SourceMapTcd(benchmark::State& state, const char* algorithm)
{
    const Topology topo = Topology::mesh({8, 8, 8});
    SourceMapOptions options;
    options.threads = static_cast<unsigned>(state.range(0));
    for (auto _ : state) {
        const auto sourceMap = computeSourceMap(algorithm, topo, Params{}, SourceMapMetric::Tcd, options);
        benchmark::DoNotOptimize(sourceMap->values.data());
    }
    state.counters["threads"] = options.threads ? options.threads : std::thread::hardware_concurrency();
    state.counters["sources"] = topo.nodeCount();
}
BENCHMARK_CAPTURE(BM_SourceMapTcd, bfs, "bfs")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SourceMapTcd, binomial, "binomial")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

// The source maps a user asks for: every source of a 4,096-node network (and 729 of
// the 9×9×9 torus), on all cores; "symmetry" is the default path (one schedule where every
// source's schedule is the origin's moved by an automorphism), "brute" builds every source.
// peak_MiB: the peak resident memory of one source map computed in a forked child process (its
// ru_maxrss, which starts from this process's resident pages at the fork, reported as is).
struct SourceMapCase {
    const char* algorithm;
    const char* topology;
    const char* pattern; // empty: the algorithm's default
    SourceMapMetric metric;
    bool symmetry;
};

std::optional<SourceMap> runCase(const SourceMapCase& c)
{
    Params params;
    if (*c.pattern)
        params.set("pattern", c.pattern);
    SourceMapOptions options;
    options.useSymmetry = c.symmetry;
    return computeSourceMap(c.algorithm, Topology::parse(c.topology), params, c.metric, options);
}

/// Peak resident set (MiB) of a child process that computes the source map once.
double peakMiB(const SourceMapCase& c)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        const auto sourceMap = runCase(c);
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        const long kib = sourceMap ? usage.ru_maxrss : -1;
        [[maybe_unused]] const auto written = write(fd[1], &kib, sizeof kib);
        _exit(0);
    }
    close(fd[1]);
    long kib = -1;
    [[maybe_unused]] const auto got = read(fd[0], &kib, sizeof kib);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return static_cast<double>(kib) / 1024.0;
}

void BM_SourceMap(benchmark::State& state, SourceMapCase c)
{
    for (auto _ : state) {
        const auto sourceMap = runCase(c);
        benchmark::DoNotOptimize(sourceMap->values.data());
    }
    state.counters["sources"] = Topology::parse(c.topology).nodeCount();
    state.counters["threads"] = std::thread::hardware_concurrency();
    state.counters["peak_MiB"] = peakMiB(c);
}
constexpr auto kTcd = SourceMapMetric::Tcd;
constexpr auto kLoad = SourceMapMetric::MaxLinkLoad;
constexpr auto kTime = SourceMapMetric::Time;
BENCHMARK_CAPTURE(BM_SourceMap, binomial_mesh16x16x16_tcd, SourceMapCase{"binomial", "mesh:16x16x16", "", kTcd, true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);
BENCHMARK_CAPTURE(BM_SourceMap, binomial_mesh16x16x16_max_link_load,
                  SourceMapCase{"binomial", "mesh:16x16x16", "", kLoad, true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_SourceMap, binomial_mesh16x16x16_time, SourceMapCase{"binomial", "mesh:16x16x16", "", kTime, true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_SourceMap, bfs_mesh16x16x16_tcd, SourceMapCase{"bfs", "mesh:16x16x16", "", kTcd, true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);
BENCHMARK_CAPTURE(BM_SourceMap, bfs_mesh16x16x16_max_link_load, SourceMapCase{"bfs", "mesh:16x16x16", "", kLoad, true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_SourceMap, tsay_wang_torus9x9x9_tcd_symmetry,
                  SourceMapCase{"tsay-wang", "torus:9x9x9", "", kTcd, true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_SourceMap, tsay_wang_torus9x9x9_tcd_brute,
                  SourceMapCase{"tsay-wang", "torus:9x9x9", "", kTcd, false})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);
BENCHMARK_CAPTURE(BM_SourceMap, nesbt_broadcast_hypercube12_tcd_symmetry,
                  SourceMapCase{"nesbt", "hypercube:12", "broadcast", kTcd, true})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_SourceMap, nesbt_broadcast_hypercube12_tcd_brute,
                  SourceMapCase{"nesbt", "hypercube:12", "broadcast", kTcd, false})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

const Schedule& bigSchedule(const char* algorithm)
{
    static const Schedule rd = [] {
        Schedule s = buildSchedule("recursive-doubling", Topology::mesh({32, 32, 32}), NodeId{0}, Params{});
        s.finalize();
        return s;
    }();
    static const Schedule bfs = [] {
        Schedule s = buildSchedule("bfs", Topology::mesh({32, 32, 32}), NodeId{0}, Params{});
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
BENCHMARK_CAPTURE(BM_MetricsAndLoadHistory, recursive_doubling_32cube, "recursive-doubling")
    ->Unit(benchmark::kMillisecond);
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

// The estimate said before a source map starts: how long the sampling takes (the 256³ mesh is
// extrapolated from two smaller meshes: the CLI refuses it within this time), and the estimate
// itself (estimate_s, on this machine's threads) to set beside the measured source map.
void BM_SourceMapEstimate(benchmark::State& state, const char* topology)
{
    const Topology topo = Topology::parse(topology);
    double seconds = 0;
    for (auto _ : state)
        seconds = estimateSourceMap("binomial", topo, Params{}, SourceMapMetric::Tcd).seconds;
    state.counters["estimate_s"] = seconds;
    state.counters["sources"] = topo.nodeCount();
}
BENCHMARK_CAPTURE(BM_SourceMapEstimate, mesh16cube, "mesh:16x16x16")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SourceMapEstimate, mesh32cube, "mesh:32x32x32")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SourceMapEstimate, mesh256cube, "mesh:256x256x256")->Unit(benchmark::kMillisecond)->UseRealTime();

// One rank's share of the 32³ binomial source map on one thread: share 0 of 1 (the whole) and of
// 2 (what each of two ranks builds); bench/mpi_source_map.sh runs the same on real MPI ranks.
void BM_SourceMapShare(benchmark::State& state)
{
    const Topology topo = Topology::mesh({32, 32, 32});
    SourceMapOptions options;
    options.threads = 1;
    const auto parts = static_cast<std::uint32_t>(state.range(0));
    for (auto _ : state) {
        const auto share = computeSourceMapShare("binomial", topo, Params{}, SourceMapMetric::Tcd, 0, parts, options);
        benchmark::DoNotOptimize(share->values.data());
    }
    state.counters["parts"] = parts;
    state.counters["sources"] = sourceMapShareSize(topo.nodeCount(), 0, parts);
}
BENCHMARK(BM_SourceMapShare)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

} // namespace

BENCHMARK_MAIN();
