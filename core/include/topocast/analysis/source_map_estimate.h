#pragma once

// How long a source map will take, said before it starts: a few sources are timed, on the network
// itself or, when one schedule of it is too large to time quickly, on two smaller networks of its
// shape whose times are extrapolated to its size.

#include "topocast/analysis/source_map.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace topocast {

struct SourceMapEstimate {
    SourceMapMethod method = SourceMapMethod::EverySource;
    /// Schedules the source map builds: 0 (closed form), 1 (symmetry) or one per node.
    std::uint64_t schedules = 0;
    /// Seconds to build and measure one schedule on one thread (timed or extrapolated).
    double secondsPerSchedule = 0.0;
    /// Workers the estimate assumes (threads, or ranks × threads), at least 1.
    unsigned workers = 1;
    /// Wall-clock seconds on `workers` workers: schedules × secondsPerSchedule / workers (one
    /// schedule is never split, so symmetry takes secondsPerSchedule).
    double seconds = 0.0;
    /// Schedules timed for the estimate, and the networks they were built on, in words ("the
    /// 32×32×32 mesh", or "the 32×32×32 and 64×64×64 meshes, extrapolated").
    std::uint32_t sampled = 0;
    std::string sampledOn;
};

/// Networks above this many nodes are not timed themselves: two smaller networks of their shape
/// are (a schedule of 16M nodes takes longer to build than the estimate may take).
inline constexpr std::uint32_t kSourceMapSampleNodes = std::uint32_t{1} << 17;

/// The estimate for computeSourceMap(algorithm, topo, params, metric) on `workers` workers (0:
/// the hardware's threads). Times up to 8 sources spread over the network (at most about 0.3 s
/// of sampling) after one untimed warm-up; above kSourceMapSampleNodes nodes, times the same on
/// two smaller networks of the same kind and shape (about 2^14 and 2^17 nodes) and extrapolates
/// with the power law their two times fit (exponent clamped to [0.8, 2]). Throws the Errors
/// sourceMapMethod throws; a sampled source whose build fails is timed as it is (the source map
/// itself reports the failure).
SourceMapEstimate estimateSourceMap(std::string_view algorithm, const Topology& topo, const Params& params,
                                    SourceMapMetric metric, unsigned workers = 0, bool useSymmetry = true);

/// The estimate for people: "about 8 min on 2 cores" (`workersWord`: "cores", "ranks"),
/// "no schedule to build (the algorithm's closed form)" or "one schedule (…symmetry…), about 1 s".
std::string estimateText(const SourceMapEstimate& estimate, std::string_view workersWord = "cores");

} // namespace topocast
