#include "envelope.h"

#include "topocast/algorithms/registry.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace topocast::cli {

namespace {

std::vector<std::string>& commandLineSlot()
{
    thread_local std::vector<std::string> args;
    return args;
}

} // namespace

const std::vector<std::string>& currentCommandLine()
{
    return commandLineSlot();
}

CommandLineScope::CommandLineScope(std::vector<std::string> args) : m_saved(std::move(commandLineSlot()))
{
    commandLineSlot() = std::move(args);
}

CommandLineScope::~CommandLineScope()
{
    commandLineSlot() = std::move(m_saved);
}

nlohmann::ordered_json envelope(const std::string& format)
{
    nlohmann::ordered_json doc;
    doc["format"] = format;
    doc["version"] = kOutputVersion;
    doc["topology"] = nullptr;
    if (!currentCommandLine().empty())
        doc["command_line"] = currentCommandLine();
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
    // A pattern without a root (all-gather, all-reduce, …) has no source to record.
    const std::string pattern = requestedPattern(scenario.algorithm, scenario.params);
    doc["pattern"] = pattern;
    bool rooted = true;
    try {
        rooted = pattern.empty() || hasRoot(parsePattern(pattern));
    } catch (const Error&) { // an unknown pattern: the command that builds the schedule names it
    }
    doc["source"] = rooted ? nodeToJson(scenario.topology, scenario.source) : nlohmann::ordered_json(nullptr);
    return doc;
}

nlohmann::ordered_json quantity(double value, const std::string& unit)
{
    return {{"value", roundedForJson(value)}, {"unit", unit}};
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
