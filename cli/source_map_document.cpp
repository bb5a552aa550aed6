#include "source_map_document.h"

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
nlohmann::ordered_json valueJson(double v, SourceMapMetric metric, double scale)
{
    if (std::isnan(v))
        return nullptr;
    if (isIntegral(metric))
        return static_cast<std::uint64_t>(v);
    return roundedForJson(v * scale);
}

/// `scale`: seconds are printed in µs (1e6), model units as they are.
std::string valueText(double v, SourceMapMetric metric, double scale)
{
    if (std::isnan(v))
        return "-";
    if (isIntegral(metric))
        return std::to_string(static_cast<std::uint64_t>(v));
    return formatSignificant(v * scale, 4);
}

} // namespace

std::string sourceMapUnit(SourceMapMetric metric, bool seconds)
{
    switch (metric) {
    case SourceMapMetric::Time:
        return seconds ? "µs" : "model units";
    case SourceMapMetric::Tcd:
        return "hops";
    case SourceMapMetric::Steps:
        return "steps";
    case SourceMapMetric::MaxLinkLoad:
        return "transfers";
    case SourceMapMetric::Contention:
        return "channel uses";
    }
    return "";
}

bool sourceMapInSeconds(const Scenario& scenario, SourceMapMetric metric)
{
    return metric == SourceMapMetric::Time && sourceMapTimeUnit(scenario.algorithm) == "s";
}

std::string sourceMapJson(const Scenario& scenario, const SourceMap& sourceMap, const SourceMapTiming* timing)
{
    const SourceMapMetric metric = sourceMap.metric;
    const Topology& topo = scenario.topology;
    const SourceMapSummary sum = summarize(sourceMap);
    const bool seconds = timing || sourceMapInSeconds(scenario, metric);
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
    doc["unit"] = sourceMapUnit(metric, seconds);
    if (timing) {
        doc["model"] = timing->model;
        doc["time_model"] = timing->engine;
        doc["network"] = networkJson(timing->network);
    } else if (metric == SourceMapMetric::Time) {
        doc["time_model"] = sourceMapTimeFigure(scenario.algorithm);
        if (!info.time)
            doc["network"] = networkJson(sourceMapNetwork());
    }
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (double v : sourceMap.values)
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

void writeSourceMapText(std::ostream& out, const Scenario& sc, const SourceMap& sourceMap,
                        const SourceMapTiming* timing)
{
    const SourceMapMetric metric = sourceMap.metric;
    const Topology& topo = sc.topology;
    const SourceMapSummary sum = summarize(sourceMap);

    const bool seconds = timing || sourceMapInSeconds(sc, metric);
    const double scale = seconds ? 1e6 : 1.0;

    const std::string mode = sc.params.getString("mode", "");
    out << sc.algorithm << (mode.empty() ? "" : " (" + mode + ")") << " " << requestedPattern(sc.algorithm, sc.params)
        << ": " << metricWords(metric) << " of the schedule from every source of the " << topo.displayName() << '\n';
    if (timing)
        out << "time in µs: " << timing->engine << "; " << timing->network.preset
            << " network, M = " << formatSize(timing->network.message) << '\n';
    else if (metric == SourceMapMetric::Time)
        out << "time" << (seconds ? " in µs" : "") << ": " << sourceMapTimeFigure(sc.algorithm) << '\n';
    std::vector<std::string> cells;
    cells.reserve(sourceMap.values.size());
    for (double v : sourceMap.values)
        cells.push_back(valueText(v, metric, scale));
    if (topo.isHypercube()) {
        for (NodeId id{}; id < cells.size(); ++id)
            out << topo.nodeName(id) << ' ' << cells[id] << '\n';
    } else {
        printNodeMatrices(out, topo, cells);
    }
    out << "min " << valueText(sum.min, metric, scale) << ", max " << valueText(sum.max, metric, scale) << ' '
        << sourceMapUnit(metric, seconds) << '\n';
    out << "sources with " << metricWords(metric) << ' ' << valueText(sum.min, metric, scale) << ": "
        << sum.argmin.size();
    if (sum.argmin.size() <= 64) {
        out << ':';
        for (NodeId id : sum.argmin)
            out << ' ' << topo.nodeName(id);
    }
    out << '\n';
    if (sourceMap.closedForm)
        out << "from the algorithm's closed form\n";
    else if (sourceMap.bySymmetry)
        out << "one schedule: every source's schedule is the origin's moved by a symmetry of the network\n";
    if (sourceMap.missing)
        out << sourceMap.missing << " sources have no schedule (-), e.g.: " << sourceMap.missingReason << '\n';
}

std::string mpiSourceMapCommand(const Scenario& scenario, SourceMapMetric metric, double ranks)
{
    std::string command = "mpirun -np " + std::to_string(static_cast<std::uint64_t>(std::max(1.0, ranks))) +
                          " topocast-mpi source-map --topology " + scenario.topology.spec() + " --algorithm " +
                          scenario.algorithm;
    for (const auto& [key, value] : scenario.params.values())
        command += (key.size() > 1 ? " --" + key + " " : " --param " + key + "=") + value;
    return command + " --metric " + toString(metric) + " --json --out source-map.json";
}

} // namespace topocast::cli
