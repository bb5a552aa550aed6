#include "topocast/analysis/source_map_estimate.h"

#include "topocast/algorithms/registry.h"
#include "topocast/model/error.h"
#include "topocast/text/durations.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <thread>
#include <vector>

namespace topocast {

namespace {

constexpr std::uint32_t kSampleSources = 8;
constexpr double kSampleBudgetSeconds = 0.3;
/// The smaller of the two networks timed for a large one (the larger has kSourceMapSampleNodes).
constexpr std::uint32_t kSmallSampleNodes = std::uint32_t{1} << 14;

struct Timed {
    double perSchedule = 0.0;
    std::uint32_t count = 0;
};

/// Builds and measures the schedule from `source`; a failing build is timed as it is.
void buildAndMeasure(std::string_view algorithm, const Topology& topo, const Params& params, SourceMapMetric metric,
                     NodeId source)
{
    try {
        const Schedule s = buildSchedule(algorithm, topo, source, params);
        static_cast<void>(sourceMapValue(s, metric));
    } catch (const Error&) {
        // The source map reports it (as a hole or as its error); its time still counts.
    }
}

/// Mean seconds per schedule over up to kSampleSources sources spread over the node ids, after
/// one untimed warm-up, within about kSampleBudgetSeconds.
Timed timeSources(std::string_view algorithm, const Topology& topo, const Params& params, SourceMapMetric metric)
{
    using Clock = std::chrono::steady_clock;
    const std::uint32_t nodes = topo.nodeCount();
    buildAndMeasure(algorithm, topo, params, metric, NodeId{0});
    Timed out;
    const Clock::time_point start = Clock::now();
    double elapsed = 0.0;
    for (std::uint32_t k = 0; k < kSampleSources && elapsed < kSampleBudgetSeconds; ++k) {
        const std::uint64_t spread = (std::uint64_t{k} * 2 + 1) * nodes / (2 * kSampleSources);
        buildAndMeasure(algorithm, topo, params, metric, NodeId{static_cast<std::uint32_t>(spread % nodes)});
        ++out.count;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    }
    out.perSchedule = elapsed / out.count;
    return out;
}

/// `topo` with its largest side halved (rounded up, at least 2) until it has at most `target`
/// nodes; a hypercube loses dimensions. Nullopt when it cannot get smaller.
std::optional<Topology> shrunk(const Topology& topo, std::uint32_t target)
{
    if (topo.isHypercube()) {
        int n = topo.dims();
        while (n > 1 && (std::uint64_t{1} << n) > target)
            --n;
        return n < topo.dims() ? std::optional(Topology::hypercube(n)) : std::nullopt;
    }
    std::vector<int> sides(static_cast<std::size_t>(topo.dims()));
    for (int d = 0; d < topo.dims(); ++d)
        sides[static_cast<std::size_t>(d)] = topo.side(d);
    auto nodes = [&] {
        std::uint64_t n = 1;
        for (int s : sides)
            n *= static_cast<std::uint64_t>(s);
        return n;
    };
    while (nodes() > target) {
        auto largest = std::max_element(sides.begin(), sides.end());
        if (*largest <= 2)
            break;
        *largest = std::max(2, (*largest + 1) / 2);
    }
    if (nodes() >= topo.nodeCount())
        return std::nullopt;
    return topo.isTorus() ? Topology::torus(sides) : Topology::mesh(sides);
}

/// The smaller network of `topo`'s shape that `algorithm` builds on: shrunk to `target` nodes, or
/// to twice that when the algorithm refuses the first (a side's parity or size rule).
std::optional<Topology> sampleNetwork(const AlgorithmInfo& info, const Topology& topo, std::uint32_t target)
{
    for (std::uint32_t t : {target, 2 * target}) {
        std::optional<Topology> small = shrunk(topo, t);
        if (small && !info.whyNot(*small))
            return small;
    }
    return std::nullopt;
}

/// "the 25×25×25 and 51×51×51 meshes", "the 14-cube and the 17-cube".
std::string twoNetworks(const Topology& small, const Topology& large)
{
    if (small.isHypercube())
        return "the " + small.displayName() + " and the " + large.displayName();
    const std::string kind = small.isTorus() ? " torus" : " mesh";
    std::string a = small.displayName(), b = large.displayName();
    a.resize(a.size() - kind.size());
    b.resize(b.size() - kind.size());
    return "the " + a + " and " + b + (small.isTorus() ? " tori" : " meshes");
}

} // namespace

SourceMapEstimate estimateSourceMap(std::string_view algorithm, const Topology& topo, const Params& params,
                                    SourceMapMetric metric, unsigned workers, bool useSymmetry)
{
    SourceMapEstimate out;
    out.method = sourceMapMethod(algorithm, topo, params, metric, useSymmetry);
    out.workers = std::max(1u, workers ? workers : std::thread::hardware_concurrency());
    if (out.method == SourceMapMethod::ClosedForm)
        return out;
    out.schedules = out.method == SourceMapMethod::Symmetry ? 1 : topo.nodeCount();

    const AlgorithmInfo& info = findAlgorithm(algorithm);
    std::optional<Topology> small, large;
    if (topo.nodeCount() > kSourceMapSampleNodes) {
        large = sampleNetwork(info, topo, kSourceMapSampleNodes);
        small = large ? sampleNetwork(info, *large, kSmallSampleNodes) : std::nullopt;
    }
    if (small && large) {
        const Timed a = timeSources(algorithm, *small, params, metric);
        const Timed b = timeSources(algorithm, *large, params, metric);
        const double na = small->nodeCount(), nb = large->nodeCount();
        double exponent = 1.0;
        if (nb > 1.5 * na && a.perSchedule > 0 && b.perSchedule > 0)
            exponent = std::clamp(std::log(b.perSchedule / a.perSchedule) / std::log(nb / na), 0.8, 2.0);
        out.secondsPerSchedule = b.perSchedule * std::pow(topo.nodeCount() / nb, exponent);
        out.sampled = a.count + b.count;
        out.sampledOn = twoNetworks(*small, *large) + ", extrapolated";
    } else {
        const Timed t = timeSources(algorithm, topo, params, metric);
        out.secondsPerSchedule = t.perSchedule;
        out.sampled = t.count;
        out.sampledOn = "the " + topo.displayName();
    }
    out.seconds = out.method == SourceMapMethod::Symmetry
                      ? out.secondsPerSchedule
                      : out.secondsPerSchedule * static_cast<double>(out.schedules) / out.workers;
    return out;
}

std::string estimateText(const SourceMapEstimate& estimate, std::string_view workersWord)
{
    auto roughly = [](double seconds) {
        return seconds < 1.0 ? formatRoughDuration(seconds) : "about " + formatRoughDuration(seconds);
    };
    switch (estimate.method) {
    case SourceMapMethod::ClosedForm:
        return "no schedule to build (the algorithm's closed form)";
    case SourceMapMethod::Symmetry:
        return "one schedule (every source's is the origin's moved by a symmetry), " + roughly(estimate.seconds);
    case SourceMapMethod::EverySource:
        break;
    }
    return roughly(estimate.seconds) + " on " + std::to_string(estimate.workers) + " " +
           std::string(estimate.workers == 1 ? workersWord.substr(0, workersWord.size() - 1) : workersWord);
}

} // namespace topocast
