#include "topocast/io/export.h"

#include "commands.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/model/graph.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace topocast;

namespace {

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

/// The lines of a CSV without its '# key: value' lines (the export writes them first).
std::vector<std::string> dataLines(const std::string& text)
{
    std::vector<std::string> out;
    for (const std::string& line : lines(text))
        if (line.rfind("# ", 0) != 0)
            out.push_back(line);
    return out;
}

std::vector<std::string> fields(const std::string& line)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : line) {
        if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

struct ReadVertex {
    std::string name, coords;
    long id = 0;
    int informedStep = 0;
    int source = 0;
};
struct ReadEdge {
    int dim = 0, wrap = 0, step = 0, hops = 0;
    long tag = 0;
};
using UGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, ReadVertex, ReadEdge>;
using DGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, ReadVertex, ReadEdge>;

template <class G> boost::dynamic_properties readProperties(G& g, bool dot)
{
    boost::dynamic_properties dp(boost::ignore_other_properties);
    dp.property(dot ? "label" : "name", boost::get(&ReadVertex::name, g));
    dp.property("coords", boost::get(&ReadVertex::coords, g));
    dp.property(dot ? "node_id" : "id", boost::get(&ReadVertex::id, g));
    dp.property("informed_step", boost::get(&ReadVertex::informedStep, g));
    dp.property("source", boost::get(&ReadVertex::source, g));
    dp.property("dim", boost::get(&ReadEdge::dim, g));
    dp.property("wrap", boost::get(&ReadEdge::wrap, g));
    dp.property("step", boost::get(&ReadEdge::step, g));
    dp.property("hops", boost::get(&ReadEdge::hops, g));
    dp.property("tag", boost::get(&ReadEdge::tag, g));
    return dp;
}

Schedule buildForExport(const char* topology, const char* algorithm, NodeId source = NodeId{0})
{
    return buildSchedule(algorithm, Topology::parse(topology), source, Params{});
}

int runCliInto(const std::vector<std::string>& args, std::string& out, std::string& err)
{
    std::ostringstream o, e;
    cli::Io io{o, e};
    const int rc = cli::run(args, io);
    out = o.str();
    err = e.str();
    return rc;
}

std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("export format names round-trip and bad names are refused with the list", "[export]")
{
    for (ExportFormat f : {ExportFormat::Json, ExportFormat::Csv, ExportFormat::ChannelsCsv, ExportFormat::Trace,
                           ExportFormat::GraphML, ExportFormat::Dot})
        CHECK(parseExportFormat(toString(f)) == f);
    CHECK(parseExportGraph("tree") == ExportGraph::Tree);
    CHECK_THROWS_WITH(parseExportFormat("xml"), Catch::Contains("'xml'") && Catch::Contains("graphml"));
    CHECK_THROWS_AS(parseExportGraph("forest"), Error);
    CHECK(fileExtension(ExportFormat::Trace) == "json");
    CHECK(nodeField(Topology::parse("mesh:4x4x4"), NodeId{1 + 4 * 2 + 16 * 3}) == "1;2;3");
    CHECK(nodeField(Topology::parse("hypercube:4"), NodeId{11}) == "11");
    CHECK(routeField(RouteSpec::cyclic(1, -1)) == "cyclic:1-");
}

TEST_CASE("transfer CSV: one row per transfer with step, coordinates, hops (binomial on mesh 4x4)", "[export][csv]")
{
    const Schedule s = buildForExport("mesh:4x4", "binomial");
    // The header first (any CSV reader's defaults take it), the settings the CSV reader takes in
    // columns after the transfer's, filled in the first row (the export is the CSV `validate`
    // reads back).
    const std::vector<std::string> rows = lines(exportToString(s, ExportFormat::Csv));
    REQUIRE(rows.size() == s.size() + 1);
    CHECK(rows[0] == "step,from,to,from_id,to_id,hops,route,payload,tag,size,blocks,topology,algorithm,mode,source,"
                     "pattern,ports,max_sends_per_step,step_contention,dimension_order,parts,participants");
    CHECK(fields(rows[1]) == std::vector<std::string>{"1",        "0;0", "0;2", "0",         "8",        "2",
                                                      "order",    "0",   "0",   "1",         "",         "mesh:4x4",
                                                      "binomial", "",    "0;0", "broadcast", "one-port", "",
                                                      "allowed",  "XY",  "1",   ""});
    std::uint64_t hopSum = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Transfer& t = s.transfers()[i];
        const auto f = fields(rows[i + 1]);
        REQUIRE(f.size() == 22);
        if (i > 0)
            CHECK(f[11].empty()); // the settings only in the first row
        CHECK(f[0] == std::to_string(t.step));
        CHECK(f[1] ==
              std::to_string(s.topology().coord(t.from, 0)) + ";" + std::to_string(s.topology().coord(t.from, 1)));
        CHECK(f[3] == std::to_string(t.from));
        CHECK(f[4] == std::to_string(t.to));
        CHECK(f[9] == "1");
        hopSum += std::stoull(f[5]);
    }
    CHECK(hopSum == computeMetrics(s).tcd);
    // Binomial from rank 0 on 16 ranks: step 1 sends 0 → 8 = (0,2), 2 hops.
    CHECK(rows[2] == "2,0;0,0;1,0,4,1,order,0,0,1,,,,,,,,,,,,");
}

