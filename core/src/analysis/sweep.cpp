#include "topocast/analysis/sweep.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/units.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

namespace topocast {

std::vector<std::uint64_t> parseSizeList(std::string_view text)
{
    std::vector<std::uint64_t> sizes;
    std::string part;
    std::istringstream in{std::string(text)};
    const auto refuse = [&](const std::string& why) {
        throw Error("--sizes '" + std::string(text) + "' " + why +
                    "; give sizes with their units as a range of powers of two (8B..1GiB), a list (1KiB,1MiB) or both "
                    "(8B..64B,1MiB)");
    };
    while (std::getline(in, part, ',')) {
        const auto dots = part.find("..");
        if (dots == std::string::npos) {
            sizes.push_back(parseBytes(part, "size"));
            continue;
        }
        const std::uint64_t from = parseBytes(part.substr(0, dots), "size");
        const std::uint64_t to = parseBytes(part.substr(dots + 2), "size");
        if (!std::has_single_bit(from) || !std::has_single_bit(to))
            refuse("has a range whose ends are not powers of two");
        if (to < from)
            refuse("has a range that goes down");
        for (std::uint64_t s = from; s <= to; s *= 2)
            sizes.push_back(s);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (sizes.empty() || sizes.front() == 0)
        refuse(sizes.empty() ? "is empty" : "has a size of 0 B");
    if (sizes.size() > 64)
        refuse("has " + std::to_string(sizes.size()) + " sizes; at most 64");
    return sizes;
}

SweepSchedules sweepSchedules(const SweepRequest& request)
{
    SweepSchedules out;
    const std::string pattern = toString(request.pattern);
    std::vector<std::string> names = request.algorithms;
    const bool every = names.empty();
    if (every)
        for (const AlgorithmInfo& info : algorithms())
            names.push_back(info.name);
    std::vector<std::string> candidates;
    for (const std::string& name : names) {
        const AlgorithmInfo& info = findAlgorithm(name); // throws for an unknown name, listing them
        if (std::find(info.patterns.begin(), info.patterns.end(), pattern) == info.patterns.end()) {
            if (!every)
                out.notApplicable.emplace_back(name, "computes no " + pattern);
            continue;
        }
        if (const auto why = info.whyNot(request.topology)) {
            out.notApplicable.emplace_back(name, *why);
            continue;
        }
        candidates.push_back(name);
    }
    // Each schedule built and folded on its own core (a ring on a large torus takes seconds).
    struct Built {
        std::optional<Schedule> schedule;
        std::optional<FoldedProgram> folded;
        std::string why;
        std::exception_ptr failure;
    };
    std::vector<Built> built(candidates.size());
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t k = next++; k < candidates.size(); k = next++) {
            try {
                const NodeId source = hasRoot(request.pattern) ? request.source : NodeId{0};
                built[k].schedule.emplace(
                    buildSchedule(candidates[k], request.topology, source, {{"pattern", pattern}}));
                built[k].folded = foldSchedule(*built[k].schedule, request.network);
            } catch (const Error& e) {
                built[k].why = e.what();
            } catch (...) {
                built[k].failure = std::current_exception();
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < sweepThreads(candidates.size()); ++t)
            pool.emplace_back(work);
        work();
    }
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        if (built[k].failure)
            std::rethrow_exception(built[k].failure);
        if (!built[k].schedule) {
            out.notApplicable.emplace_back(candidates[k], built[k].why);
            continue;
        }
        out.schedules.emplace_back(candidates[k], std::move(*built[k].schedule));
        out.folded.push_back(std::move(built[k].folded));
    }
    if (out.schedules.empty())
        throw Error("no algorithm computes a " + pattern + " on the " + request.topology.displayName() +
                    (out.notApplicable.empty()
                         ? std::string()
                         : " (" + out.notApplicable.front().first + ": " + out.notApplicable.front().second + ")"));
    return out;
}

namespace {

/// The transfers the engine runs for schedule `a`: the folded program's where it folds.
std::uint64_t timedTransfers(const SweepSchedules& schedules, std::size_t a)
{
    if (a < schedules.folded.size() && schedules.folded[a])
        return schedules.folded[a]->example.size();
    return schedules.schedules[a].second.size();
}

} // namespace

double estimateSweepSeconds(const SweepSchedules& schedules, std::size_t sizes, bool steps)
{
    // bench/bench_time: about 0.5 µs a transfer for the engine on this machine's kind on every
    // rank (0.92 s for the 2.1 million transfers of ring all-reduce on torus:32x32), a folded
    // program's transfers only where it folds; the sizes shared out among the cores.
    double transfers = 0;
    for (std::size_t a = 0; a < schedules.schedules.size(); ++a)
        transfers += static_cast<double>(timedTransfers(schedules, a));
    const double cores = std::max(
        1u, std::min(std::thread::hardware_concurrency(), static_cast<unsigned>(std::max<std::size_t>(sizes, 1))));
    return transfers * static_cast<double>(sizes) * (steps ? 0.45e-6 : 0.55e-6) / cores;
}

