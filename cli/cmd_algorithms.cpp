// topocast-cli algorithms: what exists, where it applies, and why not elsewhere.
#include "commands.h"

#include "envelope.h"

#include "topocast/algorithms/hypercube_cost.h"
#include "topocast/algorithms/registry.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

std::string join(const std::vector<std::string>& v)
{
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : "|") + x;
    return s;
}

const char* kindName(ParamSpec::Kind k)
{
    switch (k) {
    case ParamSpec::Kind::Choice:
        return "choice";
    case ParamSpec::Kind::Integer:
        return "integer";
    case ParamSpec::Kind::Number:
        return "number";
    case ParamSpec::Kind::Text:
        return "text";
    }
    return "text";
}

nlohmann::ordered_json paramsJson(const AlgorithmInfo& a)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const ParamSpec& p : a.params) {
        nlohmann::ordered_json o{{"key", p.key},
                                 {"label", p.label},
                                 {"kind", kindName(p.kind)},
                                 {"allowed", p.allowedText()},
                                 {"default", p.defaultValueText()}};
        if (p.kind == ParamSpec::Kind::Choice)
            o["choices"] = p.choices;
        if (!p.unit.empty())
            o["unit"] = p.unit;
        o["help"] = p.help;
        list.push_back(o);
    }
    return list;
}

/// "    --message  message size M: a whole number 1 to 1073741824; default 1 (elements)".
void printParams(std::ostream& out, const AlgorithmInfo& a)
{
    for (const ParamSpec& p : panelParamSpecs(a)) {
        const std::string option = p.key.size() > 1 ? "--" + p.key : "--param " + p.key + "=…";
        out << "    " << option << "  " << p.label << ": " << p.allowedText() << "; default " << p.defaultValueText()
            << (p.unit.empty() ? "" : " (" + p.unit + ")") << "\n";
    }
}

/// The port models (--ports) a hypercube graph has a schedule of `pattern` for, where that is not
/// every one of them (tcbt's all-gather and all-to-all: n-port only); empty otherwise.
std::vector<std::string> onlyPorts(const std::string& algorithm, const std::string& pattern)
{
    using namespace hypercube;
    const auto& graphs = algorithmNames();
    if (std::find(graphs.begin(), graphs.end(), algorithm) == graphs.end())
        return {};
    std::vector<Ports> served;
    try {
        served = servedPorts(algorithm, parsePatternName(pattern));
    } catch (const Error&) { // reduce and gather: the reversed broadcast and scatter, every port model
        return {};
    }
    if (served.size() >= 4)
        return {};
    std::vector<std::string> names;
    for (Ports p : served)
        names.push_back(portsName(p));
    return names;
}

/// "broadcast|scatter|allgather (--ports n only)|…": each pattern, with the port models it needs
/// where the default (one) has no schedule of it.
std::string patternsWithPorts(const AlgorithmInfo& a)
{
    std::string out;
    for (const std::string& pattern : a.patterns) {
        out += (out.empty() ? "" : "|") + pattern;
        if (const auto ports = onlyPorts(a.name, pattern);
            !ports.empty() && std::find(ports.begin(), ports.end(), "one") == ports.end())
            out += " (--ports " + join(ports) + " only)";
    }
    return out;
}

struct AlgorithmsCommand {
    std::string topology;
    bool json = false;
};

const CommandRegistrar reg{Command{
    .name = "algorithms",
    .help = "list the algorithms and the topologies each accepts",
    .setup =
        [](CLI::App& sub) {
            auto opts = std::make_shared<AlgorithmsCommand>();
            sub.add_option("--topology,-t", opts->topology,
                           "also say whether each applies to this topology, and why not");
            sub.add_flag("--json", opts->json,
                         "print as JSON: {format, version, topology (null without --topology), algorithms: [...]}");
            return [opts](Io& io) {
                std::optional<Topology> topo;
                if (!opts->topology.empty())
                    topo = Topology::parse(opts->topology);
                nlohmann::ordered_json list = nlohmann::ordered_json::array();
                for (const AlgorithmInfo& a : algorithms()) {
                    std::optional<std::string> why;
                    if (topo)
                        why = a.whyNot(*topo);
                    if (opts->json) {
                        nlohmann::ordered_json o{
                            {"name", a.name},   {"summary", a.summary},   {"topologies", a.topologies},
                            {"modes", a.modes}, {"patterns", a.patterns}, {"params", paramsJson(a)}};
                        nlohmann::ordered_json needs = nlohmann::ordered_json::object();
                        for (const std::string& pattern : a.patterns)
                            if (const auto ports = onlyPorts(a.name, pattern); !ports.empty())
                                needs[pattern] = ports;
                        if (!needs.empty())
                            o["pattern_ports"] = std::move(needs);
                        if (topo) {
                            o["applies"] = !why.has_value();
                            if (why)
                                o["why_not"] = *why;
                        }
                        list.push_back(o);
                        continue;
                    }
                    io.out << a.name << "\n    " << a.summary << "\n    topologies: " << a.topologies << "\n";
                    if (!a.modes.empty())
                        io.out << "    --mode " << join(a.modes) << " (default " << a.modes.front() << ")\n";
                    if (a.patterns.size() > 1)
                        io.out << "    --pattern " << patternsWithPorts(a) << "\n";
                    printParams(io.out, a);
                    if (topo)
                        io.out << "    on " << topo->displayName() << ": "
                               << (why ? "no — " + *why : std::string("yes")) << "\n";
                }
                if (opts->json) {
                    nlohmann::ordered_json doc =
                        topo ? envelope("topocast-algorithms", *topo) : envelope("topocast-algorithms");
                    doc["algorithms"] = std::move(list);
                    io.out << doc.dump(2) << "\n";
                }
                return 0;
            };
        },
}};

} // namespace

} // namespace topocast::cli
