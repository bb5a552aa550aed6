// Cang-Wu as the front ends see it: Schedules through the registry, checked by the foundation's
// validate() and computeMetrics(); contention under every dimension order; torus; bad input;
// the tcd-map and schedule CLI commands; the scenario presets (step and depth contention as Cang & Wu's
// 3-D paper defines them in §1; the checks over every order and mode are ours, not the papers').

#include "topocast/algorithms/cang_wu.h"
#include "topocast/algorithms/eyes.h"
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/figures_json.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include "cang_wu_spec_tables.h"
#include "commands.h"

#include "cli_runner.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <sstream>

using namespace topocast;
using topocast::testing::CliRun;
using topocast::testing::runCli;

namespace {

Schedule buildCangWu(const std::string& topology, NodeId source, const std::string& mode)
{
    return buildSchedule("cang-wu", Topology::parse(topology), source, Params{{"mode", mode}});
}

/// Valid one-port broadcast with d·k steps, no step contention under any DOR order, and the TCD
/// of the per-source table. Returns the XY…-order metrics. `orderStride` > 1 checks every
/// orderStride-th of the d! orders (in lexicographic order; always the first and the last).
Metrics requireSound(Schedule s, std::uint64_t expectedTcd, std::size_t orderStride = 1)
{
    const Topology& topo = s.topology();
    const Validation v = validate(s);
    INFO(topo.spec() << " from " << topo.nodeName(s.source()) << " (" << s.mode << ")");
    for (const auto& line : v.violations)
        UNSCOPED_INFO(line);
    REQUIRE(v.ok());
    Metrics first;
    bool haveFirst = false;
    const std::vector<DimensionOrder> orders = allOrders(topo.dims());
    for (std::size_t i = 0; i < orders.size(); ++i) {
        if (i % orderStride != 0 && i + 1 != orders.size())
            continue;
        s.dimensionOrder = orders[i];
        const Metrics m = computeMetrics(s);
        REQUIRE(m.contentionUses == 0);
        REQUIRE(m.maxStepLoad <= 1);
        REQUIRE(m.tcd == expectedTcd);
        REQUIRE(m.steps == static_cast<std::uint32_t>(std::countr_zero(topo.nodeCount())));
        REQUIRE(m.maxSendsPerNodeStep <= 1);
        REQUIRE(m.maxReceivesPerNodeStep <= 1);
        if (!haveFirst) {
            first = m;
            haveFirst = true;
        }
    }
    return first;
}

} // namespace

TEST_CASE("cang-wu: every source of 4×4, 8×8, 16×16 and 4×4×4 is valid in every mode, contention-free under every "
          "DOR order (docs/papers/mesh-tcd.md §1.4, §9)",
          "[cangwu]")
{
    for (const char* spec : {"mesh:4x4", "mesh:8x8", "mesh:16x16", "mesh:4x4x4"}) {
        const Topology topo = Topology::parse(spec);
        for (const char* mode : {"optimal", "eye-best", "paper"}) {
            const auto map = findAlgorithm("cang-wu").tcdSourceMap(topo, Params{{"mode", mode}});
            REQUIRE(map.size() == topo.nodeCount());
            for (NodeId s{}; s < topo.nodeCount(); ++s)
                requireSound(buildCangWu(spec, s, mode), map[s]);
        }
    }
}

TEST_CASE("cang-wu: 32×32, 8×8×8 and 4^4, every source, every mode and DOR order (docs/papers/mesh-tcd.md §7.1)",
          "[cangwu][slow]")
{
    for (const char* spec : {"mesh:32x32", "mesh:8x8x8", "mesh:4x4x4x4"}) {
        const Topology topo = Topology::parse(spec);
        for (const char* mode : {"optimal", "eye-best", "paper"}) {
            const auto map = findAlgorithm("cang-wu").tcdSourceMap(topo, Params{{"mode", mode}});
            for (NodeId s{}; s < topo.nodeCount(); ++s)
                requireSound(buildCangWu(spec, s, mode), map[s]);
        }
    }
}

