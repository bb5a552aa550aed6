// One node notation in every output: JSON writes a node as a coordinate array on a mesh or torus
// and as its address (a whole number) on a hypercube, and nodeFromJson reads every one of them
// back; text names read back with Topology::parseNode. Also the trace's step times.
#include "cli_runner.h"
#include "temp_dir.h"

#include "topocast/io/measured_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/topology.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

using namespace topocast;
using namespace topocast::testing;

namespace {

nlohmann::json cliJson(const std::vector<std::string>& args)
{
    const CliRun r = runCli(args);
    INFO(args[0] << ": " << r.err);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out);
}

/// Reads `value` back as a node with the one JSON node reader; checks the notation's kind.
NodeId readNode(const Topology& topo, const nlohmann::json& value, const std::string& where)
{
    INFO(where << ": " << value.dump());
    CHECK((topo.isHypercube() ? value.is_number_integer() : value.is_array()));
    return nodeFromJson(topo, value, where);
}

/// Reads every node of a JSON array; returns how many there were.
std::size_t readNodes(const Topology& topo, const nlohmann::json& values, const std::string& where)
{
    REQUIRE(values.is_array());
    for (const auto& v : values)
        (void)readNode(topo, v, where);
    return values.size();
}

} // namespace

TEST_CASE("node notation: every JSON output writes nodes one way and nodeFromJson reads them all back",
          "[cli][json][notation]")
{
    const TempDir dir;
    for (const std::string net : {"mesh:4x4", "torus:5x5", "hypercube:3"}) {
        INFO(net);
        const Topology topo = Topology::parse(net);
        const std::string src = topo.isHypercube() ? "5" : "1,2";
        const NodeId source = topo.parseNode(src);

        const auto sched = cliJson({"schedule", "-t", net, "-a", "bfs", "-s", src, "--json"});
        CHECK(readNode(topo, sched["source"], "schedule source") == source);
        for (const auto& t : sched["transfers"]) {
            (void)readNode(topo, t["from"], "schedule from");
            (void)readNode(topo, t["to"], "schedule to");
        }
        CHECK(readNodes(topo, cliJson({"source-map", "-t", net, "-a", "bfs", "--metric", "tcd", "--json"})["argmin"],
                        "source map") > 0);
        CHECK(readNode(topo, cliJson({"compare-torus", "-t", net, "-s", src, "--json"})["source"], "compare-torus") ==
              source);
        const auto g = cliJson({"grade", "-t", net, "-a", "bfs", "-s", src, "--step", "1", "--nodes", src, "--json"});
        CHECK(readNode(topo, g["source"], "grade source") == source);
        CHECK(readNodes(topo, g["right"], "grade") + readNodes(topo, g["missed"], "grade") +
                  readNodes(topo, g["wrong"], "grade") >
              0);
        const auto layout = cliJson({"layout", "--topology", net, "--json"}); // kept alive for the loop
        for (const auto& e : layout["edges"]) {
            (void)readNode(topo, e["from"], "layout from");
            (void)readNode(topo, e["to"], "layout to");
        }
        const std::string trace = (dir.path / "trace.json").string();
        REQUIRE(runCli({"export", "-t", net, "-a", "bfs", "-s", src, "--format", "trace", "--out", trace}).status == 0);
        const auto tr = nlohmann::json::parse(std::ifstream(trace));
        CHECK(readNode(topo, tr["otherData"]["source"], "trace source") == source);
        for (const auto& e : tr["traceEvents"]) {
            if (e["ph"] == "X" && e["cat"] != "step") {
                (void)readNode(topo, e["args"]["from"], "trace from");
                (void)readNode(topo, e["args"]["to"], "trace to");
            }
            // Text: a track's name is the node's name, which Topology::parseNode reads back.
            if (e["ph"] == "M" && e["name"] == "thread_name" && e["tid"] != 0) {
                std::string name = e["args"]["name"];
                if (const auto cut = name.find(" (source)"); cut != std::string::npos)
                    name.resize(cut);
                CHECK(topo.parseNode(name) == NodeId{e["tid"].get<std::uint32_t>() - 1});
            }
        }
    }
    // tcd-map on the 2×2×2 mesh and on hypercube:3: addresses on the hypercube, not bit arrays.
    const Topology cube = Topology::parse("hypercube:3");
    const auto map = cliJson({"tcd-map", "-t", "hypercube:3", "--json"});
    CHECK(readNodes(cube, map["optimal_sources"], "tcd-map optimal_sources") == 8);
    CHECK(readNodes(cube, map["eyes"], "tcd-map eyes") > 0);
    const Topology mesh = Topology::parse("mesh:8x8");
    const auto mmap = cliJson({"tcd-map", "-t", "mesh:8x8", "--json"});
    CHECK(readNodes(mesh, mmap["optimal_sources"], "tcd-map optimal_sources") > 0);
    CHECK(readNodes(mesh, mmap["eyes"], "tcd-map eyes") == 4);
    // validate's findings (a broken student schedule) and divisible's mapping.
    const auto v = runCli(
        {"validate", std::string(TOPOCAST_SOURCE_DIR) + "/resources/exercises/broadcast-4x4-broken.csv", "--json"});
    REQUIRE(v.status == 1);
    const auto verdict = nlohmann::json::parse(v.out);
    const Topology m44 = Topology::parse(verdict["topology"].get<std::string>());
    REQUIRE_FALSE(verdict["findings"].empty());
    for (const auto& f : verdict["findings"])
        (void)readNodes(m44, f["nodes"], "validate findings");
    const auto dl =
        cliJson({"divisible", "--ports", "3", "--layers", "1", "-t", "mesh:4x4x4", "--source", "1,0,1", "--json"});
    CHECK(readNode(Topology::parse("mesh:4x4x4"), dl["mapping"]["source"], "divisible source") ==
          Topology::parse("mesh:4x4x4").parseNode("1,0,1"));
    // Measured times name each transfer's nodes in node notation; files with node ids still read.
    const std::string measuredFile = std::string(TOPOCAST_SOURCE_DIR) + "/resources/measured/cang-wu-4x4.measured.json";
    auto measured = nlohmann::json::parse(std::ifstream(measuredFile));
    const Topology m4 = Topology::parse(measured["schedule"]["topology"].get<std::string>());
    REQUIRE_FALSE(measured["transfers"].empty());
    std::vector<NodeId> from;
    for (const auto& t : measured["transfers"])
        from.push_back(readNode(m4, t["from"], "measured from"));
    for (auto& t : measured["transfers"])
        t["from"] = static_cast<std::uint32_t>(nodeFromJson(m4, t["from"], "from"));
    const MeasuredTimes old = measuredFromJson(measured);
    REQUIRE(old.transfers.size() == from.size());
    for (std::size_t i = 0; i < from.size(); ++i)
        CHECK(old.transfers[i].from == from[i]);
}

