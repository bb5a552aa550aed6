// The source map of every metric of every algorithm against schedules built one source
// at a time, and topocast-cli source-map (JSON against tcd-map and against `schedule` runs; bad input).
#include "cli_runner.h"
#include "temp_dir.h"

#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/cost_model.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/source_map.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/io/figures_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace topocast;
using topocast::testing::CliRun;
using topocast::testing::runCli;

namespace {

/// The metric of the schedule from `source`, measured the long way: computeMetrics with its
/// contention list (the map-based pass), the algorithm's own figure read from info as the
/// algorithm writes it, or the time engine on every rank (no fold) on the cluster preset at 1 KiB.
/// NaN: no schedule.
double measureOne(const std::string& algorithm, const Topology& topo, NodeId source, const Params& params,
                  SourceMapMetric metric)
{
    Schedule s;
    try {
        s = buildSchedule(algorithm, topo, source, params);
    } catch (const Error&) {
        if (!findAlgorithm(algorithm).someSourcesOnly)
            throw;
        return std::numeric_limits<double>::quiet_NaN();
    }
    const Metrics m = computeMetrics(s, 1000000);
    switch (metric) {
    case SourceMapMetric::Tcd:
        return static_cast<double>(m.tcd);
    case SourceMapMetric::Steps:
        return m.steps;
    case SourceMapMetric::MaxLinkLoad:
        return m.maxLinkLoad;
    case SourceMapMetric::Contention:
        return static_cast<double>(m.contentionUses);
    case SourceMapMetric::Time:
        break;
    }
    // The algorithm's figure as the schedule file writes it (infoJson).
    const nlohmann::ordered_json info = scheduleInfo(s);
    if (algorithm == "divisible-load")
        return info["finish_time"].get<double>(); // the model's T = A·α₀
    if (info.contains("time"))
        return info["time"].get<double>(); // hypercube graphs: T = startups·τ + transfer·t_c
    return timeSchedule(s, NetworkModel{}, {.fold = false}).total * 1e-9; // LogGP on the cluster preset, 1 KiB
}

bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

} // namespace

TEST_CASE("source map: every metric of every algorithm equals schedules built one source at a time", "[source-map]")
{
    struct Case {
        const char* topology;
        const char* algorithm;
        Params params;
    };
    const Case c = GENERATE(values<Case>({
        {"mesh:4x4", "binomial", {}},
        {"torus:3x4", "binomial", {}},
        {"mesh:4x2x2", "recursive-doubling", {}},
        {"hypercube:3", "recursive-doubling", {}},
        {"mesh:3x4", "bfs", {}},
        {"torus:4x3", "bfs", {}},
        {"mesh:4x4", "cang-wu", {{"mode", "optimal"}}},
        {"mesh:4x4", "cang-wu", {{"mode", "paper"}}},
        {"mesh:2x2x2", "cang-wu", {{"mode", "eye-best"}}},
        {"torus:4x4", "cang-wu", {}},
        {"torus:5x5", "tsay-wang", {}},
        {"torus:4x4x4", "tsay-wang", {}},
        {"hypercube:3", "hp", {}},
        {"hypercube:3", "hp", {{"ports", "n"}, {"message", "6"}, {"packet", "2"}}},
        {"hypercube:3", "sbt", {{"pattern", "scatter"}}},
        {"hypercube:3", "tcbt", {}},
        {"hypercube:3", "nrsbt", {{"ports", "n"}, {"message", "3"}}},
        {"hypercube:3", "nesbt", {{"tau", "10"}, {"tc", "0.5"}}},
        {"hypercube:3", "sbnt", {{"pattern", "scatter"}, {"ports", "n"}}},
        {"hypercube:3", "sbntc", {{"pattern", "scatter"}}},
        {"mesh:6x6x6", "divisible-load", {}},
    }));
    const Topology topo = Topology::parse(c.topology);
    INFO(c.topology << " " << c.algorithm);
    const std::vector<SourceMapMetric> metrics = sourceMapMetrics(c.algorithm, c.params);
    CHECK(metrics == allSourceMapMetrics()); // every algorithm with a one-source pattern has all five
    for (const SourceMapMetric metric : metrics) {
        INFO(toString(metric));
        for (const bool symmetry : {true, false}) {
            INFO("useSymmetry " << symmetry);
            SourceMapOptions options;
            options.useSymmetry = symmetry;
            const auto sourceMap = computeSourceMap(c.algorithm, topo, c.params, metric, options);
            REQUIRE(sourceMap);
            REQUIRE(sourceMap->values.size() == topo.nodeCount());
            std::uint32_t missing = 0;
            for (NodeId v{}; v < topo.nodeCount(); ++v) {
                const double want = measureOne(c.algorithm, topo, v, c.params, metric);
                missing += std::isnan(want) ? 1 : 0;
                INFO("source " << topo.nodeName(v) << ": " << sourceMap->values[v] << " want " << want);
                CHECK(same(sourceMap->values[v], want));
            }
            CHECK(sourceMap->missing == missing);
        }
    }
}

