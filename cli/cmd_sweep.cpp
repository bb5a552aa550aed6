// topocast-cli sweep: which algorithm for which size — every algorithm that computes a pattern on
// a network, timed at each message size (analysis/sweep.h), the winner of each size, where the
// winner changes, the bound, and a log-log chart (io/sweep_svg.h).
#include "commands.h"
#include "handoff.h"

#include "envelope.h"
#include "network_options.h"

#include "topocast/analysis/simulate.h"
#include "topocast/analysis/sweep.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/network_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/io/sweep_svg.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"
#include "topocast/text/durations.h"
#include "topocast/text/numbers.h"

#include <cmath>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>

namespace topocast::cli {

namespace {

struct SweepCommand {
    NetworkOptions network;
    std::string topology;
    std::string pattern;
    std::string source;
    std::string algorithms;
    std::string sizes = "8B..1GiB";
    std::string sync = "none";
    std::string plot;
    std::string plotMetric = "time";
    double maxSeconds = 600;
    std::string model = "loggp";
    bool json = false;
};

nlohmann::ordered_json nsJson(double v)
{
    return {{"value", std::round(v * 1e3) / 1e3}, {"unit", "ns"}};
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> out;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, ','))
        if (!part.empty())
            out.push_back(part);
    return out;
}

nlohmann::ordered_json sweepJson(const SweepCommand& o, const SweepTable& t)
{
    nlohmann::ordered_json doc = envelope("topocast-sweep", t.request.topology);
    nlohmann::ordered_json req{{"topology", t.request.topology.spec()},
                               {"pattern", toString(t.request.pattern)},
                               {"source", hasRoot(t.request.pattern) ? nodeToJson(t.request.topology, t.request.source)
                                                                     : nlohmann::ordered_json(nullptr)},
                               {"algorithms", o.algorithms.empty() ? nlohmann::ordered_json(nullptr)
                                                                   : nlohmann::ordered_json(splitList(o.algorithms))},
                               {"sizes", o.sizes},
                               {"network", networkJson(t.request.network)},
                               {"sync", t.request.steps ? "steps" : "none"},
                               {"model", t.request.model}};
    doc["request"] = req;
    doc["pattern"] = toString(t.request.pattern);
    doc["model"] = t.request.model + (t.request.steps ? "-steps" : "");
    doc["algorithms"] = t.algorithms;
    nlohmann::ordered_json left = nlohmann::ordered_json::array();
    for (const auto& [name, why] : t.notApplicable)
        left.push_back({{"algorithm", name}, {"reason", why}});
    doc["not_applicable"] = left;
    const double factor = busBandwidthFactor(t.request.pattern, t.request.topology.nodeCount());
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const SweepRow& r : t.rows) {
        nlohmann::ordered_json times = nlohmann::ordered_json::object();
        nlohmann::ordered_json busbw = nlohmann::ordered_json::object();
        for (std::size_t a = 0; a < t.algorithms.size(); ++a) {
            times[t.algorithms[a]] = nsJson(r.times[a]);
            busbw[t.algorithms[a]] = {
                {"value", std::round(static_cast<double>(r.size) / r.times[a] * factor * 1e6) / 1e6}, {"unit", "GB/s"}};
        }
        const double best = r.times[r.winner];
        rows.push_back({{"size", {{"value", r.size}, {"unit", "B"}}},
                        {"times", times},
                        {"busbw", busbw},
                        {"bound", nsJson(r.bound.total)},
                        {"winner", t.algorithms[r.winner]},
                        {"winner_above_bound",
                         {{"value", r.bound.total > 0 ? std::round((best / r.bound.total - 1) * 1e8) / 1e6 : 0.0},
                          {"unit", "%"}}}});
    }
    doc["rows"] = rows;
    nlohmann::ordered_json cross = nlohmann::ordered_json::array();
    for (const Crossover& c : t.crossovers)
        cross.push_back(
            {{"size", {{"value", c.size}, {"unit", "B"}}}, {"from", c.from}, {"to", c.to}, {"text", c.text}});
    doc["crossovers"] = cross;
    doc["notes"] = {t.request.model == "simgrid"
                        ? "contention charged: messages that cross one link at once share its bandwidth (" +
                              simulationEngine() + ")"
                        : std::string("contention between messages that share a link is not charged"),
                    "busbw = size / time · " + formatSignificant(factor, 6) + " (nccl-tests' factor for " +
                        toString(t.request.pattern) + ")"};
    return doc;
}