TEST_CASE("channel-load CSV: used channels, totals = cumulative load, per-step columns sum to TCD", "[export][csv]")
{
    const Schedule s = buildForExport("mesh:4x4x2", "binomial");
    const Metrics m = computeMetrics(s);
    const std::vector<std::uint32_t> cumulative = cumulativeChannelLoad(s);
    std::size_t usedChannels = 0;
    for (std::uint32_t c : cumulative)
        usedChannels += c > 0;

    SECTION("wide: one row per used channel, one column per step")
    {
        std::ostringstream out;
        writeChannelLoadCsv(out, s, ChannelCsvLayout::Wide);
        const auto rows = lines(out.str());
        REQUIRE(rows.size() == usedChannels + 1);
        const auto header = fields(rows[0]);
        REQUIRE(header.size() == 7 + s.stepCount());
        CHECK(header[6] == "total");
        CHECK(header.back() == "step_" + std::to_string(s.stepCount()));
        std::uint64_t total = 0;
        std::vector<std::uint64_t> perStep(s.stepCount(), 0);
        for (std::size_t r = 1; r < rows.size(); ++r) {
            const auto f = fields(rows[r]);
            const NodeId tail = static_cast<NodeId>(std::stoul(f[2]));
            const NodeId head = static_cast<NodeId>(std::stoul(f[3]));
            const int dim = std::stoi(f[4]);
            const int sign = std::stoi(f[5]);
            const ChannelId ch = s.topology().channel(tail, dim, sign);
            CHECK(s.topology().channelHead(ch) == head);
            CHECK(std::stoul(f[6]) == cumulative[ch]);
            std::uint64_t rowSum = 0;
            for (std::uint32_t st = 0; st < s.stepCount(); ++st) {
                rowSum += std::stoul(f[7 + st]);
                perStep[st] += std::stoul(f[7 + st]);
            }
            CHECK(rowSum == std::stoul(f[6]));
            total += rowSum;
        }
        CHECK(total == m.tcd);
        for (std::uint32_t st = 0; st < s.stepCount(); ++st)
            CHECK(perStep[st] == m.tcdPerStep[st]);
    }
    SECTION("long: one row per non-zero (step, channel)")
    {
        std::ostringstream out;
        writeChannelLoadCsv(out, s, ChannelCsvLayout::Long);
        const auto rows = lines(out.str());
        std::size_t expected = 0;
        for (StepNo st : steps(s))
            for (std::uint32_t l : stepChannelLoad(s, st))
                expected += l > 0;
        REQUIRE(rows.size() == expected + 1);
        CHECK(rows[0] == "step,from,to,from_id,to_id,dim,sign,load");
        std::uint64_t total = 0;
        for (std::size_t r = 1; r < rows.size(); ++r)
            total += std::stoul(fields(rows[r]).back());
        CHECK(total == m.tcd);
    }
}

