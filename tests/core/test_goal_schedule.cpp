// A GOAL program as a schedule (analysis/goal_schedule.h): topocast's schedules written as GOAL
// (export --format goal) and read back are schedules that validate and take the time the
// original took, op by op where the programs are the same; hand-written programs keep their
// dependencies as steps and tokens, and what a schedule cannot hold is said.
#include "cli_runner.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/goal_schedule.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/goal.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace topocast;

namespace {

std::vector<NodeId> goalIdentityPlacement(std::uint32_t ranks)
{
    std::vector<NodeId> out;
    for (std::uint32_t r = 0; r < ranks; ++r)
        out.push_back(NodeId{r});
    return out;
}

/// The schedule written as GOAL at the network's message size and read back.
GoalSchedule goalRoundTrip(const Schedule& s, const NetworkModel& net)
{
    std::ostringstream text;
    writeGoal(text, scheduleProgram(s, net));
    const OpProgram program = parseGoal(text.str(), "exported.goal");
    REQUIRE(checkGoal(program, "exported.goal").empty());
    return scheduleFromGoal(program, s.topology(), goalIdentityPlacement(program.ranks), "exported.goal");
}

GoalSchedule goalFromText(const std::string& text, const std::string& topology)
{
    const OpProgram program = parseGoal(text, "t.goal");
    return scheduleFromGoal(program, Topology::parse(topology), goalIdentityPlacement(program.ranks), "t.goal");
}

} // namespace

TEST_CASE("A schedule exported as GOAL and imported takes the time it took", "[goal][import]")
{
    struct Case {
        std::string algorithm, topology, pattern;
    };
    const std::vector<Case> cases{
        {"ring", "torus:4x4", "allreduce"},         {"bucket", "torus:4x4", "allreduce"},
        {"rabenseifner", "torus:4x4", "allreduce"}, {"binomial", "torus:4x4", "broadcast"},
        {"binomial", "mesh:3x5", "reduce"},         {"sbt", "hypercube:4", "broadcast"},
        {"nrsbt", "hypercube:4", "broadcast"},      {"sbnt", "hypercube:4", "scatter"},
    };
    for (const Case& c : cases)
        for (const char* preset : {"cluster", "loggopsim", "cluster all-port"})
            for (const char* size : {"64B", "1MiB"}) {
                INFO(c.algorithm << " " << c.pattern << " on " << c.topology << ", " << preset << ", " << size);
                const bool allPort = std::string(preset) == "cluster all-port";
                Schedule s =
                    buildSchedule(c.algorithm, Topology::parse(c.topology), NodeId{0}, {{"pattern", c.pattern}});
                s.finalize();
                NetworkModel net = networkPreset(allPort ? "cluster" : preset);
                if (allPort)
                    net.ports = NetworkPorts::All; // (GOAL's one nic: the receiver's port comes from the route)
                net.message = parseBytes(size, "message");
                const GoalSchedule g = goalRoundTrip(s, net);
                CHECK(g.notes.empty());
                const Schedule& back = g.schedule;
                CHECK(back.pattern() == Pattern::PointToPoint);
                CHECK(back.size() == s.size());
                CHECK(back.sizeUnit == "bytes");
                const Validation v = validate(back, promisedValidateOptions(back));
                INFO((v.violations.empty() ? std::string() : v.violations.front()));
                CHECK(v.violations.empty());
                // The same time as the original schedule, every rank's finish included.
                const TimeResult before = timeSchedule(s, net, {.fold = false});
                const TimeResult after = timeSchedule(back, net, {.fold = false});
                CHECK(after.total == before.total);
                CHECK(after.rankFinish == before.rankFinish);
                CHECK(back.stepCount() >= 1);
            }
}

