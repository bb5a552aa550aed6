// topocast-cli simulate: a schedule's time with contention charged (analysis/simulate.h: the time
// engine with every message's bytes on SimGrid's flow-level network), beside the time without
// it, with the links that cost the difference; --trace writes the run for Perfetto / chrome://tracing.
#include "commands.h"

#include "envelope.h"
#include "network_options.h"
#include "schedule_file.h"
#include "time_request.h"

#include "topocast/analysis/simulate.h"
#include "topocast/analysis/simulated_playback.h"
#include "topocast/analysis/time_bound.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/goal.h"
#include "topocast/io/network_json.h"
#include "topocast/io/schedule_file.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/units.h"
#include "topocast/text/durations.h"
#include "topocast/text/numbers.h"

#include <cmath>
#include <memory>
#include <optional>
#include <ostream>

namespace topocast::cli {

namespace {

/// --max-seconds by default: ten minutes.
constexpr double kDefaultSimulationSeconds = 600;
/// Links listed in the text output.
constexpr std::size_t kLinksShown = 8;

struct SimulateCommand {
    ScenarioOptions scenario;
    NetworkOptions network;
    std::string file;
    std::string topology;
    std::string ranks;
    std::string sync = "none";
    std::string trace;
    double maxSeconds = kDefaultSimulationSeconds;
    bool json = false;
};

std::string shownNs(double nanoseconds)
{
    return formatSeconds(nanoseconds * 1e-9);
}

nlohmann::ordered_json requestOf(const SimulateCommand& o, const Scenario* sc, const NetworkModel& net, bool steps)
{
    nlohmann::ordered_json r = timeRequestJson(o.file, o.topology, o.ranks, sc, net, steps);
    r["model"] = "simgrid";
    return r;
}

nlohmann::ordered_json linksJson(const Simulation& sim, const Topology& topo)
{
    nlohmann::ordered_json links = nlohmann::ordered_json::array();
    for (const LinkLoad& l : sim.links)
        links.push_back({{"link", topo.channelName(l.channel)},
                         {"from", nodeToJson(topo, topo.channelTail(l.channel))},
                         {"to", nodeToJson(topo, topo.channelHead(l.channel))},
                         {"busy", nsJson(l.busy)},
                         {"shared", nsJson(l.shared)},
                         {"transfers", l.transfers},
                         {"most_at_once", l.most},
                         {"most_at", nsJson(l.mostAt)},
                         {"most_step", l.mostStep.value()}});
    return links;
}

nlohmann::ordered_json simulationJson(const SimulateCommand& o, const Scenario* sc, const Schedule& s,
                                      const NetworkModel& net, bool steps, const Simulation& sim)
{
    const Topology& topo = s.topology();
    nlohmann::ordered_json doc = envelope("topocast-simulation", topo);
    doc["request"] = requestOf(o, sc, net, steps);
    doc["algorithm"] = s.algorithm;
    doc["pattern"] = toString(s.pattern());
    doc["engine"] = simulationEngine();
    doc["message"] = {{"value", net.message}, {"unit", "B"}};
    doc["size_unit"] = s.sizeUnit;
    doc["model"] = sim.time.model;
    doc["total"] = nsJson(sim.time.total);
    doc["contention_free"] = {{"model", sim.contentionFree.model}, {"total", nsJson(sim.contentionFree.total)}};
    doc["contention_cost"] = {{"value", std::round(sim.contentionCost() * 1e8) / 1e6}, {"unit", "%"}};
    const TimeBound bound = timeBound(s, net);
    doc["bound"] = {{"total", nsJson(bound.total)},
                    {"latency_reason", bound.latencyReason},
                    {"bandwidth_reason", bound.bandwidthReason}};
    timedScheduleJson(doc, s, net, sim.time, &sim.contentionFree);
    doc["links"] = linksJson(sim, topo);
    doc["notes"] = sim.time.notes;
    return doc;
}

/// The run in the Chrome trace format (Perfetto, chrome://tracing): process 1 holds one track
/// per node (each send from its start to its receive's end), process 2 one track per link (each
/// message's bytes while they cross it); a flow arrow (numeric id: the transfer's index) joins a
/// send to its receiver. Times in microseconds, as the format counts them.
nlohmann::ordered_json traceJson(const Schedule& s, const Simulation& sim, const nlohmann::ordered_json& request)
{
    const Topology& topo = s.topology();
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    const auto us = [](double ns) { return std::round(ns) / 1e3; };
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 1}, {"args", {{"name", "nodes"}}}});
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 2}, {"args", {{"name", "links"}}}});
    for (std::uint32_t n = 0; n < topo.nodeCount(); ++n)
        events.push_back({{"ph", "M"},
                          {"name", "thread_name"},
                          {"pid", 1},
                          {"tid", n},
                          {"args", {{"name", topo.nodeName(NodeId{n})}}}});
    std::unordered_map<std::uint64_t, std::uint32_t> linkTrack;
    for (const LinkLoad& l : sim.links) {
        const auto tid = static_cast<std::uint32_t>(linkTrack.size());
        linkTrack[l.channel.value()] = tid;
        events.push_back({{"ph", "M"},
                          {"name", "thread_name"},
                          {"pid", 2},
                          {"tid", tid},
                          {"args", {{"name", topo.channelName(l.channel)}}}});
    }
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Transfer& x = s.transfers()[i];
        const OpTiming& t = sim.time.transfers[i];
        const std::string name = topo.nodeName(x.from) + " → " + topo.nodeName(x.to);
        events.push_back({{"ph", "X"},
                          {"name", name},
                          {"cat", "step " + std::to_string(x.step.value())},
                          {"pid", 1},
                          {"tid", x.from.value()},
                          {"ts", us(t.start)},
                          {"dur", (std::round(t.end) - std::round(t.start)) / 1e3}});
        events.push_back({{"ph", "s"},
                          {"name", "message"},
                          {"cat", "message"},
                          {"id", i},
                          {"pid", 1},
                          {"tid", x.from.value()},
                          {"ts", us(t.start)}});
        events.push_back({{"ph", "f"},
                          {"bp", "e"},
                          {"name", "message"},
                          {"cat", "message"},
                          {"id", i},
                          {"pid", 1},
                          {"tid", x.to.value()},
                          {"ts", us(t.end)}});
        for (std::uint64_t k = sim.routeFirst[i]; k < sim.routeFirst[i + 1]; ++k) {
            const OpTiming& h = sim.hopTimes[k];
            if (h.end > h.start)
                events.push_back({{"ph", "X"},
                                  {"name", name},
                                  {"cat", "step " + std::to_string(x.step.value())},
                                  {"pid", 2},
                                  {"tid", linkTrack.at(sim.routeLinks[k].value())},
                                  {"ts", us(h.start)},
                                  {"dur", (std::round(h.end) - std::round(h.start)) / 1e3}});
        }
    }
    return {{"traceEvents", events},
            {"displayTimeUnit", "ns"},
            {"otherData",
             {{"format", "topocast-simulation-trace"},
              {"request", request},
              {"model", sim.time.model},
              {"engine", simulationEngine()},
              {"network", describe(sim.time.network)},
              {"total_ns", sim.time.total}}}};
}