TEST_CASE("channel-load CSV on a hypercube: sign +1 sets the bit", "[export][csv]")
{
    const Schedule s = buildForExport("hypercube:3", "bfs");
    const auto rows = lines(exportToString(s, ExportFormat::ChannelsCsv));
    REQUIRE(rows.size() == 7 + 1); // 7 tree edges, each one channel used once
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const auto f = fields(rows[r]);
        const auto from = std::stoul(f[2]), to = std::stoul(f[3]);
        CHECK(std::stoi(f[5]) == (to > from ? 1 : -1));
        CHECK(f[6] == "1");
    }
}

TEST_CASE("Chrome trace: valid JSON, a send and a receive slice per transfer, flows pair up", "[export][trace]")
{
    const Schedule s = buildForExport("mesh:4x4x2", "bfs"); // all-port: several slices per node-step
    const nlohmann::json doc = nlohmann::json::parse(exportToString(s, ExportFormat::Trace));
    REQUIRE(doc.contains("traceEvents"));
    CHECK(doc["otherData"]["topology"] == "mesh:4x4x2");
    struct Span {
        double ts, dur;
    };
    std::map<std::uint64_t, std::vector<Span>> slicesByTid;
    std::map<long, std::vector<nlohmann::json>> flows;
    std::size_t sends = 0, recvs = 0, steps = 0, threadNames = 0;
    for (const auto& e : doc["traceEvents"]) {
        REQUIRE(e.contains("ph"));
        REQUIRE(e["pid"] == 1);
        const std::string ph = e["ph"];
        if (ph == "M") {
            threadNames += e["name"] == "thread_name";
        } else if (ph == "X") {
            const std::string cat = e["cat"];
            sends += cat == "send";
            recvs += cat == "recv";
            steps += cat == "step";
            slicesByTid[e["tid"]].push_back({e["ts"], e["dur"]});
        } else {
            REQUIRE((ph == "s" || ph == "f"));
            flows[e["id"]].push_back(e);
        }
    }
    CHECK(sends == s.size());
    CHECK(recvs == s.size());
    CHECK(steps == s.stepCount());
    CHECK(threadNames == s.topology().nodeCount() + 1); // every node takes part, + the steps track
    REQUIRE(flows.size() == s.size());
    for (const auto& [id, pair] : flows) {
        REQUIRE(pair.size() == 2);
        const Transfer& t = s.transfers()[static_cast<std::size_t>(id - 1)];
        const auto& start = pair[0]["ph"] == "s" ? pair[0] : pair[1];
        const auto& finish = pair[0]["ph"] == "s" ? pair[1] : pair[0];
        CHECK(start["tid"] == t.from + 1);
        CHECK(finish["tid"] == t.to + 1);
        CHECK(finish["bp"] == "e");
        CHECK(start["name"] == finish["name"]);
        // Both ends lie inside step t.step.
        const double lo = (t.step - 1) * 1000.0, hi = t.step * 1000.0;
        CHECK(start["ts"].get<double>() > lo);
        CHECK(start["ts"].get<double>() < hi);
        CHECK(finish["ts"].get<double>() > lo);
        CHECK(finish["ts"].get<double>() < hi);
    }
    // Slices on one track nest properly (same start/end order), as Perfetto requires.
    for (auto& [tid, spans] : slicesByTid) {
        for (const Span& a : spans)
            for (const Span& b : spans) {
                const bool disjoint = a.ts + a.dur <= b.ts || b.ts + b.dur <= a.ts;
                const bool aInB = a.ts >= b.ts && a.ts + a.dur <= b.ts + b.dur;
                const bool bInA = b.ts >= a.ts && b.ts + b.dur <= a.ts + a.dur;
                CHECK((disjoint || aInB || bInA));
            }
    }
}

