// Grading a guess of one step's receivers (Predict mode and `topocast-cli grade`).
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/grade.h"
#include "topocast/io/figures_json.h"
#include "topocast/io/scenario_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include "cli_runner.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

using namespace topocast;
using topocast::testing::runCli;

TEST_CASE("grade: the step's receivers are all right, for every algorithm and pattern on small networks", "[grade]")
{
    const std::vector<Topology> topologies = {Topology::mesh({4, 4}),  Topology::mesh({2, 2, 2}),
                                              Topology::torus({5, 5}), Topology::torus({3, 3, 3}),
                                              Topology::hypercube(3),  Topology::hypercube(4)};
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
                for (NodeId source : {NodeId{0}, NodeId{topo.nodeCount() - 1}}) {
                    Schedule s;
                    try {
                        s = buildSchedule(a.name, topo, source, params);
                    } catch (const Error&) {
                        continue; // a pattern this topology or port model does not offer
                    }
                    for (StepNo k : steps(s)) {
                        INFO(a.name << " " << pattern << " on " << topo.displayName() << " from " << source << ", step "
                                    << k);
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
                        for (NodeId v{}; v < topo.nodeCount(); ++v)
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
    const Schedule s = buildSchedule("binomial", topo, NodeId{0}, {});
    const StepGrade g = gradeStep(s, StepNo{2}, parseNodeList(topo, "0,1; 1,1"));
    CHECK(g.right == std::vector<NodeId>{NodeId{4}});
    CHECK(g.missed == std::vector<NodeId>{NodeId{12}});
    CHECK(g.wrong == std::vector<NodeId>{NodeId{5}});

    const auto r = runCli({"grade", "--topology", "mesh:4x4", "--algorithm", "binomial", "--source", "0,0", "--step",
                           "2", "--nodes", "0,1;1,1", "--json"});
    REQUIRE(r.status == 0);
    // The envelope (what was graded: topology, algorithm, parameters, source), then the grade.
    CHECK(nlohmann::json::parse(r.out) ==
          nlohmann::json::parse(R"({"format": "topocast-grade", "version": 1, "topology": "mesh:4x4",
                                   "command_line": ["grade", "--topology", "mesh:4x4", "--algorithm", "binomial",
                                                    "--source", "0,0", "--step", "2", "--nodes", "0,1;1,1"],
                                   "algorithm": "binomial", "parameters": {}, "pattern": "broadcast", "source": [0, 0], "steps": 4,
                                   "step": 2, "right": [[0, 1]], "missed": [[0, 3]], "wrong": [[1, 1]]})"));
    const auto text = runCli({"grade", "--topology", "mesh:4x4", "--algorithm", "binomial", "--source", "0,0", "--step",
                              "2", "--nodes", "0,1;1,1"});
    REQUIRE(text.status == 0);
    CHECK(text.out ==
          "step 2 of 4: 1 of 2 receivers found, 1 wrong\n  right:  (0,1)\n  missed: (0,3)\n  wrong:  (1,1)\n");
}

TEST_CASE("grade: hypercube nodes are addresses, in and out", "[grade]")
{
    // Recursive doubling on the 3-cube from 0: step 1 sends 0 → 4 (the highest dimension first)
    // or 0 → 1; either way one receiver, which the JSON names by its address.
    const Schedule s = buildSchedule("recursive-doubling", Topology::hypercube(3), NodeId{0}, {});
    const auto receivers = stepReceivers(s, StepNo{1});
    REQUIRE(receivers.size() == 1);
    const auto r = runCli({"grade", "--topology", "hypercube:3", "--algorithm", "recursive-doubling", "--source", "0",
                           "--step", "1", "--nodes",
                           "0b" + std::string(receivers[0] & 4 ? "1" : "0") + (receivers[0] & 2 ? "1" : "0") +
                               (receivers[0] & 1 ? "1" : "0"),
                           "--json"});
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["right"] == nlohmann::json::array({receivers[0]}));
    CHECK(j["missed"].empty());
    CHECK(j["wrong"].empty());
}

TEST_CASE("grade: bad input is refused with what is allowed", "[grade]")
{
    const std::vector<std::string> base = {"grade",    "--topology", "mesh:4x4", "--algorithm",
                                           "binomial", "--source",   "0,0"};
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

TEST_CASE("grade: the narration says why — sender, eye or source, and hops", "[grade]")
{
    // Binomial on 4×4 from (0,0), ranks row-major: step 2 sends 0 → 4 = (0,1) and 8 → 12 =
    // (0,3); (1,1) = 5 receives from 4 in step 4 (the last, the odd ranks).
    const Topology topo = Topology::mesh({4, 4});
    const Schedule s = buildSchedule("binomial", topo, NodeId{0}, {});
    const StepGrade g = gradeStep(s, StepNo{2}, parseNodeList(topo, "0,1; 1,1"));
    CHECK(explainGrade(s, g) ==
          "Step 2: 1 right, 1 missed, 1 wrong. Missed: (0,3) receives from (0,2) over 1 hop. Right: (0,1) receives "
          "from the source (0,0) over 1 hop. Wrong: (1,1) receives nothing in step 2; it receives in step 4.");
    CHECK(explainGrade(s, gradeStep(s, StepNo{2}, stepReceivers(s, StepNo{2}))) ==
          "Step 2: all 2 right. Right: (0,1) receives from the source (0,0) over 1 hop; (0,3) receives from (0,2) over "
          "1 hop.");
    CHECK(explainNonReceiver(s, StepNo{4}, NodeId{4}) == "(0,1) receives nothing in step 4; it received in step 2");
    CHECK(explainNonReceiver(s, StepNo{1}, NodeId{0}) == "(0,0) is the source; it receives nothing");
    CHECK_THROWS_WITH(explainReceiver(s, StepNo{2}, NodeId{5}), "node (1,1) receives nothing in step 2");
    CHECK_THROWS_WITH(explainNonReceiver(s, StepNo{2}, NodeId{4}), "node (0,1) does receive in step 2");
    CHECK_THROWS_WITH(explainReceiver(s, StepNo{9}, NodeId{4}), Catch::Contains("it has steps 1..4"));

    // More than maxClauses nodes in a group: the rest are counted.
    const StepGrade none = gradeStep(s, StepNo{4}, {});
    REQUIRE(none.missed.size() == 8); // step 4 informs the 8 odd ranks
    CHECK_THAT(explainGrade(s, none, 2), Catch::EndsWith("; … and 6 more."));
    CHECK_THAT(explainGrade(s, none, 2), Catch::StartsWith("Step 4: 0 right, 8 missed, 0 wrong. Missed: "));

    // Cang-Wu names its eyes (CangWuFigures::eyes, file key "eyes"): every transfer from an eye that is not the
    // source says "from the eye", with the hop count of its route.
    const Topology mesh8 = Topology::mesh({8, 8});
    const Schedule cw = buildSchedule("cang-wu", mesh8, mesh8.parseNode("0,0"), {});
    int eyeSends = 0;
    for (const Transfer& t : cw.transfers()) {
        const auto eyes = scheduleInfo(cw)["eyes"];
        const bool eye =
            std::any_of(eyes.begin(), eyes.end(), [&](const auto& e) { return e == nodeToJson(mesh8, t.from); });
        if (!eye || t.from == cw.source())
            continue;
        const int hops = cw.hops(t);
        CHECK_THAT(explainReceiver(cw, t.step, t.to),
                   Catch::Contains("from the eye " + mesh8.nodeName(t.from) + " over " + std::to_string(hops) +
                                   (hops == 1 ? " hop" : " hops")));
        ++eyeSends;
    }
    CHECK(eyeSends > 0);
    // From the eye (1,1,1) of the 4×4×4 mesh the source is an eye too.
    const Topology mesh4 = Topology::mesh({4, 4, 4});
    const Schedule fromEye = buildSchedule("cang-wu", mesh4, mesh4.parseNode("1,1,1"), Params{{"mode", "paper"}});
    const Transfer& first = fromEye.stepTransfers(StepNo{1})[0];
    CHECK(explainReceiver(fromEye, StepNo{1}, first.to) ==
          mesh4.nodeName(first.to) + " receives from the source, an eye, (1,1,1) over 1 hop");
}

TEST_CASE("grade: every step of every algorithm is narrated, and the score adds up", "[grade]")
{
    const std::vector<Topology> topologies = {Topology::mesh({4, 4}), Topology::torus({5, 5}),
                                              Topology::mesh({4, 4, 4}), Topology::hypercube(3)};
    std::vector<StepGrade> grades;
    for (const AlgorithmInfo& a : algorithms())
        for (const Topology& topo : topologies) {
            if (a.whyNot(topo))
                continue;
            for (const std::string& pattern : a.patterns.empty() ? std::vector<std::string>{""} : a.patterns) {
                Schedule s;
                try {
                    s = buildSchedule(a.name, topo, NodeId{0},
                                      pattern.empty() ? Params{} : Params{{"pattern", pattern}});
                } catch (const Error&) {
                    continue;
                }
                for (StepNo k : steps(s)) {
                    INFO(a.name << " " << pattern << " on " << topo.displayName() << ", step " << k);
                    // Guess node 0 and node 1: whatever is right, missed or wrong gets a reason.
                    const std::vector<NodeId> guess = {NodeId{0}, NodeId{1}};
                    const StepGrade g = gradeStep(s, k, guess);
                    const std::string text = explainGrade(s, g, 3);
                    CHECK_THAT(text, Catch::StartsWith("Step " + std::to_string(k) + ": "));
                    for (NodeId v : g.missed)
                        CHECK_NOTHROW(explainReceiver(s, k, v));
                    for (NodeId v : g.wrong)
                        CHECK_NOTHROW(explainNonReceiver(s, k, v));
                    grades.push_back(g);
                }
            }
        }
    REQUIRE(grades.size() > 100);
    std::uint64_t right = 0, missed = 0, wrong = 0;
    for (const StepGrade& g : grades) {
        right += g.right.size();
        missed += g.missed.size();
        wrong += g.wrong.size();
        CHECK(g.right.size() + g.wrong.size() == 2); // two nodes marked in every step
    }
    CHECK(tallyGrades(grades) == GradeTally{grades.size(), right, missed, wrong});
    CHECK(tallyGrades({}) == GradeTally{});
}

TEST_CASE("grade --scenario: the issue's contract on a preset, all right for the step's receivers", "[grade]")
{
    const std::string file = std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/cang-wu-4x4x4-eye.json";
    const Scenario sc = loadScenario(file);
    const Schedule s = buildSchedule(sc.algorithm, sc.topology, sc.source, sc.params);
    for (StepNo k : steps(s)) {
        std::string nodes;
        for (NodeId v : stepReceivers(s, k))
            nodes +=
                (nodes.empty() ? "" : ";") + s.topology().nodeName(v).substr(1, s.topology().nodeName(v).size() - 2);
        const auto r = runCli({"grade", "--scenario", file, "--step", std::to_string(k), "--nodes", nodes, "--json"});
        REQUIRE(r.status == 0);
        const auto j = nlohmann::json::parse(r.out);
        CHECK(j["right"].size() == stepReceivers(s, k).size());
        CHECK(j["missed"].empty());
        CHECK(j["wrong"].empty());
    }
}

TEST_CASE("algorithm references: the papers behind the paper algorithms", "[grade][registry]")
{
    CHECK_THAT(algorithmReference("cang-wu"), Catch::Contains("S. Cang and J. Wu"));
    CHECK_THAT(algorithmReference("tsay-wang"), Catch::Contains("Tsay and W.-T. Wang"));
    CHECK_THAT(algorithmReference("nesbt"), Catch::Contains("Johnsson and C.-T. Ho"));
    CHECK_THAT(algorithmReference("divisible-load"), Catch::Contains("Parallel Computing 25 (1999)"));
    CHECK_THAT(algorithmReference("binomial"), Catch::StartsWith("baseline"));
    for (const AlgorithmInfo& a : algorithms())
        CHECK_FALSE(algorithmReference(a.name).empty());
    CHECK(algorithmReference("no-such").empty());
}