TEST_CASE("cang-wu: depth contention is reported, not an error: XY eye-best ranges of docs/papers/mesh-tcd.md §7.1",
          "[cangwu]")
{
    struct Row {
        const char* spec;
        std::uint64_t minChannels, maxChannels;
        std::uint32_t maxSteps;
    };
    for (const Row& row : {Row{"mesh:4x4", 0, 2, 2}, Row{"mesh:8x8", 3, 6, 4}, Row{"mesh:16x16", 17, 26, 6},
                           Row{"mesh:4x4x4", 0, 2, 3}, Row{"mesh:8x8x8", 6, 12, 5}}) {
        INFO(row.spec);
        const Topology topo = Topology::parse(row.spec);
        std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
        std::uint32_t most = 0;
        for (NodeId s{}; s < topo.nodeCount(); ++s) {
            const Metrics m = computeMetrics(buildCangWu(row.spec, s, "eye-best"));
            CHECK(m.contentionUses == 0);
            lo = std::min(lo, m.depthContendedChannels);
            hi = std::max(hi, m.depthContendedChannels);
            most = std::max(most, m.maxLinkLoad);
        }
        CHECK(lo == row.minChannels);
        CHECK(hi == row.maxChannels);
        CHECK(most == row.maxSteps);
    }
}

TEST_CASE("contention checker: the deliberate-conflict vector of docs/papers/mesh-tcd.md §1.4", "[cangwu]")
{
    const Topology topo = Topology::mesh({4, 4});
    const NodeId n00 = topo.id({0, 0}), n10 = topo.id({1, 0}), n20 = topo.id({2, 0}), n30 = topo.id({3, 0});
    Schedule conflict(topo, n00, Pattern::Broadcast, PortModel::OnePort);
    conflict.dimensionOrder = {0, 1};
    conflict.add(NodeId{n00}, NodeId{n30}, StepNo{1});
    conflict.add(NodeId{n10}, NodeId{n20}, StepNo{1});
    conflict.finalize();
    const Metrics m = computeMetrics(conflict);
    REQUIRE(m.contentions.size() == 1);
    CHECK(m.contentions[0].step == 1);
    CHECK(m.contentions[0].channel == topo.channel(n10, 0, +1));
    CHECK(topo.channelName(m.contentions[0].channel) == "(1,0)→(2,0)");
    CHECK(m.contentions[0].transfers.size() == 2);
    CHECK(m.maxStepLoad == 2);

    Schedule opposite(topo, n10, Pattern::Broadcast, PortModel::OnePort);
    opposite.add(NodeId{n10}, NodeId{n20}, StepNo{1});
    opposite.add(NodeId{n20}, NodeId{n10}, StepNo{1});
    opposite.finalize();
    CHECK(computeMetrics(opposite).contentionUses == 0);
}

TEST_CASE("cang-wu: schedule fields, info (mode, optimum, eyes) and step labels", "[cangwu]")
{
    const Topology topo = Topology::parse("mesh:8x8");
    const Schedule s = buildCangWu("mesh:8x8", topo.id({2, 3}), "optimal");
    CHECK(s.algorithm == "cang-wu");
    CHECK(s.mode == "optimal");
    CHECK(s.pattern() == Pattern::Broadcast);
    CHECK(s.portModel() == PortModel::OnePort);
    CHECK(scheduleInfo(s)["mode"] == "optimal");
    CHECK(scheduleInfo(s)["optimum"] == 69);
    CHECK(scheduleInfo(s)["source_tcd"] == 69);
    CHECK(scheduleInfo(s)["eyes"] == nlohmann::ordered_json::parse("[[2,2],[5,2],[2,5],[5,5]]"));
    REQUIRE(s.stepLabels.size() == 6);
    CHECK(s.stepLabels[0] == "level 3 (8×8 boxes), step 1 of 2");
    CHECK(s.stepLabels[5] == "level 1 (2×2 boxes), step 2 of 2");
    for (const Transfer& t : s.transfers())
        CHECK(t.tag == 3 - (t.step - 1) / 2); // tag = level of the phase
    CHECK(computeMetrics(s).tcd == 69);

    const Schedule p = buildSchedule("cang-wu", topo, topo.id({2, 3}), Params{});
    CHECK(p.mode == "optimal"); // the default mode
    CHECK(scheduleInfo(buildCangWu("mesh:8x8", topo.id({2, 3}), "eye-best"))["source_tcd"] == 70);
    CHECK(scheduleInfo(buildCangWu("mesh:8x8", topo.id({2, 3}), "paper"))["source_tcd"] == 71);
}