TEST_CASE("topology GraphML and DOT parse back with Boost.Graph", "[export][graph]")
{
    const auto [spec, links, wraps] = GENERATE(table<const char*, std::size_t, std::size_t>({
        {"mesh:4x3", 17, 0},
        {"torus:3x4", 24, 7},
        {"hypercube:4", 32, 0},
        {"mesh:2x2x2", 12, 0},
    }));
    const Topology topo = Topology::parse(spec);
    CAPTURE(spec);
    REQUIRE(topo.channelCount() == 2 * links);

    // Structured bindings are copied into plain locals: C++20 lets a lambda capture them, but
    // clang 14 (the sanitizer build's compiler) does not yet.
    auto check = [&, links = links, wraps = wraps](UGraph& g) {
        REQUIRE(boost::num_vertices(g) == topo.nodeCount());
        REQUIRE(boost::num_edges(g) == links);
        std::size_t wrapCount = 0;
        for (auto [e, end] = boost::edges(g); e != end; ++e) {
            const auto a = static_cast<NodeId>(g[boost::source(*e, g)].id);
            const auto b = static_cast<NodeId>(g[boost::target(*e, g)].id);
            CHECK(topo.distance(a, b) == 1);
            wrapCount += g[*e].wrap;
        }
        CHECK(wrapCount == wraps);
        for (NodeId v{}; v < topo.nodeCount(); ++v) {
            CHECK(g[v].name == topo.nodeName(static_cast<NodeId>(g[v].id)));
            CHECK(g[v].coords == nodeField(topo, static_cast<NodeId>(g[v].id)));
        }
    };
    SECTION("GraphML")
    {
        std::ostringstream out;
        writeTopologyGraphml(out, topo);
        UGraph g;
        auto dp = readProperties(g, false);
        std::istringstream in(out.str());
        boost::read_graphml(in, g, dp);
        check(g);
    }
    SECTION("DOT")
    {
        std::ostringstream out;
        writeTopologyDot(out, topo);
        CHECK(out.str().rfind("graph G {", 0) == 0);
        UGraph g;
        auto dp = readProperties(g, true);
        std::istringstream in(out.str());
        REQUIRE(boost::read_graphviz(in, g, dp, "node_id"));
        check(g);
    }
}

TEST_CASE("broadcast tree GraphML/DOT: N−1 edges, one parent each, BFS tree levels (bfs on mesh 4x4x2)",
          "[export][graph]")
{
    const Topology topo = Topology::parse("mesh:4x4x2");
    const NodeId source = topo.idUnchecked({1, 2, 0});
    const Schedule s = buildSchedule("bfs", topo, source, Params{});
    std::vector<std::uint32_t> levels;
    const std::vector<NodeId> parent = bfsTree(topo, source, &levels);

    const std::vector<std::size_t> first = firstInformers(s);
    CHECK(first[source] == kNoTransfer);
    for (NodeId v{}; v < topo.nodeCount(); ++v)
        if (v != source) {
            REQUIRE(first[v] != kNoTransfer);
            CHECK(s.transfers()[first[v]].step == levels[v]);
        }

    auto check = [&](DGraph& g) {
        REQUIRE(boost::num_vertices(g) == topo.nodeCount());
        REQUIRE(boost::num_edges(g) == topo.nodeCount() - 1);
        std::vector<int> inDegree(topo.nodeCount(), 0);
        std::map<long, std::size_t> indexOf;
        for (std::size_t i = 0; i < boost::num_vertices(g); ++i)
            indexOf[g[i].id] = i;
        for (auto [e, end] = boost::edges(g); e != end; ++e) {
            const auto from = static_cast<NodeId>(g[boost::source(*e, g)].id);
            const auto to = static_cast<NodeId>(g[boost::target(*e, g)].id);
            ++inDegree[to];
            CHECK(g[*e].step == static_cast<int>(levels[to]));
            CHECK(g[*e].hops == 1);
            CHECK(levels[from] + 1 == levels[to]);
            CHECK(g[boost::target(*e, g)].informedStep == g[*e].step);
        }
        for (NodeId v{}; v < topo.nodeCount(); ++v)
            CHECK(inDegree[v] == (v == source ? 0 : 1));
        const ReadVertex& src = g[indexOf.at(source)];
        CHECK(src.source == 1);
        CHECK(src.informedStep == 0);
    };
    SECTION("GraphML")
    {
        std::ostringstream out;
        writeTreeGraphml(out, s);
        CHECK(out.str().find("edgedefault=\"directed\"") != std::string::npos);
        DGraph g;
        auto dp = readProperties(g, false);
        std::istringstream in(out.str());
        boost::read_graphml(in, g, dp);
        check(g);
    }
    SECTION("DOT")
    {
        std::ostringstream out;
        writeTreeDot(out, s);
        CHECK(out.str().rfind("digraph G {", 0) == 0);
        DGraph g;
        auto dp = readProperties(g, true);
        std::istringstream in(out.str());
        REQUIRE(boost::read_graphviz(in, g, dp, "node_id"));
        check(g);
    }
}

