#include "topocast/analysis/source_map.h"

#include "topocast/analysis/time_engine.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/cost_model.h"
#include "topocast/analysis/metrics.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/routing.h"
#include "topocast/text/durations.h"
#include "topocast/text/numbers.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>
#include <utility>

namespace topocast {

namespace {

constexpr std::array<std::pair<SourceMapMetric, const char*>, 5> kMetricNames{{
    {SourceMapMetric::Tcd, "tcd"},
    {SourceMapMetric::Steps, "steps"},
    {SourceMapMetric::MaxLinkLoad, "max_link_load"},
    {SourceMapMetric::Contention, "contention"},
    {SourceMapMetric::Time, "time"},
}};

std::string joinNames(const std::vector<SourceMapMetric>& metrics)
{
    std::string out;
    for (SourceMapMetric m : metrics)
        out += (out.empty() ? "" : ", ") + toString(m);
    return out;
}

/// The registered algorithm called `name`, or null (a schedule read from a file may name none).
const AlgorithmInfo* registered(std::string_view name)
{
    for (const AlgorithmInfo& a : algorithms())
        if (a.name == name)
            return &a;
    return nullptr;
}

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

/// max_link_load or contention of a finalized schedule in one pass over its routes: the figures
/// computeMetrics gives (most uses of one directed channel; Σ over steps and channels used k ≥ 2
/// times in the step of k), without its other figures, with per-thread arrays reused from one
/// schedule of a source map to the next.
double channelFigure(const Schedule& schedule, SourceMapMetric metric)
{
    const Topology& topo = schedule.topology();
    const std::uint64_t slots = topo.channelSlots();
    checkMemory("the channel loads of the " + topo.displayName(), saturatingMul(slots, 2 * sizeof(std::uint32_t)),
                std::to_string(slots) + " channel slots × 8 B");
    // Zero between schedules (each use resets what it touched), so a source map clears them once.
    thread_local std::vector<std::uint32_t> total, step;
    thread_local std::vector<std::uint32_t> touched, used;
    if (total.size() != slots) {
        total.assign(static_cast<std::size_t>(slots), 0);
        step.assign(static_cast<std::size_t>(slots), 0);
    }
    used.clear();
    std::uint32_t most = 0;
    std::uint64_t contended = 0;
    const std::vector<Transfer>& transfers = schedule.transfers();
    for (StepNo s : steps(schedule)) {
        touched.clear();
        for (std::size_t i = schedule.stepBegin(s); i < schedule.stepEnd(s); ++i) {
            const Transfer& t = transfers[i];
            forEachChannel(topo, t.from, t.to, t.route, schedule.dimensionOrder, [&](ChannelId c) {
                if (total[c]++ == 0)
                    used.push_back(static_cast<std::uint32_t>(c));
                most = std::max(most, total[c]);
                if (++step[c] == 1)
                    touched.push_back(static_cast<std::uint32_t>(c));
            });
        }
        for (const std::uint32_t c : touched) {
            if (step[c] > 1)
                contended += step[c];
            step[c] = 0;
        }
    }
    for (const std::uint32_t c : used)
        total[c] = 0;
    if (slots > (std::uint64_t{1} << 22)) { // do not keep large arrays past this schedule
        total = {};
        step = {};
        touched = {};
        used = {};
    }
    return static_cast<double>(metric == SourceMapMetric::MaxLinkLoad ? most : contended);
}

} // namespace

const std::vector<SourceMapMetric>& allSourceMapMetrics()
{
    static const std::vector<SourceMapMetric> all = [] {
        std::vector<SourceMapMetric> v;
        for (const auto& entry : kMetricNames)
            v.push_back(entry.first);
        return v;
    }();
    return all;
}

std::string metricWords(SourceMapMetric metric)
{
    switch (metric) {
    case SourceMapMetric::Tcd:
        return "TCD";
    case SourceMapMetric::Steps:
        return "steps";
    case SourceMapMetric::MaxLinkLoad:
        return "max link load";
    case SourceMapMetric::Contention:
        return "contention";
    case SourceMapMetric::Time:
        return "time";
    }
    return "TCD";
}

std::string sourceMapTimeUnit(std::string_view algorithm)
{
    const AlgorithmInfo& info = findAlgorithm(algorithm);
    return info.time ? info.timeUnit : "s";
}

bool isIntegral(SourceMapMetric metric)
{
    return metric != SourceMapMetric::Time;
}

std::vector<SourceMapMetric> sourceMapMetrics(std::string_view algorithm, const Params& params)
{
    findAlgorithm(algorithm); // an unknown algorithm is refused here, naming the known ones
    const std::string pattern = requestedPattern(algorithm, params);
    // Every node a source (allgather, alltoall, reduce-scatter, allreduce): no source to vary.
    try {
        if (!pattern.empty() && !hasRoot(parsePattern(pattern)))
            return {};
    } catch (const Error&) {
        // an unknown pattern: buildSchedule names the allowed ones
    }
    return allSourceMapMetrics();
}

NetworkModel sourceMapNetwork()
{
    return NetworkModel{};
}

std::string sourceMapTimeFigure(std::string_view algorithm)
{
    const AlgorithmInfo& info = findAlgorithm(algorithm);
    if (info.time)
        return info.timeFigure;
    return "LogGP (the time engine: each send as soon as its data and ports allow; contention between messages not "
           "charged) on the network " +
           describe(sourceMapNetwork());
}

std::string toString(SourceMapMetric metric)
{
    for (const auto& [m, name] : kMetricNames)
        if (m == metric)
            return name;
    return "tcd";
}

SourceMapMetric parseSourceMapMetric(std::string_view text)
{
    for (const auto& [m, name] : kMetricNames)
        if (text == name)
            return m;
    std::string allowed;
    for (const auto& entry : kMetricNames)
        allowed += (allowed.empty() ? "" : ", ") + std::string(entry.second);
    throw Error("unknown source map metric '" + std::string(text) + "'; use one of " + allowed);
}

double sourceMapValue(const Schedule& schedule, SourceMapMetric metric)
{
    switch (metric) {
    case SourceMapMetric::Tcd: {
        std::uint64_t tcd = 0;
        for (const Transfer& t : schedule.transfers())
            tcd += static_cast<std::uint64_t>(schedule.hops(t));
        return static_cast<double>(tcd);
    }
    case SourceMapMetric::Steps:
        return schedule.stepCount();
    case SourceMapMetric::Time:
        if (const AlgorithmInfo* info = registered(schedule.algorithm); info && info->time)
            return info->time(schedule);
        break;
    case SourceMapMetric::MaxLinkLoad:
    case SourceMapMetric::Contention:
        break;
    }
    auto measure = [metric](const Schedule& s) -> double {
        if (metric == SourceMapMetric::Time)
            return timeSchedule(s, sourceMapNetwork(), {.totalOnly = true}).total * 1e-9;
        return channelFigure(s, metric);
    };
    if (schedule.finalized() || schedule.size() == 0)
        return measure(schedule);
    Schedule copy = schedule;
    copy.finalize();
    return measure(copy);
}

SourceMapSummary summarize(const SourceMap& sourceMap)
{
    SourceMapSummary out;
    out.min = out.max = kNoValue;
    const std::vector<double>& v = sourceMap.values;
    for (double x : v) {
        if (std::isnan(x))
            continue;
        if (out.present++ == 0) {
            out.min = out.max = x;
            continue;
        }
        out.min = std::min(out.min, x);
        out.max = std::max(out.max, x);
    }
    for (NodeId id{}; id < v.size(); ++id)
        if (v[id] == out.min)
            out.argmin.push_back(id);
    return out;
}

std::vector<SourceMapBin> sourceMapHistogram(const std::vector<double>& values, SourceMapMetric metric, int maxBins)
{
    double lo = kNoValue, hi = kNoValue;
    for (double x : values) {
        if (std::isnan(x))
            continue;
        lo = std::isnan(lo) ? x : std::min(lo, x);
        hi = std::isnan(hi) ? x : std::max(hi, x);
    }
    if (std::isnan(lo) || maxBins < 1)
        return {};
    std::vector<SourceMapBin> bins;
    if (isIntegral(metric) && hi - lo < maxBins) {
        const auto n = static_cast<std::size_t>(hi - lo) + 1;
        bins.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            bins[i].from = bins[i].to = lo + static_cast<double>(i);
        for (double x : values)
            if (!std::isnan(x))
                ++bins[static_cast<std::size_t>(x - lo)].count;
        return bins;
    }
    const auto n = static_cast<std::size_t>(maxBins);
    const double width = (hi - lo) / static_cast<double>(n);
    bins.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        bins[i].from = lo + width * static_cast<double>(i);
        bins[i].to = i + 1 == n ? hi : lo + width * static_cast<double>(i + 1);
    }
    for (double x : values) {
        if (std::isnan(x))
            continue;
        auto i = width > 0 ? static_cast<std::size_t>((x - lo) / width) : 0;
        ++bins[std::min(i, n - 1)].count;
    }
    return bins;
}