TEST_CASE("source map: divisible-load leaves the sources where its layers do not fit without a value", "[source-map]")
{
    // Drozdowski & Głazek §2.2 (layout: our reconstruction of the paper's lost Figs. 1–2): Scatter(3) with
    // one layer spans 1×4×4 nodes around the source, so on the 6×6×6 mesh only sources with y, z in the
    // middle fit.
    const Topology topo = Topology::parse("mesh:6x6x6");
    const auto sourceMap = computeSourceMap("divisible-load", topo, Params{}, SourceMapMetric::Steps);
    REQUIRE(sourceMap);
    CHECK(sourceMap->missing > 0);
    CHECK(sourceMap->missing < topo.nodeCount());
    CHECK_THAT(sourceMap->missingReason, Catch::Contains("does not fit"));
    CHECK(std::isnan(sourceMap->values[topo.id({0, 0, 0})]));
    const SourceMapSummary sum = summarize(*sourceMap);
    CHECK(sum.present == topo.nodeCount() - sourceMap->missing);
    CHECK(sum.min >= 1);
}

TEST_CASE("source map: the reason given for the sources without a value is the lowest source's, whatever the threads",
          "[source-map]")
{
    // `topocast-cli source-map -t mesh:4x4x4 -a divisible-load --metric time` named a different
    // source in its "e.g." line from run to run: whichever worker thread failed first.
    const Topology topo = Topology::parse("mesh:4x4x4");
    SourceMapOptions one;
    one.threads = 1;
    const auto single = computeSourceMap("divisible-load", topo, Params{}, SourceMapMetric::Time, one);
    REQUIRE(single);
    REQUIRE(single->missing > 1);
    REQUIRE_FALSE(single->missingReason.empty());
    NodeId lowest{};
    while (!std::isnan(single->values[lowest]))
        ++lowest;
    CHECK_THAT(single->missingReason, Catch::Contains("around source " + topo.nodeName(lowest) + " "));
    for (const unsigned threads : {2u, 3u, 8u, 64u}) {
        for (int run = 0; run < 10; ++run) {
            INFO("threads " << threads << ", run " << run);
            SourceMapOptions many;
            many.threads = threads;
            const auto sourceMap = computeSourceMap("divisible-load", topo, Params{}, SourceMapMetric::Time, many);
            REQUIRE(sourceMap);
            CHECK(sourceMap->missing == single->missing);
            CHECK(sourceMap->missingReason == single->missingReason);
        }
    }
    const std::string out = runCli({"source-map", "-t", "mesh:4x4x4", "-a", "divisible-load", "--metric", "time"}).out;
    CHECK_THAT(out, Catch::Contains(" sources have no schedule (-), e.g.: " + single->missingReason + "\n"));
}

