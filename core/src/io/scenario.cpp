#include "topocast/io/scenario.h"

#include "topocast/algorithms/registry.h"
#include "topocast/error.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/schedule_json.h"
#include "topocast/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace topocast {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

Scenario defaultScenario()
{
    Scenario s;
    s.title = "8×8×8 mesh: minimum-TCD broadcast from an eye";
    s.topology = Topology::mesh({8, 8, 8});
    s.algorithm = "cang-wu";
    // E(1) of the 8×8×8 mesh (spec mesh-tcd §2: a_3 = 2, eyes at 2 or 5 in every dimension),
    // where the minimum TCD, OD = 525, is reached.
    s.source = s.topology.idUnchecked({2, 2, 2});
    s.params.set("mode", "optimal");
    return s;
}

ojson toJson(const Scenario& s)
{
    ojson o;
    o["format"] = "topocast-scenario";
    o["version"] = 1;
    if (!s.title.empty())
        o["title"] = s.title;
    o["topology"] = s.topology.spec();
    o["algorithm"] = s.algorithm;
    o["source"] = nodeToJson(s.topology, s.source);
    ojson params = ojson::object();
    for (const auto& [k, v] : s.params.values())
        params[k] = v;
    o["params"] = params;
    if (!s.view.empty())
        o["view"] = s.view;
    if (s.compare) {
        const Scenario& b = *s.compare;
        ojson c;
        if (!b.title.empty())
            c["title"] = b.title;
        c["algorithm"] = b.algorithm;
        c["source"] = nodeToJson(s.topology, b.source);
        ojson bp = ojson::object();
        for (const auto& [k, v] : b.params.values())
            bp[k] = v;
        c["params"] = bp;
        if (!b.view.empty())
            c["view"] = b.view;
        o["compare"] = c;
    }
    return o;
}

namespace {

std::string topologyText(const Topology& t) { return "the " + t.displayName() + " (" + t.spec() + ")"; }

/// The fields one side of a scenario shares with the other: title, algorithm, source, params,
/// view. `prefix` names the JSON path ("" or "compare."); `sourceDefault` when "source" is absent.
void readSide(const json& doc, Scenario& s, const std::string& prefix, NodeId sourceDefault)
{
    auto fail = [&](const std::string& path, const std::string& what) -> void { throw Error(prefix + path + ": " + what); };
    if (doc.contains("title")) {
        if (!doc["title"].is_string())
            fail("title", "expected a string");
        s.title = doc["title"].get<std::string>();
    }
    if (!doc.contains("algorithm") || !doc["algorithm"].is_string())
        fail("algorithm", "expected an algorithm name such as \"cang-wu\"");
    s.algorithm = doc["algorithm"].get<std::string>();
    s.source = sourceDefault;
    if (doc.contains("source"))
        s.source = nodeFromJson(s.topology, doc["source"], prefix + "source");
    if (doc.contains("params")) {
        const json& p = doc["params"];
        if (!p.is_object())
            fail("params", "expected an object of name → value");
        for (const auto& [k, v] : p.items()) {
            if (v.is_string())
                s.params.set(k, v.get<std::string>());
            else if (v.is_number_integer())
                s.params.set(k, std::to_string(v.get<long long>()));
            else if (v.is_number()) {
                const double d = v.get<double>();
                if (!std::isfinite(d))
                    fail("params." + k, "must be finite");
                s.params.set(k, fmt::format("{:.17g}", d));
            } else if (v.is_boolean())
                s.params.set(k, v.get<bool>() ? "true" : "false");
            else
                fail("params." + k, std::string("expected a string or a number, got ") + v.type_name());
        }
    }
    if (doc.contains("view")) {
        if (!doc["view"].is_object())
            fail("view", "expected an object");
        if (doc["view"].contains("explode")) {
            const json& e = doc["view"]["explode"];
            if (!e.is_number() || !std::isfinite(e.get<double>()) || e.get<double>() < 0 || e.get<double>() > kMaxExplode)
                fail("view.explode", "expected a number from 0 to " + std::to_string(static_cast<int>(kMaxExplode)) +
                                         " (extra gap between the planes of a 3-D network, in node spacings)");
        }
        s.view = doc["view"];
    }
}

} // namespace