TEST_CASE("An imported program keeps its dependencies as steps and tokens", "[goal][import]")
{
    // A binomial broadcast as LogGOPSim's generator writes one: each forward waits for the
    // receive; rank 0's second send waits for its first to complete.
    const std::string text = "num_ranks 4\n"
                             "rank 0 {\nl1: send 8b to 1 tag 0\nl2: send 8b to 2 tag 0\nl2 requires l1\n}\n"
                             "rank 1 {\nl1: recv 8b from 0 tag 0\nl2: send 8b to 3 tag 0\nl2 requires l1\n}\n"
                             "rank 2 {\nl1: recv 8b from 0 tag 0\n}\n"
                             "rank 3 {\nl1: recv 8b from 1 tag 0\n}\n";
    const GoalSchedule g = goalFromText(text, "mesh:2x2");
    const Schedule& s = g.schedule;
    REQUIRE(s.size() == 3);
    // 0→1 and 0→2 in step 1 (rank 0's order kept), 1→3 in step 2 after its receive.
    CHECK(s.transfers()[0].from == NodeId{0});
    CHECK(s.transfers()[0].to == NodeId{1});
    CHECK(s.transfers()[1].to == NodeId{2});
    CHECK(s.transfers()[0].step.value() == 1);
    CHECK(s.transfers()[1].step.value() == 1);
    CHECK(s.transfers()[2].step.value() == 2);
    CHECK(s.transfers()[2].size == 8.0);
    // The forward carries its own token and the token of the receive it waited for.
    CHECK(s.payload(s.transfers()[2].payload).size() == 2);
    CHECK(s.maxSendsPerStep == 2);
    CHECK(validate(s, promisedValidateOptions(s)).violations.empty());
    // "l2 requires l1" on rank 0 waits for a send to complete: said, not hidden.
    REQUIRE(g.notes.size() == 1);
    CHECK_THAT(g.notes[0], Catch::Contains("1 send waits for a send to complete"));
}

TEST_CASE("What a schedule cannot hold of a program is said", "[goal][import]")
{
    const std::string ok =
        "num_ranks 2\n"
        "rank 0 {\nl1: calc 500\nl2: send 100b to 1 tag 3\nl2 requires l1\nl3: recv 1b from 1 tag 4\n}\n"
        "rank 1 {\nl1: calc 40\nl2: recv 100b from -1 tag 3\nl2 requires l1\n"
        "l3: send 1b to 0 tag 4\nl3 requires l2\n}\n";
    const GoalSchedule g = goalFromText(ok, "mesh:1x2");
    REQUIRE(g.schedule.size() == 2);
    CHECK(g.schedule.transfers()[1].step.value() == 2); // the reply waits for the receive
    CHECK(g.wildcardReceives == 1);
    std::string all;
    for (const std::string& n : g.notes)
        all += n + "\n";
    CHECK_THAT(all, Catch::Contains("2 calcs (540 ns of computation in all)"));
    CHECK_THAT(all, Catch::Contains("1 receive waits for other ops before being posted"));
    CHECK_THAT(all, Catch::Contains("1 receive with a wildcard source or tag"));
    // The ping-pong's reply carries back the token of the message it answers: not a finding.
    CHECK(validate(g.schedule, promisedValidateOptions(g.schedule)).violations.empty());
}

TEST_CASE("A program that cannot be a schedule is refused with the reason", "[goal][import]")
{
    const std::string self =
        "num_ranks 2\nrank 0 {\nl1: send 8b to 0 tag 0\nl2: recv 8b from 0 tag 0\n}\nrank 1 {\n}\n";
    CHECK_THROWS_WITH(goalFromText(self, "mesh:1x2"), Catch::Contains("t.goal:3: rank 0 sends to itself"));
    const std::string unmatched = "num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 0\n}\nrank 1 {\n}\n";
    CHECK_THROWS_WITH(goalFromText(unmatched, "mesh:1x2"), Catch::Contains("does not run to its end"));
    const OpProgram p = parseGoal(
        "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n", "t.goal");
    const Topology topo = Topology::parse("mesh:2x2");
    const std::vector<NodeId> same{NodeId{3}, NodeId{3}};
    CHECK_THROWS_WITH(scheduleFromGoal(p, topo, same, "t.goal"), Catch::Contains("two ranks are placed on"));
    const std::vector<NodeId> outside{NodeId{0}, NodeId{9}};
    CHECK_THROWS_WITH(scheduleFromGoal(p, topo, outside, "t.goal"), Catch::Contains("outside the"));
    const std::vector<NodeId> short_{NodeId{0}};
    CHECK_THROWS_WITH(scheduleFromGoal(p, topo, short_, "t.goal"), Catch::Contains("2 ranks; the placement gives 1"));
}