TEST_CASE("cang-wu on a torus: valid, contention-free, OD_k from every source (docs/papers/mesh-tcd.md §3.2, §8.9)",
          "[cangwu]")
{
    for (auto [spec, od] : std::vector<std::pair<const char*, std::uint64_t>>{
             {"torus:8x8", 69}, {"torus:4x4", 15}, {"torus:16", 23}, {"torus:4x4x4", 63}, {"torus:16x16", 291}}) {
        const Topology topo = Topology::parse(spec);
        for (NodeId s{}; s < topo.nodeCount(); ++s) {
            const Schedule sched = buildCangWu(spec, s, "optimal");
            requireSound(sched, od);
            CHECK(scheduleInfo(sched).contains("torus"));
        }
        const auto map = findAlgorithm("cang-wu").tcdSourceMap(topo, Params{});
        CHECK(map == std::vector<std::uint64_t>(topo.nodeCount(), od));
    }
}

TEST_CASE("cang-wu on a hypercube and a path: TCD 2^d − 1 with one-hop sends, paths reach OD (spec §5.1, §9)",
          "[cangwu]")
{
    for (int n = 1; n <= 6; ++n) {
        const Topology cube = Topology::hypercube(n);
        for (NodeId s{}; s < cube.nodeCount(); ++s) {
            const Metrics m = requireSound(buildSchedule("cang-wu", cube, s, Params{}), (1u << n) - 1, n >= 5 ? 7 : 1);
            CHECK(m.maxHops == 1);
        }
    }
    const Topology path = Topology::parse("mesh:16");
    const auto map = findAlgorithm("cang-wu").tcdSourceMap(path, Params{});
    CHECK(*std::min_element(map.begin(), map.end()) == 23);
    CHECK(map == exhaustiveMinTcdSourceMap(1, 4));
}

TEST_CASE("cang-wu rejects what it cannot do, naming the requirement (docs/papers/mesh-tcd.md §1.1)", "[cangwu]")
{
    const AlgorithmInfo& a = findAlgorithm("cang-wu");
    CHECK(a.modes == std::vector<std::string>{"optimal", "eye-best", "paper"});
    CHECK(a.patterns == std::vector<std::string>{"broadcast"});
    REQUIRE(a.tcdSourceMap);
    CHECK_FALSE(a.whyNot(Topology::parse("mesh:8x8")));
    CHECK_FALSE(a.whyNot(Topology::parse("mesh:4x4x4x4x4x4")));
    CHECK_FALSE(a.whyNot(Topology::parse("torus:8x8")));
    CHECK_FALSE(a.whyNot(Topology::parse("hypercube:6")));

    const auto six = a.whyNot(Topology::parse("mesh:6x6"));
    REQUIRE(six);
    CHECK_THAT(*six, Catch::Contains("cang-wu needs a 2^k × … × 2^k mesh") && Catch::Contains("got 6×6"));
    CHECK_THAT(*a.whyNot(Topology::parse("mesh:4x8")), Catch::Contains("all sides equal") && Catch::Contains("4×8"));
    CHECK_THAT(*a.whyNot(Topology::parse("torus:6x6")), Catch::Contains("torus") && Catch::Contains("6×6"));
    CHECK_THAT(*a.whyNot(Topology::parse("hypercube:7")), Catch::Contains("d = 1..6") && Catch::Contains("7-cube"));
    CHECK_THAT(*a.whyNot(Topology::parse("mesh:1x1")), Catch::Contains("power of two ≥ 2"));

    const Topology m8 = Topology::parse("mesh:8x8");
    CHECK_THROWS_WITH(buildSchedule("cang-wu", Topology::parse("mesh:6x6"), NodeId{0}, Params{}),
                      Catch::Contains("got 6×6"));
    CHECK_THROWS_WITH(buildSchedule("cang-wu", m8, NodeId{0}, Params{{"mode", "fastest"}}),
                      Catch::Contains("'fastest'") && Catch::Contains("optimal, eye-best, paper"));
    CHECK_THROWS_WITH(buildSchedule("cang-wu", m8, NodeId{0}, Params{{"pattern", "scatter"}}),
                      Catch::Contains("broadcast"));
    CHECK_THROWS_WITH(a.tcdSourceMap(m8, Params{{"mode", "best"}}), Catch::Contains("'best'"));
    CHECK_THROWS_AS(buildSchedule("cang-wu", m8, NodeId{64}, Params{}), Error);
    CHECK_THROWS_AS(cangWuSchedule(m8, NodeId{64}, CangWuMode::Optimal), Error);
    CHECK_THROWS_WITH(eyesOfSubmeshes(Topology::parse("mesh:6x6")), Catch::Contains("got 6×6"));
}

