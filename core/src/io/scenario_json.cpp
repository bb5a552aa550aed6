#include "topocast/io/scenario_json.h"

#include "topocast/drawing/layout.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/network_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>
#include <tuple>

namespace topocast {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

namespace {

/// The "view" object of a scenario file; keys in the order nlohmann::json keeps them (sorted).
json viewJson(const ScenarioView& v)
{
    json o = json::object();
    if (v.mode)
        o["mode"] = *v.mode;
    if (v.step)
        o["step"] = *v.step;
    if (v.explode) {
        // A whole number as the integer files write ("explode": 2), a fraction as a double.
        if (std::floor(*v.explode) == *v.explode)
            o["explode"] = static_cast<long long>(*v.explode);
        else
            o["explode"] = *v.explode;
    }
    if (v.layout)
        o["layout"] = *v.layout;
    for (const auto& [key, text] : v.other)
        o[key] = json::parse(text);
    return o;
}

} // namespace

ojson toJson(const Scenario& s)
{
    ojson o;
    o["format"] = "topocast-scenario";
    o["version"] = 1;
    if (!s.title.empty())
        o["title"] = s.title;
    if (!s.description.empty())
        o["description"] = s.description;
    o["topology"] = s.topology.spec();
    o["algorithm"] = s.algorithm;
    o["source"] = nodeToJson(s.topology, s.source);
    ojson params = ojson::object();
    for (const auto& [k, v] : s.params.values())
        params[k] = v;
    o["params"] = params;
    if (!s.view.empty())
        o["view"] = viewJson(s.view);
    if (s.network)
        o["network"] = networkJson(*s.network);
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
            c["view"] = viewJson(b.view);
        o["compare"] = c;
    }
    return o;
}

namespace {

/// The fields one side of a scenario shares with the other: title, algorithm, source, params,
/// view. `prefix` names the JSON path ("" or "compare."); `sourceDefault` when "source" is absent.
void readSide(const json& doc, Scenario& s, const std::string& prefix, NodeId sourceDefault)
{
    auto fail = [&](const std::string& path, const std::string& what) -> void {
        throw Error(prefix + path + ": " + what);
    };
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
        const json& view = doc["view"];
        if (!view.is_object())
            fail("view", "expected an object");
        s.view = ScenarioView{};
        for (const auto& [key, v] : view.items()) {
            if (key == "explode") {
                if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 ||
                    v.get<double>() > kMaxExplode)
                    fail("view.explode", "expected a number from 0 to " +
                                             std::to_string(static_cast<int>(kMaxExplode)) +
                                             " (extra gap between the planes of a 3-D network, in node spacings)");
                s.view.explode = v.get<double>();
            } else if (key == "layout") {
                if (!v.is_string() ||
                    (!parseHypercubeDrawing(v.get<std::string>()) && !parseGridDrawing(v.get<std::string>())))
                    fail("view.layout",
                         "expected \"cube\" or \"flat\" (a hypercube's drawing), \"tower\" or \"planes\" (a 3-D "
                         "mesh or torus: planes stacked, or side by side)");
                s.view.layout = v.get<std::string>();
            } else if (key == "mode" && v.is_string())
                s.view.mode = v.get<std::string>();
            else if (key == "step" && v.is_number_integer() &&
                     !(v.is_number_unsigned() &&
                       v.get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX)))
                s.view.step = v.get<long long>();
            else
                s.view.other[key] = v.dump();
        }
    }
}

} // namespace

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
    if (doc.contains("description")) {
        if (!doc["description"].is_string())
            fail("description", "expected a string (one line saying what the scenario shows)");
        s.description = doc["description"].get<std::string>();
    }
    if (doc.contains("network"))
        s.network = networkFromJson(doc["network"], "network");
    if (doc.contains("compare")) {
        const json& c = doc["compare"];
        if (!c.is_object())
            fail("compare",
                 "expected an object with the second scenario's algorithm, source, params (and title, view)");
        for (const char* key : {"format", "version", "compare"})
            if (c.contains(key))
                fail(std::string("compare.") + key,
                     "not allowed here; the compare side has title, topology (the same as the scenario's), algorithm, "
                     "source, params and view");
        Scenario b;
        b.topology = s.topology;
        if (c.contains("topology")) {
            if (!c["topology"].is_string())
                fail("compare.topology",
                     "expected a topology string (the scenario's own, " + s.topology.spec() + "), or leave it out");
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

std::string scenarioText(const Scenario& scenario)
{
    return toJson(scenario).dump();
}

Scenario scenarioFromText(std::string_view text, const std::string& what)
{
    const json doc = parseJsonText(text, what);
    try {
        return scenarioFromJson(doc);
    } catch (const Error& e) {
        throw Error(what + ": " + e.what());
    }
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

} // namespace topocast
