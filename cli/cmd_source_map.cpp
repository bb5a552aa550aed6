// topocast-cli source-map: one metric of an algorithm's schedule from every source (core
// computeSourceMap). --json: {"metric", "values" (node-id order, null where the algorithm has no
// schedule from that source), "min", "argmin" (nodes as the schedule document writes them),
// "max"}; text: the values as matrices (a list on a hypercube) and a summary.

#include "commands.h"

#include "network_options.h"
#include "source_map_document.h"
#include "source_map_timed.h"

#include "topocast/analysis/source_map.h"
#include "topocast/analysis/source_map_estimate.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/text/durations.h"
#include "topocast/text/numbers.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string>

namespace topocast::cli {

namespace {

/// --max-seconds by default: ten minutes.
constexpr double kDefaultMaxSeconds = 600;

struct SourceMapCommand {
    ScenarioOptions scenario;
    std::string metric;
    bool json = false;
    double maxSeconds = kDefaultMaxSeconds;
    unsigned threads = 0;
    std::string out;   ///< --out: the document goes to this file (atomically) instead of stdout
    std::string model; ///< --model loggp|simgrid: time every source's schedule on the network model
    NetworkOptions network;
};

/// Brute forces of at least this many sources report their estimate and progress on stderr.
constexpr std::uint32_t kProgressFrom = 1024;

/// Seconds of one schedule: "812.4 µs", "12.35 ms", "about 3.1 s".
std::string perSchedule(double seconds)
{
    return seconds < 1.0 ? formatDuration(seconds) : "about " + formatRoughDuration(seconds);
}

/// Refuses a brute force estimated longer than this (seconds), naming the estimate and the MPI
/// command that would spread it.
void refuseLongWork(const Scenario& sc, SourceMapMetric metric, const SourceMapEstimate& est, double maxSeconds)
{
    if (maxSeconds <= 0 || est.seconds <= maxSeconds)
        return;
    // Ranks of this machine's size that would finish within the limit.
    const double ranks = std::ceil(est.seconds / maxSeconds);
    throw Error("the " + toString(metric) + " source map of " + sc.algorithm + " on the " + sc.topology.displayName() +
                " would take " + estimateText(est) + " (" + std::to_string(est.schedules) +
                " schedules, one per source, " + perSchedule(est.secondsPerSchedule) + " each on one core; timed on " +
                std::to_string(est.sampled) + " sources of " + est.sampledOn + "); the limit is --max-seconds " +
                formatSignificant(maxSeconds, 6) + ". Spread it over MPI ranks (each with " +
                std::to_string(est.workers) + " cores) with `" +
                mpiSourceMapCommand(sc, metric, ranks > 1e9 ? 1e9 : ranks) + "`, or raise --max-seconds");
}

std::optional<SourceMap> computedSourceMap(const SourceMapCommand& opt, const Scenario& sc, SourceMapMetric metric,
                                           Io& io);

int runSourceMap(const SourceMapCommand& opt, Io& io)
{
    const Scenario sc = opt.scenario.resolve();
    const SourceMapMetric metric = parseSourceMapMetric(opt.metric);
    const Topology& topo = sc.topology;
    std::optional<SourceMapTiming> timing;
    if (!opt.model.empty()) {
        if (metric != SourceMapMetric::Time)
            throw Error("--model " + opt.model + " times schedules: it goes with --metric time, not " + opt.metric);
        timing = sourceMapTiming(opt.model, opt.network.resolve(sc.network));
    }
    const std::optional<SourceMap> sourceMap =
        timing ? std::optional<SourceMap>(timedSourceMap(sc, *timing, opt.maxSeconds, io))
               : computedSourceMap(opt, sc, metric, io);
    if (!sourceMap)
        throw Error("the source map was cancelled");
    std::ostringstream text;
    if (opt.json)
        text << sourceMapJson(sc, *sourceMap, timing ? &*timing : nullptr) << '\n';
    else
        writeSourceMapText(text, sc, *sourceMap, timing ? &*timing : nullptr);
    if (opt.out.empty()) {
        io.out << text.str();
    } else {
        writeFileAtomic(opt.out, text.str());
        io.out << "wrote " << opt.out << ": the " << toString(metric) << " source map of " << sc.algorithm << " on the "
               << topo.displayName() << (opt.json ? " (JSON)" : "") << "\n";
    }
    return 0;
}

/// The source map by core computeSourceMap (closed form, symmetry or every source), estimated
/// and refused past --max-seconds before a long brute force.
std::optional<SourceMap> computedSourceMap(const SourceMapCommand& opt, const Scenario& sc, SourceMapMetric metric,
                                           Io& io)
{
    const Topology& topo = sc.topology;

    if (sourceMapMethod(sc.algorithm, topo, sc.params, metric) == SourceMapMethod::EverySource) {
        const SourceMapEstimate est = estimateSourceMap(sc.algorithm, topo, sc.params, metric, opt.threads);
        refuseLongWork(sc, metric, est, opt.maxSeconds);
        if (topo.nodeCount() >= kProgressFrom)
            io.err << "source map: " << topo.nodeCount() << " sources, " << estimateText(est) << " (timed on "
                   << est.sampled << " sources of " << est.sampledOn << ")\n";
    }

    std::mutex progressMutex;
    std::uint32_t lastTenth = 0;
    SourceMapOptions options;
    options.threads = opt.threads;
    options.progress = [&](std::uint32_t done, std::uint32_t total) {
        if (total < kProgressFrom)
            return;
        const std::lock_guard lock(progressMutex);
        const std::uint32_t tenth = static_cast<std::uint32_t>(std::uint64_t{done} * 10 / total);
        if (done == 0 || tenth > lastTenth) {
            lastTenth = tenth;
            io.err << "source map: " << done << " of " << total << " sources\n";
        }
    };
    return computeSourceMap(sc.algorithm, topo, sc.params, metric, options);
}

const CommandRegistrar reg{Command{
    .name = "source-map",
    .help = "one metric (tcd, steps, max_link_load, contention, time) of the schedule from every source "
            "(once called landscape, a name still understood)",
    .aliases = {"landscape"},
    .setup =
        [](CLI::App& sub) {
            auto opt = std::make_shared<SourceMapCommand>();
            opt->scenario.add(sub, true, {"message"});
            sub.add_option("--metric", opt->metric, "tcd | steps | max_link_load | contention | time")->required();
            sub.add_flag("--json", opt->json,
                         "write {\"metric\", \"values\" (node-id order), \"min\", \"argmin\" (nodes), \"max\"}");
            sub.add_option("--max-seconds", opt->maxSeconds,
                           "refuse a source map estimated to take longer (seconds; 0: no limit) and name the "
                           "topocast-mpi command that would spread it")
                ->check(CLI::NonNegativeNumber)
                ->capture_default_str();
            sub.add_option("--out,-o", opt->out,
                           "write the source map to this file (atomically) instead of standard output");
            sub.add_option("--model", opt->model,
                           "with --metric time: time every source's schedule on the network model — loggp (the time "
                           "engine) or simgrid (simulated, shared links charged); default: the algorithm's own figure")
                ->check(CLI::IsMember({"loggp", "simgrid"}));
            opt->network.add(sub);
            sub.add_option("--threads", opt->threads, "worker threads (0: one per hardware thread)")
                ->check(CLI::Range(0u, 4096u))
                ->capture_default_str();
            return [opt](Io& io) { return runSourceMap(*opt, io); };
        },
}};

} // namespace

} // namespace topocast::cli
