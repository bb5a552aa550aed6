// Small things a researcher reads first: a pattern without a root says no source in the text and
// records none in the file (null), a 1-D network reads as a line or a ring, and --pattern's help
// lists every collective, not one algorithm's.
#include "cli_runner.h"
#include "commands.h"
#include "temp_dir.h"

#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using namespace topocast;
using Catch::Contains;
using topocast::testing::CliRun;
using topocast::testing::runCli;

TEST_CASE("a pattern without a root names no source, in the text and in the file", "[cli][schedule]")
{
    topocast::testing::TempDir dir;
    const std::string file = (dir.path / "ring.json").string();
    const CliRun r = runCli({"schedule", "-t", "torus:8", "-a", "ring", "--pattern", "allreduce", "--out", file});
    REQUIRE(r.status == 0);
    const CliRun text = runCli({"schedule", "-t", "torus:8", "-a", "ring", "--pattern", "allreduce"});
    CHECK_THAT(text.out, Contains("8-node ring, ring allreduce, one-port"));
    CHECK(text.out.find(" from ") == std::string::npos);
    const nlohmann::json doc = readJsonFile(file);
    CHECK(doc["source"].is_null());
    CHECK(runCli({"validate", file}).status == 0);
    CHECK(scheduleFromJson(doc).size() == 112);

    // A broadcast keeps its source; null there is refused with the reason.
    const std::string bc = (dir.path / "bc.json").string();
    const CliRun b = runCli({"schedule", "-t", "mesh:8", "-a", "binomial", "-s", "3", "--out", bc});
    REQUIRE(b.status == 0);
    CHECK_THAT(runCli({"schedule", "-t", "mesh:8", "-a", "binomial", "-s", "3"}).out,
               Contains("8-node line, binomial broadcast from (3)"));
    nlohmann::json broadcast = readJsonFile(bc);
    CHECK(broadcast["source"] == nlohmann::json::array({3}));
    broadcast["source"] = nullptr;
    CHECK_THROWS_WITH(scheduleFromJson(broadcast), Contains("a broadcast needs its source (root) node, not null"));
}

TEST_CASE("the help of --pattern lists every collective", "[cli]")
{
    for (const char* command : {"schedule", "time", "source-map"}) {
        const CliRun r = runCli({command, "--help"});
        INFO(command);
        CHECK_THAT(r.out,
                   Contains("broadcast, scatter, allgather, alltoall, gather, reduce, reduce-scatter, allreduce"));
    }
}
