// Every scenario shipped in resources/scenarios/ loads, builds, and passes the checker.
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace topocast;
namespace fs = std::filesystem;

TEST_CASE("shipped scenarios load, build and validate", "[scenario]")
{
    const fs::path dir = fs::path(TOPOCAST_SOURCE_DIR) / "resources/scenarios";
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".json")
            continue;
        ++count;
        INFO(entry.path().filename().string());
        const Scenario sc = loadScenario(entry.path());
        CHECK_FALSE(sc.title.empty());
        const Schedule s = buildScenario(sc);
        CHECK(s.size() > 0);
        ValidateOptions o;
        o.forbidStepContention = false; // some presets show contention on purpose
        const Validation v = validate(s, o);
        INFO((v.violations.empty() ? std::string() : v.violations.front()));
        CHECK(v.ok());
    }
    CHECK(count >= 5);
}

TEST_CASE("the default scenario is the 8×8×8 minimum-TCD broadcast from an eye (OD = 525)", "[scenario][cangwu]")
{
    const Scenario sc = defaultScenario();
    const Scenario file = loadScenario(fs::path(TOPOCAST_SOURCE_DIR) / "resources/scenarios/default.json");
    CHECK(file.topology == sc.topology);
    CHECK(file.algorithm == sc.algorithm);
    CHECK(file.source == sc.source);
    CHECK(file.params == sc.params);
    const Schedule s = buildScenario(sc);
    const Metrics m = computeMetrics(s);
    CHECK(m.steps == 9);
    CHECK(m.tcd == 525); // docs/papers/mesh-tcd.md §6.1: OD for 8×8×8
    CHECK(m.contentionUses == 0);
}

TEST_CASE("every preset has a short title and a one-line description, and opens at its own step", "[scenario]")
{
    const fs::path dir = fs::path(TOPOCAST_SOURCE_DIR) / "resources/scenarios";
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".json")
            continue;
        INFO(entry.path().filename().string());
        const Scenario sc = loadScenario(entry.path());
        CHECK_FALSE(sc.description.empty());
        CHECK(sc.description.find('\n') == std::string::npos);
        CHECK(sc.title.size() <= 60); // a menu entry; the description says the rest
        CHECK(scenarioStartStep(sc) <= static_cast<int>(buildScenario(sc).stepCount()));
    }
    Scenario sc = defaultScenario();
    CHECK(scenarioStartStep(sc) == 0);
    CHECK(scenarioViewMode(sc) == "plain");
    sc.view.step = 4;
    sc.view.mode = "contention";
    CHECK(scenarioStartStep(sc) == 4);
    CHECK(scenarioViewMode(sc) == "contention");
    sc.description = "one line";
    CHECK(scenarioFromJson(nlohmann::json::parse(toJson(sc).dump())).description == "one line");
    CHECK_THROWS_WITH(
        scenarioFromJson(nlohmann::json::parse(
            R"({"format":"topocast-scenario","version":1,"topology":"mesh:4x4","algorithm":"bfs","description":3})")),
        "description: expected a string (one line saying what the scenario shows)");
}

