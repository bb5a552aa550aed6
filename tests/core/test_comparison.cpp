// Compare scenarios: the optional "compare" side of a scenario file, its checks, and
// core's comparison of two schedules on one network (the app's split view only shows it).
#include "topocast/algorithms/figures.h"
#include "topocast/analysis/comparison.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/figures_json.h"
#include "topocast/io/scenario_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include "temp_dir.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

using namespace topocast;
namespace fs = std::filesystem;

namespace {

const std::string kHead =
    R"({"format":"topocast-scenario","version":1,"topology":"mesh:8x8","algorithm":"cang-wu","source":[2,3],)";

Scenario parse(const std::string& text)
{
    return scenarioFromJson(parseJsonText(text, "s"));
}

std::string comparisonError(const std::string& text)
{
    try {
        parse(text);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

fs::path comparisonPreset(const std::string& name)
{
    return fs::path(TOPOCAST_SOURCE_DIR) / "resources/scenarios" / name;
}

struct Built {
    Schedule a, b;
    Metrics ma, mb;
    Comparison c;
};

Built buildCompared(const Scenario& sc)
{
    Built r{buildScenario(sc), buildScenario(compareSide(sc)), {}, {}, {}};
    r.ma = computeMetrics(r.a);
    r.mb = computeMetrics(r.b);
    r.c = compareSchedules(r.a, r.ma, r.b, r.mb);
    return r;
}

} // namespace

TEST_CASE("a compare scenario round-trips, and the compare side inherits topology and source", "[scenario][compare]")
{
    const Scenario sc = parse(
        kHead +
        R"("params":{"mode":"paper"},"compare":{"title":"B","algorithm":"cang-wu","params":{"mode":"optimal"}}})");
    REQUIRE(sc.compare);
    const Scenario b = compareSide(sc);
    CHECK(b.topology == sc.topology);
    CHECK(b.source == sc.source); // source left out: the scenario's (2,3)
    CHECK(b.topology.nodeName(b.source) == "(2,3)");
    CHECK(b.params.getString("mode", "") == "optimal");
    CHECK(b.title == "B");
    CHECK_FALSE(b.compare);

    CHECK(parse(toJson(sc).dump()) == sc);
    testing::TempDir dir;
    saveScenario(sc, dir.path / "c.json");
    CHECK(loadScenario(dir.path / "c.json") == sc);

    // The same topology spelled out is accepted; another source is kept.
    const Scenario same = parse(kHead + R"("compare":{"topology":"mesh:8x8","algorithm":"bfs","source":[0,0]}})");
    CHECK(compareSide(same).source == 0);
    // A scenario without compare has none, and compareSide says how to add one.
    const Scenario plain = parse(kHead + "\"params\":{}}");
    CHECK_FALSE(plain.compare);
    CHECK_THROWS_WITH(compareSide(plain), Catch::Contains("no compare side"));
    CHECK_FALSE(plain == sc);
}

TEST_CASE("a compare side on another network or with bad fields is refused, saying what is allowed",
          "[scenario][compare][bad-input]")
{
    CHECK_THAT(
        comparisonError(kHead + R"("compare":{"topology":"mesh:4x4","algorithm":"bfs"}})"),
        Catch::Contains("compare.topology: the 4×4 mesh (mesh:4x4) is not the scenario's the 8×8 mesh (mesh:8x8)") &&
            Catch::Contains("both sides of a comparison share one network") &&
            Catch::Contains("give \"mesh:8x8\" or leave compare.topology out"));
    CHECK_THAT(comparisonError(kHead + R"("compare":{"topology":"torus:8x8","algorithm":"bfs"}})"),
               Catch::Contains("share one network"));
    CHECK_THAT(comparisonError(kHead + R"("compare":{"topology":"mesh:6x","algorithm":"bfs"}})"),
               Catch::Contains("compare.topology: "));
    CHECK_THAT(comparisonError(kHead + R"("compare":{"topology":7,"algorithm":"bfs"}})"),
               Catch::Contains("compare.topology: expected a topology string"));
    CHECK_THAT(comparisonError(kHead + R"("compare":[1]})"), Catch::Contains("compare: expected an object"));
    CHECK_THAT(comparisonError(kHead + R"("compare":{"source":[1,1]}})"),
               Catch::Contains("compare.algorithm: expected an algorithm name"));
    CHECK_THAT(comparisonError(kHead + R"("compare":{"algorithm":"bfs","source":[9,1]}})"),
               Catch::Contains("compare.source[0]: 9 is out of range 0..7"));
    CHECK_THAT(comparisonError(kHead + R"("compare":{"algorithm":"bfs","params":{"tau":null}}})"),
               Catch::Contains("compare.params.tau: expected a string or a number, got null"));
    CHECK_THAT(comparisonError(kHead + R"("compare":{"algorithm":"bfs","compare":{}}})"),
               Catch::Contains("compare.compare: not allowed here; the compare side has title, topology"));
    CHECK_THAT(comparisonError(kHead + R"("compare":{"algorithm":"bfs","version":1}})"),
               Catch::Contains("compare.version: not allowed"));

    // The same rule for two scenarios put side by side (topocast --scenario A --compare B).
    Scenario a = parse(kHead + "\"params\":{}}");
    Scenario b = a;
    b.topology = Topology::mesh({4, 4});
    b.source = NodeId{0};
    CHECK_THROWS_WITH(withCompare(a, b), Catch::Contains("a comparison needs one network on both sides: A is the 8×8 "
                                                         "mesh (mesh:8x8), B is the 4×4 mesh (mesh:4x4)") &&
                                             Catch::Contains("give B the topology mesh:8x8 too"));
    Scenario handMade = a; // a compare side put together in code is held to the same rule
    handMade.compare = std::make_shared<const Scenario>(b);
    CHECK_THROWS_WITH(compareSide(handMade), Catch::Contains("a comparison needs one network on both sides"));
    b.topology = a.topology;
    b.algorithm = "bfs";
    const Scenario both = withCompare(a, b);
    CHECK(compareSide(both).algorithm == "bfs");
    CHECK_THROWS_WITH(
        compareSchedules(buildScenario(a), computeMetrics(buildScenario(a)),
                         buildScenario(parse(
                             R"({"format":"topocast-scenario","version":1,"topology":"mesh:4x4","algorithm":"bfs"})")),
                         Metrics{}),
        Catch::Contains("different networks") && Catch::Contains("a comparison needs one network"));
}

TEST_CASE("comparison: shared timeline, per-step and cumulative TCD, nodes informed at different steps", "[compare]")
{
    // bfs (all-port, 6 steps on 4×4 from a corner) against binomial (one-port, log2 16 = 4 steps).
    Scenario a =
        parse(R"({"format":"topocast-scenario","version":1,"topology":"mesh:4x4","algorithm":"bfs","source":[0,0]})");
    Scenario b = a;
    b.algorithm = "binomial";
    const Built r = buildCompared(withCompare(a, b));
    REQUIRE(r.ma.steps == 6); // eccentricity of a 4×4 corner: 3 + 3
    REQUIRE(r.mb.steps == 4);
    CHECK(r.c.steps == 6);
    REQUIRE(r.c.tcdPerStepB.size() == 6);
    CHECK(r.c.tcdPerStepB[4] == 0); // B holds its last state at steps 5 and 6
    CHECK(r.c.tcdPerStepB[5] == 0);
    CHECK(r.c.cumulativeTcdA.back() == r.ma.tcd);
    CHECK(r.c.cumulativeTcdB.back() == r.mb.tcd);
    CHECK(r.c.cumulativeTcdB[4] == r.mb.tcd);
    CHECK(r.ma.tcd == 15); // bfs: one hop per node
    CHECK(sideStep(5, 4) == 4);
    CHECK(sideStep(3, 4) == 3);
    // Brute force: a node differs exactly when the step of its first received transfer differs.
    std::vector<NodeId> expect;
    for (NodeId v{}; v < 16; ++v) {
        std::uint32_t sa = v == r.a.source() ? 0 : kNeverInformed, sb = v == r.b.source() ? 0 : kNeverInformed;
        for (const Transfer& t : r.a.transfers())
            if (t.to == v)
                sa = std::min<std::uint32_t>(sa, t.step);
        for (const Transfer& t : r.b.transfers())
            if (t.to == v)
                sb = std::min<std::uint32_t>(sb, t.step);
        if (sa != sb)
            expect.push_back(v);
    }
    CHECK(r.c.differing == expect);
    CHECK_FALSE(expect.empty());
    CHECK(std::find(expect.begin(), expect.end(), r.a.source()) == expect.end());
    // Where one side is ahead: informed after step k on exactly one side.
    for (std::uint32_t k = 0; k <= 6; ++k) {
        std::vector<NodeId> ahead;
        for (NodeId v{}; v < 16; ++v)
            if ((r.c.informedA[v] <= k) != (r.c.informedB[v] <= k))
                ahead.push_back(v);
        INFO("step " << k);
        CHECK(r.c.informedOnOneSide(k) == ahead);
    }
    CHECK(r.c.informedOnOneSide(0).empty()); // same source
    CHECK(r.c.informedOnOneSide(6).empty()); // both done
    // The table: B − A per row.
    REQUIRE(r.c.rows.size() == 7);
    CHECK(r.c.rows[2].name == "TCD");
    CHECK(r.c.rows[2].difference() == static_cast<double>(r.mb.tcd) - 15.0);
    CHECK(r.c.rows[0].difference() == -2.0);

    // A schedule compared with itself differs nowhere.
    const Built same = buildCompared(withCompare(a, a));
    CHECK(same.c.differing.empty());
    CHECK(same.c.cumulativeTcdA == same.c.cumulativeTcdB);
}

TEST_CASE("compare presets load and show the papers' numbers", "[scenario][compare]")
{
    SECTION(
        "Cang-Wu 8×8 from (2,3): Algorithm 1 gives 71, SubmeshOptimal 69 (docs/papers/mesh-tcd.md, ILP-proven minimum)")
    {
        const Scenario sc = loadScenario(comparisonPreset("compare-cang-wu-8x8-paper-vs-optimal.json"));
        CHECK(sc.topology.nodeName(sc.source) == "(2,3)");
        CHECK(compareSide(sc).source == sc.source);
        const Built r = buildCompared(sc);
        CHECK(r.ma.tcd == 71);
        CHECK(r.mb.tcd == 69);
        CHECK(r.c.steps == 6); // both time-step optimal: log2 64
        CHECK(r.c.rows[2].difference() == -2.0);
        CHECK_FALSE(r.c.differing.empty()); // same steps, different trees
    }
    SECTION("8×8×8 from the eye (2,2,2): binomial 1308 against Cang-Wu's OD = 525 (docs/papers/mesh-tcd.md §6.1)")
    {
        const Scenario sc = loadScenario(comparisonPreset("compare-binomial-vs-cang-wu-8x8x8-eye.json"));
        CHECK(sc.topology.nodeName(compareSide(sc).source) == "(2,2,2)");
        const Built r = buildCompared(sc);
        CHECK(r.a.algorithm == "binomial");
        CHECK(r.ma.steps == 9);
        CHECK(r.mb.steps == 9);
        CHECK(r.ma.tcd == 1308);
        CHECK(r.mb.tcd == 525);
        CHECK(r.ma.maxLinkLoad == 3);
        CHECK(r.mb.maxLinkLoad == 2);
    }
    SECTION("Tsay-Wang 7×7×7 torus: paper 4 steps against direct 3 (7 = 2d + 1, the lower bound)")
    {
        const Scenario sc = loadScenario(comparisonPreset("compare-tsay-wang-paper-vs-direct-7x7x7.json"));
        const Built r = buildCompared(sc);
        CHECK(r.ma.steps == 4);
        CHECK(r.mb.steps == 3);
        CHECK(scheduleInfo(r.a)["lower_bound"] == 3);
        CHECK(r.c.steps == 4);
        CHECK(r.c.tcdPerStepB[3] == 0); // direct holds its last state in step 4
        CHECK(r.ma.tcd == 953);
        CHECK(r.mb.tcd == 792);
        CHECK(r.ma.transfers == 342); // a broadcast to 343 − 1 nodes, each once
        CHECK(r.mb.transfers == 342);
    }
    SECTION("6-cube, one port, 6 packets: SBT time 72 against nESBT 24 (Johnsson-Ho Table 4)")
    {
        const Scenario sc = loadScenario(comparisonPreset("compare-sbt-vs-nesbt-6cube.json"));
        const Built r = buildCompared(sc);
        CHECK(r.ma.steps == 6);
        CHECK(r.mb.steps == 12);
        CHECK(r.ma.tcd == 63);  // one tree: every node once over one hop
        CHECK(r.mb.tcd == 378); // 6 packets × 63 nodes
        REQUIRE(r.c.rows.size() == 8);
        CHECK(r.c.rows[7].name == "time (cost model)");
        CHECK(r.c.rows[7].a == 72.0); // (M/B)·log N start-ups + transfers: 36 + 36
        CHECK(r.c.rows[7].b == 24.0); // 12 + 12
    }
}
