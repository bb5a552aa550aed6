// `topocast-cli compare-torus --topology torus:… [--source …] [--json]`: every registered
// algorithm that applies to the topology, built from the same source, side by side: steps, TCD,
// step contention and link loads. New algorithms show up here once registered. Each table holds
// one pattern: scatters (divisible-load, sbnt, sbntc) get a table of their own.
#include "commands.h"

#include "envelope.h"

#include "topocast/algorithms/registry.h"
#include "topocast/algorithms/tsay_wang.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace topocast::cli {

namespace {

struct Run {
    std::string label; ///< algorithm name, plus the parameters that differ from its defaults
    std::string algorithm;
    std::string variant; ///< the mode or variant in `params` ("" for the defaults)
    Params params;
};

struct Row {
    std::string label;
    std::string algorithm; ///< a name `schedule -a` takes
    std::string variant;   ///< its mode or variant ("" for the defaults)
    std::string ports;
    Pattern pattern = Pattern::Broadcast;
    std::size_t nodesServed = 0; ///< nodes that end with data (a scatter's participants)
    Metrics metrics;
    std::string skipped; ///< why there is no schedule (empty when there is one)
};

/// The runs for one algorithm: its default parameters, and for tsay-wang also the direct variant
/// where it exists (docs/papers/torus-allport.md §3.8).
std::vector<Run> runsFor(const AlgorithmInfo& info, const Topology& topo)
{
    std::vector<Run> runs;
    if (info.modes.size() > 1) {
        for (const auto& mode : info.modes)
            runs.push_back({info.name + " (" + mode + ")", info.name, mode, Params{{"mode", mode}}});
    } else {
        runs.push_back({info.name, info.name, "", Params{}});
    }
    if (info.name == "tsay-wang" && topo.isTorus() && topo.isCubic() &&
        !tsayWangUnsupported(topo.dims(), topo.side(0), TsayWangVariant::DirectFinal)) {
        runs.front().label = "tsay-wang (paper)";
        runs.front().variant = "paper";
        runs.push_back({"tsay-wang (direct)", info.name, "direct", Params{{"variant", "direct"}}});
    }
    return runs;
}

std::vector<Row> compareAll(const Topology& topo, NodeId source)
{
    std::vector<Row> rows;
    for (const AlgorithmInfo& info : algorithms()) {
        if (auto why = info.whyNot(topo)) {
            rows.push_back({info.name, info.name, "", "", Pattern::Broadcast, 0, {}, *why});
            continue;
        }
        if (!info.patterns.empty() && !hasRoot(parsePattern(info.patterns.front()))) {
            // A collective without a source (ring): nothing to compare with a broadcast from it.
            std::string list;
            for (const std::string& p : info.patterns)
                list += (list.empty() ? "" : ", ") + p;
            rows.push_back({info.name,
                            info.name,
                            "",
                            "",
                            Pattern::Broadcast,
                            0,
                            {},
                            info.name + " computes " + list + ", which have no source"});
            continue;
        }
        for (const Run& run : runsFor(info, topo)) {
            try {
                const Schedule s = buildSchedule(run.algorithm, topo, source, run.params);
                const std::size_t served = s.participants.empty() ? topo.nodeCount() : s.participants.size();
                rows.push_back({run.label, run.algorithm, run.variant, toString(s.portModel()), s.pattern(), served,
                                computeMetrics(s, 1), ""});
            } catch (const Error& e) {
                rows.push_back({run.label, run.algorithm, run.variant, "", Pattern::Broadcast, 0, {}, e.what()});
            }
        }
    }
    return rows;
}

struct CompareOptions {
    std::string topology;
    std::string source;
    bool json = false;
};

/// The rows of one pattern, in registry order (each table holds one pattern).
std::vector<const Row*> rowsOf(const std::vector<Row>& rows, Pattern pattern)
{
    std::vector<const Row*> out;
    for (const Row& r : rows)
        if (r.skipped.empty() && r.pattern == pattern)
            out.push_back(&r);
    return out;
}

/// The patterns present among the built rows, broadcast first.
std::vector<Pattern> patternsOf(const std::vector<Row>& rows)
{
    std::vector<Pattern> out{Pattern::Broadcast};
    for (const Row& r : rows)
        if (r.skipped.empty() && std::find(out.begin(), out.end(), r.pattern) == out.end())
            out.push_back(r.pattern);
    return out;
}

nlohmann::ordered_json rowJson(const Row& r)
{
    nlohmann::ordered_json j;
    j["algorithm"] = r.algorithm;
    if (!r.variant.empty())
        j["variant"] = r.variant;
    j["label"] = r.label;
    if (!r.skipped.empty()) {
        j["skipped"] = r.skipped;
        return j;
    }
    j["pattern"] = toString(r.pattern);
    j["port_model"] = r.ports;
    j["nodes_served"] = r.nodesServed;
    j["steps"] = r.metrics.steps;
    j["tcd"] = r.metrics.tcd;
    j["contention"] = r.metrics.contentionUses;
    j["max_step_load"] = r.metrics.maxStepLoad;
    j["max_link_load"] = r.metrics.maxLinkLoad;
    return j;
}

int printJson(const Topology& topo, NodeId source, const std::vector<Row>& rows, std::optional<std::uint32_t> lb,
              Io& io)
{
    nlohmann::ordered_json doc = envelope("topocast-compare-torus", topo);
    doc["source"] = nodeToJson(topo, source);
    doc["pattern"] = "broadcast";
    if (lb)
        doc["all_port_lower_bound"] = *lb;
    auto list = nlohmann::ordered_json::array();
    for (const Row* r : rowsOf(rows, Pattern::Broadcast))
        list.push_back(rowJson(*r));
    for (const Row& r : rows)
        if (!r.skipped.empty())
            list.push_back(rowJson(r));
    doc["algorithms"] = list;
    auto others = nlohmann::ordered_json::array();
    for (Pattern p : patternsOf(rows)) {
        if (p == Pattern::Broadcast)
            continue;
        nlohmann::ordered_json t;
        t["pattern"] = toString(p);
        t["reason"] = "not a broadcast: compared only with schedules of the same pattern";
        auto rs = nlohmann::ordered_json::array();
        for (const Row* r : rowsOf(rows, p))
            rs.push_back(rowJson(*r));
        t["algorithms"] = rs;
        others.push_back(t);
    }
    doc["other_patterns"] = others;
    io.out << doc.dump(2) << '\n';
    return 0;
}

void printTable(const std::vector<const Row*>& rows, Io& io)
{
    io.out << std::left << std::setw(28) << "algorithm" << std::setw(19) << "port model" << std::right << std::setw(7)
           << "nodes" << std::setw(7) << "steps" << std::setw(14) << "TCD" << std::setw(12) << "contention"
           << std::setw(15) << "max step load" << std::setw(15) << "max link load" << '\n';
    for (const Row* r : rows)
        io.out << std::left << std::setw(28) << r->label << std::setw(19) << r->ports << std::right << std::setw(7)
               << r->nodesServed << std::setw(7) << r->metrics.steps << std::setw(14) << r->metrics.tcd << std::setw(12)
               << r->metrics.contentionUses << std::setw(15) << r->metrics.maxStepLoad << std::setw(15)
               << r->metrics.maxLinkLoad << '\n';
}

int printText(const Topology& topo, NodeId source, const std::vector<Row>& rows, std::optional<std::uint32_t> lb,
              Io& io)
{
    io.out << "Broadcast on the " << topo.displayName() << " from " << topo.nodeName(source) << '\n';
    if (lb)
        io.out << "all-port lower bound: " << *lb << " steps (⌈d·log_{2d+1} n⌉, Tsay-Wang §2; docs/glossary.md)\n";
    printTable(rowsOf(rows, Pattern::Broadcast), io);
    for (Pattern p : patternsOf(rows)) {
        if (p == Pattern::Broadcast)
            continue;
        io.out << "\n"
               << toString(p) << " (not a broadcast, so in a table of its own) on the " << topo.displayName()
               << " from " << topo.nodeName(source) << '\n';
        printTable(rowsOf(rows, p), io);
    }
    io.out << "nodes = nodes the schedule serves; TCD = total communication distance (hops summed over all "
              "transfers); contention = channel uses shared with another transfer of the same step; link load = "
              "transfers on one directed channel (docs/glossary.md)\n";
    for (const Row& r : rows)
        if (!r.skipped.empty())
            io.out << "not applicable: " << r.label << ": " << r.skipped << '\n';
    return 0;
}

CommandRegistrar reg{Command{
    .name = "compare-torus",
    .help = "every algorithm that applies to a torus (or any topology), from one source, one table per pattern: steps, "
            "TCD, contention, link load",
    .setup =
        [](CLI::App& sub) {
            auto opts = std::make_shared<CompareOptions>();
            sub.add_option("--topology,-t", opts->topology, "the network, e.g. torus:7x7x7")->required();
            sub.add_option("--source,-s", opts->source, "source node as coordinates, e.g. 1,2,3 (default: the origin)");
            sub.add_flag("--json", opts->json, "print JSON instead of a table");
            return [opts](Io& io) {
                const Topology topo = Topology::parse(opts->topology);
                const NodeId source = opts->source.empty() ? NodeId{0} : topo.parseNode(opts->source);
                const std::vector<Row> rows = compareAll(topo, source);
                std::optional<std::uint32_t> lb;
                if (topo.isTorus() && topo.isCubic() && topo.dims() >= 2)
                    lb = allPortLowerBound(topo.dims(), topo.side(0));
                return opts->json ? printJson(topo, source, rows, lb, io) : printText(topo, source, rows, lb, io);
            };
        },
}};

} // namespace

} // namespace topocast::cli