TEST_CASE("cang-wu: eyes of every submesh on a Topology, for the app", "[cangwu]")
{
    const Topology topo = Topology::parse("mesh:8x8");
    const auto levels = eyesOfSubmeshes(topo);
    REQUIRE(levels.size() == 3);
    std::vector<NodeId> top;
    for (const Coord& c : std::vector<Coord>{{2, 2}, {5, 2}, {2, 5}, {5, 5}})
        top.push_back(topo.id(c));
    CHECK(levels[0].eyes == top);
    CHECK(levels[2].eyes.size() == topo.nodeCount());
    CHECK(eyesOfSubmeshes(Topology::parse("torus:8x8")).size() == 3);
    CHECK(eyesOfSubmeshes(Topology::hypercube(3)).front().eyes.size() == 8);
}

TEST_CASE("topocast-cli tcd-map: the 8×8 optimal matrix as JSON and text (docs/papers/mesh-tcd.md §6.2)",
          "[cangwu][cli]")
{
    const CliRun r = runCli({"tcd-map", "--topology", "mesh:8x8", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["mode"] == "optimal");
    CHECK(doc["optimum"] == 69);
    REQUIRE(doc["tcd"].size() == 64);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x)
            CHECK(doc["tcd"][static_cast<std::size_t>(x + 8 * y)] ==
                  cangwu_spec::k8x8Optimal[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)]);
    CHECK(doc["optimal_sources"].size() == 12);
    CHECK(doc["optimal_sources"][0] == nlohmann::json::parse("[2,2]"));
    CHECK(doc["eyes"] == nlohmann::json::parse("[[2,2],[5,2],[2,5],[5,5]]"));
    CHECK(doc["sum"] == 4612);

    const CliRun paper = runCli({"tcd-map", "--topology", "mesh:8x8", "--mode", "paper", "--json"});
    REQUIRE(paper.status == 0);
    const auto pdoc = nlohmann::json::parse(paper.out);
    CHECK(pdoc["mode"] == "paper");
    CHECK(pdoc["sum"] == 4672);
    CHECK(pdoc["optimal_sources"].size() == 4);

    const CliRun text = runCli({"tcd-map", "--topology", "mesh:4x4", "--mode", "paper"});
    REQUIRE(text.status == 0);
    CHECK_THAT(text.out, Catch::Contains("18 17 17 18") && Catch::Contains(" 16 15 15 16") &&
                             Catch::Contains("optimum OD_2 = 15") && Catch::Contains("eyes: (1,1) (2,1) (1,2) (2,2)"));
    const CliRun cube = runCli({"tcd-map", "--topology", "mesh:4x4x4"});
    REQUIRE(cube.status == 0);
    CHECK_THAT(cube.out, Catch::Contains("plane y = 1 (rows = z, columns = x)") && Catch::Contains("sum 4176"));

    const CliRun bad = runCli({"tcd-map", "--topology", "mesh:6x6"});
    CHECK(bad.status == 2);
    CHECK_THAT(bad.err, Catch::Contains("cang-wu needs a 2^k × … × 2^k mesh") && Catch::Contains("6×6"));
    const CliRun badMode = runCli({"tcd-map", "--topology", "mesh:8x8", "--mode", "fast"});
    CHECK(badMode.status == 2);
    CHECK_THAT(badMode.err, Catch::Contains("'fast'"));
}