float scenarioExplode(const Scenario& scenario)
{
    if (scenario.view.is_object() && scenario.view.contains("explode") && scenario.view["explode"].is_number())
        return std::clamp(scenario.view["explode"].get<float>(), 0.0f, kMaxExplode);
    return defaultExplode(scenario.topology);
}

Scenario scenarioFromJson(const json& doc)
{
    auto fail = [](const std::string& path, const std::string& what) -> void { throw Error(path + ": " + what); };
    if (!doc.is_object())
        fail("scenario", "expected a JSON object");
    if (!doc.contains("format") || !doc["format"].is_string() || doc["format"] != "topocast-scenario")
        fail("format", "expected \"topocast-scenario\"");
    if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"] != 1)
        fail("version", "expected 1 (this topocast reads scenario version 1)");
    Scenario s;
    s.params = Params{};
    if (!doc.contains("topology") || !doc["topology"].is_string())
        fail("topology", "expected a topology string such as \"mesh:8x8x8\"");
    try {
        s.topology = Topology::parse(doc["topology"].get<std::string>());
    } catch (const Error& e) {
        fail("topology", e.what());
    }
    readSide(doc, s, "", NodeId{0});
    if (doc.contains("compare")) {
        const json& c = doc["compare"];
        if (!c.is_object())
            fail("compare", "expected an object with the second scenario's algorithm, source, params (and title, view)");
        for (const char* key : {"format", "version", "compare"})
            if (c.contains(key))
                fail(std::string("compare.") + key,
                     "not allowed here; the compare side has title, topology (the same as the scenario's), algorithm, "
                     "source, params and view");
        Scenario b;
        b.topology = s.topology;
        if (c.contains("topology")) {
            if (!c["topology"].is_string())
                fail("compare.topology", "expected a topology string (the scenario's own, " + s.topology.spec() +
                                             "), or leave it out");
            Topology t = s.topology;
            try {
                t = Topology::parse(c["topology"].get<std::string>());
            } catch (const Error& e) {
                fail("compare.topology", e.what());
            }
            if (!(t == s.topology))
                fail("compare.topology", topologyText(t) + " is not the scenario's " + topologyText(s.topology) +
                                             "; both sides of a comparison share one network: give \"" +
                                             s.topology.spec() + "\" or leave compare.topology out");
        }
        readSide(c, b, "compare.", s.source);
        s.compare = std::make_shared<const Scenario>(std::move(b));
    }
    return s;
}

Scenario compareSide(const Scenario& scenario)
{
    if (!scenario.compare)
        throw Error("this scenario has no compare side (add \"compare\": {…} to the file, or use --compare FILE)");
    checkComparable(scenario, *scenario.compare);
    Scenario b = *scenario.compare;
    b.compare.reset();
    return b;
}

void checkComparable(const Scenario& a, const Scenario& b)
{
    if (!(a.topology == b.topology))
        throw Error("a comparison needs one network on both sides: A is " + topologyText(a.topology) + ", B is " +
                    topologyText(b.topology) + "; give B the topology " + a.topology.spec() + " too");
}

Scenario withCompare(Scenario a, const Scenario& b)
{
    checkComparable(a, b);
    Scenario side = b;
    side.compare.reset();
    a.compare = std::make_shared<const Scenario>(std::move(side));
    return a;
}

Scenario loadScenario(const std::filesystem::path& path)
{
    const json doc = readJsonFile(path);
    try {
        return scenarioFromJson(doc);
    } catch (const Error& e) {
        throw Error(path.string() + ": " + e.what());
    }
}

void saveScenario(const Scenario& scenario, const std::filesystem::path& path)
{
    // Text that is not UTF-8 (a title typed in another encoding) is saved with U+FFFD in its
    // place rather than failing the save.
    writeFileAtomic(path, toJson(scenario).dump(2, ' ', false, ojson::error_handler_t::replace) + "\n");
}

Schedule buildScenario(const Scenario& scenario)
{
    return buildSchedule(scenario.algorithm, scenario.topology, scenario.source, scenario.params);
}

} // namespace topocast