void printText(const Schedule& s, const NetworkModel& net, const Simulation& sim, Io& io)
{
    const Topology& topo = s.topology();
    const bool steps = sim.time.model == "simgrid-steps";
    io.out << (s.algorithm.empty() ? std::string("the schedule") : s.algorithm) << " " << toString(s.pattern())
           << " on the " << topo.displayName() << ": " << s.size() << " transfers in " << s.stepCount() << " steps, "
           << (isCollective(s.pattern())
                   ? "M = " + formatSize(net.message) + " (" + formatSize(blockBytes(s, net.message)) + " a block)"
                   : std::string("each message's bytes as the file gives them"))
           << "\n";
    io.out << "network: " << describe(net) << "\n";
    io.out << "simulated (" << simulationEngine()
           << (steps ? ", a barrier between steps" : ", each send as soon as its data and ports allow")
           << "): " << shownNs(sim.time.total) << ", last node " << topo.nodeName(NodeId{sim.time.lastRank}) << "\n";
    io.out << "without contention (LogGP, the same rules" << (steps ? ", steps" : "")
           << "): " << shownNs(sim.contentionFree.total) << "\n";
    const TimeBound bound = timeBound(s, net);
    io.out << "bound: " << shownNs(bound.total) << " (" << bound.latencyReason << "; " << bound.bandwidthReason
           << "); the simulated time is " << aboveBound(sim.time.total, bound.total) << "\n";
    io.out << contentionSentence(sim, topo) << "\n";
    if (!sim.links.empty()) {
        io.out << "busiest links (longest shared first; " << sim.links.size() << " links carried messages):\n";
        for (std::size_t i = 0; i < std::min(kLinksShown, sim.links.size()); ++i) {
            const LinkLoad& l = sim.links[i];
            io.out << "  " << topo.channelName(l.channel) << "  busy " << shownNs(l.busy) << ", shared "
                   << shownNs(l.shared) << ", " << l.transfers << (l.transfers == 1 ? " message" : " messages")
                   << ", at most " << l.most << " at once (step " << l.mostStep.value() << ", at " << shownNs(l.mostAt)
                   << ")\n";
        }
    }
    io.out << "steps (simulated end / without contention):";
    for (std::size_t k = 0; k < sim.time.stepEnds.size(); ++k)
        io.out << (k % 4 == 0 ? "\n  " : "   ") << "step " << k + 1 << " " << shownNs(sim.time.stepEnds[k]) << " / "
               << shownNs(sim.contentionFree.stepEnds.at(k));
    io.out << "\n";
    for (const std::string& n : sim.time.notes)
        io.out << "note: " << n << "\n";
    io.out << "simulated in " << formatSignificant(sim.wallSeconds, 3) << " s\n";
}