std::vector<double> sourceMapTicks(double min, double max, SourceMapMetric metric, int count)
{
    if (!(max > min) || count < 1)
        return {};
    const double raw = (max - min) / count;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double f : {1.0, 2.0, 5.0, 10.0})
        if (f * mag >= raw) {
            step = f * mag;
            break;
        }
    if (isIntegral(metric))
        step = std::max(1.0, std::round(step));
    std::vector<double> ticks;
    for (double t = std::ceil(min / step) * step; t <= max + step * 1e-9; t += step)
        ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

std::string formatSourceMapValue(double value, SourceMapMetric metric, std::string_view timeUnit)
{
    if (std::isnan(value))
        return "–";
    if (isIntegral(metric))
        return std::to_string(static_cast<std::uint64_t>(value));
    if (timeUnit == "s")
        return formatDuration(value);
    return formatSignificant(value, 4);
}

bool hasClosedFormSourceMap(std::string_view algorithm, SourceMapMetric metric)
{
    return metric == SourceMapMetric::Tcd && static_cast<bool>(findAlgorithm(algorithm).tcdSourceMap);
}

std::uint32_t sourceMapShareSize(std::uint32_t nodes, std::uint32_t part, std::uint32_t parts)
{
    if (parts == 0 || part >= parts || part >= nodes)
        return 0;
    return (nodes - part - 1) / parts + 1;
}

