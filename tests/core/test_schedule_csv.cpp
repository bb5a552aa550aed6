// A student's schedule as CSV: the reader, the structured findings of
// validate, the best-known reference, and `topocast-cli validate FILE.csv`.
#include "cli_runner.h"
#include "temp_dir.h"

#include "topocast/analysis/metrics.h"
#include "topocast/analysis/reference.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

using namespace topocast;
namespace fs = std::filesystem;

namespace {

const fs::path kExercises = fs::path(TOPOCAST_SOURCE_DIR) / "resources/exercises";

/// Checks that `text` is refused with an Error whose message contains every piece.
void requireRefused(const std::string& text, std::initializer_list<std::string> pieces,
                    const std::optional<Topology>& topo = Topology::mesh({4, 4}))
{
    INFO(text);
    try {
        (void)scheduleFromCsv(text, "s.csv", topo);
        FAIL("accepted");
    } catch (const Error& e) {
        const std::string msg = e.what();
        INFO(msg);
        for (const std::string& p : pieces)
            CHECK(msg.find(p) != std::string::npos);
    }
}

using Key = std::tuple<FindingKind, std::uint32_t, std::set<std::string>>;

std::set<Key> findingKeys(const Schedule& s, const Validation& v)
{
    std::set<Key> out;
    for (const Finding& f : v.findings) {
        std::set<std::string> nodes;
        for (NodeId n : f.nodes)
            nodes.insert(s.topology().nodeName(n));
        out.insert({f.kind, f.step, nodes});
    }
    return out;
}

} // namespace

TEST_CASE("schedule CSV: quoted coordinates, route column, comments and header in any order", "[csv]")
{
    const Schedule s = scheduleFromCsv("\xEF\xBB\xBF# topology: mesh:4x4\r\n"
                                       "# a comment\r\n"
                                       "to,step,from,route\r\n"
                                       "\"2,0\",1,\"0,0\",\r\n"
                                       "\r\n"
                                       "\"(0,2)\",2,\"0,0\",\"0,0;0,1;0,2\"\r\n"
                                       "\"2,2\",2,\"2,0\",cyclic:1+\r\n",
                                       "s.csv");
    CHECK(s.topology() == Topology::mesh({4, 4}));
    CHECK(s.algorithm == "student");
    CHECK(s.source() == s.topology().parseNode("0,0")); // the first row's sender
    REQUIRE(s.size() == 3);
    CHECK(s.stepCount() == 2);
    CHECK(s.transfers()[0].to == s.topology().parseNode("2,0"));
    CHECK(s.transfers()[1].route == RouteSpec::dimensionOrder()); // the path is the XY route
    CHECK(s.transfers()[2].route == RouteSpec::cyclic(1, +1));
    // Only three transfers: everything else holds, but 16 − 4 = 12 nodes are never reached.
    const Validation v = validate(s);
    REQUIRE(v.findings.size() == 1);
    CHECK(v.findings[0].kind == FindingKind::NeverReached);
    CHECK(v.findings[0].nodes.size() == 12);
    // 2 + 2 + 2 hops.
    CHECK(computeMetrics(s).tcd == 6);
}

TEST_CASE("schedule CSV: the topology comes from the file or the caller, and must agree", "[csv]")
{
    const std::string body = "step,from,to\n1,3,5\n";
    CHECK(scheduleFromCsv(body, "h.csv", Topology::hypercube(3)).transfers()[0].to == 5);
    CHECK(scheduleFromCsv("# topology: hypercube:3\n" + body, "h.csv").topology() == Topology::hypercube(3));
    CHECK(csvTopology("# topology: mesh:2x2\nstep,from,to\n") == Topology::mesh({2, 2}));
    CHECK_FALSE(csvTopology("step,from,to\n").has_value());
    requireRefused(body, {"no topology", "# topology: mesh:4x4"}, std::nullopt);
    requireRefused("# topology: hypercube:3\n" + body, {"3-cube", "4×4 mesh"});
    CHECK(scheduleFromCsv("# source: 1\n# ports: all-port\n" + body, "h.csv", Topology::hypercube(3)).source() == 1);
    CHECK(scheduleFromCsv("# ports: all-port\n" + body, "h.csv", Topology::hypercube(3)).portModel() ==
          PortModel::AllPort);
}

