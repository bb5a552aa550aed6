// topocast-cli contracts: summary, --json keys, validate, algorithms, bad input → exit 2.
#include "commands.h"

#include "cli_runner.h"

#include "topocast/version.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

using namespace topocast;
using topocast::testing::CliRun;
using topocast::testing::runCli;
namespace fs = std::filesystem;

namespace {

/// Runs the real executable through a shell (for exit codes and stderr as a user sees them).
CliRun process(const std::string& args)
{
    const std::string errFile =
        (fs::temp_directory_path() / ("topocast-cli-err-" + std::to_string(::getpid()))).string();
    const std::string cmd = std::string(TOPOCAST_CLI_PATH) + " " + args + " 2>" + errFile;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    REQUIRE(pipe);
    std::string out;
    std::array<char, 4096> buf{};
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe))
        out.append(buf.data(), n);
    const int status = ::pclose(pipe);
    std::ifstream errIn(errFile);
    std::string err((std::istreambuf_iterator<char>(errIn)), {});
    fs::remove(errFile);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, err};
}

} // namespace

TEST_CASE("cli schedule --json has the contract's keys", "[cli]")
{
    const CliRun r =
        runCli({"schedule", "--topology", "mesh:4x4", "--algorithm", "binomial", "--source", "1,1", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    for (const char* key :
         {"topology", "algorithm", "source", "steps", "tcd", "contention", "max_link_load", "transfers"})
        CHECK(doc.contains(key));
    CHECK(doc["topology"] == "mesh:4x4");
    CHECK(doc["algorithm"] == "binomial");
    CHECK(doc["source"] == nlohmann::json::array({1, 1}));
    CHECK(doc["steps"] == 4);
    CHECK(doc["tcd"] == 36);
    CHECK(doc["contention"] == 0);
    CHECK(doc["transfers"].size() == 15);
    const auto& t0 = doc["transfers"][0];
    CHECK(t0["step"] == 1);
    CHECK(t0["from"] == nlohmann::json::array({1, 1}));
    CHECK(t0["to"] == nlohmann::json::array({1, 3}));
    CHECK(t0["hops"] == 2);

    const CliRun h = runCli({"schedule", "-t", "hypercube:3", "-a", "bfs", "-s", "5", "--json"});
    REQUIRE(h.status == 0);
    const auto hd = nlohmann::json::parse(h.out);
    CHECK(hd["source"] == 5);
    CHECK(hd["transfers"][0]["from"].is_number_integer());
}

TEST_CASE("cli schedule prints a readable summary", "[cli]")
{
    const CliRun r =
        runCli({"schedule", "--topology", "mesh:4x4", "--algorithm", "recursive-doubling", "--source", "0,0"});
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("4×4 mesh, recursive-doubling broadcast from (0,0)"));
    CHECK_THAT(r.out, Catch::Contains("steps 4   TCD 20   contention 0"));
    CHECK_THAT(r.out, Catch::Contains("step 1: 1 transfer, TCD 2"));
    CHECK_THAT(r.out, Catch::Contains("(0,0) → (2,0)  2 hops"));
}

TEST_CASE("cli validate checks files written by schedule --out", "[cli]")
{
    const fs::path dir = fs::temp_directory_path() / ("topocast-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string file = (dir / "s.json").string();
    REQUIRE(runCli({"schedule", "-t", "torus:4x4", "-a", "recursive-doubling", "-s", "2,1", "--out", file}).status ==
            0);
    CliRun v = runCli({"validate", file});
    CHECK(v.status == 0);
    CHECK_THAT(v.out, Catch::Contains("valid"));

    // Corrupt it: the first transfer happens in step 3, after its receiver already sends.
    auto doc = nlohmann::json::parse(std::ifstream(file));
    doc["transfers"][0]["step"] = 3;
    std::ofstream(file) << doc.dump();
    v = runCli({"validate", file, "--json"});
    CHECK(v.status == 1);
    const auto verdict = nlohmann::json::parse(v.out);
    CHECK(verdict["valid"] == false);
    CHECK(verdict["violation_count"].get<int>() > 0);

    std::ofstream(file) << "{\"format\": \"topocast-schedule\", \"version\": 1, \"topo";
    v = runCli({"validate", file});
    CHECK(v.status == 2);
    CHECK_THAT(v.err, Catch::Contains("malformed JSON"));
    fs::remove_all(dir);
}

TEST_CASE("cli algorithms lists each with its topologies and reasons", "[cli]")
{
    const CliRun r = runCli({"algorithms", "--topology", "mesh:6x6"});
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("binomial"));
    CHECK_THAT(r.out, Catch::Contains("on 6×6 mesh: no — recursive-doubling needs every side to be a power of two"));
    // The envelope (topology null: no --topology), then the list.
    const auto doc = nlohmann::json::parse(runCli({"algorithms", "--json"}).out);
    CHECK(doc["format"] == "topocast-algorithms");
    CHECK(doc["topology"].is_null());
    CHECK(doc["algorithms"].size() >= 3);
}

TEST_CASE("cli bad input: exit status 2 and one clear line on stderr, no output file", "[cli][bad-input]")
{
    const fs::path dir = fs::temp_directory_path() / ("topocast-cli-bad-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string out = (dir / "never.json").string();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"schedule -t mesh:8xx8 -a bfs", "not a whole number"},
        {"schedule -t mesh:0x8 -a bfs", "out of range"},
        {"schedule -t mesh:2x2x2x2x2x2x2 -a bfs", "more than 6 dimensions"},
        {"schedule -t mesh:8192x8192 -a bfs", "2^24"},
        {"schedule -t mesh:8x8 -a bfs -s 1,2,3", "has 2 coordinates; got 3"},
        {"schedule -t mesh:8x8 -a bfs -s 8,0", "outside the 8×8 mesh"},
        {"schedule -t mesh:8x8 -a quick", "unknown algorithm 'quick'; known algorithms: binomial"},
        {"schedule -t mesh:6x6 -a recursive-doubling", "needs every side to be a power of two; got 6×6 mesh"},
        {"schedule -t mesh:8x8 -a bfs --order xz", "not a permutation"},
        {"schedule -t mesh:8x8", "no algorithm given"},
        {"schedule -a bfs", "no topology given"},
        {"schedule -t mesh:8x8 -a bfs --bogus", "--bogus"},
        {"validate /nonexistent/file.json", "cannot open"},
        {"frobnicate", "frobnicate"},
    };
    for (const auto& [args, expected] : cases) {
        INFO(args);
        const bool schedule = args.rfind("schedule", 0) == 0;
        const CliRun r = process(args + (schedule ? " --out " + out : std::string()));
        CHECK(r.status == 2);
        CHECK_THAT(r.err, Catch::StartsWith("topocast-cli: ") && Catch::Contains(expected));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(out));
    }
    fs::remove_all(dir);
}

TEST_CASE("cli --help works everywhere", "[cli]")
{
    for (const char* args : {"--help", "schedule --help", "validate --help", "algorithms --help"}) {
        INFO(args);
        const CliRun r = process(args);
        CHECK(r.status == 0);
        CHECK_THAT(r.out, Catch::Contains("Usage") || Catch::Contains("OPTIONS"));
    }
}

TEST_CASE("topocast-cli --version prints the project's version", "[cli]")
{
    const CliRun r = runCli({"--version"});
    CHECK(r.status == 0);
    CHECK(r.out == std::string("topocast-cli ") + topocast::kVersion + "\n");
    CHECK(std::string(topocast::kVersion).find('.') != std::string::npos);
}