TEST_CASE("graph export refuses graphs beyond 2^20 nodes", "[export][graph]")
{
    std::ostringstream out;
    CHECK_THROWS_WITH(writeTopologyDot(out, Topology::hypercube(21)), Catch::Contains("limit"));
}

TEST_CASE("topocast-cli export: every format, --out atomic, topology graph without an algorithm", "[export][cli]")
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("topocast-export-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::string out, err;

    SECTION("json equals topocast-cli schedule --json")
    {
        REQUIRE(runCliInto({"export", "-t", "mesh:4x4", "-a", "binomial", "--format", "json"}, out, err) == 0);
        std::string ref, err2;
        REQUIRE(runCliInto({"schedule", "-t", "mesh:4x4", "-a", "binomial", "--json"}, ref, err2) == 0);
        CHECK(out == ref);
        const Schedule back = scheduleFromJson(nlohmann::json::parse(out));
        CHECK(back.size() == 15);
    }
    SECTION("csv, channels-csv (wide and long), trace")
    {
        REQUIRE(runCliInto({"export", "-t", "mesh:4x4", "-a", "binomial", "--format", "csv"}, out, err) == 0);
        CHECK(dataLines(out).size() == 16);
        REQUIRE(runCliInto({"export", "-t", "mesh:4x4", "-a", "binomial", "--format", "channels-csv"}, out, err) == 0);
        CHECK(lines(out)[0].find("step_4") != std::string::npos);
        REQUIRE(runCliInto({"export", "-t", "mesh:4x4", "-a", "binomial", "--format", "channels-csv", "--long"}, out,
                           err) == 0);
        CHECK(lines(out)[0] == "step,from,to,from_id,to_id,dim,sign,load");
        REQUIRE(runCliInto({"export", "-t", "mesh:4x4", "-a", "binomial", "--format", "trace", "--step-us", "10"}, out,
                           err) == 0);
        CHECK(nlohmann::json::parse(out)["otherData"]["step_us"] == 10);
    }
    SECTION("graphml/dot of the topology need no algorithm; the tree does")
    {
        REQUIRE(runCliInto({"export", "-t", "torus:3x3", "--format", "dot"}, out, err) == 0);
        CHECK(out.rfind("graph G {", 0) == 0);
        REQUIRE(runCliInto({"export", "-t", "torus:3x3", "--format", "graphml", "--graph", "tree"}, out, err) == 2);
        CHECK(err.find("needs a schedule") != std::string::npos);
        REQUIRE(runCliInto({"export", "-t", "torus:3x3", "-a", "bfs", "--format", "graphml", "--graph", "tree"}, out,
                           err) == 0);
        CHECK(out.find("edgedefault=\"directed\"") != std::string::npos);
    }
    SECTION("--scenario file")
    {
        const fs::path sc = dir / "s.json";
        Scenario scenario;
        scenario.topology = Topology::parse("mesh:4x4x4");
        scenario.algorithm = "recursive-doubling";
        scenario.source = NodeId{5};
        saveScenario(scenario, sc);
        REQUIRE(runCliInto({"export", "--scenario", sc.string(), "--format", "csv"}, out, err) == 0);
        CHECK(dataLines(out).size() == 64);
    }
    SECTION("--out writes atomically; a failing export leaves the existing file untouched")
    {
        const fs::path file = dir / "x.csv";
        REQUIRE(runCliInto({"export", "-t", "mesh:4x4", "-a", "binomial", "--format", "csv", "--out", file.string()},
                           out, err) == 0);
        CHECK(out.empty());
        const std::string first = readFile(file);
        CHECK(dataLines(first).size() == 16);
        // An unknown algorithm or format fails before anything is written.
        CHECK(runCliInto({"export", "-t", "mesh:4x4", "-a", "nope", "--format", "csv", "--out", file.string()}, out,
                         err) == 2);
        CHECK(runCliInto({"export", "-t", "mesh:4x4", "-a", "binomial", "--format", "xls", "--out", file.string()}, out,
                         err) == 2);
        CHECK(err.find("'xls'") != std::string::npos);
        CHECK(readFile(file) == first);
        std::size_t entries = 0;
        for (const auto& e : fs::directory_iterator(dir)) {
            (void)e;
            ++entries;
        }
        CHECK(entries == 1); // no temporary left behind
    }
    fs::remove_all(dir);
}

