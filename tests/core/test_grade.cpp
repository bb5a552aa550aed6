// Grading a guess of one step's receivers (issue #16: Predict mode and `topocast-cli grade`).
#include "topocast/algorithms/registry.h"
#include "topocast/error.h"
#include "topocast/grade.h"

#include "cli_runner.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>

using namespace topocast;
using topocast::testing::runCli;

TEST_CASE("grade: the step's receivers are all right, for every algorithm and pattern on small networks", "[grade]")
{
    const std::vector<Topology> topologies = {Topology::mesh({4, 4}), Topology::mesh({2, 2, 2}), Topology::torus({5, 5}),
                                              Topology::torus({3, 3, 3}), Topology::hypercube(3), Topology::hypercube(4)};
    int graded = 0;
    for (const AlgorithmInfo& a : algorithms())
        for (const Topology& topo : topologies) {
            if (a.whyNot(topo))
                continue;
            const std::vector<std::string> patterns = a.patterns.empty() ? std::vector<std::string>{""} : a.patterns;
            for (const std::string& pattern : patterns) {
                Params params;
                if (!pattern.empty())
                    params = Params{{"pattern", pattern}};
                for (NodeId source : {NodeId{0}, topo.nodeCount() - 1}) {
                    Schedule s;
                    try {
                        s = buildSchedule(a.name, topo, source, params);
                    } catch (const Error&) {
                        continue;  // a pattern this topology or port model does not offer
                    }
                    for (std::uint32_t k = 1; k <= s.stepCount(); ++k) {
                        INFO(a.name << " " << pattern << " on " << topo.displayName() << " from " << source << ", step " << k);
                        // Receivers by a plain scan of the step's transfers.
                        std::set<NodeId> expected;
                        for (const Transfer& t : s.transfers())
                            if (t.step == k)
                                expected.insert(t.to);
                        const auto receivers = stepReceivers(s, k);
                        REQUIRE(std::vector<NodeId>(expected.begin(), expected.end()) == receivers);
                        const StepGrade all = gradeStep(s, k, receivers);
                        CHECK(all.right == receivers);
                        CHECK(all.missed.empty());
                        CHECK(all.wrong.empty());
                        const StepGrade none = gradeStep(s, k, {});
                        CHECK(none.right.empty());
                        CHECK(none.missed == receivers);
                        std::vector<NodeId> everyone(topo.nodeCount());
                        for (NodeId v = 0; v < topo.nodeCount(); ++v)
                            everyone[v] = v;
                        const StepGrade every = gradeStep(s, k, everyone);
                        CHECK(every.right == receivers);
                        CHECK(every.wrong.size() == topo.nodeCount() - receivers.size());
                        ++graded;
                    }
                }
            }
        }
    CHECK(graded > 200);
}

TEST_CASE("grade: binomial on 4x4, step 2 — (0,1) right, (0,3) missed, (1,1) wrong", "[grade]")
{
    // Binomial from (0,0): step 2 sends 0 → 4 = (0,1) and 8 → 12 = (0,3).
    const Topology topo = Topology::mesh({4, 4});
    const Schedule s = buildSchedule("binomial", topo, 0, {});
    const StepGrade g = gradeStep(s, 2, parseNodeList(topo, "0,1; 1,1"));
    CHECK(g.right == std::vector<NodeId>{4});
    CHECK(g.missed == std::vector<NodeId>{12});
    CHECK(g.wrong == std::vector<NodeId>{5});

    const auto r = runCli({"grade", "--topology", "mesh:4x4", "--algorithm", "binomial", "--source", "0,0", "--step", "2",
                           "--nodes", "0,1;1,1", "--json"});
    REQUIRE(r.status == 0);
    CHECK(nlohmann::json::parse(r.out) ==
          nlohmann::json::parse(R"({"step": 2, "right": [[0, 1]], "missed": [[0, 3]], "wrong": [[1, 1]]})"));
    const auto text = runCli({"grade", "--topology", "mesh:4x4", "--algorithm", "binomial", "--source", "0,0", "--step",
                              "2", "--nodes", "0,1;1,1"});
    REQUIRE(text.status == 0);
    CHECK(text.out == "step 2 of 4: 1 of 2 receivers found, 1 wrong\n  right:  (0,1)\n  missed: (0,3)\n  wrong:  (1,1)\n");
}

TEST_CASE("grade: hypercube nodes are addresses, in and out", "[grade]")
{
    // Recursive doubling on the 3-cube from 0: step 1 sends 0 → 4 (the highest dimension first)
    // or 0 → 1; either way one receiver, which the JSON names by its address.
    const Schedule s = buildSchedule("recursive-doubling", Topology::hypercube(3), 0, {});
    const auto receivers = stepReceivers(s, 1);
    REQUIRE(receivers.size() == 1);
    const auto r = runCli({"grade", "--topology", "hypercube:3", "--algorithm", "recursive-doubling", "--source", "0",
                           "--step", "1", "--nodes", "0b" + std::string(receivers[0] & 4 ? "1" : "0") +
                                                      (receivers[0] & 2 ? "1" : "0") + (receivers[0] & 1 ? "1" : "0"),
                           "--json"});
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["right"] == nlohmann::json::array({receivers[0]}));
    CHECK(j["missed"].empty());
    CHECK(j["wrong"].empty());
}

TEST_CASE("grade: bad input is refused with what is allowed", "[grade]")
{
    const std::vector<std::string> base = {"grade", "--topology", "mesh:4x4", "--algorithm", "binomial", "--source", "0,0"};
    auto run = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return runCli(args);
    };
    const auto step0 = run({"--step", "0", "--nodes", "0,1"});
    CHECK(step0.status == 2);
    CHECK_THAT(step0.err, Catch::Contains("step 0 is not a step of this schedule; it has steps 1..4"));
    const auto past = run({"--step", "5", "--nodes", "0,1"});
    CHECK(past.status == 2);
    CHECK_THAT(past.err, Catch::Contains("step 5 is not a step of this schedule; it has steps 1..4"));
    const auto outside = run({"--step", "1", "--nodes", "0,1;9,9"});
    CHECK(outside.status == 2);
    CHECK_THAT(outside.err, Catch::Contains("node list item '9,9'"));
    const auto twice = run({"--step", "1", "--nodes", "0,2;0,2"});
    CHECK(twice.status == 2);
    CHECK_THAT(twice.err, Catch::Contains("node (0,2) is marked twice"));
    const auto empty = run({"--step", "1", "--nodes", "0,2;;1,1"});
    CHECK(empty.status == 2);
    CHECK_THAT(empty.err, Catch::Contains("has an empty item"));
    // No marks at all is a guess too: everything missed.
    const auto none = run({"--step", "1", "--nodes", "", "--json"});
    REQUIRE(none.status == 0);
    CHECK(nlohmann::json::parse(none.out)["missed"] == nlohmann::json::parse("[[0, 2]]"));
}
