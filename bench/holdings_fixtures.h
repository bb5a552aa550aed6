#pragma once
// What bench_holdings and bench_collectives share: a schedule from the registry, and every
// node's share of its final data at every step (what the app's Data held mode recolours per step).

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/validate.h"

#include <benchmark/benchmark.h>

namespace topocast::bench {

inline Schedule benchSchedule(const char* algorithm, const char* topology, const char* pattern)
{
    return buildSchedule(algorithm, Topology::parse(topology), NodeId{0}, {{"pattern", pattern}});
}

inline void everyStepShares(benchmark::State& state, const char* algorithm, const char* topology, const char* pattern)
{
    const Schedule s = benchSchedule(algorithm, topology, pattern);
    const Holdings h(s);
    const std::uint32_t n = s.topology().nodeCount();
    for (auto _ : state) {
        double sum = 0;
        for (StepNo k{}; k <= s.stepCount(); ++k)
            for (NodeId v{}; v < n; ++v)
                sum += h.finalShareAt(v, k);
        benchmark::DoNotOptimize(sum);
    }
    state.counters["steps"] = static_cast<double>(s.stepCount());
    state.counters["nodes"] = static_cast<double>(n);
}

/// The checker on the schedule (validate.h), as the engines measured beside it are timed.
inline void check(benchmark::State& state, const char* algorithm, const char* topology, const char* pattern)
{
    const Schedule s = benchSchedule(algorithm, topology, pattern);
    for (auto _ : state) {
        const Validation v = validate(s, promisedValidateOptions(s));
        if (!v.ok())
            state.SkipWithError(v.violations.front().c_str());
    }
}

} // namespace topocast::bench
