#include "topocast/io/scenario.h"

#include "topocast/algorithms/registry.h"
#include "topocast/error.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/schedule_json.h"

#include <fmt/format.h>

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
    return o;
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
    if (doc.contains("title")) {
        if (!doc["title"].is_string())
            fail("title", "expected a string");
        s.title = doc["title"].get<std::string>();
    }
    if (!doc.contains("topology") || !doc["topology"].is_string())
        fail("topology", "expected a topology string such as \"mesh:8x8x8\"");
    try {
        s.topology = Topology::parse(doc["topology"].get<std::string>());
    } catch (const Error& e) {
        fail("topology", e.what());
    }
    if (!doc.contains("algorithm") || !doc["algorithm"].is_string())
        fail("algorithm", "expected an algorithm name such as \"cang-wu\"");
    s.algorithm = doc["algorithm"].get<std::string>();
    s.source = 0;
    if (doc.contains("source"))
        s.source = nodeFromJson(s.topology, doc["source"], "source");
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
        s.view = doc["view"];
    }
    return s;
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