TEST_CASE("schedule CSV: bad input is refused with its line number and what is allowed", "[csv][robustness]")
{
    // A wrong column (line 2: the header).
    requireRefused("# topology: mesh:4x4\nstep,from,to,hop_count\n1,\"0,0\",\"1,0\",1\n",
                   {"s.csv:2:", "column 'hop_count'", "step, from, to and (optional) route"});
    requireRefused("from,to\n", {"s.csv:1:", "no 'step' column"});
    requireRefused("step,from,from,to\n", {"s.csv:1:", "appears twice"});
    requireRefused("1,\"0,0\",\"1,0\"\n", {"s.csv:1:", "must be the header"});
    requireRefused("", {"s.csv:1:", "no header line"});
    // A coordinate out of range on line 3.
    requireRefused("step,from,to\n1,\"0,0\",\"1,0\"\n2,\"0,0\",\"4,0\"\n",
                   {"s.csv:3:", "column 'to'", "coordinate 0 = 4", "0..3"});
    requireRefused("step,from,to\n1,\"0,0,0\",\"1,0\"\n", {"s.csv:2:", "column 'from'", "2 coordinates"});
    // Step 0, and steps that are not whole numbers.
    requireRefused("step,from,to\n1,\"0,0\",\"1,0\"\n0,\"1,0\",\"2,0\"\n", {"s.csv:3:", "step 0", "steps start at 1"});
    requireRefused("step,from,to\n-1,\"0,0\",\"1,0\"\n", {"s.csv:2:", "whole number"});
    requireRefused("step,from,to\n1.5,\"0,0\",\"1,0\"\n", {"s.csv:2:", "whole number"});
    requireRefused("step,from,to\n1000001,\"0,0\",\"1,0\"\n", {"s.csv:2:", "1..1000000"});
    // Wrong field counts: an unquoted coordinate splits into two fields.
    requireRefused("step,from,to\n1,0,0,1,0\n", {"s.csv:2:", "5 fields", "the header has 3", "\"0,0\""});
    // Malformed quotes.
    requireRefused("step,from,to\n1,\"0,0,\"1,0\"\n", {"s.csv:2:", "text after its closing quote"});
    requireRefused("step,from,to\n1,\"0,0\",\"1,0\n", {"s.csv:2:", "not closed on its line"});
    requireRefused("step,from,to\n1,0\"0,\"1,0\"\n", {"s.csv:2:", "quote inside it"});
    // Routes.
    requireRefused("step,from,to,route\n1,\"0,0\",\"2,0\",\"0,0;2,0\"\n", {"s.csv:2:", "not neighbours"});
    // y first, then x down: neither the XY route nor a cyclic one (those go one way in every dimension).
    requireRefused("step,from,to,route\n1,\"1,0\",\"0,1\",\"1,0;1,1;0,1\"\n", {"s.csv:2:", "cannot replay", "XY"});
    requireRefused("step,from,to,route\n1,\"0,0\",\"1,0\",sideways\n", {"s.csv:2:", "cyclic:<dim><+|->"});
    requireRefused("step,from,to,route\n1,\"0,0\",\"1,0\",xy\n2,\"0,0\",\"0,1\",yx\n",
                   {"s.csv:3:", "YX", "line 2", "one dimension order per schedule"});
    requireRefused("# topology: mesh:4x\nstep,from,to\n", {"s.csv:1:"}, std::nullopt);
}

TEST_CASE("schedule CSV: a file past the size limit is refused, by size and by line", "[csv][robustness]")
{
    // Text: the line where the limit is passed. 32 MiB of 14-byte rows: the limit falls on
    // line 1 + (32 MiB − 13 B) / 14 B + 1 (the header is line 1, 13 bytes).
    std::string text = "step,from,to\n";
    const std::string row = "1,\"0,0\",\"1,0\"\n"; // 14 bytes
    REQUIRE(row.size() == 14);
    const std::size_t rows = kMaxScheduleCsvBytes / row.size() + 2;
    text.reserve(text.size() + rows * row.size());
    for (std::size_t i = 0; i < rows; ++i)
        text += row;
    const std::size_t limitLine = 1 + (kMaxScheduleCsvBytes - 13) / 14 + 1;
    requireRefused(text, {"s.csv:" + std::to_string(limitLine) + ":", "32 MiB limit of a schedule CSV"});

    // A file: refused by its size before it is read.
    testing::TempDir dir;
    const fs::path big = dir.path / "big.csv";
    {
        std::ofstream(big) << text;
    }
    try {
        (void)readScheduleCsv(big, Topology::mesh({4, 4}));
        FAIL("accepted");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("past the 32 MiB limit of a schedule CSV") != std::string::npos);
    }
}