TEST_CASE("trace export: fixed, model or measured step times", "[export][trace][cli]")
{
    const std::string root = TOPOCAST_SOURCE_DIR;
    const std::string scenario = root + "/resources/scenarios/cang-wu-4x4.json";
    const std::string measuredFile = root + "/resources/measured/cang-wu-4x4.measured.json";
    auto spans = [](const nlohmann::json& doc) {
        std::vector<std::pair<double, double>> steps;
        for (const auto& e : doc["traceEvents"])
            if (e["ph"] == "X" && e["cat"] == "step")
                steps.emplace_back(e["ts"].get<double>(), e["dur"].get<double>());
        return steps;
    };
    const auto fixed = cliJson({"export", "--scenario", scenario, "--format", "trace", "--step-us", "10"});
    CHECK(fixed["otherData"]["step_times"] == "fixed");
    CHECK(fixed["otherData"]["step_us"] == 10);
    for (const auto& [ts, dur] : spans(fixed))
        CHECK(dur == 10);

    const auto model = cliJson({"export", "--scenario", scenario, "--format", "trace", "--times", "model"});
    CHECK(model["otherData"]["step_times"] == "model");
    CHECK(model["otherData"]["time_unit"] == "µs");
    const auto ms = spans(model);
    REQUIRE(ms.size() == 4);
    double end = 0;
    for (const auto& [ts, dur] : ms) {
        CHECK(ts == Approx(end)); // steps follow each other
        CHECK(dur > 1.0);         // at least the model's 1 µs start-up
        end = ts + dur;
    }
    // The 4×4 broadcast's first step sends 2 hops, its last 1: the model's steps differ.
    CHECK(ms.front().second > ms.back().second);

    const auto measured = cliJson({"export", "--scenario", scenario, "--format", "trace", "--measured", measuredFile});
    CHECK(measured["otherData"]["step_times"] == "measured");
    const auto file = nlohmann::json::parse(std::ifstream(measuredFile));
    const auto mspans = spans(measured);
    REQUIRE(mspans.size() == file["steps"].size());
    for (std::size_t i = 0; i < mspans.size(); ++i)
        CHECK(mspans[i].second == Approx(file["steps"][i]["median_s"].get<double>() * 1e6));

    const CliRun bad = runCli({"export", "--scenario", scenario, "--format", "trace", "--times", "measured"});
    CHECK(bad.status == 2);
    CHECK(bad.err.find("needs --measured FILE") != std::string::npos);
    const CliRun other =
        runCli({"export", "-t", "mesh:8x8", "-a", "bfs", "--format", "trace", "--measured", measuredFile});
    CHECK(other.status == 2);
    CHECK(other.err.find("does not belong to this schedule") != std::string::npos);
    const CliRun unknown = runCli({"export", "--scenario", scenario, "--format", "trace", "--times", "wall"});
    CHECK(unknown.status == 2);
    CHECK(unknown.err.find("use fixed") != std::string::npos);
}