TEST_CASE("source map: symmetric algorithms build one schedule, and summaries name every minimum", "[source-map]")
{
    // Tsay-Wang is built from the origin and translated; the hypercube graphs are moved by XOR.
    const auto tw = computeSourceMap("tsay-wang", Topology::parse("torus:9x9x9"), Params{}, SourceMapMetric::Steps);
    REQUIRE(tw);
    CHECK(tw->bySymmetry);
    const SourceMapSummary sum = summarize(*tw);
    CHECK(sum.argmin.size() == 729);
    CHECK(sum.min == sum.max);
    // binomial on mesh:4x4: TCD 20 from (0,0) and (0,2) only (the 16 builds of the previous test).
    const auto bin = computeSourceMap("binomial", Topology::parse("mesh:4x4"), Params{}, SourceMapMetric::Tcd);
    REQUIRE(bin);
    const SourceMapSummary b = summarize(*bin);
    CHECK(b.min == 20);
    CHECK(b.max == 42);
    CHECK(b.argmin == std::vector<NodeId>{NodeId{0}, NodeId{8}});
    CHECK(b.present == 16);
}

TEST_CASE("source map: what a source map lacks is refused with what is allowed", "[source-map][bad-input]")
{
    CHECK_THROWS_WITH(computeSourceMap("nesbt", Topology::parse("hypercube:3"), Params{{"pattern", "allgather"}},
                                       SourceMapMetric::Tcd),
                      Catch::Contains("no source map") && Catch::Contains("broadcast, scatter"));
    CHECK(sourceMapMetrics("sbnt", Params{{"pattern", "alltoall"}}).empty());
    CHECK_THROWS_WITH(sourceMapMetrics("no-such", Params{}), Catch::Contains("known algorithms"));
    CHECK_THAT(sourceMapTimeFigure("binomial"), Catch::Contains("LogGP") && Catch::Contains("M = 1 KiB"));
    CHECK_THAT(sourceMapTimeFigure("nesbt"), Catch::Contains("τ"));
    CHECK(sourceMapTimeUnit("binomial") == "s");
    CHECK(sourceMapTimeUnit("nesbt").empty());
    CHECK(sourceMapTimeUnit("divisible-load") == "s");
}

TEST_CASE("cli source-map --metric tcd equals tcd-map for cang-wu in every mode", "[source-map][cli]")
{
    const std::string topology = GENERATE("mesh:8x8", "mesh:4x4x4", "torus:8x8", "mesh:16");
    const std::string mode = GENERATE("optimal", "eye-best", "paper");
    INFO(topology << " " << mode);
    const CliRun map = runCli({"tcd-map", "--topology", topology, "--mode", mode, "--json"});
    const CliRun land = runCli(
        {"source-map", "--topology", topology, "--algorithm", "cang-wu", "--mode", mode, "--metric", "tcd", "--json"});
    REQUIRE(map.status == 0);
    REQUIRE(land.status == 0);
    const auto m = nlohmann::json::parse(map.out);
    const auto l = nlohmann::json::parse(land.out);
    CHECK(l["metric"] == "tcd");
    CHECK(l["values"] == m["tcd"]);
    CHECK(l["min"] == m["min"]);
    CHECK(l["max"] == m["max"]);
    CHECK(l["argmin"] == m["optimal_sources"]); // coordinates, as tcd-map writes them
    // The envelope every JSON output starts with, the request (algorithm, mode, pattern, every
    // parameter), then the metric, its unit and the values.
    std::vector<std::string> keys;
    for (auto it = l.begin(); it != l.end(); ++it)
        keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{"algorithm", "argmin", "format", "max", "metric", "min", "mode", "params",
                                           "pattern", "topology", "unit", "values", "version"}); // nlohmann::json sorts
    CHECK(land.out.rfind("{\"format\":\"topocast-landscape\",\"version\":1,\"topology\":", 0) == 0);
    CHECK(l["unit"] == "hops");
}