TEST_CASE("import FILE.goal writes a schedule that validates and times as the file", "[goal][import][cli]")
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "topocast-import-goal";
    fs::create_directories(dir);
    const auto path = [&](const std::string& name) { return (dir / name).string(); };
    // ring, bucket, Rabenseifner, binomial and two hypercube graphs: written as GOAL, imported,
    // timed. The schedule, the file and the imported schedule take the same time to the ns.
    // The last column: LogGOPSim's maximum finishing time (its own build: txt2bin, then LogGOPSim
    // -f, default parameters) on the imported schedule written as GOAL again (`export back.json
    // --format goal`), in ns.
    for (const auto& [algorithm, topology, pattern, loggopsim] :
         std::vector<std::tuple<std::string, std::string, std::string, double>>{
             {"ring", "torus:4x4", "allreduce", 11961300},
             {"bucket", "torus:4x4", "allreduce", 11862408},
             {"rabenseifner", "torus:4x4", "allreduce", 11840432},
             {"binomial", "mesh:4x4", "broadcast", 25187800},
             {"sbt", "hypercube:4", "broadcast", 25187800},
             {"nesbt", "hypercube:4", "scatter", 7440698}}) {
        INFO(algorithm << " " << pattern << " on " << topology);
        REQUIRE(testing::runCli(
                    {"schedule", "-t", topology, "-a", algorithm, "--pattern", pattern, "--out", path("s.json")})
                    .status == 0);
        REQUIRE(
            testing::runCli({"export", path("s.json"), "--format", "goal", "--size", "1MiB", "--out", path("s.goal")})
                .status == 0);
        const testing::CliRun imported =
            testing::runCli({"import", path("s.goal"), "-t", topology, "--out", path("back.json")});
        REQUIRE(imported.status == 0);
        CHECK_THAT(imported.out, Catch::Contains("(the same)"));
        const auto total = [&](const std::vector<std::string>& args) {
            std::vector<std::string> all = args;
            for (const char* a : {"--network", "loggopsim", "--json"})
                all.emplace_back(a);
            const testing::CliRun t = testing::runCli(all);
            REQUIRE(t.status == 0);
            return nlohmann::json::parse(t.out)["total"]["value"].get<double>();
        };
        const double original = total({"time", path("s.json"), "--message", "1MiB"});
        CHECK(total({"time", path("s.goal")}) == original);
        CHECK(total({"time", path("back.json")}) == original);
        CHECK(original == loggopsim);
        const testing::CliRun v = testing::runCli({"validate", path("back.json")});
        CHECK(v.status == 0);
        CHECK_THAT(v.out, Catch::Contains("valid"));
    }
    // Bad input: a GOAL program needs a network, and one that cannot run is refused with its line.
    CHECK_THAT(testing::runCli({"import", path("s.goal"), "--out", path("x.json")}).err, Catch::Contains("--topology"));
    std::ofstream(path("bad.goal")) << "num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 77\n}\nrank 1 {\n}\n";
    const testing::CliRun bad = testing::runCli({"import", path("bad.goal"), "-t", "mesh:2", "--out", path("x.json")});
    CHECK(bad.status != 0);
    CHECK_THAT(bad.err, Catch::Contains("bad.goal:3"));
    CHECK_FALSE(fs::exists(path("x.json")));
    const testing::CliRun checked = testing::runCli({"validate", path("bad.goal")});
    CHECK(checked.status == 1);
    CHECK_THAT(checked.out, Catch::Contains("INVALID") && Catch::Contains("bad.goal:3"));
    CHECK_THAT(testing::runCli({"import", path("s.goal"), "-t", "mesh:2x2", "--out", path("x.json")}).err,
               Catch::Contains("16 ranks; the 2×2 mesh has 4 nodes"));
    CHECK_THAT(testing::runCli({"export", path("back.json"), "--format", "msccl-xml"}).err,
               Catch::Contains("point-to-point"));
    fs::remove_all(dir);
}
