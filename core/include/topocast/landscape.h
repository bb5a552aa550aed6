#pragma once

#include "topocast/params.h"
#include "topocast/schedule.h"
#include "topocast/topology.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// What a landscape measures for every source (the names are the schedule document's fields).
enum class LandscapeMetric : std::uint8_t {
    Tcd,          ///< "tcd": total communication distance, Σ route lengths
    Steps,        ///< "steps": number of steps
    MaxLinkLoad,  ///< "max_link_load": most uses of one directed channel over the schedule
    Contention,   ///< "contention": channel uses sharing a directed channel with another transfer of their step
};

/// "tcd", "steps", "max_link_load", "contention".
std::string toString(LandscapeMetric metric);
/// Parses the names toString() gives. Throws Error listing them.
LandscapeMetric parseLandscapeMetric(std::string_view text);

/// The figure `metric` of one schedule (what a landscape holds for that schedule's source).
/// Tcd and Steps: O(transfers); MaxLinkLoad and Contention: computeMetrics() (finalizes a copy
/// when `schedule` is not finalized). Throws Error as computeMetrics does.
std::uint64_t landscapeValue(const Schedule& schedule, LandscapeMetric metric);

struct LandscapeOptions {
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
    /// built is finished, not interrupted) and computeLandscape returns nullopt.
    std::stop_token stop;
};

/// The value of a metric from every source.
struct Landscape {
    LandscapeMetric metric = LandscapeMetric::Tcd;
    /// values[v]: the metric of the algorithm's schedule from source v (index = NodeId).
    std::vector<std::uint64_t> values;
    /// True when the values come from the algorithm's closed form (AlgorithmInfo::tcdMap), not
    /// from building every schedule.
    bool closedForm = false;
};

/// True when computeLandscape answers `metric` for `algorithm` from a closed form (today: tcd for
/// algorithms with AlgorithmInfo::tcdMap, e.g. cang-wu), without building schedules. Throws Error
/// for an unknown algorithm.
bool hasClosedFormLandscape(std::string_view algorithm, LandscapeMetric metric);

/// The landscape of `metric` for `algorithm` on `topo` with `params`: the metric of the schedule
/// from every source. From the closed form where the algorithm has one (hasClosedFormLandscape),
/// otherwise by building and measuring one schedule per source, in parallel on options.threads
/// workers. Brute force: O(nodes × (schedule build + measure) / threads) time, memory of one
/// schedule and its metrics per worker plus 8 B per node.
/// Returns nullopt when options.stop was requested before every source was measured.
/// Throws Error when the algorithm does not apply to `topo`, when the brute force would build more
/// than options.maxSchedules schedules (naming both), and rethrows the first Error (or other
/// exception) a schedule build raised, after every worker has stopped.
std::optional<Landscape> computeLandscape(std::string_view algorithm, const Topology& topo, const Params& params,
                                          LandscapeMetric metric, const LandscapeOptions& options = {});

} // namespace topocast