TEST_CASE("cli source-map of binomial on mesh:4x4 equals 16 separate schedule runs", "[source-map][cli]")
{
    const CliRun land = runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "tcd", "--json"});
    REQUIRE(land.status == 0);
    const auto l = nlohmann::json::parse(land.out);
    const Topology topo = Topology::parse("mesh:4x4");
    REQUIRE(l["values"].size() == 16);
    for (NodeId v{}; v < 16; ++v) {
        const Coord c = topo.coords(v);
        const std::string source = std::to_string(c[0]) + "," + std::to_string(c[1]);
        const CliRun one = runCli({"schedule", "-t", "mesh:4x4", "-a", "binomial", "--source", source, "--json"});
        REQUIRE(one.status == 0);
        const auto doc = nlohmann::json::parse(one.out);
        INFO("source " << source);
        CHECK(l["values"][v] == doc["tcd"]);
    }
    CHECK(l["min"] == 20);
    CHECK(l["argmin"] == nlohmann::json::parse("[[0,0],[0,2]]"));
    CHECK(l["max"] == 42);
    // Steps, max_link_load and contention agree with the schedule documents too.
    for (const std::string metric : {"steps", "max_link_load", "contention"}) {
        const auto m = nlohmann::json::parse(
            runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", metric, "--json"}).out);
        const auto doc =
            nlohmann::json::parse(runCli({"schedule", "-t", "mesh:4x4", "-a", "binomial", "-s", "3,1", "--json"}).out);
        INFO(metric);
        CHECK(m["values"][topo.id({3, 1})] == doc[metric]);
    }
}

TEST_CASE("cli source-map: text summary, time with its unit, hypercube addresses, holes as null", "[source-map][cli]")
{
    const CliRun text = runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "tcd"});
    REQUIRE(text.status == 0);
    CHECK_THAT(text.out, Catch::Contains("rows = y, columns = x") && Catch::Contains(" 20 34 26 40") &&
                             Catch::Contains("min 20, max 42") &&
                             Catch::Contains("sources with TCD 20: 2: (0,0) (0,2)"));
    const CliRun time = runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "time"});
    REQUIRE(time.status == 0);
    CHECK_THAT(time.out, Catch::Contains("time in µs: LogGP") && Catch::Contains("cluster: 12.5 GB/s"));
    // The document records the whole request: a reduce's map is not a broadcast's, and a time
    // says what it is and, from the engine, the network it ran on.
    const auto broadcast = nlohmann::json::parse(
        runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "tcd", "--json"}).out);
    const auto reduce = nlohmann::json::parse(
        runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--pattern", "reduce", "--metric", "tcd", "--json"})
            .out);
    CHECK(broadcast["pattern"] == "broadcast");
    CHECK(reduce["pattern"] == "reduce");
    CHECK_FALSE(reduce["params"].contains("pattern")); // "pattern" says it, given or by default
    CHECK(broadcast.dump() != reduce.dump());
    const auto timed = nlohmann::json::parse(
        runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "time", "--json"}).out);
    CHECK(timed["network"]["preset"] == "cluster");
    CHECK(timed["network"]["message"] == "1KiB");
    CHECK_THAT(timed["time_model"].get<std::string>(), Catch::Contains("LogGP"));
    const auto cube = nlohmann::json::parse(
        runCli({"source-map", "-t", "hypercube:3", "-a", "sbt", "--metric", "time", "--tau", "2", "--json"}).out);
    CHECK(cube["argmin"] == nlohmann::json::parse("[0,1,2,3,4,5,6,7]")); // addresses, as schedule --json
    CHECK(cube["min"] == cube["max"]);
    const auto dl = nlohmann::json::parse(
        runCli({"source-map", "-t", "mesh:6x6x6", "-a", "divisible-load", "--metric", "steps", "--json"}).out);
    CHECK(dl["values"][0].is_null());
    CHECK(dl["min"].is_number());
}

