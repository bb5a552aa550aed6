// The map of every source dealt to workers (MPI ranks) and estimated before it starts: every
// share combined gives exactly what one process computes, failures included, and the estimate
// says how many schedules it times and on which networks.
#include "cli_runner.h"

#include "topocast/analysis/source_map.h"
#include "topocast/analysis/source_map_estimate.h"
#include "topocast/model/error.h"
#include "topocast/text/durations.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

using namespace topocast;
using topocast::testing::runCli;

namespace {

/// Every share of `parts`, each computed on its own, as ranks would (exceptions dropped where
/// `crossRanks`: a message is all that crosses an MPI job).
std::vector<SourceMapShare> everyShare(const std::string& algorithm, const Topology& topo, const Params& params,
                                       SourceMapMetric metric, std::uint32_t parts, bool crossRanks)
{
    std::vector<SourceMapShare> shares;
    SourceMapOptions options;
    options.threads = 2;
    for (std::uint32_t p = 0; p < parts; ++p) {
        auto share = computeSourceMapShare(algorithm, topo, params, metric, p, parts, options);
        REQUIRE(share);
        if (crossRanks)
            share->exception = nullptr;
        shares.push_back(std::move(*share));
    }
    return shares;
}

bool sameValues(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
            return false;
    return true;
}

} // namespace

TEST_CASE("source map shares: round-robin sizes cover every source once", "[source-map][mpi-source-map]")
{
    CHECK(sourceMapShareSize(10, 0, 4) == 3);
    CHECK(sourceMapShareSize(10, 1, 4) == 3);
    CHECK(sourceMapShareSize(10, 2, 4) == 2);
    CHECK(sourceMapShareSize(10, 3, 4) == 2);
    CHECK(sourceMapShareSize(3, 5, 8) == 0); // more ranks than sources: the rest idle
    CHECK(sourceMapShareSize(10, 4, 4) == 0);
    for (std::uint32_t parts : {1u, 2u, 3u, 7u, 64u}) {
        std::uint32_t sum = 0;
        for (std::uint32_t p = 0; p < parts; ++p)
            sum += sourceMapShareSize(1000, p, parts);
        CHECK(sum == 1000);
    }
}

TEST_CASE("source map shares: combined shares equal the whole source map for every metric",
          "[source-map][mpi-source-map]")
{
    const auto [spec, algorithm] = GENERATE(table<std::string, std::string>({
        {"mesh:5x3x2", "binomial"},
        {"mesh:3x3x3", "bfs"},
        {"mesh:5x5x5", "divisible-load"}, // sources without a schedule
    }));
    const Topology topo = Topology::parse(spec);
    const std::uint32_t parts = GENERATE(1u, 2u, 4u, 7u, 200u);
    for (SourceMapMetric metric : sourceMapMetrics(algorithm, Params{})) {
        INFO(spec << " " << algorithm << " " << toString(metric) << " on " << parts << " parts");
        REQUIRE(sourceMapMethod(algorithm, topo, Params{}, metric) == SourceMapMethod::EverySource);
        const auto whole = computeSourceMap(algorithm, topo, Params{}, metric);
        REQUIRE(whole);
        const SourceMap combined = combineSourceMapShares(everyShare(algorithm, topo, Params{}, metric, parts, true),
                                                          metric, topo.nodeCount());
        CHECK(sameValues(combined.values, whole->values));
        CHECK(combined.missing == whole->missing);
        CHECK(combined.missingReason == whole->missingReason);
        CHECK(combined.metric == metric);
    }
}

TEST_CASE("source map shares: divisible-load has holes that every share reports alike", "[source-map][mpi-source-map]")
{
    const Topology topo = Topology::parse("mesh:5x5x5");
    const auto whole = computeSourceMap("divisible-load", topo, Params{}, SourceMapMetric::Tcd);
    REQUIRE(whole);
    CHECK(whole->missing > 0);
    CHECK(whole->missing < topo.nodeCount());
    // The reason is the lowest missing source's, whichever share held it.
    const SourceMap combined = combineSourceMapShares(
        everyShare("divisible-load", topo, Params{}, SourceMapMetric::Tcd, 3, true), SourceMapMetric::Tcd, 125);
    CHECK(combined.missingReason == whole->missingReason);
}

