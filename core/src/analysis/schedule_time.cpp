// A schedule's time: its program (whole or folded) run by the engine, without barriers or with
// one between steps, and each transfer's and step's times read back from its ops.
#include "loggp_engine.h"

#include <algorithm>
#include <optional>

namespace topocast {

using namespace loggp;

namespace {

/// Runs `program` (paired by index) with a barrier between steps: the transfers of step s are
/// [first[s − 1], first[s]) and each step starts when every rank has finished the step before;
/// the dependencies on earlier steps are met by then, so each run keeps only its own ops.
void runInSteps(Engine& engine, const OpProgram& program, const std::vector<std::size_t>& first, TimeResult& r,
                std::vector<std::uint8_t>& done)
{
    double barrier = 0;
    for (std::size_t s = 1; s < first.size(); ++s) {
        const std::size_t from = 2 * first[s - 1], to = 2 * first[s];
        if (from == to)
            continue;
        OpProgram part;
        part.ranks = program.ranks;
        part.pairedByIndex = program.pairedByIndex; // (each step starts at an even op)
        part.ops.assign(program.ops.begin() + static_cast<std::ptrdiff_t>(from),
                        program.ops.begin() + static_cast<std::ptrdiff_t>(to));
        std::vector<OpTiming> timing(part.ops.size());
        std::vector<std::uint8_t> partDone(part.ops.size(), 0);
        engine.run(part, barrier, timing, partDone);
        std::copy(timing.begin(), timing.end(), r.ops.begin() + static_cast<std::ptrdiff_t>(from));
        std::copy(partDone.begin(), partDone.end(), done.begin() + static_cast<std::ptrdiff_t>(from));
        for (double f : engine.rankFinish(program.ranks))
            barrier = std::max(barrier, f);
    }
    r.notes.push_back("a barrier between steps: no transfer starts before every rank has finished the step before");
}

/// Runs a schedule's program (whole or folded), the steps' transfers starting at `first`;
/// `tied` says whether two events fell on one instant.
TimeResult runScheduleProgram(const OpProgram& program, const std::vector<std::size_t>& first,
                              const NetworkModel& network, const TimeOptions& options, bool& tied)
{
    TimeResult r;
    r.model = options.steps ? "loggp-steps" : "loggp";
    r.network = network;
    std::vector<std::uint8_t> done(program.ops.size(), 0);
    r.ops.assign(program.ops.size(), OpTiming{});
    Engine engine(program.ranks, countOf(program, &ProgramOp::cpu), nicCount(program), Params(network), false);
    if (options.steps)
        runInSteps(engine, program, first, r, done);
    else
        engine.run(program, 0.0, r.ops, done);
    tied = engine.tied();
    std::vector<std::string> notes = std::move(r.notes);
    finish(r, engine, program, done);
    r.notes.insert(r.notes.end(), notes.begin(), notes.end());
    return r;
}

/// Each transfer's start and end from its ops, and each step's end.
void scheduleTimings(TimeResult& r, const Schedule& schedule, const std::vector<OpTiming>& ops,
                     const std::vector<std::uint32_t>* transferOf)
{
    const std::size_t n = schedule.size();
    r.stepEnds.assign(schedule.stepCount(), 0.0);
    if (!r.ops.empty() || transferOf == nullptr)
        r.transfers.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = transferOf != nullptr ? (*transferOf)[i] : i;
        const OpTiming t{ops[2 * k].start, ops[2 * k + 1].end};
        if (!r.transfers.empty())
            r.transfers[i] = t;
        double& end = r.stepEnds[schedule.transfers()[i].step.value() - 1];
        end = std::max(end, t.end);
    }
}

} // namespace

TimeResult timeScheduleProgram(const Schedule& schedule, const OpProgram& program, const NetworkModel& network,
                               const TimeOptions& options)
{
    checkNetworkModel(network);
    std::vector<std::size_t> first;
    for (std::uint32_t s = 1; s <= schedule.stepCount() + 1; ++s)
        first.push_back(schedule.stepBegin(StepNo{s}));
    checkProgramMemory(program);
    bool tied = false;
    TimeResult r = runScheduleProgram(program, first, network, options, tied);
    scheduleTimings(r, schedule, r.ops, nullptr);
    if (options.totalOnly) {
        r.ops = {};
        r.transfers = {};
    }
    return r;
}

std::optional<TimeResult> timeFolded(const Schedule& schedule, const FoldedProgram& folded, const NetworkModel& network,
                                     const TimeOptions& options)
{
    checkNetworkModel(network);
    const std::vector<std::size_t> first(folded.stepStart.begin(), folded.stepStart.end());
    bool tied = false;
    TimeResult f = runScheduleProgram(folded.program, first, network, options, tied);
    if (tied || !f.unfinished.empty())
        return std::nullopt;
    TimeResult r = f;
    const std::uint32_t n = schedule.topology().nodeCount();
    r.rankFinish.assign(n, f.rankFinish.front());
    r.lastRank = 0;
    r.ops = {};
    if (!options.totalOnly) {
        r.ops.resize(2 * schedule.size());
        for (std::size_t i = 0; i < schedule.size(); ++i) {
            r.ops[2 * i] = f.ops[2 * folded.transferOf[i]];
            r.ops[2 * i + 1] = f.ops[2 * folded.transferOf[i] + 1];
        }
    }
    if (options.totalOnly) {
        // Each step's end from the folded transfers: every transfer of a step is one of them.
        r.stepEnds.assign(schedule.stepCount(), 0.0);
        for (std::size_t s = 1; s < folded.stepStart.size(); ++s)
            for (std::uint32_t k = folded.stepStart[s - 1]; k < folded.stepStart[s]; ++k)
                r.stepEnds[s - 1] = std::max(r.stepEnds[s - 1], f.ops[2 * k + 1].end);
        return r;
    }
    scheduleTimings(r, schedule, f.ops, &folded.transferOf);
    return r;
}

TimeResult timeSchedule(const Schedule& schedule, const NetworkModel& network, const TimeOptions& options)
{
    return std::move(timeSchedule(schedule, network, {options}).front());
}

std::vector<TimeResult> timeSchedule(const Schedule& schedule, const NetworkModel& network,
                                     std::initializer_list<TimeOptions> each)
{
    checkNetworkModel(network);
    const bool fold = std::any_of(each.begin(), each.end(), [](const TimeOptions& o) { return o.fold; });
    const std::optional<FoldedProgram> folded = fold ? foldSchedule(schedule, network) : std::nullopt;
    std::optional<OpProgram> program; // made once, where a reading needs every rank
    std::vector<TimeResult> out;
    for (const TimeOptions& options : each) {
        if (options.fold && folded)
            if (auto r = timeFolded(schedule, *folded, network, options)) {
                out.push_back(std::move(*r));
                continue;
            }
        if (!program)
            program = scheduleProgram(schedule, network);
        out.push_back(timeScheduleProgram(schedule, *program, network, options));
    }
    return out;
}

} // namespace topocast