TEST_CASE("cli source-map --out writes the document to a file, the same bytes as standard output", "[source-map][cli]")
{
    const testing::TempDir dir;
    const std::string file = (dir.path / "tcd.json").string();
    const std::vector<std::string> args{"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "tcd", "--json"};
    const testing::CliRun shown = testing::runCli(args);
    REQUIRE(shown.status == 0);
    std::vector<std::string> toFile = args;
    toFile.insert(toFile.end(), {"--out", file});
    const testing::CliRun written = testing::runCli(toFile);
    REQUIRE(written.status == 0);
    CHECK(written.out == "wrote " + file + ": the tcd source map of binomial on the 4×4 mesh (JSON)\n");
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text == shown.out);
}

TEST_CASE("cli landscape is the former name of source-map: the same bytes and the same refusals", "[source-map][cli]")
{
    for (const char* metric : {"tcd", "time"}) {
        const testing::CliRun now =
            testing::runCli({"source-map", "-t", "torus:4x4", "-a", "binomial", "--metric", metric, "--json"});
        const testing::CliRun before =
            testing::runCli({"landscape", "-t", "torus:4x4", "-a", "binomial", "--metric", metric, "--json"});
        REQUIRE(now.status == 0);
        CHECK(before.status == 0);
        CHECK(before.out == now.out);
    }
    const testing::CliRun bad = testing::runCli({"landscape", "-t", "mesh:4x4", "-a", "binomial", "--metric", "speed"});
    CHECK(bad.status == 2);
    CHECK(bad.err == testing::runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "speed"}).err);
    CHECK(testing::runCli({"--help"}).out.find("source-map") != std::string::npos);
}

TEST_CASE("cli source-map bad input: unknown metric, no source map, bad topology", "[source-map][cli][bad-input]")
{
    const CliRun metric = runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "hops"});
    CHECK(metric.status == 2);
    CHECK_THAT(metric.err, Catch::Contains("'hops'") && Catch::Contains("tcd, steps, max_link_load, contention, time"));
    const CliRun pattern =
        runCli({"source-map", "-t", "hypercube:3", "-a", "nesbt", "--pattern", "allgather", "--metric", "tcd"});
    CHECK(pattern.status == 2);
    CHECK_THAT(pattern.err, Catch::Contains("no source map") && Catch::Contains("broadcast, scatter"));
    const CliRun topo = runCli({"source-map", "-t", "mesh:4y4", "-a", "binomial", "--metric", "tcd"});
    CHECK(topo.status == 2);
    CHECK_THAT(topo.err, Catch::StartsWith("topocast-cli: "));
    const CliRun wrong = runCli({"source-map", "-t", "mesh:6x6", "-a", "cang-wu", "--metric", "tcd"});
    CHECK(wrong.status == 2);
    CHECK_THAT(wrong.err, Catch::Contains("2^k"));
    const CliRun none = runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial"});
    CHECK(none.status == 2);
    CHECK_THAT(none.err, Catch::Contains("--metric"));
    CHECK(none.out.empty());
}

