#include "topocast/algorithms/baselines.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/scenario_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace topocast;
namespace fs = std::filesystem;

namespace {

fs::path tempDir()
{
    const fs::path dir = fs::temp_directory_path() / ("topocast-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir;
}

std::string scheduleJsonError(const std::string& text)
{
    try {
        scheduleFromJson(parseJsonText(text, "in.json"));
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("schedule JSON round-trips, streamed or built", "[json]")
{
    const Topology t = Topology::torus({4, 4});
    Schedule s = binomialBroadcast(t, NodeId{5});
    s.fileInfo = {{"note", "\"hello\""}};
    s.stepLabels = {"a", "b", "c", "d"};
    s.mutableTransfers()[3].route = RouteSpec::cyclic(1, -1);
    s.mutableTransfers()[3].tag = 7;
    s.mutableTransfers()[3].size = 2.5;
    s.finalize();
    const Metrics m = computeMetrics(s);
    const auto doc = toJson(s, m);
    CHECK(doc["format"] == "topocast-schedule");
    CHECK(doc["version"] == 1);
    CHECK(doc["topology"] == "torus:4x4");
    CHECK(doc["source"] == nlohmann::ordered_json::array({1, 1})); // toJson builds an ordered_json
    CHECK(doc["steps"] == 4);
    CHECK(doc["tcd"] == m.tcd);
    CHECK(doc["note"] == "hello");
    CHECK(doc["transfers"].size() == 15);
    CHECK(doc["transfers"][0]["step"] == 1);

    std::ostringstream streamed;
    writeScheduleJson(streamed, s, m);
    CHECK(nlohmann::ordered_json::parse(streamed.str()) == doc);

    const Schedule back = scheduleFromJson(parseJsonText(doc.dump(), "doc"));
    REQUIRE(back.size() == s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        CHECK(back.transfers()[i].from == s.transfers()[i].from);
        CHECK(back.transfers()[i].to == s.transfers()[i].to);
        CHECK(back.transfers()[i].step == s.transfers()[i].step);
        CHECK(back.transfers()[i].route == s.transfers()[i].route);
        CHECK(back.transfers()[i].tag == s.transfers()[i].tag);
        CHECK(back.transfers()[i].size == s.transfers()[i].size);
    }
    CHECK(back.stepLabels == s.stepLabels);
    CHECK(back.fileInfo == std::vector<std::pair<std::string, std::string>>{{"note", "\"hello\""}});
    CHECK(back.algorithm == "binomial");
}

TEST_CASE("payload tables survive the JSON round trip", "[json]")
{
    Schedule s(Topology::hypercube(2), NodeId{0}, Pattern::Scatter, PortModel::OnePortExchange);
    const auto p = s.addPayload(std::vector<Block>{{0, 1, 0}, {0, 3, 0}});
    s.add(NodeId{0}, NodeId{1}, StepNo{1}, {}, p, 0, 2);
    s.add(NodeId{0}, NodeId{2}, StepNo{2}, {}, s.addPayload(std::vector<Block>{{0, 2, 0}}));
    s.add(NodeId{1}, NodeId{3}, StepNo{2}, {}, s.addPayload(std::vector<Block>{{0, 3, 0}}));
    s.finalize();
    REQUIRE(validate(s).ok());
    const Schedule back = scheduleFromJson(parseJsonText(toJson(s, computeMetrics(s)).dump(), "doc"));
    CHECK(back.payloadCount() == s.payloadCount());
    CHECK(std::vector<Block>(back.payload(1).begin(), back.payload(1).end()) ==
          std::vector<Block>{{0, 1, 0}, {0, 3, 0}});
    CHECK(validate(back).ok());
}

TEST_CASE("malformed schedule documents name the place of the problem", "[json][bad-input]")
{
    CHECK_THAT(scheduleJsonError("{\"format\": \"topocast-schedule\", \n \"version\": 1,"),
               Catch::StartsWith("in.json:2:") && Catch::Contains("malformed JSON"));
    CHECK_THAT(scheduleJsonError("[1,2]"), Catch::Contains("expected a JSON object"));
    CHECK_THAT(scheduleJsonError(R"({"format":"other","version":1})"), Catch::Contains("not a topocast schedule"));
    CHECK_THAT(scheduleJsonError(R"({"format":"topocast-schedule","version":2})"),
               Catch::Contains("version: 2 is not supported"));
    const std::string head = R"({"format":"topocast-schedule","version":1,"topology":"mesh:4x4","source":[0,0],)";
    CHECK_THAT(scheduleJsonError(head + R"("transfers":[{"step":1,"from":[0,0],"to":[4,0]}]})"),
               Catch::Contains("transfers[0].to[0]: 4 is out of range 0..3"));
    CHECK_THAT(scheduleJsonError(head + R"("transfers":[{"step":1,"from":[0,0]}]})"),
               Catch::Contains("transfers[0]: missing \"to\""));
    CHECK_THAT(scheduleJsonError(head + R"("transfers":[{"step":"1","from":[0,0],"to":[1,0]}]})"),
               Catch::Contains("transfers[0].step: expected a whole number, got string"));
    CHECK_THAT(scheduleJsonError(head + R"("transfers":[{"step":1,"from":[0,0],"to":[1,0],"hops":3}]})"),
               Catch::Contains("transfers[0].hops: says 3 but the route (0,0)→(1,0) has 1 hops"));
    CHECK_THAT(scheduleJsonError(R"({"format":"topocast-schedule","version":1,"topology":"mesh:4x4","source":[0]})"),
               Catch::Contains("source: expected 2 coordinates, got 1"));
    CHECK_THAT(scheduleJsonError(R"({"format":"topocast-schedule","version":1,"topology":"ring:4","source":0})"),
               Catch::Contains("unknown topology kind"));
    std::string deep(200, '[');
    CHECK_THAT(scheduleJsonError(deep), Catch::Contains("nested deeper than 64"));
}

TEST_CASE("atomic writes replace whole files or nothing", "[json][io]")
{
    const fs::path dir = tempDir();
    const fs::path file = dir / "out.json";
    writeFileAtomic(file, "first");
    writeFileAtomic(file, "second");
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(text == "second");
    // A path under a regular file cannot be created: Error, the old file is untouched.
    CHECK_THROWS_WITH(writeFileAtomic(file / "sub.json", "x"), Catch::Contains("cannot create a temporary file"));
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
        ++entries;
    CHECK(entries == 1); // no temporary left behind
    CHECK_THROWS_WITH(readJsonFile(dir / "missing.json"), Catch::Contains("cannot open"));
    fs::remove_all(dir);
}

TEST_CASE("scenarios round-trip and refuse bad fields", "[scenario][json]")
{
    Scenario sc = defaultScenario();
    CHECK(sc.topology.spec() == "mesh:8x8x8");
    CHECK(sc.topology.nodeName(sc.source) == "(2,2,2)");
    sc.params.set("tau", "2.5");
    sc.view.mode = "plain";
    const Scenario back = scenarioFromJson(parseJsonText(toJson(sc).dump(), "s"));
    CHECK(back == sc);

    const fs::path dir = tempDir();
    saveScenario(sc, dir / "s.json");
    CHECK(loadScenario(dir / "s.json") == sc);
    fs::remove_all(dir);

    auto err = [](const std::string& text) {
        try {
            scenarioFromJson(parseJsonText(text, "s"));
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string head = R"({"format":"topocast-scenario","version":1,)";
    CHECK_THAT(err(R"({"format":"topocast-scenario","version":3})"), Catch::Contains("version: expected 1"));
    CHECK_THAT(err(head + R"("topology":"mesh:6x6x"})"), Catch::Contains("topology: mesh side"));
    CHECK_THAT(err(head + R"("topology":"mesh:4x4","algorithm":"bfs","source":[9,9]})"),
               Catch::Contains("source[0]: 9 is out of range 0..3"));
    CHECK_THAT(err(head + R"("topology":"mesh:4x4","algorithm":"bfs","params":{"tau":[1]}})"),
               Catch::Contains("params.tau: expected a string or a number, got array"));
    const Scenario numbers = scenarioFromJson(parseJsonText(
        head + R"("topology":"hypercube:3","algorithm":"bfs","source":5,"params":{"tau":1.5,"packet":4}})", "s"));
    CHECK(numbers.source == 5);
    CHECK(numbers.params.getDouble("tau", 0) == 1.5);
    CHECK(numbers.params.getInt("packet", 0, 1, 10) == 4);
}

TEST_CASE("parameters convert with clear errors", "[params][bad-input]")
{
    const Params p{{"a", "1.5"}, {"b", "nan"}, {"c", "12x"}, {"d", "-3"}, {"e", "1e999"}};
    CHECK(p.getDouble("a", 0) == 1.5);
    CHECK(p.getDouble("missing", 7) == 7);
    CHECK_THROWS_WITH(p.getDouble("b", 0), Catch::Contains("b = 'nan' is not a finite number"));
    CHECK_THROWS_WITH(p.getDouble("e", 0), Catch::Contains("not a finite number"));
    CHECK_THROWS_WITH(p.getInt("c", 0, 0, 10), Catch::Contains("not a whole number"));
    CHECK_THROWS_WITH(p.getInt("d", 0, 0, 10), Catch::Contains("d = -3 is out of range; allowed 0 to 10"));
}

TEST_CASE("every key the writer emits is declared in the JSON Schema", "[json][schema]")
{
    const auto schema = readJsonFile(fs::path(TOPOCAST_SOURCE_DIR) / "resources/schema/topocast-schedule.schema.json");
    const auto& props = schema["properties"];
    Schedule s(Topology::hypercube(2), NodeId{0}, Pattern::Scatter, PortModel::MultiPort);
    s.parts = 2;
    s.sizeUnit = "elements";
    s.stepLabels = {"one"};
    s.participants = {NodeId{0}, NodeId{1}};
    s.add(NodeId{0}, NodeId{1}, StepNo{1}, RouteSpec::cyclic(0, 1),
          s.addPayload(std::vector<Block>{{0, 1, 0}, {0, 1, 1}}), 3, 2.0);
    s.finalize();
    const auto doc = toJson(s, computeMetrics(s));
    for (const auto& [key, value] : doc.items()) {
        INFO(key);
        CHECK(props.contains(key));
    }
    for (const auto& [key, value] : doc["transfers"][0].items()) {
        INFO("transfers[]." << key);
        CHECK(props["transfers"]["items"]["properties"].contains(key));
    }
    for (const auto& [key, value] : doc["metrics"].items()) {
        INFO("metrics." << key);
        CHECK(props["metrics"]["properties"].contains(key));
    }
    for (const std::string& key : schema["required"].get<std::vector<std::string>>())
        CHECK(doc.contains(key));
    const auto scenarioSchema =
        readJsonFile(fs::path(TOPOCAST_SOURCE_DIR) / "resources/schema/topocast-scenario.schema.json");
    Scenario sc = defaultScenario();
    sc.view.mode = "plain";
    const auto scDoc = toJson(sc);
    for (const auto& [key, value] : scDoc.items()) {
        INFO("scenario." << key);
        CHECK(scenarioSchema["properties"].contains(key));
    }
}