int runSimulate(const SimulateCommand& given, Io& io)
{
    SimulateCommand o = given;
    o.topology = given.scenario.topologyText();
    const bool steps = parseSync(o.sync);
    if (!o.file.empty() && scheduleFileKind(o.file) == ScheduleFileKind::Goal)
        throw Error("a GOAL program has no routes to simulate on; import it as a schedule on a topology first "
                    "(topocast-cli import " +
                    o.file + " --topology T --out S.json), then simulate S.json");
    std::optional<Scenario> sc;
    if (o.file.empty())
        sc = o.scenario.resolve();
    const Schedule s = sc ? buildScenario(*sc) : readScheduleFile(o.file, o.topology, o.ranks);
    const NetworkModel net = o.network.resolve(sc ? sc->network : std::nullopt);
    checkNetworkModel(net);
    requireSimulation();
    const SimulationEstimate est = estimateSimulation(s);
    if (o.maxSeconds > 0 && est.seconds > o.maxSeconds)
        throw Error("simulating " + std::to_string(s.size()) + " transfers on the " + s.topology().displayName() +
                    " would take about " + formatRoughDuration(est.seconds) + "; the limit is --max-seconds " +
                    formatSignificant(o.maxSeconds, 6) + " (raise it to go on)");
    if (o.json)
        checkMemory("simulate --json of " + std::to_string(s.size()) + " transfers", saturatingMul(s.size(), 800),
                    "every transfer listed, about 800 B each while the document is built; the text output gives "
                    "the totals of any size");
    if (est.seconds > 2)
        io.err << "simulate: " << s.size() << " transfers, about " << formatRoughDuration(est.seconds) << "\n";
    SimulationOptions options{.steps = steps};
    if (est.seconds > 2)
        options.progress = [&io](double share) {
            io.err << "simulate: " << static_cast<int>(share * 100) << " % of the messages through\n";
        };
    const Simulation sim = simulateSchedule(s, net, options);
    if (!o.trace.empty())
        writeFileAtomic(o.trace, traceJson(s, sim, requestOf(o, sc ? &*sc : nullptr, net, steps))
                                         .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
                                     "\n");
    if (o.json) {
        io.out << simulationJson(o, sc ? &*sc : nullptr, s, net, steps, sim)
                      .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
               << "\n";
        return 0;
    }
    printText(s, net, sim, io);
    if (!o.trace.empty())
        io.out << "trace: " << o.trace << " (open it in ui.perfetto.dev or chrome://tracing)\n";
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "simulate",
    .help = "a schedule's time with contention charged: every message's bytes sent over its route by SimGrid's "
            "flow-level network (links shared by messages at once share their bandwidth), beside the time without it",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<SimulateCommand>();
            sub.add_option("file", o->file,
                           "a schedule (JSON, CSV, MSCCL XML); without it, the scenario the options give");
            o->scenario.add(sub, false, {"message"});
            o->network.add(sub);
            sub.add_option("--ranks", o->ranks,
                           "MSCCL XML: rank placement, one node per line (default rank r on node r)");
            sub.add_option(
                   "--sync", o->sync,
                   "none (every send as soon as its data and its ports allow) or steps (a barrier between steps)")
                ->capture_default_str();
            sub.add_option(
                "--trace", o->trace,
                "also write the run to FILE.json in the Chrome trace format (ui.perfetto.dev, chrome://tracing): "
                "one track per node and per link");
            sub.add_option("--max-seconds", o->maxSeconds,
                           "refuse a simulation estimated to take longer (seconds; 0: no limit)")
                ->check(CLI::NonNegativeNumber)
                ->capture_default_str();
            sub.add_flag(
                "--json", o->json,
                "print the simulation as JSON: totals, each node's finish, each step and transfer, each link's "
                "busy and shared time");
            return [o](Io& io) { return runSimulate(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
