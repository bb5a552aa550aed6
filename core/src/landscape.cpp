#include "topocast/landscape.h"

#include "topocast/algorithms/registry.h"
#include "topocast/error.h"
#include "topocast/metrics.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

namespace topocast {

namespace {

constexpr std::array<std::pair<LandscapeMetric, const char*>, 4> kMetricNames{{
    {LandscapeMetric::Tcd, "tcd"},
    {LandscapeMetric::Steps, "steps"},
    {LandscapeMetric::MaxLinkLoad, "max_link_load"},
    {LandscapeMetric::Contention, "contention"},
}};

} // namespace

std::string toString(LandscapeMetric metric)
{
    for (const auto& [m, name] : kMetricNames)
        if (m == metric)
            return name;
    return "tcd";
}

LandscapeMetric parseLandscapeMetric(std::string_view text)
{
    for (const auto& [m, name] : kMetricNames)
        if (text == name)
            return m;
    std::string allowed;
    for (const auto& entry : kMetricNames)
        allowed += (allowed.empty() ? "" : ", ") + std::string(entry.second);
    throw Error("unknown landscape metric '" + std::string(text) + "'; use one of " + allowed);
}

std::uint64_t landscapeValue(const Schedule& schedule, LandscapeMetric metric)
{
    switch (metric) {
    case LandscapeMetric::Tcd: {
        std::uint64_t tcd = 0;
        for (const Transfer& t : schedule.transfers())
            tcd += static_cast<std::uint64_t>(schedule.hops(t));
        return tcd;
    }
    case LandscapeMetric::Steps:
        return schedule.stepCount();
    case LandscapeMetric::MaxLinkLoad:
    case LandscapeMetric::Contention:
        break;
    }
    auto measure = [metric](const Schedule& s) -> std::uint64_t {
        const Metrics m = computeMetrics(s, 0);
        return metric == LandscapeMetric::MaxLinkLoad ? m.maxLinkLoad : m.contentionUses;
    };
    if (schedule.finalized() || schedule.size() == 0)
        return measure(schedule);
    Schedule copy = schedule;
    copy.finalize();
    return measure(copy);
}

bool hasClosedFormLandscape(std::string_view algorithm, LandscapeMetric metric)
{
    return metric == LandscapeMetric::Tcd && static_cast<bool>(findAlgorithm(algorithm).tcdMap);
}

std::optional<Landscape> computeLandscape(std::string_view algorithm, const Topology& topo, const Params& params,
                                          LandscapeMetric metric, const LandscapeOptions& options)
{
    const AlgorithmInfo& info = findAlgorithm(algorithm);
    if (auto why = info.whyNot(topo))
        throw Error(*why);
    Landscape out;
    out.metric = metric;
    if (hasClosedFormLandscape(algorithm, metric)) {
        if (options.stop.stop_requested())
            return std::nullopt;
        out.values = info.tcdMap(topo, params);
        out.closedForm = true;
        return out;
    }

    const std::uint32_t total = topo.nodeCount();
    if (total > options.maxSchedules)
        throw Error("the " + toString(metric) + " landscape of " + std::string(algorithm) + " on the " +
                    topo.displayName() + " would build " + std::to_string(total) +
                    " schedules (one per source; the algorithm has no closed form); the limit is " +
                    std::to_string(options.maxSchedules));
    out.values.assign(total, 0);
    if (options.progress)
        options.progress(0, total);

    std::atomic<std::uint32_t> next{0};
    std::atomic<std::uint32_t> done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr firstError;
    std::mutex errorMutex;
    const std::stop_token& stop = options.stop;
    auto work = [&] {
        while (!stop.stop_requested() && !failed.load(std::memory_order_relaxed)) {
            const std::uint32_t v = next.fetch_add(1, std::memory_order_relaxed);
            if (v >= total)
                return;
            try {
                const Schedule s = buildSchedule(algorithm, topo, v, params);
                out.values[v] = landscapeValue(s, metric);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!firstError)
                    firstError = std::current_exception();
                failed = true;
                return;
            }
            const std::uint32_t finished = done.fetch_add(1, std::memory_order_relaxed) + 1;
            if (options.progress)
                options.progress(finished, total);
        }
    };

    unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::clamp<unsigned>(threads, 1, std::max<std::uint32_t>(total, 1));
    {
        // The calling thread is one of the workers; the others join at the end of this block.
        std::vector<std::jthread> helpers;
        helpers.reserve(threads - 1);
        for (unsigned i = 1; i < threads; ++i)
            helpers.emplace_back(work);
        work();
    }
    if (firstError)
        std::rethrow_exception(firstError);
    if (done.load() < total)
        return std::nullopt;  // stopped
    return out;
}

} // namespace topocast
