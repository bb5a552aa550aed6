// Comparisons of like with like, every file topocast writes reads back, timing honesty.
#include "cli_runner.h"
#include "temp_dir.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/cost_model.h"
#include "topocast/model/error.h"
#include "topocast/model/topology.h"
#include "topocast/text/numbers.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>

using namespace topocast;
using namespace topocast::testing;
using Catch::Contains;

TEST_CASE("compare ranks each port model's schedules by their time on the network model, the counted time and the "
          "closed form beside it",
          "[hypercube][cli][compare]")
{
    const CliRun r = runCli({"compare", "-t", "hypercube:5", "--pattern", "scatter", "--message", "10", "--packet", "3",
                             "--tau", "10", "--tc", "1", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["format"] == "topocast-compare");
    CHECK(doc["pattern"] == "scatter");
    CHECK(doc["ranked_by"].get<std::string>().starts_with("loggp"));
    const auto& rows = doc["rows"];
    REQUIRE(rows.size() >= 3);
    // Per port model: LogGP times never go down, equal ones share a rank; counted_rank is the
    // rank by the counted time among the same port model's rows.
    std::map<std::string, std::vector<nlohmann::json>> byPorts;
    bool hpSeen = false;
    for (const auto& row : rows) {
        INFO(row.dump());
        const std::string ports = row["ports"];
        CHECK(row["time_from"] == "counted schedule");
        auto& before = byPorts[ports];
        if (before.empty()) {
            CHECK(row["rank"] == 1);
        } else {
            const auto& last = before.back();
            const double t = row["loggp_time"]["value"], previous = last["loggp_time"]["value"];
            CHECK(t >= previous);
            CHECK(row["rank"] == (t == previous ? last["rank"].get<std::size_t>() : before.size() + 1));
        }
        before.push_back(row);
        if (row["algorithm"] == "hp" && ports == "send-recv") {
            hpSeen = true;
            CHECK(row["time"]["value"].get<double>() == Approx(1550));
            CHECK(row["formula_time"]["value"].get<double>() == Approx(1350));
            CHECK(row["formula_differs"] == true);
        }
        if (row["algorithm"] == "sbt" && ports == "one") {
            CHECK(row["time"]["value"].get<double>() == Approx(1550));
            CHECK(row["formula_time"]["value"].get<double>() == Approx(1370));
        }
        // Every row names an algorithm and port model `schedule` builds.
        const CliRun s = runCli({"schedule", "-t", "hypercube:5", "-a", row["algorithm"].get<std::string>(),
                                 "--pattern", "scatter", "--ports", ports, "--message", "10", "--packet", "3"});
        CHECK(s.status == 0);
    }
    CHECK(hpSeen);
    for (const auto& [ports, list] : byPorts)
        for (const auto& row : list) {
            std::size_t countedRank = 1;
            for (const auto& other : list)
                if (other["time"]["value"].get<double>() < row["time"]["value"].get<double>())
                    ++countedRank;
            CHECK(row["counted_rank"] == countedRank);
        }
    // One-port at 80 B (10 elements of 8 B): SBnT's time on the network is the least (7.05 us),
    // while nRSBT's counted 1360 is the least in the paper's model, where every start-up costs
    // tau = 10 in lock-step; without barriers, SBnT's subtrees overlap their start-ups.
    const auto& one = byPorts["one"];
    CHECK(one.front()["algorithm"] == "sbnt");
    CHECK(one.front()["loggp_time"]["value"].get<double>() == Approx(7053.92));
    const auto nrsbt =
        std::find_if(one.begin(), one.end(), [](const auto& row) { return row["algorithm"] == "nrsbt"; });
    REQUIRE(nrsbt != one.end());
    CHECK((*nrsbt)["counted_rank"] == 1);
    CHECK((*nrsbt)["time"]["value"].get<double>() == Approx(1360));
    for (const auto& w : doc["winners"]) {
        INFO(w.dump());
        CHECK(w["algorithm"] == byPorts[w["ports"].get<std::string>()].front()["algorithm"]);
        CHECK(w["loggp_time"] == byPorts[w["ports"].get<std::string>()].front()["loggp_time"]);
    }
    CHECK(doc["winners"].size() == byPorts.size());
    // The streaming bound has no schedule: listed apart, its algorithm and variant separate.
    REQUIRE(doc["bounds_without_schedule"].size() == 1);
    CHECK(doc["bounds_without_schedule"][0]["algorithm"] == "sbntc");
    CHECK(doc["bounds_without_schedule"][0]["variant"] == "streaming");

    const CliRun text = runCli({"compare", "-t", "hypercube:5", "--pattern", "scatter", "--message", "10", "--packet",
                                "3", "--tau", "10", "--tc", "1"});
    REQUIRE(text.status == 0);
    CHECK_THAT(
        text.out,
        Contains(
            "--ports one (one-port-exchange): least LogGP time 7.05392 us by sbnt; least counted time 1360 by nrsbt"));
    CHECK_THAT(text.out, Contains("counted rank 4"));
    CHECK_THAT(text.out, Contains("≠"));
    // A port model no graph serves for the pattern: the error names the ones that do.
    const CliRun half = runCli({"compare", "-t", "hypercube:5", "--pattern", "scatter", "--ports", "half"});
    CHECK(half.status == 2);
    CHECK_THAT(half.err, Contains("scatter is served with --ports one, send-recv, n"));
}

TEST_CASE("compare-torus: each table holds one pattern, scatters get their own", "[cli][compare]")
{
    const CliRun r = runCli({"compare-torus", "-t", "torus:7x7x7", "-s", "1,2,3", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["format"] == "topocast-compare-torus");
    CHECK(doc["source"] == nlohmann::json::array({1, 2, 3}));
    for (const auto& row : doc["algorithms"])
        if (!row.contains("skipped")) {
            INFO(row["label"]);
            CHECK(row["pattern"] == "broadcast");
            CHECK(row["nodes_served"] == 343);
            CHECK(row["algorithm"] != "divisible-load");
        }
    bool divisible = false;
    for (const auto& table : doc["other_patterns"])
        for (const auto& row : table["algorithms"]) {
            CHECK(row["pattern"] == table["pattern"]);
            if (row["algorithm"] == "divisible-load") {
                divisible = true;
                CHECK(table["pattern"] == "scatter");
                CHECK(row["nodes_served"] == 64);
            }
        }
    CHECK(divisible);

    const CliRun h = runCli({"compare-torus", "-t", "hypercube:4", "--json"});
    REQUIRE(h.status == 0);
    const auto hdoc = nlohmann::json::parse(h.out);
    std::set<std::string> broadcast, scatter;
    for (const auto& row : hdoc["algorithms"])
        if (!row.contains("skipped")) {
            CHECK(row["pattern"] == "broadcast");
            broadcast.insert(row["algorithm"].get<std::string>());
        }
    for (const auto& table : hdoc["other_patterns"])
        for (const auto& row : table["algorithms"])
            if (table["pattern"] == "scatter")
                scatter.insert(row["algorithm"].get<std::string>());
    CHECK(broadcast.count("sbnt") == 0);
    CHECK(scatter == std::set<std::string>{"sbnt", "sbntc"});

    const CliRun text = runCli({"compare-torus", "-t", "torus:7x7x7", "-s", "1,2,3"});
    REQUIRE(text.status == 0);
    CHECK_THAT(text.out, Contains("scatter (not a broadcast, so in a table of its own)"));
}

TEST_CASE("every schedule topocast writes validates, as JSON and as exported CSV", "[cli][validate][csv]")
{
    const TempDir dir;
    const std::vector<std::string> networks{"mesh:4x4",  "mesh:4x4x4",  "torus:5x5",
                                            "torus:4x4", "torus:7x7x7", "hypercube:3"};
    std::map<std::string, int> roundTrips;
    for (const AlgorithmInfo& info : algorithms()) {
        for (const std::string& net : networks) {
            const Topology topo = Topology::parse(net);
            if (info.whyNot(topo))
                continue;
            try {
                (void)buildSchedule(info.name, topo, NodeId{0}, Params{});
            } catch (const Error&) {
                continue; // e.g. divisible-load's layers do not fit this network
            }
            INFO(info.name << " on " << net);
            const std::string stem = (dir.path / (info.name + "-" + std::to_string(topo.nodeCount()))).string();
            const std::string json = stem + ".json", csv = stem + ".csv";
            REQUIRE(runCli({"schedule", "-t", net, "-a", info.name, "--out", json}).status == 0);
            const CliRun vj = runCli({"validate", json});
            CHECK(vj.status == 0);
            CHECK_THAT(vj.out, Contains("valid"));
            REQUIRE(runCli({"export", "-t", net, "-a", info.name, "--format", "csv", "--out", csv}).status == 0);
            const CliRun vc = runCli({"validate", csv, "--json"});
            CHECK(vc.status == 0);
            const auto a = nlohmann::json::parse(runCli({"validate", json, "--json"}).out);
            const auto b = nlohmann::json::parse(vc.out);
            // One structure for both inputs, and the same verdict and figures.
            std::set<std::string> keysA, keysB;
            for (const auto& [k, v] : a.items())
                keysA.insert(k);
            for (const auto& [k, v] : b.items())
                keysB.insert(k);
            CHECK(keysA == keysB);
            CHECK(a["valid"] == true);
            CHECK(b["valid"] == true);
            CHECK(a["steps"] == b["steps"]);
            CHECK(a["tcd"] == b["tcd"]);
            CHECK(a["algorithm"] == b["algorithm"]);
            ++roundTrips[info.name];
        }
    }
    for (const AlgorithmInfo& info : algorithms()) {
        INFO(info.name);
        CHECK(roundTrips[info.name] >= 1);
    }
}

TEST_CASE("timing honesty: the fit says when terms cannot be separated, units, global options anywhere",
          "[cost][cli][source-map]")
{
    // One message size: t_b and t_s are confounded; two sizes and hop counts off one line: not.
    const std::vector<CostSample> oneSize{{1, 4096, 1e-5}, {2, 4096, 2e-5}};
    const auto w = confoundedConstants(oneSize);
    REQUIRE(w.size() == 1);
    CHECK_THAT(w[0], Contains("t_b cannot be told from t_s"));
    CHECK(confoundedConstants(std::vector<CostSample>{{1, 100, 1}, {2, 300, 2}, {1, 500, 3}}).empty());
    const std::string root = TOPOCAST_SOURCE_DIR;
    const CliRun m = runCli({"measured", root + "/resources/measured/cang-wu-4x4.measured.json", "--schedule",
                             root + "/resources/measured/cang-wu-4x4.schedule.json"});
    REQUIRE(m.status == 0);
    CHECK_THAT(m.out, Contains("warning: t_b cannot be told from t_s: every sample has 4096 bytes"));

    // --memory-limit before or after the subcommand.
    CHECK(runCli({"--memory-limit", "64", "algorithms"}).status == 0);
    CHECK(runCli({"algorithms", "--memory-limit", "64"}).status == 0);

    // source-map --metric time: text and JSON print the same number, with its unit.
    const auto doc = nlohmann::json::parse(
        runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "time", "--json"}).out);
    CHECK(doc["format"] == "topocast-landscape");
    CHECK(doc["topology"] == "mesh:4x4");
    CHECK(doc["algorithm"] == "binomial");
    CHECK(doc["unit"] == "µs");
    const CliRun text = runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "time"});
    std::ostringstream min;
    min << "min " << formatSignificant(doc["min"].get<double>(), 4) << ",";
    CHECK_THAT(text.out, Contains(min.str()) && Contains(" µs\n"));
}
