// `topocast-cli simulate` and `compare --model simgrid`, run in-process: the figures a
// researcher reads (the cost of contention, the link that costs it, the ranking it changes) and
// the refusals.
#include "commands.h"

#include "cli_runner.h"
#include "temp_dir.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using namespace topocast;
using Catch::Contains;
using topocast::testing::CliRun;
using topocast::testing::runCli;

TEST_CASE("simulate names what contention costs and on which link", "[simulate][cli]")
{
    const CliRun text = runCli({"simulate", "-t", "torus:8x8", "-a", "rabenseifner", "--pattern", "allreduce",
                                "--message", "1MiB", "--sync", "steps"});
    REQUIRE(text.status == 0);
    CHECK_THAT(text.out,
               Contains("simulated (SimGrid 3.32, CM02 max-min flow model, a barrier between steps): 512.53 us"));
    CHECK_THAT(text.out, Contains("without contention (LogGP, the same rules, steps): 182.23 us"));
    CHECK_THAT(text.out, Contains("contention costs 181 %: (1,0)→(2,0) carries 4 messages at once in step 1"));
    CHECK_THAT(text.out, Contains("busiest links"));

    const CliRun json = runCli({"simulate", "-t", "torus:8x8", "-a", "rabenseifner", "--pattern", "allreduce",
                                "--message", "1MiB", "--sync", "steps", "--json"});
    REQUIRE(json.status == 0);
    const auto doc = nlohmann::json::parse(json.out);
    CHECK(doc["format"] == "topocast-simulation");
    CHECK(doc["model"] == "simgrid-steps");
    CHECK(doc["request"]["model"] == "simgrid");
    CHECK(doc["request"]["sync"] == "steps");
    CHECK(doc["total"]["unit"] == "ns");
    CHECK(doc["total"]["value"].get<double>() == Approx(512530).margin(1));
    CHECK(doc["contention_free"]["total"]["value"].get<double>() == Approx(182230).margin(1));
    CHECK(doc["total"]["value"].get<double>() >= doc["bound"]["total"]["value"].get<double>());
    CHECK(doc["links"][0]["link"] == "(1,0)→(2,0)");
    CHECK(doc["links"][0]["most_at_once"] == 4);
    CHECK(doc["transfers"].size() == 768);
    CHECK(doc["steps"].size() == 12);
}

TEST_CASE("a contention-free schedule says contention costs nothing", "[simulate][cli]")
{
    const CliRun r = runCli({"simulate", "-t", "mesh:8x8", "-a", "cang-wu", "-s", "2,3", "--message", "64KiB"});
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Contains("contention costs nothing: no two messages crossed one link at once"));
}

TEST_CASE("compare --model simgrid ranks the contended Rabenseifner below bucket where LogGP ranked it first",
          "[simulate][cli]")
{
    const auto ranked = [](const std::string& model) {
        const CliRun r = runCli(
            {"compare", "-t", "torus:8x8", "--pattern", "allreduce", "--size", "256KiB", "--model", model, "--json"});
        REQUIRE(r.status == 0);
        return nlohmann::json::parse(r.out);
    };
    const auto loggp = ranked("loggp");
    CHECK(loggp["rows"][0]["algorithm"] == "rabenseifner");
    const auto sim = ranked("simgrid");
    CHECK(sim["ranked_by"].get<std::string>().rfind("simgrid: ", 0) == 0);
    CHECK(sim["rows"][0]["algorithm"] == "bucket");
    CHECK(sim["rows"][0]["contention_cost"]["value"] == 0);
    CHECK(sim["rows"][1]["algorithm"] == "rabenseifner");
    CHECK(sim["rows"][1]["contention_cost"]["value"].get<double>() > 100);
    for (std::size_t i = 1; i < sim["rows"].size(); ++i)
        CHECK(sim["rows"][i]["simulated_time"]["value"].get<double>() >=
              sim["rows"][i - 1]["simulated_time"]["value"].get<double>());
}

TEST_CASE("simulate writes a trace with one track per node and per link", "[simulate][cli]")
{
    const topocast::testing::TempDir dir;
    const std::string trace = (dir.path / "trace.json").string();
    const CliRun r = runCli({"simulate", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--trace", trace});
    REQUIRE(r.status == 0);
    std::ifstream in(trace);
    const auto doc = nlohmann::json::parse(in);
    int linkTracks = 0, nodeTracks = 0, flows = 0;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "thread_name")
            ++(e["pid"] == 1 ? nodeTracks : linkTracks);
        if (e["ph"] == "s")
            ++flows;
    }
    CHECK(nodeTracks == 16);
    CHECK(linkTracks == 16); // a ring on a 4x4 torus: one direction of each row's and column's ring used
    CHECK(flows == 16 * 2 * 15 / 1);
    CHECK(doc["otherData"]["request"]["model"] == "simgrid");
}