TEST_CASE("every JSON output starts with format, version and topology, and algorithm where one applies",
          "[cli][json][envelope]")
{
    const std::string root = TOPOCAST_SOURCE_DIR;
    const std::string scenario = root + "/resources/scenarios/cang-wu-4x4.json";
    struct Case {
        std::vector<std::string> args;
        std::string format;
        bool algorithm;
    };
    const std::vector<Case> cases = {
        {{"schedule", "--scenario", scenario, "--json"}, "topocast-schedule", true},
        {{"source-map", "-t", "mesh:4x4", "-a", "bfs", "--metric", "tcd", "--json"}, "topocast-landscape", true},
        {{"tcd-map", "-t", "mesh:4x4", "--json"}, "topocast-tcd-map", true},
        {{"compare", "-t", "hypercube:3", "--json"}, "topocast-compare", false},
        {{"compare-torus", "-t", "torus:3x3", "--json"}, "topocast-compare-torus", false},
        {{"grade", "--scenario", scenario, "--step", "1", "--nodes", "", "--json"}, "topocast-grade", true},
        {{"visibility", "--scenario", scenario, "--json"}, "topocast-visibility", true},
        {{"layout", "--topology", "mesh:2x2", "--json"}, "topocast-layout", false},
        {{"bounds", "--dims", "2", "--side", "5", "--json"}, "topocast-bounds", false},
        {{"divisible", "--ports", "1", "--layers", "2", "--json"}, "topocast-divisible", true},
        {{"algorithms", "--json"}, "topocast-algorithms", false},
    };
    for (const Case& c : cases) {
        INFO(c.args[0]);
        const auto doc = cliJson(c.args);
        REQUIRE(doc.is_object());
        CHECK(doc["format"] == c.format);
        CHECK(doc["version"] == 1);
        CHECK(doc.contains("topology"));
        if (c.algorithm)
            CHECK(doc["algorithm"].is_string());
    }
}

TEST_CASE("help: --variant says which variants each algorithm takes", "[cli][help]")
{
    const CliRun help = runCli({"schedule", "--help"});
    REQUIRE(help.status == 0);
    const auto at = help.out.find("--variant");
    REQUIRE(at != std::string::npos);
    const std::string line = help.out.substr(at, help.out.find("\n  --", at + 1) - at);
    CHECK(line.find("tsay-wang: ") != std::string::npos);
    CHECK(line.find("(paper | direct; default paper)") != std::string::npos);
    CHECK(line.find("hp: ") != std::string::npos);
    CHECK(line.find("(nopipe; default pipelined)") != std::string::npos);
    CHECK(line.find("sbt: ") != std::string::npos);
    CHECK(line.find("postorder | subtree") != std::string::npos);
    CHECK(line.find("sbnt, sbntc: ") != std::string::npos);
    CHECK(line.find("digest") == std::string::npos);
}
