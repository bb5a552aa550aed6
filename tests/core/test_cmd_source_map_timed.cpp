// `source-map --metric time --model loggp|simgrid`, run in-process: every source's value is that
// source's schedule timed by the engine or simulated (checked source by source against core), the
// simulated never below the engine's, the document names the model and the network, and the
// refusals come before anything runs.
#include "cli_runner.h"
#include "commands.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/simulate.h"
#include "topocast/analysis/time_engine.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace topocast;
using Catch::Contains;
using topocast::testing::CliRun;
using topocast::testing::runCli;

namespace {

nlohmann::json timedSourceMapDoc(const std::string& model)
{
    const CliRun r = runCli({"source-map", "-t", "torus:5x5", "-a", "binomial", "--metric", "time", "--model", model,
                             "--message", "1MiB", "--json"});
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out);
}

} // namespace

TEST_CASE("source-map --model: each source's time is its schedule timed or simulated on the network", "[simulate][cli]")
{
    REQUIRE(simulationAvailable());
    const nlohmann::json loggp = timedSourceMapDoc("loggp");
    const nlohmann::json simgrid = timedSourceMapDoc("simgrid");
    for (const auto* doc : {&loggp, &simgrid}) {
        CHECK((*doc)["metric"] == "time");
        CHECK((*doc)["unit"] == "µs");
        CHECK((*doc)["network"]["message"] == "1MiB");
        CHECK((*doc)["network"]["preset"] == "cluster");
        REQUIRE((*doc)["values"].size() == 25);
    }
    CHECK(loggp["model"] == "loggp");
    CHECK(simgrid["model"] == "simgrid");
    CHECK_THAT(simgrid["time_model"].get<std::string>(), Contains("SimGrid 3.32"));
    CHECK(loggp.dump() != simgrid.dump()); // two requests, two documents

    NetworkModel net;
    net.message = std::uint64_t{1} << 20;
    const Topology topo = Topology::parse("torus:5x5");
    for (const std::uint32_t v : {0u, 7u, 13u, 24u}) {
        const Schedule s = buildSchedule("binomial", topo, NodeId{v}, {});
        INFO("source " << topo.nodeName(NodeId{v}));
        CHECK(loggp["values"][v].get<double>() == Approx(timeSchedule(s, net).total * 1e-3).epsilon(1e-12));
        CHECK(simgrid["values"][v].get<double>() == Approx(simulateSchedule(s, net).time.total * 1e-3).epsilon(1e-12));
    }
    // Contention only adds: every source simulates at least its engine time, the binomial tree's
    // shared links on this torus cost about 29 % at the best source.
    for (std::size_t v = 0; v < 25; ++v)
        CHECK(simgrid["values"][v].get<double>() >= loggp["values"][v].get<double>() * (1 - 1e-12));
    CHECK(loggp["min"].get<double>() == Approx(425.2).margin(0.1));
    CHECK(simgrid["min"].get<double>() == Approx(549.0).margin(0.1));
}

TEST_CASE("source-map --model is refused with the reason before anything runs", "[simulate][cli]")
{
    const CliRun tcd =
        runCli({"source-map", "-t", "torus:5x5", "-a", "binomial", "--metric", "tcd", "--model", "simgrid"});
    CHECK(tcd.status == 2);
    CHECK_THAT(tcd.err, Contains("--model simgrid times schedules: it goes with --metric time, not tcd"));
    const CliRun big = runCli({"source-map", "-t", "torus:32x32x32", "-a", "binomial", "--metric", "time", "--model",
                               "simgrid", "--max-seconds", "10"});
    CHECK(big.status == 2);
    CHECK_THAT(big.err,
               Contains("simulating binomial from each of the 32768 sources of the 32×32×32 torus would take about"));
    CHECK_THAT(big.err, Contains("the limit is --max-seconds 10"));
    const CliRun model =
        runCli({"source-map", "-t", "torus:5x5", "-a", "binomial", "--metric", "time", "--model", "ns3"});
    CHECK(model.status != 0);
    CHECK_THAT(model.err, Contains("--model"));
}
