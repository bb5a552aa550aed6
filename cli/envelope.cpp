#include "envelope.h"

#include "topocast/io/schedule_json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace topocast::cli {

nlohmann::ordered_json envelope(const std::string& format)
{
    nlohmann::ordered_json doc;
    doc["format"] = format;
    doc["version"] = kOutputVersion;
    doc["topology"] = nullptr;
    return doc;
}

nlohmann::ordered_json envelope(const std::string& format, const Topology& topo)
{
    nlohmann::ordered_json doc = envelope(format);
    doc["topology"] = topo.spec();
    return doc;
}

nlohmann::ordered_json scenarioEnvelope(const std::string& format, const Scenario& scenario)
{
    nlohmann::ordered_json doc = envelope(format, scenario.topology);
    doc["algorithm"] = scenario.algorithm;
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [key, value] : scenario.params.values())
        params[key] = value;
    doc["parameters"] = std::move(params);
    doc["source"] = nodeToJson(scenario.topology, scenario.source);
    return doc;
}

double roundedForJson(double v)
{
    if (!std::isfinite(v))
        return v;
    char text[40];
    std::snprintf(text, sizeof text, "%.12g", v);
    return std::strtod(text, nullptr);
}

} // namespace topocast::cli
