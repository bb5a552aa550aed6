#pragma once

#include "topocast/model/network.h"
#include "topocast/model/params.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// What a source map measures for every source (the names are the schedule document's fields).
enum class SourceMapMetric : std::uint8_t {
    Tcd,         ///< "tcd": total communication distance, Σ route lengths
    Steps,       ///< "steps": number of steps
    MaxLinkLoad, ///< "max_link_load": most uses of one directed channel over the schedule
    Contention,  ///< "contention": channel uses sharing a directed channel with another transfer of their step
    /// "time": the algorithm's own cost figure where it has one (AlgorithmInfo::time: the
    /// hypercube graphs' T = startups·τ + transfer·t_c, divisible-load's finish time), else the
    /// time engine's (time_engine.h, seconds) on sourceMapNetwork(): the cluster preset, M = 1 KiB.
    Time,
};

/// The network model the "time" source map times schedules on where the algorithm has no cost
/// figure of its own: the cluster preset with its 1 KiB collective (model/network.h).
NetworkModel sourceMapNetwork();

/// "tcd", "steps", "max_link_load", "contention", "time".
std::string toString(SourceMapMetric metric);
/// Parses the names toString() gives. Throws Error listing them.
SourceMapMetric parseSourceMapMetric(std::string_view text);
/// Every metric, in the order of toString's list.
const std::vector<SourceMapMetric>& allSourceMapMetrics();
/// The metric for people: "TCD", "steps", "max link load", "contention", "time".
std::string metricWords(SourceMapMetric metric);
/// True for the counts (every metric but Time): their values are whole numbers.
bool isIntegral(SourceMapMetric metric);

/// The metrics a source map of `algorithm` with `params` has, in allSourceMapMetrics() order:
/// every metric for a pattern with one source (broadcast, scatter), none for allgather and
/// alltoall (every node is a source, so there is no source to vary). Throws Error for an unknown
/// algorithm or pattern name.
std::vector<SourceMapMetric> sourceMapMetrics(std::string_view algorithm, const Params& params);
/// What "time" is for `algorithm`, in words (its AlgorithmInfo::timeFigure, or the wormhole
/// model with its constants). Throws Error for an unknown algorithm.
std::string sourceMapTimeFigure(std::string_view algorithm);
/// The unit of "time" for `algorithm`: "s" (the wormhole model, divisible-load), or empty for
/// model units (the hypercube graphs' τ and t_c). Throws Error for an unknown algorithm.
std::string sourceMapTimeUnit(std::string_view algorithm);

/// The figure `metric` of one schedule (what a source map holds for that schedule's source).
/// Tcd and Steps: O(transfers); MaxLinkLoad and Contention: computeMetrics()'s figures from one
/// pass over the routes, O(hops + channel slots) (finalizes a copy when `schedule` is not
/// finalized; Error where the channel arrays exceed memoryLimit()); Time: the cost figure of the algorithm the schedule
/// names (schedule.algorithm, when registered and it has one), else wormholeTime() (finalizes a copy likewise). Throws
/// Error as computeMetrics does.
double sourceMapValue(const Schedule& schedule, SourceMapMetric metric);

struct SourceMapOptions {
    /// Worker threads for the brute force (0: std::thread::hardware_concurrency(), at least 1).
    /// Each worker holds one schedule at a time, so memory is bounded by threads × one schedule.
    unsigned threads = 0;
    /// Refuse (Error) a brute force that would build more schedules than this (one per node).
    std::uint32_t maxSchedules = static_cast<std::uint32_t>(-1);
    /// Progress of the brute force: called with (0, total) before the first schedule, then with
    /// (sources done, total) after each one — from the worker threads, possibly at the same time,
    /// so it must be thread-safe and quick. Not called for a closed form.
    std::function<void(std::uint32_t done, std::uint32_t total)> progress;
    /// Cancellation: once a stop is requested, workers take no new source (a schedule being
    /// built is finished, not interrupted) and computeSourceMap returns nullopt.
    std::stop_token stop;
    /// Use AlgorithmInfo::sameFromEverySource (one schedule for every source) where it holds.
    /// False: build every source's schedule anyway (the tests and the bench compare the two).
    bool useSymmetry = true;
};

/// The value of a metric from every source.
struct SourceMap {
    SourceMapMetric metric = SourceMapMetric::Tcd;
    /// values[v]: the metric of the algorithm's schedule from source v (index = NodeId); NaN
    /// when the algorithm has no schedule from v (AlgorithmInfo::someSourcesOnly). The counts
    /// are whole numbers (exact: below 2^53).
    std::vector<double> values;
    /// True when the values come from the algorithm's closed form (AlgorithmInfo::tcdSourceMap), not
    /// from building every schedule.
    bool closedForm = false;
    /// True when one schedule gave every value (AlgorithmInfo::sameFromEverySource).
    bool bySymmetry = false;
    /// Sources without a schedule, and the algorithm's reason for the first of them.
    std::uint32_t missing = 0;
    std::string missingReason;
};

/// The smallest and largest value of a source map and where the smallest is.
struct SourceMapSummary {
    double min = 0.0;           ///< NaN when no source has a value
    double max = 0.0;           ///< NaN when no source has a value
    std::vector<NodeId> argmin; ///< every source whose value is min, in node-id order
    std::uint32_t present = 0;  ///< sources with a value
};

/// min, max and argmin over the sources with a value. O(nodes). Never throws.
SourceMapSummary summarize(const SourceMap& sourceMap);

/// One bar of a source map's histogram: the sources whose value lies in [from, to) (the last bar
/// includes `to`); for a count with few distinct values, from = to = the value.
struct SourceMapBin {
    double from = 0.0;
    double to = 0.0;
    std::uint32_t count = 0;
};

