#include "landscape_document.h"

#include "envelope.h"
#include "node_matrix.h"

#include "topocast/algorithms/registry.h"
#include "topocast/io/network_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/units.h"
#include "topocast/text/numbers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <utility>

namespace topocast::cli {

namespace {

/// `scale` as the text's (seconds in µs), so text and JSON print the same number in the same unit.
nlohmann::ordered_json valueJson(double v, LandscapeMetric metric, double scale)
{
    if (std::isnan(v))
        return nullptr;
    if (isIntegral(metric))
        return static_cast<std::uint64_t>(v);
    return roundedForJson(v * scale);
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

} // namespace

std::string landscapeUnit(LandscapeMetric metric, bool seconds)
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

bool landscapeInSeconds(const Scenario& scenario, LandscapeMetric metric)
{
    return metric == LandscapeMetric::Time && landscapeTimeUnit(scenario.algorithm) == "s";
}

std::string landscapeJson(const Scenario& scenario, const Landscape& landscape, const LandscapeTiming* timing)
{
    const LandscapeMetric metric = landscape.metric;
    const Topology& topo = scenario.topology;
    const LandscapeSummary sum = summarize(landscape);
    const bool seconds = timing || landscapeInSeconds(scenario, metric);
    const double scale = seconds ? 1e6 : 1.0;
    nlohmann::ordered_json doc = envelope("topocast-landscape", topo);
    doc["algorithm"] = scenario.algorithm;
    if (const std::string mode = scenario.params.getString("mode", ""); !mode.empty())
        doc["mode"] = mode;
    // The whole request: two requests never give the same document.
    const AlgorithmInfo& info = findAlgorithm(scenario.algorithm);
    doc["pattern"] = requestedPattern(scenario.algorithm, scenario.params);
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [key, value] : scenario.params.values())
        if (key != "pattern") // recorded above, given or the algorithm's default alike
            params[key] = value;
    doc["params"] = std::move(params);
    doc["metric"] = toString(metric);
    doc["unit"] = landscapeUnit(metric, seconds);
    if (timing) {
        doc["model"] = timing->model;
        doc["time_model"] = timing->engine;
        doc["network"] = networkJson(timing->network);
    } else if (metric == LandscapeMetric::Time) {
        doc["time_model"] = landscapeTimeFigure(scenario.algorithm);
        if (!info.time)
            doc["network"] = networkJson(landscapeNetwork());
    }
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (double v : landscape.values)
        values.push_back(valueJson(v, metric, scale));
    doc["values"] = std::move(values);
    doc["min"] = valueJson(sum.min, metric, scale);
    nlohmann::ordered_json argmin = nlohmann::ordered_json::array();
    for (NodeId id : sum.argmin)
        argmin.push_back(nodeToJson(topo, id));
    doc["argmin"] = std::move(argmin);
    doc["max"] = valueJson(sum.max, metric, scale);
    return doc.dump();
}

void writeLandscapeText(std::ostream& out, const Scenario& sc, const Landscape& landscape,
                        const LandscapeTiming* timing)
{
    const LandscapeMetric metric = landscape.metric;
    const Topology& topo = sc.topology;
    const LandscapeSummary sum = summarize(landscape);

    const bool seconds = timing || landscapeInSeconds(sc, metric);
    const double scale = seconds ? 1e6 : 1.0;

    const std::string mode = sc.params.getString("mode", "");
    out << sc.algorithm << (mode.empty() ? "" : " (" + mode + ")") << " " << requestedPattern(sc.algorithm, sc.params)
        << ": " << metricWords(metric) << " of the schedule from every source of the " << topo.displayName() << '\n';
    if (timing)
        out << "time in µs: " << timing->engine << "; " << timing->network.preset
            << " network, M = " << formatSize(timing->network.message) << '\n';
    else if (metric == LandscapeMetric::Time)
        out << "time" << (seconds ? " in µs" : "") << ": " << landscapeTimeFigure(sc.algorithm) << '\n';
    std::vector<std::string> cells;
    cells.reserve(landscape.values.size());
    for (double v : landscape.values)
        cells.push_back(valueText(v, metric, scale));
    if (topo.isHypercube()) {
        for (NodeId id{}; id < cells.size(); ++id)
            out << topo.nodeName(id) << ' ' << cells[id] << '\n';
    } else {
        printNodeMatrices(out, topo, cells);
    }
    out << "min " << valueText(sum.min, metric, scale) << ", max " << valueText(sum.max, metric, scale) << ' '
        << landscapeUnit(metric, seconds) << '\n';
    out << "sources with " << metricWords(metric) << ' ' << valueText(sum.min, metric, scale) << ": "
        << sum.argmin.size();
    if (sum.argmin.size() <= 64) {
        out << ':';
        for (NodeId id : sum.argmin)
            out << ' ' << topo.nodeName(id);
    }
    out << '\n';
    if (landscape.closedForm)
        out << "from the algorithm's closed form\n";
    else if (landscape.bySymmetry)
        out << "one schedule: every source's schedule is the origin's moved by a symmetry of the network\n";
    if (landscape.missing)
        out << landscape.missing << " sources have no schedule (-), e.g.: " << landscape.missingReason << '\n';
}

std::string mpiLandscapeCommand(const Scenario& scenario, LandscapeMetric metric, double ranks)
{
    std::string command = "mpirun -np " + std::to_string(static_cast<std::uint64_t>(std::max(1.0, ranks))) +
                          " topocast-mpi landscape --topology " + scenario.topology.spec() + " --algorithm " +
                          scenario.algorithm;
    for (const auto& [key, value] : scenario.params.values())
        command += (key.size() > 1 ? " --" + key + " " : " --param " + key + "=") + value;
    return command + " --metric " + toString(metric) + " --json --out landscape.json";
}

} // namespace topocast::cli
