// topocast-cli landscape: one metric of an algorithm's schedule from every source (core
// computeLandscape). --json: {"metric", "values" (node-id order, null where the algorithm has no
// schedule from that source), "min", "argmin" (nodes as the schedule document writes them),
// "max"}; text: the values as matrices (a list on a hypercube) and a summary.

#include "commands.h"

#include "envelope.h"
#include "node_matrix.h"

#include "topocast/error.h"
#include "topocast/io/schedule_json.h"
#include "topocast/landscape.h"
#include "topocast/numbers.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

namespace topocast::cli {

namespace {

struct LandscapeCommand {
    ScenarioOptions scenario;
    std::string metric;
    bool json = false;
};

/// Brute forces of at least this many sources report progress on stderr.
constexpr std::uint32_t kProgressFrom = 1024;

/// `scale` as valueText's, so text and JSON print the same number in the same unit.
nlohmann::ordered_json valueJson(double v, LandscapeMetric metric, double scale = 1.0)
{
    if (std::isnan(v))
        return nullptr;
    if (isIntegral(metric))
        return static_cast<std::uint64_t>(v);
    return roundedForJson(v * scale);
}

/// The unit of a metric's values as printed (docs/glossary.md).
std::string metricUnit(LandscapeMetric metric, bool seconds)
{
    switch (metric) {
    case LandscapeMetric::Time:
        return seconds ? "µs" : "model units";
    case LandscapeMetric::Tcd:
        return "hops";
    case LandscapeMetric::Steps:
        return "steps";
    case LandscapeMetric::MaxLinkLoad:
        return "transfers";
    case LandscapeMetric::Contention:
        return "channel uses";
    }
    return "";
}

/// `scale`: seconds are printed in µs (1e6), model units as they are.
std::string valueText(double v, LandscapeMetric metric, double scale)
{
    if (std::isnan(v))
        return "-";
    if (isIntegral(metric))
        return std::to_string(static_cast<std::uint64_t>(v));
    return formatSignificant(v * scale, 4);
}

int runLandscape(const LandscapeCommand& opt, Io& io)
{
    const Scenario sc = opt.scenario.resolve();
    const LandscapeMetric metric = parseLandscapeMetric(opt.metric);
    const Topology& topo = sc.topology;

    std::mutex progressMutex;
    std::uint32_t lastTenth = 0;
    LandscapeOptions options;
    options.progress = [&](std::uint32_t done, std::uint32_t total) {
        if (total < kProgressFrom)
            return;
        const std::lock_guard lock(progressMutex);
        const std::uint32_t tenth = static_cast<std::uint32_t>(std::uint64_t{done} * 10 / total);
        if (done == 0 || tenth > lastTenth) {
            lastTenth = tenth;
            io.err << "landscape: " << done << " of " << total << " sources\n";
        }
    };
    const std::optional<Landscape> landscape = computeLandscape(sc.algorithm, topo, sc.params, metric, options);
    if (!landscape)
        throw Error("the landscape was cancelled");
    const LandscapeSummary sum = summarize(*landscape);

    const bool seconds = metric == LandscapeMetric::Time && landscapeTimeUnit(sc.algorithm) == "s";
    const double scale = seconds ? 1e6 : 1.0;
    if (opt.json) {
        nlohmann::ordered_json doc = envelope("topocast-landscape", topo);
        doc["algorithm"] = sc.algorithm;
        if (const std::string mode = sc.params.getString("mode", ""); !mode.empty())
            doc["mode"] = mode;
        doc["metric"] = toString(metric);
        doc["unit"] = metricUnit(metric, seconds);
        nlohmann::ordered_json values = nlohmann::ordered_json::array();
        for (double v : landscape->values)
            values.push_back(valueJson(v, metric, scale));
        doc["values"] = std::move(values);
        doc["min"] = valueJson(sum.min, metric, scale);
        nlohmann::ordered_json argmin = nlohmann::ordered_json::array();
        for (NodeId id : sum.argmin)
            argmin.push_back(nodeToJson(topo, id));
        doc["argmin"] = std::move(argmin);
        doc["max"] = valueJson(sum.max, metric, scale);
        io.out << doc.dump() << '\n';
        return 0;
    }

    const std::string mode = sc.params.getString("mode", "");
    io.out << sc.algorithm << (mode.empty() ? "" : " (" + mode + ")") << ": " << metricWords(metric)
           << " of the schedule from every source of the " << topo.displayName() << '\n';
    if (metric == LandscapeMetric::Time)
        io.out << "time" << (seconds ? " in µs" : "") << ": " << landscapeTimeFigure(sc.algorithm) << '\n';
    std::vector<std::string> cells;
    cells.reserve(landscape->values.size());
    for (double v : landscape->values)
        cells.push_back(valueText(v, metric, scale));
    if (topo.isHypercube()) {
        for (NodeId id{}; id < cells.size(); ++id)
            io.out << topo.nodeName(id) << ' ' << cells[id] << '\n';
    } else {
        printNodeMatrices(io.out, topo, cells);
    }
    io.out << "min " << valueText(sum.min, metric, scale) << ", max " << valueText(sum.max, metric, scale) << ' '
           << metricUnit(metric, seconds) << '\n';
    io.out << "sources with " << metricWords(metric) << ' ' << valueText(sum.min, metric, scale) << ": " << sum.argmin.size();
    if (sum.argmin.size() <= 64) {
        io.out << ':';
        for (NodeId id : sum.argmin)
            io.out << ' ' << topo.nodeName(id);
    }
    io.out << '\n';
    if (landscape->closedForm)
        io.out << "from the algorithm's closed form\n";
    else if (landscape->bySymmetry)
        io.out << "one schedule: every source's schedule is the origin's moved by a symmetry of the network\n";
    if (landscape->missing)
        io.out << landscape->missing << " sources have no schedule (-), e.g.: " << landscape->missingReason << '\n';
    return 0;
}

const CommandRegistrar reg{Command{
    "landscape",
    "one metric (tcd, steps, max_link_load, contention, time) of the schedule from every source",
    [](CLI::App& sub) {
        auto opt = std::make_shared<LandscapeCommand>();
        opt->scenario.add(sub);
        sub.add_option("--metric", opt->metric, "tcd | steps | max_link_load | contention | time")->required();
        sub.add_flag("--json", opt->json,
                     "write {\"metric\", \"values\" (node-id order), \"min\", \"argmin\" (nodes), \"max\"}");
        return [opt](Io& io) { return runLandscape(*opt, io); };
    },
}};

} // namespace

} // namespace topocast::cli
