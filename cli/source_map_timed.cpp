#include "source_map_timed.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/simulate.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/model/error.h"
#include "topocast/text/durations.h"
#include "topocast/text/numbers.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <ostream>

namespace topocast::cli {

namespace {

/// Runs that take longer than this report their estimate and progress.
constexpr double kTimedProgressFrom = 5.0;

/// The time of `schedule` in seconds, as `timing` says.
double timedValue(const Schedule& schedule, const SourceMapTiming& timing)
{
    if (timing.model == "simgrid")
        return simulateSchedule(schedule, timing.network).time.total * 1e-9;
    return timeSchedule(schedule, timing.network, {.totalOnly = true}).total * 1e-9;
}

/// The schedule from `source`, or nullopt (the reason in `why`) where the algorithm has none.
std::optional<Schedule> scheduleFrom(const Scenario& sc, NodeId source, std::string& why)
{
    try {
        return buildSchedule(sc.algorithm, sc.topology, source, sc.params);
    } catch (const Error& e) {
        why = e.what();
        return std::nullopt;
    }
}

} // namespace

SourceMapTiming sourceMapTiming(const std::string& model, const NetworkModel& network)
{
    if (model == "simgrid") {
        requireSimulation();
        return {model, network, simulationEngine() + ": each message's bytes over its route, links shared"};
    }
    if (model == "loggp")
        return {model, network,
                "the time engine (LogGP: overheads, gaps, ports, latency per hop; contention not charged)"};
    throw Error("--model " + model + ": expected loggp (the time engine) or simgrid (simulated with contention)");
}

SourceMap timedSourceMap(const Scenario& sc, const SourceMapTiming& timing, double maxSeconds, Io& io)
{
    const Topology& topo = sc.topology;
    const std::uint32_t n = topo.nodeCount();
    const AlgorithmInfo& info = findAlgorithm(sc.algorithm);
    SourceMap out;
    out.metric = SourceMapMetric::Time;
    out.bySymmetry = info.sameFromEverySource && info.sameFromEverySource(topo);
    out.values.assign(n, std::numeric_limits<double>::quiet_NaN());

    // The first source's schedule, timed, is the estimate of every other's.
    const auto began = std::chrono::steady_clock::now();
    std::string why;
    std::optional<Schedule> first;
    NodeId firstSource{};
    for (NodeId v{}; v < n && !first; ++v)
        if ((first = scheduleFrom(sc, v, why)))
            firstSource = v;
    if (!first)
        throw Error(sc.algorithm + " has no schedule from any source of the " + topo.displayName() + ": " + why);
    if (firstSource.value() > 0) {
        out.missing = firstSource.value();
        out.missingReason = why;
    }
    const double sources = out.bySymmetry ? 1.0 : static_cast<double>(n);
    if (timing.model == "simgrid") {
        const double guess = estimateSimulation(*first).seconds * sources;
        if (maxSeconds > 0 && guess > maxSeconds)
            throw Error("simulating " + sc.algorithm + " from each of the " + std::to_string(n) + " sources of the " +
                        topo.displayName() + " would take about " + formatRoughDuration(guess) +
                        "; the limit is --max-seconds " + formatSignificant(maxSeconds, 6) + " (raise it to run it)");
    }
    out.values[firstSource] = timedValue(*first, timing);
    const double one = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (maxSeconds > 0 && one * sources > maxSeconds)
        throw Error("timing " + sc.algorithm + " from each of the " + std::to_string(n) + " sources of the " +
                    topo.displayName() + " would take about " + formatRoughDuration(one * sources) +
                    " (the first took " + formatDuration(one) + "); the limit is --max-seconds " +
                    formatSignificant(maxSeconds, 6));
    if (out.bySymmetry) {
        out.values.assign(n, out.values[firstSource]);
        return out;
    }
    const bool report = one * sources > kTimedProgressFrom;
    if (report)
        io.err << "source map: " << n << " sources, about " << formatRoughDuration(one * sources) << "\n";
    std::uint32_t tenth = 0;
    for (NodeId v{firstSource.value() + 1}; v < n; ++v) {
        if (const std::optional<Schedule> s = scheduleFrom(sc, v, why))
            out.values[v] = timedValue(*s, timing);
        else if (out.missing++ == 0)
            out.missingReason = why;
        if (report && (v.value() + 1) * 10 / n > tenth) {
            tenth = (v.value() + 1) * 10 / n;
            io.err << "source map: " << v.value() + 1 << " of " << n << " sources\n";
        }
    }
    return out;
}

} // namespace topocast::cli
