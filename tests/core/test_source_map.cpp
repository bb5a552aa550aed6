// The source map of a metric over every source: closed form where the algorithm has
// one, otherwise one schedule per source on worker threads, with progress and cancellation.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/source_map.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>

using namespace topocast;

TEST_CASE("source map: tcd of binomial on mesh:4x4 equals 16 separate schedule builds", "[source-map]")
{
    const Topology topo = Topology::parse("mesh:4x4");
    const unsigned threads = GENERATE(1u, 2u, 4u, 0u);
    INFO("threads " << threads);
    SourceMapOptions options;
    options.threads = threads;
    const auto sourceMap = computeSourceMap("binomial", topo, Params{}, SourceMapMetric::Tcd, options);
    REQUIRE(sourceMap);
    CHECK_FALSE(sourceMap->closedForm);
    CHECK(sourceMap->metric == SourceMapMetric::Tcd);
    REQUIRE(sourceMap->values.size() == 16);
    for (NodeId v{}; v < 16; ++v) {
        Schedule s = buildSchedule("binomial", topo, v, Params{});
        s.finalize();
        CHECK(sourceMap->values[v] == computeMetrics(s).tcd);
    }
}

TEST_CASE("source map: steps, max_link_load and contention per source agree with computeMetrics", "[source-map]")
{
    const auto [spec, algorithm] = GENERATE(table<std::string, std::string>({
        {"mesh:4x4", "bfs"},
        {"torus:5x5", "tsay-wang"},
        {"hypercube:4", "nesbt"},
        {"mesh:4x4", "cang-wu"}, // tcd has a closed form; the others are built
    }));
    const Topology topo = Topology::parse(spec);
    INFO(spec << " " << algorithm);
    for (const SourceMapMetric metric :
         {SourceMapMetric::Tcd, SourceMapMetric::Steps, SourceMapMetric::MaxLinkLoad, SourceMapMetric::Contention}) {
        INFO(toString(metric));
        const auto sourceMap = computeSourceMap(algorithm, topo, Params{}, metric);
        REQUIRE(sourceMap);
        CHECK(sourceMap->closedForm == (metric == SourceMapMetric::Tcd && algorithm == "cang-wu"));
        CHECK(sourceMap->bySymmetry == (algorithm == "tsay-wang" || algorithm == "nesbt"));
        REQUIRE(sourceMap->values.size() == topo.nodeCount());
        for (NodeId v{}; v < topo.nodeCount(); ++v) {
            Schedule s = buildSchedule(algorithm, topo, v, Params{});
            s.finalize();
            const Metrics m = computeMetrics(s);
            const std::uint64_t want = metric == SourceMapMetric::Tcd           ? m.tcd
                                       : metric == SourceMapMetric::Steps       ? m.steps
                                       : metric == SourceMapMetric::MaxLinkLoad ? m.maxLinkLoad
                                                                                : m.contentionUses;
            CHECK(sourceMap->values[v] == static_cast<double>(want));
            CHECK(sourceMapValue(s, metric) == static_cast<double>(want));
        }
    }
}

TEST_CASE("source map: the closed form of cang-wu is its tcdSourceMap, for any size", "[source-map]")
{
    const Topology topo = Topology::parse("mesh:64x64");
    CHECK(hasClosedFormSourceMap("cang-wu", SourceMapMetric::Tcd));
    CHECK_FALSE(hasClosedFormSourceMap("cang-wu", SourceMapMetric::Steps));
    CHECK_FALSE(hasClosedFormSourceMap("bfs", SourceMapMetric::Tcd));
    int calls = 0;
    SourceMapOptions options;
    options.maxSchedules = 16; // applies to brute force only
    options.progress = [&](std::uint32_t, std::uint32_t) { ++calls; };
    const auto sourceMap = computeSourceMap("cang-wu", topo, Params{}, SourceMapMetric::Tcd, options);
    REQUIRE(sourceMap);
    CHECK(sourceMap->closedForm);
    const auto map = findAlgorithm("cang-wu").tcdSourceMap(topo, Params{});
    CHECK(sourceMap->values == std::vector<double>(map.begin(), map.end()));
    CHECK(calls == 0);
}

