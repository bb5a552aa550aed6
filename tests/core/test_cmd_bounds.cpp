// `topocast-cli bounds` and `topocast-cli compare-torus`, run in-process, and the
// tsay-wang scenario presets under resources/scenarios/.
#include "commands.h"

#include "topocast/analysis/validate.h"
#include "topocast/io/scenario_json.h"

#include "cli_runner.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

using namespace topocast;
using Catch::Contains;
using topocast::testing::CliRun;
using topocast::testing::runCli;

TEST_CASE("bounds --dims 2 --side 125 prints LB 6, paper 7, ours 6 (docs/papers/torus-allport.md §2.1, §6.2)",
          "[tsaywang][cli]")
{
    const CliRun r = runCli({"bounds", "--dims", "2", "--side", "125", "--json"});
    REQUIRE(r.status == 0);
    // The envelope, then the rows (a bare array before the JSON outputs had one envelope).
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["format"] == "topocast-bounds");
    CHECK(json["topology"] == "torus:125x125");
    CHECK(json["unit"] == "steps");
    const auto& doc = json["rows"];
    REQUIRE(doc.size() == 1);
    CHECK(doc[0]["lower_bound"] == 6);
    CHECK(doc[0]["paper_bound"] == 7);
    CHECK(doc[0]["tsay_wang_paper"] == 6);
    CHECK(doc[0]["tsay_wang_direct"] == 6);
    CHECK(doc[0]["tseng_2d"] == 6);
    CHECK(doc[0]["tseng_wang_3d"].is_null());
    CHECK(doc[0]["park_choi"] == 6);
}

TEST_CASE("bounds prints the comparison table for ranges (docs/papers/torus-allport.md §6.2)", "[tsaywang][cli]")
{
    const CliRun r = runCli({"bounds", "--dims", "3", "--side", "7..9,49"});
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Contains("Tseng 2-D"));
    CHECK_THAT(r.out, Contains("T&W 3-D"));
    CHECK_THAT(r.out, Contains("Park-Choi"));
    // d=3, n=49: r 2, LB 6, paper 7, ours 7, direct 6, –, T&W 8, Park-Choi 6.
    CHECK_THAT(r.out, Contains("  3    49     2   6     7    7      6         –       8         6"));
    CHECK_THAT(r.out, Contains("  3     8     1   4     6    6      5         –       8         –"));

    const CliRun even = runCli({"bounds", "--dims", "5", "--side", "4"});
    REQUIRE(even.status == 0);
    CHECK_THAT(even.out, Contains("even n=4 < d=5"));
}

TEST_CASE("bounds rejects d = 1 and n < 3 with a clear error (docs/papers/torus-allport.md §6.4)", "[tsaywang][cli]")
{
    const CliRun d1 = runCli({"bounds", "--dims", "1", "--side", "5"});
    CHECK(d1.status == 2);
    CHECK_THAT(d1.err, Contains("--dims 1 is out of range 2.."));
    const CliRun n2 = runCli({"bounds", "--dims", "2", "--side", "2"});
    CHECK(n2.status == 2);
    CHECK_THAT(n2.err, Contains("--side 2 is out of range 3.."));
    const CliRun junk = runCli({"bounds", "--dims", "two", "--side", "5"});
    CHECK(junk.status == 2);
    CHECK_THAT(junk.err, Contains("whole number"));
}

TEST_CASE("compare-torus lists every applicable algorithm with steps, TCD and contention", "[tsaywang][cli]")
{
    const CliRun r = runCli({"compare-torus", "--topology", "torus:5x5", "--source", "1,2", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["all_port_lower_bound"] == 2);
    bool paper = false, direct = false, bfs = false;
    for (const auto& row : doc["algorithms"]) {
        // `algorithm` is a name `schedule -a` takes; the variant is a field of its own.
        if (row["label"] == "tsay-wang (paper)") {
            CHECK(row["algorithm"] == "tsay-wang");
            CHECK(row["variant"] == "paper");
            paper = true;
            CHECK(row["steps"] == 2);
            CHECK(row["contention"] == 0);
            CHECK(row["max_step_load"] == 1);
            CHECK(row["tcd"] == 12 + 30);
        }
        if (row["label"] == "tsay-wang (direct)") {
            direct = true;
            CHECK(row["steps"] == 2);
        }
        if (row["algorithm"] == "bfs")
            bfs = true;
    }
    CHECK(paper);
    CHECK(direct);
    CHECK(bfs);

    const CliRun text = runCli({"compare-torus", "--topology", "torus:6x8"});
    REQUIRE(text.status == 0);
    CHECK_THAT(text.out, Contains("max link load"));
    CHECK_THAT(text.out, Contains("not applicable: tsay-wang"));
}

TEST_CASE("the tsay-wang scenario presets build valid schedules", "[tsaywang][cli]")
{
    for (const char* name : {"tsay-wang-torus-5x5.json", "tsay-wang-torus-7x7x7.json"}) {
        INFO(name);
        const Scenario sc = loadScenario(std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name);
        CHECK(sc.algorithm == "tsay-wang");
        const Schedule s = buildScenario(sc);
        CHECK(s.stepCount() == (sc.topology.dims() == 2 ? 2u : 4u));
        CHECK(validate(s).ok());
    }
}

TEST_CASE("schedule --algorithm tsay-wang --variant direct --json carries labels and bounds", "[tsaywang][cli]")
{
    const CliRun r = runCli({"schedule", "--topology", "torus:7x7x7", "--algorithm", "tsay-wang", "--variant", "direct",
                             "--source", "1,2,3", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["algorithm"] == "tsay-wang");
    CHECK(doc["mode"] == "direct");
    CHECK(doc["port_model"] == "all-port");
    CHECK(doc["steps"] == 3);
    CHECK(doc["contention"] == 0);
    CHECK(doc["lower_bound"] == 3);
    CHECK(doc["paper_bound"] == 4);
    CHECK(doc["spec_steps"] == 3);
    CHECK(doc["step_labels"] == nlohmann::json::array({"1.1", "2.1", "3.1"}));
    CHECK(doc["transfers"].size() == 342);

    const CliRun bad = runCli({"schedule", "--topology", "torus:5x7", "--algorithm", "tsay-wang"});
    CHECK(bad.status == 2);
    CHECK_THAT(bad.err, Contains("n×…×n torus"));
    const CliRun even = runCli({"schedule", "--topology", "torus:4x4x4x4x4", "--algorithm", "tsay-wang"});
    CHECK(even.status == 2);
    CHECK_THAT(even.err, Contains("even n=4 < d=5"));
}