TEST_CASE("simulate refuses with the reason before anything runs", "[simulate][cli]")
{
    const CliRun goal = runCli({"simulate", std::string(TOPOCAST_SOURCE_DIR) + "/tests/data/goal/a_send1b.goal"});
    CHECK(goal.status != 0);
    CHECK_THAT(goal.err, Contains("no routes") && Contains("import"));
    const CliRun sync =
        runCli({"simulate", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--sync", "later"});
    CHECK(sync.status != 0);
    CHECK_THAT(sync.err, Contains("--sync 'later' is not known"));
    const CliRun big =
        runCli({"simulate", "-t", "torus:16x16x16", "-a", "bucket", "--pattern", "allreduce", "--max-seconds", "1"});
    CHECK(big.status != 0);
    CHECK_THAT(big.err, Contains("would take about") && Contains("--max-seconds 1"));
    const CliRun bandwidth =
        runCli({"simulate", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--bandwidth", "0GB/s"});
    CHECK(bandwidth.status != 0);
    CHECK_THAT(bandwidth.err, Contains("bandwidth"));
}

TEST_CASE("sweep --model simgrid: bucket overtakes the contended Rabenseifner, which LogGP ranks first at every size",
          "[simulate][cli][sweep]")
{
    const auto sweep = [](const std::string& model) {
        const CliRun r = runCli({"sweep", "-t", "torus:8x8", "--pattern", "allreduce", "--algorithms",
                                 "bucket,rabenseifner", "--sizes", "16KiB..1MiB", "--model", model, "--json"});
        REQUIRE(r.status == 0);
        return nlohmann::json::parse(r.out);
    };
    const auto loggp = sweep("loggp");
    const auto sim = sweep("simgrid");
    CHECK(sim["model"] == "simgrid");
    CHECK(sim["request"]["model"] == "simgrid");
    // Without contention Rabenseifner wins every size; with it, bucket from 128 KiB.
    CHECK(loggp["crossovers"].empty());
    for (const auto& row : loggp["rows"])
        CHECK(row["winner"] == "rabenseifner");
    REQUIRE(sim["crossovers"].size() == 1);
    CHECK(sim["crossovers"][0]["text"] == "bucket overtakes rabenseifner at 128 KiB");
}

TEST_CASE("platform writes SimGrid's torus, lists a mesh's routes, refuses what SimGrid cannot hold",
          "[simulate][cli][platform]")
{
    const CliRun torus = runCli({"platform", "-t", "torus:4x4x4", "--bandwidth", "12.5GB/s", "--hop-latency", "1us"});
    REQUIRE(torus.status == 0);
    CHECK_THAT(torus.out, Contains("topology=\"TORUS\" topo_parameters=\"4,4,4\"") && Contains("radical=\"0-63\"") &&
                              Contains("bw=\"12500000000Bps\"") && Contains("lat=\"1e-06s\"") &&
                              Contains("sharing_policy=\"SPLITDUPLEX\""));
    const CliRun mesh = runCli({"platform", "-t", "mesh:2x3"});
    REQUIRE(mesh.status == 0);
    std::size_t routes = 0, links = 0;
    for (std::size_t at = mesh.out.find("<route "); at != std::string::npos; at = mesh.out.find("<route ", at + 1))
        ++routes;
    for (std::size_t at = mesh.out.find("<link "); at != std::string::npos; at = mesh.out.find("<link ", at + 1))
        ++links;
    CHECK(routes == 6 * 5);
    CHECK(links == 2 * 7); // 7 links of a 2x3 mesh, one per direction
    // Node 0 to node 5, (0,0) to (1,2): x first, then y (dimension order).
    CHECK_THAT(mesh.out, Contains("<route src=\"node-0\" dst=\"node-5\" symmetrical=\"NO\"><link_ctn id=\"l-0-1\"/>"
                                  "<link_ctn id=\"l-1-3\"/><link_ctn id=\"l-3-5\"/></route>"));
    const CliRun big = runCli({"platform", "-t", "mesh:32x32"});
    CHECK(big.status != 0);
    CHECK_THAT(big.err, Contains("held to 256 nodes") && Contains("give a torus"));
    const topocast::testing::TempDir dir;
    const std::string xml = (dir.path / "t.xml").string();
    const CliRun written = runCli({"platform", "-t", "torus:3x3", "--out", xml});
    REQUIRE(written.status == 0);
    std::ifstream hosts(dir.path / "t.hosts");
    std::string line, last;
    int count = 0;
    while (std::getline(hosts, line))
        ++count, last = line;
    CHECK(count == 9);
    CHECK(last == "node-8");
}