TEST_CASE("source map: progress counts every source once, from (0, total) to (total, total)", "[source-map]")
{
    std::mutex mutex;
    std::multiset<std::uint32_t> seen;
    std::uint32_t totalSeen = 0;
    SourceMapOptions options;
    options.threads = 3;
    options.progress = [&](std::uint32_t done, std::uint32_t total) {
        const std::lock_guard lock(mutex);
        seen.insert(done);
        totalSeen = total;
    };
    REQUIRE(computeSourceMap("bfs", Topology::parse("mesh:4x4x2"), Params{}, SourceMapMetric::Steps, options));
    CHECK(totalSeen == 32);
    CHECK(seen.size() == 33);
    for (std::uint32_t d = 0; d <= 32; ++d)
        CHECK(seen.count(d) == 1);
}

TEST_CASE("source map: cancellation stops it", "[source-map][cancel]")
{
    const Topology topo = Topology::parse("mesh:8x8x8");
    SECTION("a stop requested before the start builds nothing")
    {
        std::stop_source stop;
        stop.request_stop();
        std::atomic<int> calls{0};
        SourceMapOptions options;
        options.stop = stop.get_token();
        options.progress = [&](std::uint32_t done, std::uint32_t) { calls += done > 0 ? 1 : 0; };
        CHECK_FALSE(computeSourceMap("binomial", topo, Params{}, SourceMapMetric::Tcd, options));
        CHECK(calls == 0);
        CHECK_FALSE(computeSourceMap("cang-wu", topo, Params{}, SourceMapMetric::Tcd, options));
    }
    SECTION("a stop requested from the progress callback: the workers take no further source")
    {
        const unsigned threads = GENERATE(1u, 2u, 4u);
        INFO("threads " << threads);
        std::stop_source stop;
        std::atomic<std::uint32_t> most{0};
        std::atomic<int> afterStop{0};
        SourceMapOptions options;
        options.threads = threads;
        options.stop = stop.get_token();
        options.progress = [&](std::uint32_t done, std::uint32_t) {
            if (stop.stop_requested())
                ++afterStop; // a schedule already being built when the stop came
            most = std::max(most.load(), done);
            if (done >= 10)
                stop.request_stop();
        };
        CHECK_FALSE(computeSourceMap("binomial", topo, Params{}, SourceMapMetric::Tcd, options));
        CHECK(most >= 10);
        CHECK(most < 10 + threads); // at most one more schedule per worker
        CHECK(afterStop < static_cast<int>(threads));
    }
}

TEST_CASE("source map: refusals name the problem", "[source-map][bad-input]")
{
    SourceMapOptions options;
    options.maxSchedules = 512;
    CHECK_THROWS_WITH(
        computeSourceMap("bfs", Topology::parse("mesh:16x16x16"), Params{}, SourceMapMetric::Tcd, options),
        Catch::Contains("would build 4096 schedules") && Catch::Contains("the limit is 512"));
    CHECK_THROWS_WITH(
        computeSourceMap("recursive-doubling", Topology::parse("mesh:6x6"), Params{}, SourceMapMetric::Tcd),
        Catch::Contains("power of two"));
    CHECK_THROWS_WITH(computeSourceMap("no-such", Topology::parse("mesh:4x4"), Params{}, SourceMapMetric::Tcd),
                      Catch::Contains("no-such"));
    // An error inside one schedule build reaches the caller once every worker has stopped.
    SourceMapOptions two;
    two.threads = 2;
    CHECK_THROWS_WITH(
        computeSourceMap("binomial", Topology::parse("mesh:4x4"), Params{{"order", "xq"}}, SourceMapMetric::Tcd, two),
        Catch::Contains("dimension order"));
    CHECK(parseSourceMapMetric("max_link_load") == SourceMapMetric::MaxLinkLoad);
    CHECK_THROWS_WITH(parseSourceMapMetric("hops"), Catch::Contains("tcd, steps, max_link_load, contention, time"));
}
