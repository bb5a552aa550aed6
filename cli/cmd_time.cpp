// topocast-cli time: how long a schedule takes on a network model (analysis/time_engine.h) — a
// schedule built from a scenario, a schedule file (JSON, CSV, MSCCL XML) or a GOAL program —
// with every send started as soon as its data and its ports allow, or with a barrier between
// steps (--sync steps), and the other reading beside it.
#include "commands.h"

#include "envelope.h"
#include "msccl_commands.h"
#include "network_options.h"
#include "schedule_file.h"
#include "time_request.h"

#include "topocast/analysis/time_bound.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/io/goal.h"
#include "topocast/io/network_json.h"
#include "topocast/io/read_file.h"
#include "topocast/io/schedule_file.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/units.h"
#include "topocast/text/numbers.h"

#include <cmath>
#include <memory>
#include <optional>
#include <ostream>

namespace topocast::cli {

namespace {

struct TimeCommand {
    ScenarioOptions scenario;
    NetworkOptions network;
    std::string file;
    std::string topology;
    std::string ranks;
    std::string sync = "none";
    bool json = false;
};

nlohmann::ordered_json ns(double value)
{
    return nsJson(value);
}

/// A duration for people, from nanoseconds.
std::string shown(double nanoseconds)
{
    return formatSeconds(nanoseconds * 1e-9);
}

struct GoalInput {
    OpProgram program;
    std::optional<Topology> topology;
    std::vector<NodeId> placement;
};

GoalInput loadGoal(const TimeCommand& o)
{
    GoalInput in;
    in.program = readGoal(o.file);
    requireGoalRuns(in.program, o.file);
    if (!o.topology.empty()) {
        in.topology = Topology::parse(o.topology);
        in.placement = goalPlacement(in.program, *in.topology, o.ranks, o.file);
        for (ProgramOp& op : in.program.ops)
            if (op.kind == ProgramOp::Kind::Send)
                op.hops =
                    static_cast<std::uint32_t>(in.topology->distance(in.placement[op.rank], in.placement[op.peer]));
    } else if (!o.ranks.empty()) {
        throw Error("--ranks places ranks on the nodes of --topology; give --topology too");
    }
    return in;
}

/// What was asked: the file (and its placement) or the scenario (`sc`), the network, the sync.
nlohmann::ordered_json requestJson(const TimeCommand& o, const Scenario* sc, const NetworkModel& net, bool steps)
{
    return timeRequestJson(o.file, o.topology, o.ranks, sc, net, steps);
}

void commonJson(nlohmann::ordered_json& doc, const TimeResult& t, const TimeResult& other)
{
    doc["model"] = t.model;
    doc["total"] = ns(t.total);
    doc["other_model"] = {{"model", other.model}, {"total", ns(other.total)}};
    doc["notes"] = t.notes;
}

int runTimeGoal(const TimeCommand& o, const NetworkModel& net, bool steps, Io& io)
{
    if (steps)
        throw Error("--sync steps needs a schedule with steps; a GOAL program has none (its ops run as their "
                    "dependencies allow)");
    const GoalInput in = loadGoal(o);
    const TimeResult t = timeProgram(in.program, net);
    if (!t.unfinished.empty()) {
        std::string text;
        for (const std::string& u : t.unfinished)
            text += "\n  " + u;
        throw Error(o.file + " did not run to its end:" + text);
    }
    const auto rankName = [&](std::uint32_t r) {
        return in.topology ? "rank " + std::to_string(r) + " on " + in.topology->nodeName(in.placement[r])
                           : "rank " + std::to_string(r);
    };
    if (o.json) {
        nlohmann::ordered_json doc = in.topology ? envelope("topocast-time", *in.topology) : envelope("topocast-time");
        doc["request"] = requestJson(o, nullptr, net, false);
        doc["input"] = "goal";
        doc["model"] = t.model;
        doc["message"] = {{"value", net.message}, {"unit", "B"}};
        doc["total"] = ns(t.total);
        doc["last_rank"] = t.lastRank;
        nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
        for (std::uint32_t r = 0; r < t.rankFinish.size(); ++r) {
            nlohmann::ordered_json j{{"rank", r}};
            if (in.topology)
                j["node"] = nodeToJson(*in.topology, in.placement[r]);
            j["finish"] = ns(t.rankFinish[r]);
            ranks.push_back(j);
        }
        doc["ranks"] = ranks;
        nlohmann::ordered_json ops = nlohmann::ordered_json::array();
        for (std::uint32_t i = 0; i < in.program.ops.size(); ++i) {
            const ProgramOp& op = in.program.ops[i];
            nlohmann::ordered_json j{{"rank", op.rank},
                                     {"op", op.kind == ProgramOp::Kind::Send   ? "send"
                                            : op.kind == ProgramOp::Kind::Recv ? "recv"
                                                                               : "calc"},
                                     {"label", i < in.program.labels.size() ? in.program.labels[i] : std::string()},
                                     {"line", op.line},
                                     {"start", ns(t.ops[i].start)},
                                     {"end", ns(t.ops[i].end)}};
            ops.push_back(j);
        }
        doc["ops"] = ops;
        doc["notes"] = t.notes;
        io.out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
        return 0;
    }
    io.out << o.file << ": " << in.program.ranks << " ranks, " << in.program.ops.size() << " ops"
           << (in.topology ? ", on the " + in.topology->displayName() : std::string()) << "\n";
    io.out << "network: " << describe(net) << "\n";
    io.out << "time (LogGP, LogGOPSim's rules): " << shown(t.total) << " (" << formatNumber(t.total) << " ns), last "
           << rankName(t.lastRank) << "\n";
    for (const std::string& n : t.notes)
        io.out << "note: " << n << "\n";
    return 0;
}

int runTimeSchedule(const TimeCommand& o, bool steps, Io& io)
{
    std::optional<Scenario> sc;
    if (o.file.empty())
        sc = o.scenario.resolve();
    const Schedule s = sc ? buildScenario(*sc) : readScheduleFile(o.file, o.topology, o.ranks);
    const NetworkModel net = o.network.resolve(sc ? sc->network : std::nullopt);
    if (o.json)
        // The document lists every transfer as a JSON object (about 600 B each while it is built).
        checkMemory("time --json of " + std::to_string(s.size()) + " transfers", saturatingMul(s.size(), 600),
                    "every transfer listed, about 600 B each while the document is built; the text output gives "
                    "the totals of any size");
    // The text prints totals only: no op's or transfer's time is kept.
    std::vector<TimeResult> both = timeSchedule(
        s, net, {TimeOptions{.steps = steps, .totalOnly = !o.json}, TimeOptions{.steps = !steps, .totalOnly = true}});
    const TimeResult t = std::move(both[0]);
    const TimeResult other = std::move(both[1]);
    const Topology& topo = s.topology();
    if (o.json) {
        nlohmann::ordered_json doc = envelope("topocast-time", topo);
        doc["request"] = requestJson(o, sc ? &*sc : nullptr, net, steps);
        doc["algorithm"] = s.algorithm;
        doc["pattern"] = toString(s.pattern());
        doc["input"] = o.file.empty() ? "scenario" : toString(scheduleFileKind(o.file));
        doc["message"] = {{"value", net.message}, {"unit", "B"}};
        doc["block"] = {{"value", blockBytes(s, net.message)}, {"unit", "B"}};
        commonJson(doc, t, other);
        const TimeBound bound = timeBound(s, net);
        doc["bound"] = {{"total", ns(bound.total)},
                        {"latency", ns(bound.latency)},
                        {"latency_reason", bound.latencyReason},
                        {"bandwidth", ns(bound.bandwidth)},
                        {"bandwidth_reason", bound.bandwidthReason}};
        doc["above_bound"] = {{"value", bound.total > 0 ? std::round((t.total / bound.total - 1) * 1e8) / 1e6 : 0.0},
                              {"unit", "%"}};
        const double algbw = static_cast<double>(net.message) / t.total; // B/ns = GB/s
        const std::uint64_t n = s.participants.empty() ? topo.nodeCount() : s.participants.size();
        if (isCollective(s.pattern())) { // (a program of messages has no collective's size)
            doc["algbw"] = {{"value", std::round(algbw * 1e6) / 1e6}, {"unit", "GB/s"}};
            doc["busbw"] = {{"value", std::round(algbw * busBandwidthFactor(s.pattern(), n) * 1e6) / 1e6},
                            {"unit", "GB/s"}};
        } else {
            doc.erase("block");
            doc["size_unit"] = "bytes";
        }
        timedScheduleJson(doc, s, net, t);
        io.out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
        return 0;
    }
    const std::string what = (s.algorithm.empty() ? std::string("the schedule") : s.algorithm) + " " +
                             toString(s.pattern()) + " on the " + topo.displayName();
    io.out << what << ": " << s.size() << " transfers in " << s.stepCount() << " steps, "
           << (isCollective(s.pattern())
                   ? "M = " + formatSize(net.message) + " (" + formatSize(blockBytes(s, net.message)) + " a block)"
                   : std::string("each message's bytes as the file gives them (--message does not apply)"))
           << "\n";
    io.out << "network: " << describe(net) << "\n";
    const auto line = [&](const TimeResult& r) {
        return (r.model == "loggp" ? std::string("time, each send as soon as its data and ports allow (LogGP): ")
                                   : std::string("time with a barrier between steps (LogGP, steps): ")) +
               shown(r.total) + ", last node " + topo.nodeName(NodeId{r.lastRank});
    };
    io.out << line(t) << "\n" << line(other) << "\n";
    const TimeBound bound = timeBound(s, net);
    const std::uint64_t nodes = s.participants.empty() ? topo.nodeCount() : s.participants.size();
    const double algbw = static_cast<double>(net.message) / t.total;
    io.out << "bound: " << shown(bound.total) << " (latency " << shown(bound.latency) << ": " << bound.latencyReason
           << "; bandwidth " << shown(bound.bandwidth) << ": " << bound.bandwidthReason << "); the time is "
           << aboveBound(t.total, bound.total) << "\n";
    if (isCollective(s.pattern()))
        io.out << "algbw " << formatSignificant(algbw, 4) << " GB/s, busbw "
               << formatSignificant(algbw * busBandwidthFactor(s.pattern(), nodes), 4)
               << " GB/s (nccl-tests' figures: M / time, and that times "
               << formatSignificant(busBandwidthFactor(s.pattern(), nodes), 4) << ")\n";
    for (const std::string& n : t.notes)
        io.out << "note: " << n << "\n";
    return 0;
}

int runTime(const TimeCommand& given, Io& io)
{
    TimeCommand o = given;
    o.topology = given.scenario.topologyText();
    const bool steps = parseSync(o.sync);
    if (!o.file.empty() && scheduleFileKind(o.file) == ScheduleFileKind::Goal)
        return runTimeGoal(o, o.network.resolve(), steps, io);
    return runTimeSchedule(o, steps, io);
}

const CommandRegistrar reg{Command{
    .name = "time",
    .help = "how long a schedule takes on a network model (LogGP: overhead, gap, latency per message and per hop, "
            "bandwidth): a scenario's schedule, a schedule file or a GOAL program",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<TimeCommand>();
            sub.add_option("file", o->file,
                           "a schedule (JSON, CSV, MSCCL XML) or a GOAL program (.goal, LogGOPSim's format); "
                           "without it, the scenario the options give");
            o->scenario.add(sub, false, {"message"});
            o->network.add(sub);
            sub.add_option("--ranks", o->ranks,
                           "MSCCL XML or GOAL: rank placement, one node per line (default rank r on node r)");
            sub.add_option(
                   "--sync", o->sync,
                   "none (every send as soon as its data and its ports allow) or steps (a barrier between steps)")
                ->capture_default_str();
            sub.add_flag("--json", o->json,
                         "print the times as JSON: total, each node's finish, each transfer's start and end");
            return [o](Io& io) { return runTime(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