/// The values (NaN skipped) in at most maxBins bars: one bar per whole number when the metric is
/// a count and max − min < maxBins, else maxBins equal-width bars from min to max. Empty when no
/// value is present. Requires maxBins ≥ 1. O(values + maxBins). Never throws.
std::vector<SourceMapBin> sourceMapHistogram(const std::vector<double>& values, SourceMapMetric metric, int maxBins);

/// At most about `count` round tick values (1, 2 or 5 × 10^k apart) within [min, max], min and
/// max not included unless round; a count's ticks are whole numbers. Empty when max ≤ min.
/// O(count). Never throws.
std::vector<double> sourceMapTicks(double min, double max, SourceMapMetric metric, int count);

/// A value for people: counts as integers ("71"), time in seconds as formatDuration ("8.2 µs"),
/// time in model units with four significant digits; "–" for NaN (no schedule).
std::string formatSourceMapValue(double value, SourceMapMetric metric, std::string_view timeUnit);

/// True when computeSourceMap answers `metric` for `algorithm` from a closed form (today: tcd for
/// algorithms with AlgorithmInfo::tcdSourceMap, e.g. cang-wu), without building schedules. Throws Error
/// for an unknown algorithm.
bool hasClosedFormSourceMap(std::string_view algorithm, SourceMapMetric metric);

/// How computeSourceMap finds the values.
enum class SourceMapMethod : std::uint8_t {
    ClosedForm,  ///< the algorithm's closed form (hasClosedFormSourceMap): no schedule is built
    Symmetry,    ///< one schedule serves every source (AlgorithmInfo::sameFromEverySource)
    EverySource, ///< one schedule per source: the brute force, O(nodes) schedules
};

/// Checks what computeSourceMap checks (throws the same Errors: the algorithm does not apply to
/// `topo`, or has no such metric) and says how it would find the values. O(1) but for the
/// algorithm's own applicability check.
SourceMapMethod sourceMapMethod(std::string_view algorithm, const Topology& topo, const Params& params,
                                SourceMapMetric metric, bool useSymmetry = true);

/// One share of a brute force dealt to `parts` workers (MPI ranks): the sources part,
/// part + parts, part + 2·parts, … below the node count, so that every share holds sources from
/// the whole network (corners and centre alike) and the shares differ by at most one source.
struct SourceMapShare {
    static constexpr std::uint32_t kNone = static_cast<std::uint32_t>(-1);
    std::uint32_t part = 0;
    std::uint32_t parts = 1;
    /// values[i]: the metric from source part + i·parts; NaN where that source has no schedule.
    std::vector<double> values;
    /// Sources of this share without a schedule (AlgorithmInfo::someSourcesOnly), the lowest of
    /// them and the algorithm's reason there.
    std::uint32_t missing = 0;
    std::uint32_t firstMissing = kNone;
    std::string missingReason;
    /// The lowest source of this share whose build failed for another reason (an Error of an
    /// algorithm without someSourcesOnly, or any other exception), and its message; `exception`
    /// holds it when the share was computed in this process (null after crossing ranks).
    std::uint32_t firstError = kNone;
    std::string error;
    std::exception_ptr exception;
};

/// How many sources share `part` of `parts` holds on a network of `nodes` nodes.
std::uint32_t sourceMapShareSize(std::uint32_t nodes, std::uint32_t part, std::uint32_t parts);

/// The brute force over one share of the sources (SourceMapMethod::EverySource; throws Error
/// otherwise, or when part ≥ parts), on options.threads workers. A failing source does not
/// throw: it is recorded in the share, so that the shares of all workers decide together what
/// combineSourceMapShares reports. Throws Error for options.maxSchedules (the whole network's
/// count) as computeSourceMap does. Returns nullopt when options.stop was requested first.
std::optional<SourceMapShare> computeSourceMapShare(std::string_view algorithm, const Topology& topo,
                                                    const Params& params, SourceMapMetric metric, std::uint32_t part,
                                                    std::uint32_t parts, const SourceMapOptions& options = {});

/// The source map of every share (shares[p] is part p of shares.size(); all of one network of
/// `nodes` nodes): exactly what computeSourceMap returns or throws for the whole network — the
/// error of the lowest failing source (its exception where it has one, else Error(message)), the
/// lowest missing source's reason, and that reason as the error when no source has a schedule.
/// Throws Error when the shares do not fit together. O(nodes).
SourceMap combineSourceMapShares(std::vector<SourceMapShare> shares, SourceMapMetric metric, std::uint32_t nodes);

/// The source map of `metric` for `algorithm` on `topo` with `params`: the metric of the schedule
/// from every source. From the closed form where the algorithm has one (hasClosedFormSourceMap),
/// otherwise by building and measuring one schedule per source, in parallel on options.threads
/// workers. Brute force: O(nodes × (schedule build + measure) / threads) time, memory of one
/// schedule and its metrics per worker plus 8 B per node.
/// Returns nullopt when options.stop was requested before every source was measured.
/// Throws Error when the algorithm does not apply to `topo`, when it has no such metric
/// (sourceMapMetrics; the message lists those it has), when the brute force would build more
/// than options.maxSchedules schedules (naming both), and rethrows the first Error (or other
/// exception) a schedule build raised, after every worker has stopped — except, for an
/// algorithm with someSourcesOnly, an Error from some but not all sources: those sources get NaN.
std::optional<SourceMap> computeSourceMap(std::string_view algorithm, const Topology& topo, const Params& params,
                                          SourceMapMetric metric, const SourceMapOptions& options = {});

} // namespace topocast