TEST_CASE("animation clock: k frames per step at fractions j/k, one delivered frame, holds, no wall time",
          "[export][animation]")
{
    const auto frames = animationFrames(9, 2, 4, 4, 2);
    REQUIRE(frames.size() == 3 * 4 + 1 + 2);
    CHECK(frames[0] == FrameTime{2, 0.0});
    CHECK(frames[1] == FrameTime{2, 0.25});
    CHECK(frames[3] == FrameTime{2, 0.75});
    CHECK(frames[4] == FrameTime{3, 0.0});
    CHECK(frames[11] == FrameTime{4, 0.75});
    for (std::size_t i = 12; i < frames.size(); ++i)
        CHECK(frames[i] == FrameTime{4, 1.0});
    // Two small requests worked out by hand: steps 2..3 of 3 at k = 2 with one hold frame, and
    // step 5 alone at k = 3 (thirds) with none; each ends with the delivered frame (last, 1.0).
    CHECK(animationFrames(3, 2, 3, 2, 1) ==
          std::vector<FrameTime>{{2, 0.0}, {2, 0.5}, {3, 0.0}, {3, 0.5}, {3, 1.0}, {3, 1.0}});
    CHECK(animationFrames(5, 5, 5, 3, 0) == std::vector<FrameTime>{{5, 0.0}, {5, 1.0 / 3}, {5, 2.0 / 3}, {5, 1.0}});
    CHECK(animationFrames(1, 1, 1, 1).size() == 2);
    CHECK_THROWS_WITH(animationFrames(9, 3, 10, 4), Catch::Contains("1..9"));
    CHECK_THROWS_WITH(animationFrames(9, 1, 9, 0), Catch::Contains("frames per step 0"));

    CHECK(parseStepRange("all", 7) == std::pair<std::uint32_t, std::uint32_t>{1, 7});
    CHECK(parseStepRange("3", 7) == std::pair<std::uint32_t, std::uint32_t>{3, 3});
    CHECK(parseStepRange("2-5", 7) == std::pair<std::uint32_t, std::uint32_t>{2, 5});
    CHECK(parseStepRange("4-", 7) == std::pair<std::uint32_t, std::uint32_t>{4, 7});
    for (const char* bad : {"0", "5-3", "8", "x", "2-9", "-3", "1-2-3"})
        CHECK_THROWS_WITH(parseStepRange(bad, 7), Catch::Contains(bad) && Catch::Contains("1..7"));
}