TEST_CASE("source map: histogram bars, colour-bar ticks and values for people", "[source-map]")
{
    // binomial on mesh:4x4: TCD 20 ×2, 22 ×2, 26 ×2, 28 ×2, 34 ×2, 36 ×2, 40 ×2, 42 ×2 (see above).
    const auto bin = computeSourceMap("binomial", Topology::parse("mesh:4x4"), Params{}, SourceMapMetric::Tcd);
    REQUIRE(bin);
    const auto bars = sourceMapHistogram(bin->values, SourceMapMetric::Tcd, 32);
    REQUIRE(bars.size() == 23); // one bar per whole number 20..42
    CHECK(bars.front().from == 20);
    CHECK(bars.front().count == 2);
    CHECK(bars[1].count == 0);
    CHECK(bars.back().from == 42);
    const auto coarse = sourceMapHistogram(bin->values, SourceMapMetric::Tcd, 4);
    REQUIRE(coarse.size() == 4); // [20, 25.5) [25.5, 31) [31, 36.5) [36.5, 42]
    CHECK(coarse[0].count == 4);
    CHECK(coarse[1].count == 4);
    CHECK(coarse[2].count == 4);
    CHECK(coarse[3].count == 4);
    CHECK(sourceMapHistogram({std::nan(""), 3.0}, SourceMapMetric::Steps, 8).size() == 1);
    CHECK(sourceMapHistogram({}, SourceMapMetric::Steps, 8).empty());
    CHECK(sourceMapTicks(69, 79, SourceMapMetric::Tcd, 5) == std::vector<double>{70, 72, 74, 76, 78});
    CHECK(sourceMapTicks(0, 1, SourceMapMetric::Steps, 5) == std::vector<double>{0, 1});
    CHECK(sourceMapTicks(3, 3, SourceMapMetric::Steps, 5).empty());
    CHECK(formatSourceMapValue(71, SourceMapMetric::Tcd, "") == "71");
    CHECK(formatSourceMapValue(8.156e-6, SourceMapMetric::Time, "s") == "8.2 µs");
    CHECK(formatSourceMapValue(12.5, SourceMapMetric::Time, "") == "12.5");
    CHECK(formatSourceMapValue(std::nan(""), SourceMapMetric::Tcd, "") == "–");
}

namespace {

/// The command line a source map document records: its topology, algorithm, pattern, every
/// parameter, metric, and (timed on a network model) the model and the network as a file.
std::vector<std::string> sourceMapRequestOf(const nlohmann::json& doc, const std::string& networkFile)
{
    std::vector<std::string> args{"source-map",
                                  "-t",
                                  doc["topology"].get<std::string>(),
                                  "-a",
                                  doc["algorithm"].get<std::string>(),
                                  "--pattern",
                                  doc["pattern"].get<std::string>(),
                                  "--metric",
                                  doc["metric"].get<std::string>(),
                                  "--json"};
    for (const auto& [key, value] : doc["params"].items())
        if (key != "pattern")
            args.insert(args.end(), {"--param", key + "=" + value.get<std::string>()});
    if (doc.contains("mode"))
        args.insert(args.end(), {"--mode", doc["mode"].get<std::string>()});
    if (doc.contains("model")) {
        std::ofstream(networkFile) << doc["network"].dump();
        args.insert(args.end(), {"--model", doc["model"].get<std::string>(), "--network", networkFile});
    }
    return args;
}

} // namespace

TEST_CASE("a source map document records its whole request: another pattern another document, the recorded one the "
          "same bytes",
          "[source-map][cli]")
{
    topocast::testing::TempDir dir;
    const std::string net = (dir.path / "net.json").string();
    const std::vector<std::vector<std::string>> requests{
        {"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "tcd", "--json"},
        {"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "tcd", "--pattern", "reduce", "--json"},
        {"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "tcd", "--pattern", "gather", "--json"},
        {"source-map", "-t", "mesh:8x8", "-a", "cang-wu", "--mode", "paper", "--metric", "tcd", "--json"},
        {"source-map", "-t", "torus:4x4", "-a", "binomial", "--metric", "time", "--model", "loggp", "--message",
         "64KiB", "--json"},
        {"source-map", "-t", "torus:4x4", "-a", "binomial", "--metric", "time", "--model", "loggp", "--message", "1MiB",
         "--json"},
    };
    std::set<std::string> documents;
    for (const auto& request : requests) {
        const CliRun r = runCli(request);
        REQUIRE(r.status == 0);
        documents.insert(r.out);
        // Run again from what the document records: the same bytes.
        const CliRun again = runCli(sourceMapRequestOf(nlohmann::json::parse(r.out), net));
        INFO(r.out);
        REQUIRE(again.status == 0);
        CHECK(again.out == r.out);
    }
    CHECK(documents.size() == requests.size()); // two requests never give the same document
}