TEST_CASE("source map shares: a failing build is reported as one process reports it",
          "[source-map][mpi-source-map][bad-input]")
{
    const Topology topo = Topology::parse("mesh:4x4");
    const Params bad{{"order", "xq"}};
    std::string expected;
    try {
        computeSourceMap("binomial", topo, bad, SourceMapMetric::Tcd);
    } catch (const Error& e) {
        expected = e.what();
    }
    REQUIRE_THAT(expected, Catch::Contains("dimension order"));
    for (bool crossRanks : {false, true}) {
        INFO("exceptions " << (crossRanks ? "dropped" : "kept"));
        CHECK_THROWS_WITH(combineSourceMapShares(everyShare("binomial", topo, bad, SourceMapMetric::Tcd, 3, crossRanks),
                                                 SourceMapMetric::Tcd, 16),
                          expected);
    }
}

TEST_CASE("source map shares: refusals name the problem", "[source-map][mpi-source-map][bad-input]")
{
    const Topology cube = Topology::parse("hypercube:4");
    CHECK(sourceMapMethod("sbt", cube, Params{}, SourceMapMetric::Tcd) == SourceMapMethod::Symmetry);
    CHECK(sourceMapMethod("cang-wu", Topology::parse("mesh:4x4"), Params{}, SourceMapMetric::Tcd) ==
          SourceMapMethod::ClosedForm);
    CHECK_THROWS_WITH(computeSourceMapShare("sbt", cube, Params{}, SourceMapMetric::Tcd, 0, 2),
                      Catch::Contains("compute it whole"));
    const Topology mesh = Topology::parse("mesh:4x4");
    CHECK_THROWS_WITH(computeSourceMapShare("binomial", mesh, Params{}, SourceMapMetric::Tcd, 2, 2),
                      Catch::Contains("shares are numbered 0 to 1"));
    CHECK_THROWS_WITH(sourceMapMethod("cang-wu", Topology::parse("mesh:6x6"), Params{}, SourceMapMetric::Tcd),
                      Catch::Contains("power of two"));
    // Shares of another network, or out of order, do not fit.
    std::vector<SourceMapShare> shares = everyShare("binomial", mesh, Params{}, SourceMapMetric::Tcd, 2, false);
    CHECK_THROWS_WITH(combineSourceMapShares(shares, SourceMapMetric::Tcd, 17),
                      Catch::Contains("does not fit a network of 17 nodes"));
    std::swap(shares[0], shares[1]);
    CHECK_THROWS_WITH(combineSourceMapShares(shares, SourceMapMetric::Tcd, 16), Catch::Contains("share 0 of 2"));
}

TEST_CASE("source map estimate: what it times and what it assumes", "[source-map][estimate]")
{
    SECTION("a closed form builds nothing")
    {
        const SourceMapEstimate e =
            estimateSourceMap("cang-wu", Topology::parse("mesh:8x8"), Params{}, SourceMapMetric::Tcd, 2);
        CHECK(e.method == SourceMapMethod::ClosedForm);
        CHECK(e.schedules == 0);
        CHECK(e.sampled == 0);
        CHECK(e.seconds == 0.0);
        CHECK(estimateText(e) == "no schedule to build (the algorithm's closed form)");
    }
    SECTION("a small network is timed itself, on up to 8 sources")
    {
        const SourceMapEstimate e =
            estimateSourceMap("binomial", Topology::parse("mesh:8x8"), Params{}, SourceMapMetric::Tcd, 2);
        CHECK(e.method == SourceMapMethod::EverySource);
        CHECK(e.schedules == 64);
        CHECK(e.workers == 2);
        CHECK(e.sampled >= 1);
        CHECK(e.sampled <= 8);
        CHECK(e.sampledOn == "the 8×8 mesh");
        CHECK(e.secondsPerSchedule > 0);
        CHECK(e.seconds == Approx(e.secondsPerSchedule * 64 / 2));
        CHECK_THAT(estimateText(e), Catch::EndsWith(" on 2 cores"));
        CHECK(estimateText(e, "threads").find("2 threads") != std::string::npos);
    }
    SECTION("a network too large to time is extrapolated from two smaller ones of its shape")
    {
        const SourceMapEstimate mesh =
            estimateSourceMap("binomial", Topology::parse("mesh:256x256x256"), Params{}, SourceMapMetric::Tcd, 2);
        CHECK(mesh.schedules == 16777216);
        CHECK(mesh.sampledOn == "the 16×32×32 and 32×64×64 meshes, extrapolated");
        CHECK(mesh.sampled >= 2);
        // Each of 16M schedules is at least as slow as one of 2^17 nodes: far over ten minutes.
        CHECK(mesh.seconds > 600);
        const SourceMapEstimate cube =
            estimateSourceMap("binomial", Topology::parse("hypercube:24"), Params{}, SourceMapMetric::Tcd, 1);
        CHECK(cube.sampledOn == "the 14-cube and the 17-cube, extrapolated");
        CHECK(cube.workers == 1);
        const SourceMapEstimate torus =
            estimateSourceMap("bfs", Topology::parse("torus:300x300x3"), Params{}, SourceMapMetric::Steps, 2);
        CHECK_THAT(torus.sampledOn, Catch::EndsWith(" tori, extrapolated"));
    }
    SECTION("symmetry builds one schedule")
    {
        const SourceMapEstimate e =
            estimateSourceMap("sbt", Topology::parse("hypercube:6"), Params{}, SourceMapMetric::Tcd, 4);
        CHECK(e.method == SourceMapMethod::Symmetry);
        CHECK(e.schedules == 1);
        CHECK(e.seconds == e.secondsPerSchedule);
        CHECK_THAT(estimateText(e), Catch::StartsWith("one schedule"));
    }
}

