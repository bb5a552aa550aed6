// topocast-cli on the hypercube algorithms: `schedule --json` keys and `compare`, and the
// scenario presets under resources/scenarios/.

#include "commands.h"

#include "topocast/analysis/validate.h"
#include "topocast/io/scenario_json.h"

#include "cli_runner.h"

#include <catch2/catch.hpp>

#include <map>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

using namespace topocast;
using topocast::testing::CliRun;
using topocast::testing::runCli;

TEST_CASE("cli schedule --json: closed form, counted cycles, subtree and level sizes (spec §12.9)", "[hypercube]")
{
    const CliRun r = runCli({"schedule", "--topology", "hypercube:4", "--algorithm", "nesbt", "--pattern", "broadcast",
                             "--message", "8", "--packet", "4", "--ports", "one", "--tau", "2", "--tc", "1", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["startups"] == 6); // Table 4 nESBT, n = 4, M = 8, B = 4: 6; 24
    CHECK(doc["transfer"] == 24);
    CHECK(doc["time"] == 36);
    CHECK(doc["cycles"] == 6); // Q + n
    CHECK(doc["lower_bound"] == 2 * 4 + 11);
    CHECK(doc["packet_opt"].get<double>() == Approx(2.0)); // sqrt(Mτ/(n t_c)) = sqrt(8·2/4)
    CHECK(doc["subtree_sizes"] == nlohmann::json::array({3.75, 3.75, 3.75, 3.75}));
    CHECK(doc["level_sizes"] == nlohmann::json::array({1, 1, 3, 6, 4, 1}));
    CHECK(doc["transfers"][0]["from"].is_number());
    const CliRun s = runCli({"schedule", "--topology", "hypercube:4", "--algorithm", "sbt", "--pattern", "scatter",
                             "--message", "1", "--packet", "4", "--ports", "one", "--json"});
    REQUIRE(s.status == 0);
    const auto d2 = nlohmann::json::parse(s.out);
    CHECK(d2["startups"] == 5); // §12.10: B = 4 → 5
    CHECK(d2["subtree_sizes"] == nlohmann::json::array({8, 4, 2, 1}));
    CHECK(d2["level_sizes"] == nlohmann::json::array({1, 4, 6, 4, 1}));
}

TEST_CASE("cli schedule: bad input gives one clear line and exit status 2", "[hypercube]")
{
    const CliRun a = runCli({"schedule", "--topology", "mesh:8x8", "--algorithm", "sbt"});
    CHECK(a.status == 2);
    CHECK(a.err.find("sbt needs a hypercube; got 8×8 mesh") != std::string::npos);
    const CliRun b =
        runCli({"schedule", "--topology", "hypercube:4", "--algorithm", "sbt", "--message", "4", "--packet", "8"});
    CHECK(b.status == 2);
    CHECK(b.err.find("larger than the message") != std::string::npos);
    const CliRun c = runCli({"schedule", "--topology", "hypercube:21", "--algorithm", "sbnt"});
    CHECK(c.status == 2);
    CHECK(c.err.find("1..20") != std::string::npos);
    const CliRun d = runCli({"compare", "--topology", "hypercube:4", "--pattern", "scatter", "--tau", "-1"});
    CHECK(d.status == 2);
    CHECK(d.err.find("tau") != std::string::npos);
}

TEST_CASE("cli compare: every graph, its cost, the lower bound and the ratio (spec §4.4, Table 6)", "[hypercube]")
{
    const CliRun r = runCli({"compare", "--topology", "hypercube:4", "--pattern", "broadcast", "--message", "8",
                             "--packet", "4", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    int seen = 0;
    for (const auto& row : doc["rows"]) {
        // The closed form is beside the counted figures (formula_*), which rank.
        if (row["algorithm"] == "nesbt" && row["ports"] == "one") {
            CHECK(row["formula_startups"] == 6);
            CHECK(row["formula_transfer"] == nlohmann::json{{"value", 24}, {"unit", "elements"}});
            CHECK(row["lower_bound"] == nlohmann::json{{"value", 4 + 11}, {"unit", "model units"}});
            CHECK(row["formula_time"]["value"].get<double>() / row["lower_bound"]["value"].get<double>() ==
                  Approx(30.0 / 15.0));
            ++seen;
        }
        if (row["algorithm"] == "sbt" && row["ports"] == "n") {
            CHECK(row["formula_time"]["value"] == 5 + 20);
            ++seen;
        }
        CHECK(row["ratio"].get<double>() >= 1.0 - 1e-12);
    }
    CHECK(seen == 2);
    CHECK(doc["rows"].size() == 13); // one: 5 graphs, send-recv: hp, tcbt; half: nesbt; n: 5 graphs
    const CliRun t = runCli({"compare", "--topology", "hypercube:5", "--pattern", "alltoall", "--ports", "n"});
    REQUIRE(t.status == 0);
    CHECK(t.out.find("sbntc") != std::string::npos);
    CHECK(t.out.find("lower bound") != std::string::npos);
}

TEST_CASE("scenario presets: SBnT on a 4-cube, nESBT broadcast on a 4-cube, SBT scatter on a 3-cube", "[hypercube]")
{
    for (const char* name : {"hypercube-sbnt-scatter-4cube.json", "hypercube-nesbt-broadcast-4cube.json",
                             "hypercube-sbt-scatter-3cube.json"}) {
        INFO(name);
        const Scenario sc = loadScenario(std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name);
        const Schedule s = buildScenario(sc);
        CHECK(validate(s).ok());
        CHECK(s.topology().isHypercube());
    }
}

TEST_CASE("cli: schedule --json of every hypercube graph reads back and passes `validate`", "[hypercube]")
{
    const std::string file = (std::filesystem::temp_directory_path() / "topocast-hypercube-roundtrip.json").string();
    for (const char* algo : {"hp", "sbt", "tcbt", "nrsbt", "nesbt", "sbnt", "sbntc"}) {
        INFO(algo);
        const CliRun w = runCli({"schedule", "--topology", "hypercube:3", "--algorithm", algo, "--pattern", "alltoall",
                                 "--message", "2", "--packet", "2", "--ports", "n", "--out", file});
        REQUIRE(w.status == 0);
        const CliRun v = runCli({"validate", file});
        CHECK(v.status == 0);
        CHECK(v.out.find("valid") != std::string::npos);
    }
    std::filesystem::remove(file);
}

TEST_CASE("algorithms lists what schedule builds: every pattern with the defaults, or the port models it needs",
          "[hypercube][cli]")
{
    const std::vector<std::string> networks{"hypercube:3", "mesh:4x4",  "torus:4x4",
                                            "mesh:8x8x8",  "torus:5x5", "mesh:4x4x4"};
    std::map<std::string, std::string> where; // algorithm → a network it applies to
    for (const std::string& net : networks) {
        const auto doc = nlohmann::json::parse(runCli({"algorithms", "-t", net, "--json"}).out);
        for (const auto& a : doc["algorithms"])
            if (a["applies"].get<bool>() && !where.count(a["name"].get<std::string>()))
                where[a["name"].get<std::string>()] = net;
    }
    const auto doc = nlohmann::json::parse(runCli({"algorithms", "--json"}).out);
    int restricted = 0;
    for (const auto& a : doc["algorithms"]) {
        const std::string name = a["name"];
        REQUIRE(where.count(name) == 1);
        for (const auto& pattern : a["patterns"]) {
            INFO(name << " " << pattern.get<std::string>() << " on " << where[name]);
            std::vector<std::string> base{"schedule", "-t", where[name], "-a", name, "--pattern", pattern};
            if (name == "divisible-load") // its layers fit around a source inside the mesh, not at a corner
                base.insert(base.end(), {"--source", "3,3,3"});
            bool needsPorts = false;
            if (a.contains("pattern_ports") && a["pattern_ports"].contains(pattern)) {
                const auto ports = a["pattern_ports"][pattern].get<std::vector<std::string>>();
                needsPorts = std::find(ports.begin(), ports.end(), "one") == ports.end();
            }
            CHECK((runCli(base).status == 0) == !needsPorts);
            if (needsPorts) {
                ++restricted;
                auto withPorts = base;
                withPorts.insert(withPorts.end(), {"--ports", a["pattern_ports"][pattern][0].get<std::string>()});
                CHECK(runCli(withPorts).status == 0);
            }
        }
    }
    CHECK(restricted == 2); // tcbt's all-gather and all-to-all: n-port only
    CHECK_THAT(runCli({"algorithms"}).out, Catch::Contains("allgather (--ports n only)|alltoall (--ports n only)"));
}
