// Every JSON document topocast-cli writes records the request that made it ("command_line"):
// run again from what it records, it gives the same bytes; two different requests never give the
// same document. (The source map document records its request in its own keys:
// test_source_map_metrics.cpp.)
#include "cli_runner.h"
#include "temp_dir.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

using topocast::testing::CliRun;
using topocast::testing::runCli;

namespace {

std::vector<std::string> withJson(std::vector<std::string> args)
{
    args.push_back("--json");
    return args;
}

} // namespace

TEST_CASE("every JSON document records its request, which gives the same bytes again", "[cli][request]")
{
    topocast::testing::TempDir dir;
    const std::string ring = (dir.path / "ring.json").string(), bucket = (dir.path / "bucket.json").string();
    const std::string xml = (dir.path / "ring.xml").string();
    REQUIRE(runCli({"schedule", "-t", "torus:4", "-a", "ring", "--pattern", "allreduce", "--out", ring}).status == 0);
    REQUIRE(runCli({"schedule", "-t", "torus:4", "-a", "bucket", "--pattern", "allreduce", "--out", bucket}).status ==
            0);
    REQUIRE(runCli({"export", ring, "--format", "msccl-xml", "--out", xml}).status == 0);
    const std::string goal = std::string(TOPOCAST_SOURCE_DIR) + "/tests/data/goal/a_send1b.goal";

    // Pairs of requests that differ in one thing the document must name.
    const std::vector<std::vector<std::string>> requests{
        {"algorithms", "--topology", "mesh:4x4"},
        {"algorithms", "--topology", "hypercube:3"},
        {"bounds", "--side", "5", "--dims", "2"},
        {"bounds", "--side", "7", "--dims", "2"},
        {"buffers", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--step", "2"},
        {"buffers", "-t", "torus:4x4", "-a", "ring", "--pattern", "reduce-scatter", "--step", "2"},
        {"compare", "-t", "hypercube:4", "--pattern", "gather"},
        {"compare", "-t", "hypercube:4", "--pattern", "reduce"},
        {"compare", "-t", "hypercube:4"},
        {"compare", "-t", "hypercube:4", "--message", "64"},
        {"compare-torus", "-t", "torus:8x8"},
        {"compare-torus", "-t", "torus:8x8", "-s", "1,1"},
        {"divisible", "--ports", "2"},
        {"divisible", "--ports", "3"},
        {"grade", "-t", "mesh:4x4", "-a", "binomial", "-s", "0,0", "--step", "1", "--nodes", "1,0"},
        {"grade", "-t", "mesh:4x4", "-a", "binomial", "-s", "0,0", "--pattern", "reduce", "--step", "1", "--nodes",
         "1,0"},
        {"layout", "--topology", "mesh:4x4x2"},
        {"layout", "--topology", "mesh:4x4x2", "--explode", "0.5"},
        {"simulate", "-t", "torus:4x4", "-a", "binomial"},
        {"simulate", "-t", "torus:4x4", "-a", "binomial", "--message", "1MiB"},
        {"sweep", "-t", "torus:4x4", "--pattern", "broadcast", "--sizes", "1KiB,1MiB"},
        {"sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--sizes", "1KiB,1MiB"},
        {"tcd-map", "-t", "mesh:8x8"},
        {"tcd-map", "-t", "mesh:8x8", "--mode", "paper"},
        {"time", "-t", "torus:4x4", "-a", "binomial"},
        {"time", "-t", "torus:4x4", "-a", "binomial", "--pattern", "reduce"},
        {"time", "-t", "torus:4x4", "-a", "binomial", "--message", "1MiB"},
        {"validate", ring},
        {"validate", bucket},
        {"validate", xml, "--topology", "torus:4"},
        {"validate", xml, "--topology", "hypercube:2"},
        {"validate", goal},
        {"visibility", "-t", "mesh:4x4", "-a", "binomial", "-s", "0,0"},
        {"visibility", "-t", "mesh:4x4", "-a", "binomial", "-s", "0,0", "--width", "800"},
    };
    std::map<std::string, std::vector<std::string>> documents; // bytes → the request
    for (const auto& request : requests) {
        const CliRun r = runCli(withJson(request));
        INFO(request.front() << " " << request.at(1) << "\n" << r.err);
        REQUIRE(r.out.size() > 2);
        const nlohmann::json doc = nlohmann::json::parse(r.out);
        REQUIRE(doc.contains("command_line"));
        const auto recorded = doc["command_line"].get<std::vector<std::string>>();
        CHECK(recorded.front() == request.front());
        const CliRun again = runCli(withJson(recorded));
        CHECK(again.status == r.status);
        CHECK(again.out == r.out);
        const auto [it, added] = documents.emplace(r.out, request);
        CHECK(added); // two different requests never give the same document
    }
    CHECK(documents.size() == requests.size());
}

TEST_CASE("the recorded request leaves out where the document went and keeps what it computed", "[cli][request]")
{
    topocast::testing::TempDir dir;
    const std::string trace = (dir.path / "trace.json").string();
    const CliRun r = runCli(
        {"simulate", "--topology", "torus:4x4", "-a", "binomial", "--trace", trace, "--json", "--message", "64KiB"});
    REQUIRE(r.status == 0);
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    // Long names, declaration order; --trace and --json are where it went, not what it computed.
    CHECK(doc["command_line"] == nlohmann::json::array({"simulate", "--topology", "torus:4x4", "--algorithm",
                                                        "binomial", "--message", "64KiB"}));
}