SourceMapMethod sourceMapMethod(std::string_view algorithm, const Topology& topo, const Params& params,
                                SourceMapMetric metric, bool useSymmetry)
{
    const AlgorithmInfo& info = findAlgorithm(algorithm);
    if (auto why = info.whyNot(topo))
        throw Error(*why);
    const std::vector<SourceMapMetric> allowed = sourceMapMetrics(algorithm, params);
    if (std::find(allowed.begin(), allowed.end(), metric) == allowed.end()) {
        const std::string pattern = requestedPattern(algorithm, params);
        if (allowed.empty())
            throw Error(info.name + " with pattern " + pattern +
                        " has no source map: every node is a source, so there is no source to vary; source maps "
                        "are of patterns with a source or root (broadcast, scatter, gather, reduce)");
        throw Error(info.name + " has no " + toString(metric) + " source map; it has " + joinNames(allowed));
    }
    if (hasClosedFormSourceMap(algorithm, metric))
        return SourceMapMethod::ClosedForm;
    if (useSymmetry && info.sameFromEverySource && info.sameFromEverySource(topo) && topo.nodeCount() > 0)
        return SourceMapMethod::Symmetry;
    return SourceMapMethod::EverySource;
}

std::optional<SourceMapShare> computeSourceMapShare(std::string_view algorithm, const Topology& topo,
                                                    const Params& params, SourceMapMetric metric, std::uint32_t part,
                                                    std::uint32_t parts, const SourceMapOptions& options)
{
    if (sourceMapMethod(algorithm, topo, params, metric, options.useSymmetry) != SourceMapMethod::EverySource)
        throw Error("the " + toString(metric) + " source map of " + std::string(algorithm) +
                    " needs no schedule per source (closed form or symmetry); compute it whole");
    if (part >= parts)
        throw Error("source map share " + std::to_string(part) + " of " + std::to_string(parts) +
                    ": shares are numbered 0 to " + std::to_string(parts == 0 ? 0 : parts - 1));
    const AlgorithmInfo& info = findAlgorithm(algorithm);
    const std::uint32_t total = topo.nodeCount();
    if (total > options.maxSchedules)
        throw Error("the " + toString(metric) + " source map of " + std::string(algorithm) + " on the " +
                    topo.displayName() + " would build " + std::to_string(total) +
                    " schedules (one per source; the algorithm has no closed form); the limit is " +
                    std::to_string(options.maxSchedules));
    const std::uint32_t count = sourceMapShareSize(total, part, parts);
    SourceMapShare out;
    out.part = part;
    out.parts = parts;
    out.values.assign(count, 0);
    if (options.progress)
        options.progress(0, count);

    std::atomic<std::uint32_t> next{0};
    std::atomic<std::uint32_t> done{0};
    std::atomic<bool> failed{false};
    // The failures of the lowest-numbered sources, so that the report does not depend on which
    // worker thread (or rank) failed first: the one a single-threaded run would report.
    std::mutex errorMutex;
    const std::stop_token& stop = options.stop;
    auto record = [&](std::uint32_t v, bool asMissing) {
        const std::lock_guard lock(errorMutex);
        if (asMissing)
            ++out.missing;
        std::string& message = asMissing ? out.missingReason : out.error;
        std::uint32_t& first = asMissing ? out.firstMissing : out.firstError;
        if (v >= first)
            return;
        first = v;
        try {
            throw;
        } catch (const std::exception& e) {
            message = e.what();
        } catch (...) {
            message = "unknown error";
        }
        if (!asMissing)
            out.exception = std::current_exception();
    };
    auto work = [&] {
        while (!stop.stop_requested() && !failed.load(std::memory_order_relaxed)) {
            const std::uint32_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= count)
                return;
            const std::uint32_t v = part + i * parts;
            try {
                const Schedule s = buildSchedule(algorithm, topo, NodeId{v}, params);
                out.values[i] = sourceMapValue(s, metric);
            } catch (const Error&) {
                if (!info.someSourcesOnly) {
                    record(v, false);
                    failed = true;
                    return;
                }
                // No schedule from this source: a hole, unless no source has one (then the
                // first reason is the source map's error: combineSourceMapShares decides).
                out.values[i] = kNoValue;
                record(v, true);
            } catch (...) {
                record(v, false);
                failed = true;
                return;
            }
            const std::uint32_t finished = done.fetch_add(1, std::memory_order_relaxed) + 1;
            if (options.progress)
                options.progress(finished, count);
        }
    };

    unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::clamp<unsigned>(threads, 1, std::max<std::uint32_t>(count, 1));
    {
        // The calling thread is one of the workers; the others join at the end of this block.
        std::vector<std::jthread> helpers;
        helpers.reserve(threads - 1);
        for (unsigned i = 1; i < threads; ++i)
            helpers.emplace_back(work);
        work();
    }
    if (out.firstError == SourceMapShare::kNone && done.load() < count)
        return std::nullopt; // stopped
    return out;
}