TEST_CASE("schedule CSV: the export's header is its first line, its settings columns of the first row", "[csv][export]")
{
    // As `export --format csv` writes it (io/export.h): any CSV reader takes the first line as the
    // header; the topology, source and the other settings are read from the first row.
    const std::string text =
        "step,from,to,from_id,to_id,hops,route,payload,tag,size,blocks,topology,algorithm,mode,source,pattern,ports,"
        "max_sends_per_step,step_contention,dimension_order,parts,participants\n"
        "1,0;0,0;2,0,8,2,order,0,0,1,,mesh:4x4,binomial,,0;0,broadcast,one-port,,allowed,XY,1,\n"
        "2,0;0,0;1,0,4,1,order,0,0,1,,,,,,,,,,,,\n";
    CHECK(csvTopology(text)->spec() == "mesh:4x4");
    const Schedule s = scheduleFromCsv(text, "s.csv");
    CHECK(s.topology().spec() == "mesh:4x4");
    CHECK(s.algorithm == "binomial");
    CHECK(s.size() == 2);
    CHECK_FALSE(s.contentionFree);
    // A schedule without transfers: one row of settings alone.
    const Schedule none = scheduleFromCsv("step,from,to,topology,pattern\n,,,torus:3x3,broadcast\n", "s.csv");
    CHECK(none.size() == 0);
    CHECK(none.topology().spec() == "torus:3x3");
    // The same topology twice is one; two different ones are refused with the line.
    requireRefused("step,from,to,topology\n1,\"0,0\",\"1,0\",mesh:4x4\n2,\"0,0\",\"0,1\",mesh:2x2\n",
                   {"s.csv:3:", "a second topology (mesh:2x2 after mesh:4x4)"}, std::nullopt);
    CHECK(
        scheduleFromCsv("# topology: mesh:4x4\nstep,from,to,topology\n1,\"0,0\",\"1,0\",mesh:4x4\n", "s.csv").size() ==
        1);
    requireRefused("step,from,to,topology,topology\n", {"s.csv:1:", "appears twice"}, std::nullopt);
}

TEST_CASE("exercises: the correct 4x4 broadcast is valid and as good as the best known", "[csv][validate]")
{
    const Schedule s = readScheduleCsv(kExercises / "broadcast-4x4-correct.csv");
    CHECK(s.topology() == Topology::mesh({4, 4}));
    const Validation v = validate(s);
    CHECK(v.ok());
    CHECK(v.findings.empty());
    const Metrics m = computeMetrics(s);
    const BroadcastReference ref = broadcastReference(s.topology(), s.source(), s.portModel());
    // ⌈log2 16⌉ = 4 steps; cang-wu optimal's TCD from the corner of the 4×4 mesh is 18
    // (topocast-cli schedule -t mesh:4x4 -a cang-wu). The student's file reaches both.
    CHECK(ref.minSteps == 4);
    REQUIRE(ref.bestTcd);
    CHECK(*ref.bestTcd == 18);
    CHECK(ref.bestTcdAlgorithm == "cang-wu (optimal)");
    CHECK(m.steps == ref.minSteps);
    CHECK(m.tcd == *ref.bestTcd);
}

TEST_CASE("exercises: validate names every broken rule of the broken 4x4 broadcast with step and nodes",
          "[csv][validate]")
{
    const Schedule s = readScheduleCsv(kExercises / "broadcast-4x4-broken.csv");
    const Validation v = validate(s);
    CHECK(v.violationCount == 4);
    REQUIRE(v.findings.size() == v.violations.size());
    for (std::size_t i = 0; i < v.findings.size(); ++i)
        CHECK(v.findings[i].text == v.violations[i]);
    // The four rules the file's comment says it breaks, worked out by hand from its rows.
    const std::set<Key> expected{
        {FindingKind::NotYetHolding, 2, {"(3,0)", "(3,3)"}},
        {FindingKind::InformedTwice, 4, {"(2,0)", "(3,0)"}},
        {FindingKind::ChannelShared, 4, {"(3,2)", "(1,3)", "(2,2)", "(0,3)"}},
        {FindingKind::NeverReached, 4, {"(2,3)"}},
    };
    CHECK(findingKeys(s, v) == expected);
    for (const Finding& f : v.findings)
        if (f.kind == FindingKind::ChannelShared) {
            REQUIRE(f.channel >= 0);
            CHECK(s.topology().channelName(static_cast<ChannelId>(f.channel)) == "(2,2)→(1,2)");
        } else {
            CHECK(f.channel == -1);
        }
}

