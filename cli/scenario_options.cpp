#include "scenario_options.h"

#include "topocast/algorithms/registry.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace topocast::cli {

namespace {

/// What one algorithm's declaration of a parameter allows: the choices but "" ("nopipe"), "none"
/// when "" is the only one, a range or a text; with its default.
std::string allowedWithDefault(const ParamSpec& p)
{
    std::string allowed;
    if (p.kind == ParamSpec::Kind::Choice) {
        for (const std::string& c : p.choices)
            if (!c.empty())
                allowed += (allowed.empty() ? "" : " | ") + c;
        if (allowed.empty())
            allowed = "none";
    } else {
        allowed = p.allowedText();
    }
    const std::string byDefault = p.defaultValueText();
    return allowed + (byDefault.empty() || byDefault == "none" ? "" : "; default " + byDefault) +
           (p.unit.empty() ? "" : "; in " + p.unit);
}

/// The option text of a declared parameter: its help, the algorithms that take it and what is
/// allowed, e.g. "cang-wu mode (cang-wu): optimal, eye-best or paper". Algorithms that declare
/// the key differently (--variant: tsay-wang's paper | direct, hp's nopipe, …) get a part each.
std::string paramHelp(const ParamSpec& spec)
{
    if (spec.key == "pattern") { // declared by each algorithm for its own patterns: list them all
        std::string all;
        for (const Pattern p : kPatterns)
            all += (all.empty() ? "" : ", ") + toString(p);
        return "the collective: " + all +
               " — each algorithm takes some (`topocast-cli algorithms` lists which); "
               "default the algorithm's first";
    }
    // Algorithms grouped by the declaration they share (same key, help and choices).
    std::vector<std::pair<std::string, const ParamSpec*>> groups;
    for (const AlgorithmInfo& a : algorithms()) {
        const ParamSpec* p = findParam(a.params, spec.key);
        if (!p || spec.key == "order" || spec.key == "pattern")
            continue;
        auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
            return g.second->key == p->key && g.second->help == p->help && g.second->choices == p->choices;
        });
        if (same != groups.end())
            same->first += ", " + a.name;
        else
            groups.emplace_back(a.name, p);
    }
    if (groups.empty())
        return spec.help;
    if (spec.key == "mode")
        return spec.help + " (" + groups.front().first + "): " + spec.allowedText();
    if (groups.size() == 1)
        return spec.help + " (" + groups.front().first + ": " + allowedWithDefault(*groups.front().second) + ")";
    std::string text = "per algorithm —";
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const ParamSpec& p = *groups[i].second;
        text += std::string(i ? ";" : "") + " " + groups[i].first + ": " +
                (p.key != spec.key ? "--param " + p.key + ", " : "") + p.help + " (" + allowedWithDefault(p) + ")";
    }
    return text;
}

} // namespace

void ScenarioOptions::add(CLI::App& sub, bool requireAlgorithm, const std::vector<std::string>& without)
{
    m_requireAlgorithm = requireAlgorithm;
    sub.add_option("--topology,-t", m_topology, "mesh:8x8 | mesh:4x4x4 | torus:7x7 | hypercube:6");
    sub.add_option("--algorithm,-a", m_algorithm, "algorithm name (see `topocast-cli algorithms`)");
    sub.add_option("--source,-s", m_source,
                   "source node: coordinates like 2,3 (hypercube: an address); default the origin");
    sub.add_option("--scenario", m_scenario, "scenario JSON file (explicit options override it)");
    // One option per parameter the registry declares (one-letter keys such as divisible-load's
    // A, C, S, V, p go through --param KEY=VALUE).
    for (const ParamSpec* p : allParamSpecs())
        if (p->key.size() > 1 && std::find(without.begin(), without.end(), p->key) == without.end())
            sub.add_option("--" + p->key, m_params[p->key], paramHelp(*p));
    sub.add_option("--param", m_extra,
                   "algorithm parameter KEY=VALUE (repeatable), e.g. --param V=2e6 (`topocast-cli algorithms` lists "
                   "each algorithm's parameters)");
}

Scenario ScenarioOptions::resolve() const
{
    Scenario s;
    s.params = Params{};
    s.algorithm.clear();
    bool haveTopology = false;
    if (!m_scenario.empty()) {
        s = loadScenario(m_scenario);
        haveTopology = true;
    }
    if (!m_topology.empty()) {
        const Topology t = Topology::parse(m_topology);
        if (!(t == s.topology) && m_source.empty())
            s.source = NodeId{0};
        s.topology = t;
        haveTopology = true;
    }
    if (!haveTopology)
        throw Error("no topology given; use --topology (e.g. mesh:8x8) or --scenario FILE");
    if (!m_algorithm.empty())
        s.algorithm = m_algorithm;
    if (m_requireAlgorithm && s.algorithm.empty())
        throw Error("no algorithm given; use --algorithm NAME (see `topocast-cli algorithms`)");
    if (!m_source.empty())
        s.source = s.topology.parseNode(m_source);
    for (const auto& [key, value] : m_params)
        if (!value.empty())
            s.params.set(key, value);
    for (const std::string& kv : m_extra) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            throw Error("--param '" + kv + "' is not KEY=VALUE");
        s.params.set(kv.substr(0, eq), kv.substr(eq + 1));
    }
    if (!m_source.empty())
        refuseSourceWithoutRoot(s);
    return s;
}

void ScenarioOptions::refuseSourceWithoutRoot(const Scenario& s) const
{
    // The pattern the build will use: the one given, or the algorithm's default. An unknown
    // algorithm or pattern is left to buildSchedule, which names what is allowed.
    const std::string pattern = requestedPattern(s.algorithm, s.params);
    try {
        if (pattern.empty() || hasRoot(parsePattern(pattern)))
            return;
    } catch (const Error&) {
        return;
    }
    const bool vowel = std::string_view("aeiou").find(pattern.front()) != std::string_view::npos;
    throw Error("--source " + m_source + ": " + (vowel ? "an " : "a ") + pattern +
                " has no source (every node starts with its own data); leave --source out. The patterns with a "
                "source are broadcast, scatter, gather and reduce");
}

} // namespace topocast::cli
