// A GOAL program as a schedule of point-to-point messages (goal_schedule.h).
#include "topocast/analysis/goal_schedule.h"

#include "topocast/analysis/time_engine.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/network.h"
#include "topocast/model/units.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_map>
#include <utility>

namespace topocast {

namespace {

constexpr std::uint32_t kNone = TimeResult::kNoOp;
constexpr std::uint64_t kGoalScheduleBytesPerOp = 160 + kEngineBytesPerTransfer;

/// `text` as a JSON string (Schedule::fileInfo holds JSON text).
std::string jsonString(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += {'\\', c};
        else if (static_cast<unsigned char>(c) < 0x20)
            out += "\\u00" + std::string{"0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15]};
        else
            out += c;
    }
    return out + "\"";
}

void checkPlacement(const OpProgram& program, const Topology& topology, std::span<const NodeId> placement,
                    const std::string& name)
{
    if (placement.size() != program.ranks)
        throw Error(name + " has " + std::to_string(program.ranks) + " ranks; the placement gives " +
                    std::to_string(placement.size()) + " nodes (one per rank)");
    std::vector<std::uint8_t> used(topology.nodeCount(), 0);
    for (std::size_t r = 0; r < placement.size(); ++r) {
        if (placement[r] >= topology.nodeCount())
            throw Error(name + ": rank " + std::to_string(r) + " is placed on node " +
                        std::to_string(placement[r].value()) + ", outside the " + topology.displayName() + " (0.." +
                        std::to_string(topology.nodeCount() - 1) + ")");
        if (used[placement[r]]++)
            throw Error(name + ": two ranks are placed on " + topology.nodeName(placement[r]) +
                        "; a schedule's transfer joins two nodes, so each rank needs its own");
    }
}

/// What the conversion met that a schedule does not hold, counted for the notes.
struct Dropped {
    std::size_t calcs = 0;
    double calcTime = 0;
    std::size_t waitingReceives = 0; ///< receives with dependencies (posted late in the program)
    std::size_t sendAfterSend = 0;   ///< sends that wait for another send to complete
    std::size_t afterReceiveStart = 0;
};

std::vector<std::string> notesOf(const Dropped& d, std::size_t wildcards)
{
    std::vector<std::string> notes;
    if (d.calcs)
        notes.push_back(std::to_string(d.calcs) + " calc" + (d.calcs == 1 ? "" : "s") + " (" +
                        formatSeconds(d.calcTime * 1e-9) + " of computation in all) " +
                        (d.calcs == 1 ? "is not a transfer" : "are not transfers") +
                        ": what waits for one waits for what it waited for");
    if (d.waitingReceives)
        notes.push_back(std::to_string(d.waitingReceives) + " receive" +
                        (d.waitingReceives == 1 ? " waits" : "s wait") +
                        " for other ops before being posted; a schedule's receive is posted at once");
    if (d.sendAfterSend)
        notes.push_back(std::to_string(d.sendAfterSend) + " send" + (d.sendAfterSend == 1 ? " waits" : "s wait") +
                        " for a send to complete; a schedule's send waits for its rank's send before it to start");
    if (d.afterReceiveStart)
        notes.push_back(std::to_string(d.afterReceiveStart) + " op" + (d.afterReceiveStart == 1 ? " waits" : "s wait") +
                        " for a receive to start (irequires); a schedule waits for data, so that wait is dropped");
    if (wildcards)
        notes.push_back(std::to_string(wildcards) + " receive" + (wildcards == 1 ? "" : "s") +
                        " with a wildcard source or tag, paired as they matched with LogGOPSim's defaults");
    return notes;
}

/// One transfer of the schedule being built.
struct Message {
    std::uint32_t send = 0;
    StepNo step{1};
    std::vector<std::uint32_t> waits; ///< transfers whose receives its send waited for
};

/// The program's messages with their steps (levels of its dependencies) and the receives each
/// send waited for, its ops taken in an order their dependencies allow (earliest start first,
/// as the program ran: `run`); `recvOf` is each send's receive.
std::vector<Message> levelsOf(const OpProgram& program, const TimeResult& run, const std::vector<std::uint32_t>& recvOf,
                              Dropped& dropped)
{
    const std::vector<ProgramOp>& ops = program.ops;
    const std::size_t n = ops.size();
    // Each op's dependencies (CSR), and who waits for it: its dependants and, for a send, its receive.
    std::vector<std::uint32_t> depStart(n + 1, 0), waiting(n, 0);
    for (const ProgramDependency& d : program.dependencies)
        ++depStart[d.op + 1];
    for (std::size_t i = 0; i < n; ++i)
        depStart[i + 1] += depStart[i];
    std::vector<std::uint32_t> deps(program.dependencies.size());
    {
        std::vector<std::uint32_t> next(depStart.begin(), depStart.end() - 1);
        for (std::uint32_t k = 0; k < program.dependencies.size(); ++k)
            deps[next[program.dependencies[k].op]++] = k;
    }
    std::vector<std::vector<std::uint32_t>> dependants(n);
    for (const ProgramDependency& d : program.dependencies) {
        dependants[d.on].push_back(d.op);
        ++waiting[d.op];
    }
    for (std::uint32_t s = 0; s < n; ++s)
        if (recvOf[s] != kNone)
            ++waiting[recvOf[s]];

    // Ops in an order their dependencies allow, earliest start (when the program ran) first.
    using Ready = std::pair<double, std::uint32_t>;
    std::priority_queue<Ready, std::vector<Ready>, std::greater<>> queue;
    for (std::uint32_t i = 0; i < n; ++i)
        if (waiting[i] == 0)
            queue.emplace(run.ops[i].start, i);
    std::vector<StepNo> ready(n, StepNo{1});              // the first step an op after it may take
    std::vector<std::uint32_t> transferOf(n, kNone);      // send and receive → their transfer
    std::vector<std::vector<std::uint32_t>> calcWaits(n); // calc → the transfers it waited for
    std::vector<StepNo> lastStep(program.ranks, StepNo{1});
    std::vector<Message> messages;
    while (!queue.empty()) {
        const std::uint32_t x = queue.top().second;
        queue.pop();
        const ProgramOp& op = ops[x];
        StepNo need{1};
        std::vector<std::uint32_t> waits;
        for (std::uint32_t k = depStart[x]; k < depStart[x + 1]; ++k) {
            const ProgramDependency& d = program.dependencies[deps[k]];
            const ProgramOp& on = ops[d.on];
            if (on.kind == ProgramOp::Kind::Recv && d.onStart) {
                ++dropped.afterReceiveStart;
                continue;
            }
            need = std::max(need, ready[d.on]);
            if (on.kind == ProgramOp::Kind::Recv)
                waits.push_back(transferOf[d.on]);
            else if (on.kind == ProgramOp::Kind::Calc)
                waits.insert(waits.end(), calcWaits[d.on].begin(), calcWaits[d.on].end());
            else if (!d.onStart)
                ++dropped.sendAfterSend;
        }
        std::sort(waits.begin(), waits.end());
        waits.erase(std::unique(waits.begin(), waits.end()), waits.end());
        switch (op.kind) {
        case ProgramOp::Kind::Send: {
            const StepNo step = std::max(need, lastStep[op.rank]);
            lastStep[op.rank] = step;
            ready[x] = step;
            transferOf[x] = static_cast<std::uint32_t>(messages.size());
            messages.push_back(Message{x, step, std::move(waits)});
            break;
        }
        case ProgramOp::Kind::Recv: {
            dropped.waitingReceives += depStart[x + 1] > depStart[x] ? 1 : 0;
            const std::uint32_t t = transferOf[run.matchedSend[x]];
            transferOf[x] = t;
            ready[x] = StepNo{messages[t].step.value() + 1};
            break;
        }
        case ProgramOp::Kind::Calc:
            ++dropped.calcs;
            dropped.calcTime += static_cast<double>(op.size);
            ready[x] = need;
            calcWaits[x] = std::move(waits);
            break;
        }
        const auto release = [&](std::uint32_t y) {
            if (--waiting[y] == 0)
                queue.emplace(run.ops[y].start, y);
        };
        for (std::uint32_t y : dependants[x])
            release(y);
        if (recvOf[x] != kNone)
            release(recvOf[x]);
    }

    return messages;
}

/// The schedule of `messages`: each a transfer of its send's bytes carrying its token {sender,
/// receiver, k} (the k-th message between the two) and the tokens of the receives it waited for.
Schedule messagesSchedule(const OpProgram& program, const Topology& topology, std::span<const NodeId> placement,
                          const std::vector<Message>& messages, const std::string& name)
{
    const std::vector<ProgramOp>& ops = program.ops;
    Schedule s(topology, placement.empty() ? NodeId{0} : placement[0], Pattern::PointToPoint, PortModel::MultiPort);
    s.algorithm = "goal";
    s.sizeUnit = "bytes";
    s.contentionFree = false;
    s.fileInfo.emplace_back("goal_file", jsonString(name));
    s.reserve(messages.size());
    // Each transfer's token: {sender, receiver, k} for the k-th message between the two.
    std::vector<Block> token(messages.size());
    std::unordered_map<std::uint64_t, std::uint32_t> between;
    std::unordered_map<std::uint64_t, int> sendsInStep;
    std::uint32_t parts = 1;
    int perStep = 1;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const ProgramOp& op = ops[messages[i].send];
        const NodeId from = placement[op.rank], to = placement[op.peer];
        const std::uint32_t k = between[(std::uint64_t{from.value()} << 32) | to.value()]++;
        token[i] = Block{from.value(), to.value(), k};
        parts = std::max(parts, k + 1);
        perStep = std::max(perStep, ++sendsInStep[(std::uint64_t{messages[i].step.value()} << 32) | from.value()]);
    }
    s.parts = parts;
    s.maxSendsPerStep = perStep;
    std::vector<Block> carried;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        const ProgramOp& op = ops[messages[i].send];
        carried.assign(1, token[i]);
        for (std::uint32_t w : messages[i].waits)
            carried.push_back(token[w]);
        std::sort(carried.begin(), carried.end());
        const std::uint32_t payload = s.addPayload(carried);
        s.add(Transfer{placement[op.rank], placement[op.peer], messages[i].step, RouteSpec{}, payload,
                       op.tag == ProgramOp::kAny ? 0 : op.tag, static_cast<double>(op.size)});
    }
    s.finalize();
    return s;
}

} // namespace