TEST_CASE("scenario view: read once into typed fields, unknown keys and odd types written back as they were",
          "[scenario][view]")
{
    const std::string text =
        R"({"format":"topocast-scenario","version":1,"topology":"mesh:4x4x4","algorithm":"bfs","source":[0,0,0],"params":{},)"
        R"("view":{"camera":{"pitch":-20.5,"yaw":30},"explode":1.5,"layout":"tower","mode":"heatmap","play":true,"step":3}})";
    const Scenario sc = scenarioFromJson(nlohmann::json::parse(text));
    CHECK(sc.view.mode == "heatmap");
    CHECK(sc.view.step == 3);
    CHECK(sc.view.explode == 1.5);
    CHECK(sc.view.layout == "tower");
    REQUIRE(sc.view.other.size() == 2); // camera and play: not read by this topocast, kept
    CHECK(sc.view.other.at("play") == "true");
    CHECK(scenarioDrawing(sc).grid == GridDrawing::Tower);
    CHECK(scenarioDrawing(sc).explode == 1.5f);
    // Written back byte for byte (keys in their sorted order, as nlohmann wrote them before).
    CHECK(toJson(sc)["view"].dump() == nlohmann::json::parse(text)["view"].dump());
    CHECK(scenarioFromJson(nlohmann::json::parse(toJson(sc).dump())) == sc);

    // A known key of another type than this topocast reads is kept, not read: the default applies.
    const Scenario odd = scenarioFromJson(nlohmann::json::parse(
        R"({"format":"topocast-scenario","version":1,"topology":"mesh:4x4","algorithm":"bfs","view":{"mode":7,"step":"two"}})"));
    CHECK_FALSE(odd.view.mode);
    CHECK(scenarioViewMode(odd) == "plain");
    CHECK(scenarioStartStep(odd) == 0);
    CHECK(toJson(odd)["view"].dump() == R"({"mode":7,"step":"two"})");
    // A whole explode stays an integer in the file.
    const Scenario whole = scenarioFromJson(nlohmann::json::parse(
        R"({"format":"topocast-scenario","version":1,"topology":"mesh:4x4x4","algorithm":"bfs","view":{"explode":2}})"));
    CHECK(toJson(whole)["view"].dump() == R"({"explode":2})");
    // No view: none written.
    CHECK_FALSE(toJson(defaultScenario()).contains("view"));
}

TEST_CASE("contrastScenario: the other side of a comparison is a useful contrast, never a copy", "[scenario][compare]")
{
    auto side = [](const Scenario& a) { return compareSide(contrastScenario(a)); };
    Scenario a = defaultScenario();
    a.topology = Topology::mesh({8, 8});
    a.source = a.topology.id({2, 3});
    a.params = Params{{"mode", "paper"}};
    Scenario b = side(a); // Algorithm 1 (TCD 71) against the optimum (69) from (2,3), docs/papers/mesh-tcd.md
    CHECK(b.algorithm == "cang-wu");
    CHECK(b.params.find("mode") == std::optional<std::string>("optimal"));
    CHECK(b.source == a.source);
    CHECK(computeMetrics(buildScenario(b)).tcd == 69);
    a.params = Params{{"mode", "optimal"}};
    CHECK(side(a).params.find("mode") == std::optional<std::string>("paper"));

    Scenario tw = a;
    tw.topology = Topology::torus({7, 7, 7});
    tw.source = NodeId{0};
    tw.algorithm = "tsay-wang";
    tw.params = Params{{"variant", "paper"}};
    CHECK(side(tw).params.find("variant") == std::optional<std::string>("direct"));

    Scenario bin = a;
    bin.algorithm = "binomial";
    bin.params = Params{};
    CHECK(side(bin).algorithm == "cang-wu");
    bin.topology = Topology::hypercube(4);
    bin.source = NodeId{0};
    CHECK(side(bin).algorithm == "nesbt");
    bin.topology = Topology::mesh({6, 6}); // no paper algorithm fits: the same one from its best source
    bin.source = NodeId{0};
    const Scenario best = side(bin);
    CHECK(best.algorithm == "binomial");
    CHECK(computeMetrics(buildScenario(best)).tcd < computeMetrics(buildScenario(bin)).tcd);
    CHECK(best.title.find("best source") != std::string::npos);

    Scenario sbt = a;
    sbt.topology = Topology::hypercube(4);
    sbt.source = NodeId{0};
    sbt.algorithm = "sbt";
    sbt.params = Params{{"pattern", "scatter"}};
    const Scenario other = side(sbt);
    CHECK(other.algorithm != "sbt");
    CHECK(other.params.find("pattern") == std::optional<std::string>("scatter"));
    CHECK_NOTHROW(buildScenario(other));
}
