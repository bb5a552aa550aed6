// `topocast-cli compare-torus --topology torus:… [--source …] [--json]`: every registered
// algorithm that applies to the topology, built from the same source, side by side: steps, TCD,
// step contention and link loads (issue #5). New algorithms show up here once registered.
#include "commands.h"

#include "topocast/algorithms/registry.h"
#include "topocast/algorithms/tsay_wang.h"
#include "topocast/error.h"
#include "topocast/metrics.h"

#include <nlohmann/json.hpp>

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
    Params params;
};

struct Row {
    std::string label;
    std::string ports;
    Metrics metrics;
    std::string skipped; ///< why there is no schedule (empty when there is one)
};

/// The runs for one algorithm: its default parameters, and for tsay-wang also the direct variant
/// where it exists (spec torus-allport §3.8).
std::vector<Run> runsFor(const AlgorithmInfo& info, const Topology& topo)
{
    std::vector<Run> runs;
    if (info.modes.size() > 1) {
        for (const auto& mode : info.modes)
            runs.push_back({info.name + " (" + mode + ")", info.name, Params{{"mode", mode}}});
    } else {
        runs.push_back({info.name, info.name, Params{}});
    }
    if (info.name == "tsay-wang" && topo.isTorus() && topo.isCubic() &&
        !tsayWangUnsupported(topo.dims(), topo.side(0), TsayWangVariant::DirectFinal)) {
        runs.front().label = "tsay-wang (paper)";
        runs.push_back({"tsay-wang (direct)", info.name, Params{{"variant", "direct"}}});
    }
    return runs;
}

std::vector<Row> compareAll(const Topology& topo, NodeId source)
{
    std::vector<Row> rows;
    for (const AlgorithmInfo& info : algorithms()) {
        if (auto why = info.whyNot(topo)) {
            rows.push_back({info.name, "", {}, *why});
            continue;
        }
        for (const Run& run : runsFor(info, topo)) {
            try {
                const Schedule s = buildSchedule(run.algorithm, topo, source, run.params);
                rows.push_back({run.label, toString(s.portModel()), computeMetrics(s, 1), ""});
            } catch (const Error& e) {
                rows.push_back({run.label, "", {}, e.what()});
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

CommandRegistrar reg{Command{
    "compare-torus",
    "every algorithm that applies to a torus (or any topology), from one source: steps, TCD, contention, link load",
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

            if (opts->json) {
                nlohmann::ordered_json doc;
                doc["topology"] = topo.spec();
                doc["source"] = topo.nodeName(source);
                if (lb)
                    doc["all_port_lower_bound"] = *lb;
                auto list = nlohmann::ordered_json::array();
                for (const Row& r : rows) {
                    nlohmann::ordered_json j;
                    j["algorithm"] = r.label;
                    if (!r.skipped.empty()) {
                        j["skipped"] = r.skipped;
                    } else {
                        j["ports"] = r.ports;
                        j["steps"] = r.metrics.steps;
                        j["tcd"] = r.metrics.tcd;
                        j["contention"] = r.metrics.contentionUses;
                        j["max_step_load"] = r.metrics.maxStepLoad;
                        j["max_link_load"] = r.metrics.maxLinkLoad;
                    }
                    list.push_back(j);
                }
                doc["algorithms"] = list;
                io.out << doc.dump(2) << '\n';
                return 0;
            }

            io.out << "Broadcast on the " << topo.displayName() << " from " << topo.nodeName(source) << '\n';
            if (lb)
                io.out << "all-port lower bound: " << *lb << " steps (⌈d·log_{2d+1} n⌉, spec torus-allport §2.1)\n";
            io.out << std::left << std::setw(28) << "algorithm" << std::setw(11) << "ports" << std::right
                   << std::setw(7) << "steps" << std::setw(14) << "TCD" << std::setw(12) << "contention"
                   << std::setw(15) << "max step load" << std::setw(15) << "max link load" << '\n';
            std::vector<std::string> skipped;
            for (const Row& r : rows) {
                if (!r.skipped.empty()) {
                    skipped.push_back(r.label + ": " + r.skipped);
                    continue;
                }
                io.out << std::left << std::setw(28) << r.label << std::setw(11) << r.ports << std::right
                       << std::setw(7) << r.metrics.steps << std::setw(14) << r.metrics.tcd << std::setw(12)
                       << r.metrics.contentionUses << std::setw(15) << r.metrics.maxStepLoad << std::setw(15)
                       << r.metrics.maxLinkLoad << '\n';
            }
            io.out << "contention = channel uses shared with another transfer of the same step; link load = "
                      "transfers on one directed channel\n";
            for (const auto& s : skipped)
                io.out << "not applicable: " << s << '\n';
            return 0;
        };
    },
}};

} // namespace

} // namespace topocast::cli