GoalSchedule scheduleFromGoal(const OpProgram& program, const Topology& topology, std::span<const NodeId> placement,
                              const std::string& name)
{
    checkPlacement(program, topology, placement, name);
    // Per op: its run, its dependants and waits (two vectors), its level and transfer; per
    // message: a transfer and its payload.
    checkMemory("making " + name + " a schedule", saturatingMul(program.ops.size(), kGoalScheduleBytesPerOp),
                std::to_string(program.ops.size()) + " ops, about " + std::to_string(kGoalScheduleBytesPerOp) +
                    " B each");
    const std::vector<ProgramOp>& ops = program.ops;
    const std::size_t n = ops.size();
    // The pairing of sends and receives: as the program matches them when it runs.
    const TimeResult run = timeProgram(program, networkPreset("loggopsim"));
    if (!run.unfinished.empty())
        throw Error(name + " does not run to its end (" + run.unfinished.front() +
                    (run.unfinished.size() > 1 ? ", and " + std::to_string(run.unfinished.size() - 1) + " more"
                                               : std::string()) +
                    "): only a program that runs to its end is a schedule");
    std::vector<std::uint32_t> recvOf(n, kNone);
    std::size_t wildcards = 0;
    for (std::uint32_t r = 0; r < n; ++r) {
        if (ops[r].kind != ProgramOp::Kind::Recv)
            continue;
        const std::uint32_t s = run.matchedSend[r];
        if (s == kNone)
            throw Error(name + ": a receive of rank " + std::to_string(ops[r].rank) + " was never matched");
        recvOf[s] = r;
        wildcards += ops[r].peer == ProgramOp::kAny || ops[r].tag == ProgramOp::kAny ? 1 : 0;
        if (ops[s].rank == ops[r].rank)
            throw Error(name + (ops[s].line ? ":" + std::to_string(ops[s].line) : std::string()) + ": rank " +
                        std::to_string(ops[s].rank) +
                        " sends to itself; a schedule's transfer joins two nodes "
                        "(`topocast-cli time` times the file as it is)");
    }
    Dropped dropped;
    const std::vector<Message> messages = levelsOf(program, run, recvOf, dropped);
    GoalSchedule out;
    out.wildcardReceives = wildcards;
    out.notes = notesOf(dropped, wildcards);
    out.schedule = messagesSchedule(program, topology, placement, messages, name);
    return out;
}

} // namespace topocast