unsigned sweepThreads(std::size_t sizes)
{
    return std::clamp(std::thread::hardware_concurrency(), 1u, static_cast<unsigned>(std::max<std::size_t>(sizes, 1)));
}

void checkSweepMemory(const SweepSchedules& schedules, std::size_t sizes)
{
    const unsigned threads = sweepThreads(sizes);
    std::uint64_t transfers = 0;
    for (std::size_t a = 0; a < schedules.schedules.size(); ++a)
        transfers = saturatingAdd(transfers, timedTransfers(schedules, a));
    checkMemory("this sweep", saturatingMul(saturatingMul(transfers, kEngineBytesPerTransfer), threads + 1),
                std::to_string(transfers) + " transfers in all, timed on " + std::to_string(threads) +
                    " cores at once; give fewer --algorithms");
}

SweepTable runSweep(const SweepRequest& request, const SweepSchedules& schedules,
                    const std::function<void(double)>& progress)
{
    SweepTable table;
    table.request = request;
    table.notApplicable = schedules.notApplicable;
    for (const auto& [name, s] : schedules.schedules) {
        table.algorithms.push_back(name);
        table.transfers.push_back(s.size());
    }
    // One program per schedule, resized for each size; the sizes shared out among the cores, each
    // with its own copy of the programs.
    const unsigned threads = request.timer ? 1 : sweepThreads(request.sizes.size());
    checkSweepMemory(schedules, request.sizes.size());
    std::vector<OpProgram> programs;
    for (std::size_t a = 0; a < schedules.schedules.size(); ++a)
        programs.push_back(a < schedules.folded.size() && schedules.folded[a]
                               ? OpProgram{}
                               : scheduleProgram(schedules.schedules[a].second, request.network));
    table.rows.resize(request.sizes.size());
    const std::size_t cells = schedules.schedules.size() * request.sizes.size();
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex reporting;
    std::exception_ptr failure;
    const auto work = [&] {
        try {
            std::vector<OpProgram> mine = programs;
            std::vector<std::optional<FoldedProgram>> folded = schedules.folded;
            folded.resize(schedules.schedules.size());
            for (std::size_t k = next++; k < request.sizes.size(); k = next++) {
                NetworkModel m = request.network;
                m.message = request.sizes[k];
                SweepRow& row = table.rows[k];
                row.size = m.message;
                for (std::size_t a = 0; a < schedules.schedules.size(); ++a) {
                    const Schedule& s = schedules.schedules[a].second;
                    const TimeOptions options{.steps = request.steps, .totalOnly = true};
                    if (request.timer) {
                        row.times.push_back(request.timer(s, m, request.steps));
                        if (progress)
                            progress(static_cast<double>(++done) / static_cast<double>(cells));
                        continue;
                    }
                    std::optional<TimeResult> t;
                    if (folded[a]) {
                        resizeFolded(*folded[a], s, m.message);
                        t = timeFolded(s, *folded[a], m, options);
                        if (!t && mine[a].ops.empty()) // two events on one instant: every rank
                            mine[a] = scheduleProgram(s, m);
                    }
                    if (!t) {
                        resizeProgram(mine[a], s, m.message);
                        t = timeScheduleProgram(s, mine[a], m, options);
                    }
                    row.times.push_back(t->total);
                    if (progress) {
                        const std::lock_guard lock(reporting);
                        progress(static_cast<double>(++done) / static_cast<double>(cells));
                    }
                }
                // The bound of the pattern, from the first schedule (they share topology, pattern, source).
                row.bound = timeBound(schedules.schedules.front().second, m);
                row.winner =
                    static_cast<std::size_t>(std::min_element(row.times.begin(), row.times.end()) - row.times.begin());
            }
        } catch (...) {
            const std::lock_guard lock(reporting);
            failure = std::current_exception();
            next = request.sizes.size();
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < threads; ++t)
            pool.emplace_back(work);
        work();
    }
    if (failure)
        std::rethrow_exception(failure);
    for (std::size_t i = 1; i < table.rows.size(); ++i) {
        const SweepRow& before = table.rows[i - 1];
        const SweepRow& now = table.rows[i];
        if (now.winner == before.winner)
            continue;
        Crossover c;
        c.size = now.size;
        c.from = table.algorithms[before.winner];
        c.to = table.algorithms[now.winner];
        c.text = c.to + " overtakes " + c.from + " at " + formatSize(c.size);
        table.crossovers.push_back(std::move(c));
    }
    return table;
}

} // namespace topocast