TEST_CASE("validate findings: every rule kind carries its step and nodes", "[validate]")
{
    const Topology t = Topology::mesh({3});
    Schedule s(t, NodeId{0}, Pattern::Broadcast, PortModel::OnePort);
    s.add(NodeId{0}, NodeId{1}, StepNo{1});
    s.add(NodeId{0}, NodeId{1}, StepNo{2}); // informed twice
    s.add(NodeId{2}, NodeId{0}, StepNo{2}); // the source informed again, by a node that never holds it
    s.finalize();
    const Validation v = validate(s);
    CHECK(findingKeys(s, v) == std::set<Key>{{FindingKind::InformedTwice, 2, {"(1)", "(0)"}},
                                             {FindingKind::InformedTwice, 2, {"(0)", "(2)"}},
                                             {FindingKind::NotYetHolding, 2, {"(2)", "(0)"}},
                                             {FindingKind::NeverReached, 2, {"(2)"}}});
    CHECK(toString(FindingKind::NeverReached) == "never reached");
    for (const Finding& f : v.findings)
        if (f.kind == FindingKind::NeverReached)
            CHECK(findingLine(t, f) == "after step 2, never reached, node (2): 1 of 3 nodes never receive the message "
                                       "(first: (2))");
}

TEST_CASE("broadcast reference: step lower bounds by port model", "[validate]")
{
    // One-port: ⌈log2 N⌉; all-port on an 8×8 mesh (4 ports): ⌈log5 64⌉ = 3; hypercube 4 all-port
    // (4 ports): ⌈log5 16⌉ = 2.
    CHECK(broadcastReference(Topology::mesh({8, 8}), NodeId{0}, PortModel::OnePort).minSteps == 6);
    CHECK(broadcastReference(Topology::mesh({5, 3}), NodeId{0}, PortModel::OnePort).minSteps == 4);
    CHECK(broadcastReference(Topology::mesh({8, 8}), NodeId{0}, PortModel::AllPort).minSteps == 3);
    CHECK(broadcastReference(Topology::hypercube(4), NodeId{0}, PortModel::AllPort).minSteps == 2);
    CHECK_THROWS_AS(broadcastReference(Topology::mesh({2, 2}), NodeId{4}, PortModel::OnePort), Error);
}

TEST_CASE("topocast-cli validate FILE.csv: exit 1 and one line per broken rule with step and nodes", "[csv][cli]")
{
    const std::string broken = (kExercises / "broadcast-4x4-broken.csv").string();
    const auto r = testing::runCli({"validate", broken});
    CHECK(r.status == 1);
    CHECK(r.out.find("INVALID: 4 violations") != std::string::npos);
    CHECK(r.out.find("  - step 2, not yet holding, nodes (3,0) (3,3): ") != std::string::npos);
    CHECK(r.out.find("  - step 4, informed twice, nodes (2,0) (3,0): ") != std::string::npos);
    CHECK(r.out.find("  - step 4, channel shared, nodes (3,2) (1,3) (2,2) (0,3): ") != std::string::npos);
    CHECK(r.out.find("  - after step 4, never reached, node (2,3): ") != std::string::npos);
    CHECK(r.out.find("best known: at least 4 steps") != std::string::npos);

    const auto ok = testing::runCli({"validate", (kExercises / "broadcast-4x4-correct.csv").string()});
    CHECK(ok.status == 0);
    CHECK(ok.out.find("\nvalid\n") != std::string::npos);

    const auto json = testing::runCli({"validate", broken, "--json"});
    CHECK(json.status == 1);
    const auto doc = nlohmann::json::parse(json.out);
    REQUIRE(doc["findings"].size() == 4);
    CHECK(doc["findings"][0]["rule"] == "not yet holding");
    CHECK(doc["findings"][0]["step"] == 2);
    CHECK(doc["findings"][0]["nodes"] == nlohmann::json::parse("[[3,0],[3,3]]"));
    CHECK(doc["best_known"]["best_tcd"] == 18);
}

TEST_CASE("topocast-cli validate FILE.csv --topology gives the topology the file does not", "[csv][cli]")
{
    testing::TempDir dir;
    const fs::path file = dir.path / "plain.csv";
    std::ofstream(file) << "step,from,to\n1,0,1\n";
    const auto none = testing::runCli({"validate", file.string()});
    CHECK(none.status == 2);
    CHECK(none.err.find("no topology") != std::string::npos);
    const auto cube = testing::runCli({"validate", file.string(), "--topology", "hypercube:1"});
    CHECK(cube.status == 0);
    const auto bad = testing::runCli({"validate", file.string(), "--topology", "mesh:4x4"});
    CHECK(bad.status == 2);
    CHECK(bad.err.find(":2: column 'from'") != std::string::npos);
    // A JSON schedule names its topology: the flag is refused there.
    const auto json = testing::runCli({"validate", (dir.path / "x.json").string(), "--topology", "mesh:4x4"});
    CHECK(json.status == 2);
    CHECK(json.err.find("--topology applies to a CSV schedule") != std::string::npos);
}