SourceMap combineSourceMapShares(std::vector<SourceMapShare> shares, SourceMapMetric metric, std::uint32_t nodes)
{
    const auto parts = static_cast<std::uint32_t>(shares.size());
    for (std::uint32_t p = 0; p < parts; ++p)
        if (shares[p].part != p || shares[p].parts != parts ||
            shares[p].values.size() != sourceMapShareSize(nodes, p, parts))
            throw Error("source map share " + std::to_string(p) + " of " + std::to_string(parts) +
                        " does not fit a network of " + std::to_string(nodes) + " nodes");
    // The lowest failing source over all shares decides, as in one process.
    const SourceMapShare* failing = nullptr;
    const SourceMapShare* missingFirst = nullptr;
    for (const SourceMapShare& s : shares) {
        if (s.firstError != SourceMapShare::kNone && (!failing || s.firstError < failing->firstError))
            failing = &s;
        if (s.firstMissing != SourceMapShare::kNone && (!missingFirst || s.firstMissing < missingFirst->firstMissing))
            missingFirst = &s;
    }
    if (failing) {
        if (failing->exception)
            std::rethrow_exception(failing->exception);
        throw Error(failing->error);
    }
    SourceMap out;
    out.metric = metric;
    out.values.assign(nodes, kNoValue);
    for (const SourceMapShare& s : shares) {
        for (std::size_t i = 0; i < s.values.size(); ++i)
            out.values[s.part + i * parts] = s.values[i];
        out.missing += s.missing;
    }
    if (missingFirst) {
        if (out.missing == nodes)
            throw Error(missingFirst->missingReason);
        out.missingReason = missingFirst->missingReason;
    }
    return out;
}

std::optional<SourceMap> computeSourceMap(std::string_view algorithm, const Topology& topo, const Params& params,
                                          SourceMapMetric metric, const SourceMapOptions& options)
{
    const SourceMapMethod method = sourceMapMethod(algorithm, topo, params, metric, options.useSymmetry);
    if (method != SourceMapMethod::EverySource && options.stop.stop_requested())
        return std::nullopt;
    if (method == SourceMapMethod::ClosedForm) {
        const std::vector<std::uint64_t> map = findAlgorithm(algorithm).tcdSourceMap(topo, params);
        SourceMap out;
        out.metric = metric;
        out.values.assign(map.begin(), map.end());
        out.closedForm = true;
        return out;
    }
    if (method == SourceMapMethod::Symmetry) {
        const Schedule s = buildSchedule(algorithm, topo, NodeId{0}, params);
        SourceMap out;
        out.metric = metric;
        out.values.assign(topo.nodeCount(), sourceMapValue(s, metric));
        out.bySymmetry = true;
        return out;
    }
    std::optional<SourceMapShare> whole = computeSourceMapShare(algorithm, topo, params, metric, 0, 1, options);
    if (!whole)
        return std::nullopt;
    std::vector<SourceMapShare> shares;
    shares.push_back(std::move(*whole));
    return combineSourceMapShares(std::move(shares), metric, topo.nodeCount());
}

} // namespace topocast