void sweepText(const SweepTable& t, std::ostream& out)
{
    out << toString(t.request.pattern) << " on the " << t.request.topology.displayName() << ": time of each algorithm "
        << (t.request.steps ? "with a barrier between steps" : "with each send as soon as its data and ports allow")
        << (t.request.model == "simgrid" ? " (simulated: " + simulationEngine() + ")" : std::string(" (LogGP)"))
        << ", network " << describe(t.request.network, false)
        << (t.request.model == "simgrid" ? "; contention charged\n" : "; contention not charged\n");
    out << std::left << std::setw(11) << "size";
    for (const std::string& a : t.algorithms)
        out << std::right << std::setw(std::max<int>(13, static_cast<int>(a.size()) + 2)) << a;
    out << std::right << std::setw(13) << "bound"
        << "  winner (above the bound)\n";
    for (const SweepRow& r : t.rows) {
        out << std::left << std::setw(11) << formatSize(r.size);
        for (std::size_t a = 0; a < t.algorithms.size(); ++a)
            out << std::right << std::setw(std::max<int>(13, static_cast<int>(t.algorithms[a].size()) + 2))
                << formatSeconds(r.times[a] * 1e-9);
        out << std::right << std::setw(13) << formatSeconds(r.bound.total * 1e-9) << "  " << t.algorithms[r.winner]
            << " (" << aboveBound(r.times[r.winner], r.bound.total) << ")\n";
    }
    if (t.crossovers.empty())
        out << t.algorithms[t.rows.front().winner] << " is fastest at every size\n";
    for (const Crossover& c : t.crossovers)
        out << c.text << "\n";
    for (const auto& [name, why] : t.notApplicable)
        out << "not applicable: " << name << ": " << why << "\n";
}