TEST_CASE("source map estimate: durations in round words", "[source-map][estimate]")
{
    CHECK(formatRoughDuration(0.0) == "under 0.1 s");
    CHECK(formatRoughDuration(0.05) == "under 0.1 s");
    CHECK(formatRoughDuration(0.15) == "0.15 s");
    CHECK(formatRoughDuration(8.2) == "8.2 s");
    CHECK(formatRoughDuration(89) == "89 s");
    CHECK(formatRoughDuration(90) == "1.5 min");
    CHECK(formatRoughDuration(480) == "8 min");
    CHECK(formatRoughDuration(3.2 * 3600) == "3.2 h");
    CHECK(formatRoughDuration(29 * 86400.0) == "29 days");
    CHECK(formatRoughDuration(12 * 365.25 * 86400) == "12 years");
}

TEST_CASE("source map CLI: work estimated over --max-seconds is refused with the MPI command that spreads it",
          "[source-map][estimate][bad-input]")
{
    const auto huge =
        runCli({"source-map", "--topology", "mesh:256x256x256", "--algorithm", "binomial", "--metric", "tcd"});
    CHECK(huge.status == 2);
    CHECK(huge.out.empty());
    CHECK_THAT(huge.err, Catch::Contains("the tcd source map of binomial on the 256×256×256 mesh would take about "));
    CHECK_THAT(huge.err, Catch::Contains("16777216 schedules, one per source"));
    CHECK_THAT(huge.err, Catch::Contains("the 16×32×32 and 32×64×64 meshes, extrapolated"));
    CHECK_THAT(huge.err, Catch::Contains("the limit is --max-seconds 600"));
    CHECK_THAT(huge.err, Catch::Contains("topocast-mpi source-map --topology mesh:256x256x256 --algorithm binomial "
                                         "--metric tcd --json --out source-map.json"));
    // A tiny limit refuses a small brute force too; parameters are written out for topocast-mpi.
    const auto small = runCli({"source-map", "-t", "mesh:8x8x8", "-a", "binomial", "--order", "zyx", "--metric",
                               "steps", "--max-seconds", "0.000001"});
    CHECK(small.status == 2);
    CHECK_THAT(small.err, Catch::Contains("the limit is --max-seconds 1e-06"));
    CHECK_THAT(small.err, Catch::Contains("--algorithm binomial --order zyx --metric steps"));
    // 0: no limit. Large enough to say its estimate on stderr before the progress.
    const auto open = runCli({"source-map", "-t", "mesh:16x8x8", "-a", "binomial", "--metric", "steps", "--max-seconds",
                              "0", "--threads", "2", "--json"});
    CHECK(open.status == 0);
    CHECK_THAT(open.err, Catch::StartsWith("source map: 1024 sources, "));
    CHECK_THAT(open.err, Catch::Contains(" on 2 cores (timed on "));
    CHECK_THAT(open.err, Catch::Contains("source map: 1024 of 1024 sources"));
    CHECK(runCli({"source-map", "-t", "mesh:4x4", "-a", "binomial", "--metric", "tcd", "--max-seconds", "-1"}).status ==
          2);
}