TEST_CASE("topocast-cli schedule --algorithm cang-wu --mode … --json: common keys plus mode", "[cangwu][cli]")
{
    const CliRun r = runCli({"schedule", "--topology", "mesh:8x8", "--algorithm", "cang-wu", "--mode", "eye-best",
                             "--source", "2,3", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["algorithm"] == "cang-wu");
    CHECK(doc["mode"] == "eye-best");
    CHECK(doc["source"] == nlohmann::json::parse("[2,3]"));
    CHECK(doc["steps"] == 6);
    CHECK(doc["tcd"] == 70);
    CHECK(doc["contention"] == 0);
    CHECK(doc["optimum"] == 69);
    CHECK(doc["eyes"].size() == 4);
    CHECK(doc["transfers"].size() == 63);

    const CliRun def = runCli({"schedule", "--topology", "mesh:8x8", "--algorithm", "cang-wu", "--source", "2,3"});
    REQUIRE(def.status == 0);
    CHECK_THAT(def.out, Catch::Contains("TCD 69") && Catch::Contains("(optimal)"));

    const CliRun bad = runCli({"schedule", "--topology", "mesh:6x6", "--algorithm", "cang-wu"});
    CHECK(bad.status == 2);
    CHECK_THAT(bad.err, Catch::Contains("got 6×6"));
}

TEST_CASE("scenario presets for the papers' figures load and build (resources/scenarios/cang-wu-*.json)", "[cangwu]")
{
    const std::string dir = std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/";
    for (auto [file, tcd] : std::vector<std::pair<const char*, std::uint64_t>>{{"cang-wu-4x4.json", 17},
                                                                               {"cang-wu-8x8.json", 69},
                                                                               {"cang-wu-8x8-corner.json", 79},
                                                                               {"cang-wu-4x4x4.json", 66},
                                                                               {"cang-wu-4x4x4-eye.json", 63},
                                                                               {"cang-wu-torus-8x8.json", 69}}) {
        INFO(file);
        const Scenario sc = loadScenario(dir + file);
        CHECK(sc.algorithm == "cang-wu");
        const Schedule s = buildScenario(sc);
        CHECK(validate(s).ok());
        CHECK(computeMetrics(s).tcd == tcd);
    }
}

TEST_CASE("cang-wu in 5-D and 6-D: valid, table TCD, no step contention under a spread of the 120 / 720 DOR "
          "orders (d = 1..6)",
          "[cangwu]")
{
    for (const char* spec : {"mesh:4x4x4x4x4", "mesh:4x4x4x4x4x4", "mesh:2x2x2x2x2x2"}) {
        const Topology topo = Topology::parse(spec);
        const NodeId far{topo.nodeCount() - 1};
        const NodeId mixed{topo.nodeCount() / 3}; // an arbitrary inner-and-outer source
        for (const char* mode : {"optimal", "eye-best", "paper"}) {
            const auto map = findAlgorithm("cang-wu").tcdSourceMap(topo, Params{{"mode", mode}});
            CHECK(*std::min_element(map.begin(), map.end()) == cangWuOptimum(topo.dims(), topo.side(0) == 4 ? 2 : 1));
            for (NodeId s : {NodeId{0}, mixed, far})
                requireSound(buildCangWu(spec, s, mode), map[s], topo.dims() == 6 ? 53 : 11);
        }
    }
}