int runSweep(const SweepCommand& o, Io& io)
{
    if (o.topology.empty() || o.pattern.empty())
        throw Error("sweep needs --topology and --pattern (e.g. --topology torus:8x8 --pattern allreduce)");
    if (o.sync != "none" && o.sync != "steps")
        throw Error("--sync '" + o.sync + "' is not known; use none or steps");
    if (o.plotMetric != "time" && o.plotMetric != "busbw")
        throw Error("--plot-metric '" + o.plotMetric + "' is not known; use time or busbw");
    if (!o.plot.empty() && !o.plot.ends_with(".svg") && !o.plot.ends_with(".png"))
        throw Error("--plot " + o.plot + ": the chart is written as SVG or PNG; give a FILE.svg or a FILE.png");
    if (o.plot.ends_with(".png") && !svgToPng())
        throw Error("--plot " + o.plot +
                    ": a PNG chart is drawn by the app program (topocast, with Qt SVG), which was not "
                    "found beside topocast-cli; give a FILE.svg, or install topocast");
    SweepRequest request;
    request.topology = Topology::parse(o.topology);
    request.pattern = parsePattern(o.pattern);
    if (!o.source.empty()) {
        if (!hasRoot(request.pattern))
            throw Error("--source: a " + o.pattern + " has no source; leave --source out");
        request.source = request.topology.parseNode(o.source);
    }
    request.algorithms = splitList(o.algorithms);
    request.sizes = parseSizeList(o.sizes);
    request.network = o.network.resolve();
    request.steps = o.sync == "steps";
    const SweepSchedules schedules = sweepSchedules(request);
    checkSweepMemory(schedules, request.sizes.size());
    double estimate = estimateSweepSeconds(schedules, request.sizes.size(), request.steps);
    if (o.model == "simgrid") { // each cell a simulation, one at a time
        request.model = "simgrid";
        request.timer = [](const Schedule& s, const NetworkModel& m, bool steps) {
            return simulateSchedule(s, m, {.steps = steps}).time.total;
        };
        estimate = 0;
        for (const auto& [name, s] : schedules.schedules)
            estimate += estimateSimulation(s).seconds * static_cast<double>(request.sizes.size());
    }
    if (estimate > o.maxSeconds)
        throw Error("this sweep would take about " + formatRoughDuration(estimate) + " (" +
                    std::to_string(schedules.schedules.size()) +
                    (schedules.schedules.size() == 1 ? " schedule × " : " schedules × ") +
                    std::to_string(request.sizes.size()) + " sizes), over --max-seconds " + formatNumber(o.maxSeconds) +
                    "; give fewer --sizes or --algorithms, or a larger --max-seconds");
    if (estimate > 10)
        io.err << "topocast-cli: sweep: about " << formatRoughDuration(estimate) << "\n";
    const SweepTable table = runSweep(request, schedules);
    if (!o.plot.empty()) {
        std::ostringstream svg;
        writeSweepSvg(svg, table, o.plotMetric == "busbw" ? SweepMetric::BusBandwidth : SweepMetric::Time);
        if (o.plot.ends_with(".png"))
            svgToPng()(svg.str(), o.plot);
        else
            writeFileAtomic(o.plot, svg.str());
    }
    if (o.json)
        io.out << sweepJson(o, table).dump(2) << "\n";
    else
        sweepText(table, io.out);
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "sweep",
    .help = "which algorithm for which size: every algorithm of a pattern timed on a network model over a range of "
            "message sizes, the winners, the crossovers, the bound, a log-log chart",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<SweepCommand>();
            sub.add_option("--topology,-t", o->topology, "the network: torus:8x8, mesh:4x4x4, hypercube:6 …")
                ->required();
            sub.add_option("--pattern", o->pattern,
                           "broadcast | scatter | gather | reduce | allgather | alltoall | reduce-scatter | allreduce")
                ->required();
            sub.add_option("--source,-s", o->source,
                           "the root of a broadcast, scatter, gather or reduce (default the origin)");
            sub.add_option("--algorithms", o->algorithms,
                           "a,b,… (default: every algorithm that computes the pattern here)");
            sub.add_option("--sizes", o->sizes,
                           "message sizes with units: a range of powers of two 8B..1GiB, a list 1KiB,1MiB, or both")
                ->capture_default_str();
            o->network.add(sub);
            sub.add_option("--sync", o->sync,
                           "none (each send as soon as its data and ports allow) or steps (a barrier between steps)")
                ->capture_default_str();
            sub.add_option("--plot", o->plot,
                           "write the chart to FILE.svg or FILE.png (log-log, the bound dashed, the winners marked; a "
                           "PNG is drawn by the app program, twice the SVG's size)");
            sub.add_option("--plot-metric", o->plotMetric,
                           "what the chart shows: time or busbw (nccl-tests' bus bandwidth)")
                ->capture_default_str();
            sub.add_option("--max-seconds", o->maxSeconds, "refuse a sweep estimated to take longer")
                ->capture_default_str();
            sub.add_option(
                   "--model", o->model,
                   "loggp (the time engine: contention not charged) or simgrid (each time simulated: links shared "
                   "by messages at once share their bandwidth)")
                ->check(CLI::IsMember({"loggp", "simgrid"}))
                ->capture_default_str();
            sub.add_flag("--json", o->json,
                         "print the rows as JSON: size, every algorithm's time, the bound, the winner");
            return [o](Io& io) { return runSweep(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
