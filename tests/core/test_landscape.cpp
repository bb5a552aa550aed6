// The landscape of a metric over every source: closed form where the algorithm has
// one, otherwise one schedule per source on worker threads, with progress and cancellation.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/landscape.h"
#include "topocast/analysis/metrics.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>

using namespace topocast;

TEST_CASE("landscape: tcd of binomial on mesh:4x4 equals 16 separate schedule builds", "[landscape]")
{
    const Topology topo = Topology::parse("mesh:4x4");
    const unsigned threads = GENERATE(1u, 2u, 4u, 0u);
    INFO("threads " << threads);
    LandscapeOptions options;
    options.threads = threads;
    const auto landscape = computeLandscape("binomial", topo, Params{}, LandscapeMetric::Tcd, options);
    REQUIRE(landscape);
    CHECK_FALSE(landscape->closedForm);
    CHECK(landscape->metric == LandscapeMetric::Tcd);
    REQUIRE(landscape->values.size() == 16);
    for (NodeId v{}; v < 16; ++v) {
        Schedule s = buildSchedule("binomial", topo, v, Params{});
        s.finalize();
        CHECK(landscape->values[v] == computeMetrics(s).tcd);
    }
}

TEST_CASE("landscape: steps, max_link_load and contention per source agree with computeMetrics", "[landscape]")
{
    const auto [spec, algorithm] = GENERATE(table<std::string, std::string>({
        {"mesh:4x4", "bfs"},
        {"torus:5x5", "tsay-wang"},
        {"hypercube:4", "nesbt"},
        {"mesh:4x4", "cang-wu"}, // tcd has a closed form; the others are built
    }));
    const Topology topo = Topology::parse(spec);
    INFO(spec << " " << algorithm);
    for (const LandscapeMetric metric :
         {LandscapeMetric::Tcd, LandscapeMetric::Steps, LandscapeMetric::MaxLinkLoad, LandscapeMetric::Contention}) {
        INFO(toString(metric));
        const auto landscape = computeLandscape(algorithm, topo, Params{}, metric);
        REQUIRE(landscape);
        CHECK(landscape->closedForm == (metric == LandscapeMetric::Tcd && algorithm == "cang-wu"));
        CHECK(landscape->bySymmetry == (algorithm == "tsay-wang" || algorithm == "nesbt"));
        REQUIRE(landscape->values.size() == topo.nodeCount());
        for (NodeId v{}; v < topo.nodeCount(); ++v) {
            Schedule s = buildSchedule(algorithm, topo, v, Params{});
            s.finalize();
            const Metrics m = computeMetrics(s);
            const std::uint64_t want = metric == LandscapeMetric::Tcd           ? m.tcd
                                       : metric == LandscapeMetric::Steps       ? m.steps
                                       : metric == LandscapeMetric::MaxLinkLoad ? m.maxLinkLoad
                                                                                : m.contentionUses;
            CHECK(landscape->values[v] == static_cast<double>(want));
            CHECK(landscapeValue(s, metric) == static_cast<double>(want));
        }
    }
}

TEST_CASE("landscape: the closed form of cang-wu is its tcdMap, for any size", "[landscape]")
{
    const Topology topo = Topology::parse("mesh:64x64");
    CHECK(hasClosedFormLandscape("cang-wu", LandscapeMetric::Tcd));
    CHECK_FALSE(hasClosedFormLandscape("cang-wu", LandscapeMetric::Steps));
    CHECK_FALSE(hasClosedFormLandscape("bfs", LandscapeMetric::Tcd));
    int calls = 0;
    LandscapeOptions options;
    options.maxSchedules = 16; // applies to brute force only
    options.progress = [&](std::uint32_t, std::uint32_t) { ++calls; };
    const auto landscape = computeLandscape("cang-wu", topo, Params{}, LandscapeMetric::Tcd, options);
    REQUIRE(landscape);
    CHECK(landscape->closedForm);
    const auto map = findAlgorithm("cang-wu").tcdMap(topo, Params{});
    CHECK(landscape->values == std::vector<double>(map.begin(), map.end()));
    CHECK(calls == 0);
}

TEST_CASE("landscape: progress counts every source once, from (0, total) to (total, total)", "[landscape]")
{
    std::mutex mutex;
    std::multiset<std::uint32_t> seen;
    std::uint32_t totalSeen = 0;
    LandscapeOptions options;
    options.threads = 3;
    options.progress = [&](std::uint32_t done, std::uint32_t total) {
        const std::lock_guard lock(mutex);
        seen.insert(done);
        totalSeen = total;
    };
    REQUIRE(computeLandscape("bfs", Topology::parse("mesh:4x4x2"), Params{}, LandscapeMetric::Steps, options));
    CHECK(totalSeen == 32);
    CHECK(seen.size() == 33);
    for (std::uint32_t d = 0; d <= 32; ++d)
        CHECK(seen.count(d) == 1);
}

TEST_CASE("landscape: cancellation stops it", "[landscape][cancel]")
{
    const Topology topo = Topology::parse("mesh:8x8x8");
    SECTION("a stop requested before the start builds nothing")
    {
        std::stop_source stop;
        stop.request_stop();
        std::atomic<int> calls{0};
        LandscapeOptions options;
        options.stop = stop.get_token();
        options.progress = [&](std::uint32_t done, std::uint32_t) { calls += done > 0 ? 1 : 0; };
        CHECK_FALSE(computeLandscape("binomial", topo, Params{}, LandscapeMetric::Tcd, options));
        CHECK(calls == 0);
        CHECK_FALSE(computeLandscape("cang-wu", topo, Params{}, LandscapeMetric::Tcd, options));
    }
    SECTION("a stop requested from the progress callback: the workers take no further source")
    {
        const unsigned threads = GENERATE(1u, 2u, 4u);
        INFO("threads " << threads);
        std::stop_source stop;
        std::atomic<std::uint32_t> most{0};
        std::atomic<int> afterStop{0};
        LandscapeOptions options;
        options.threads = threads;
        options.stop = stop.get_token();
        options.progress = [&](std::uint32_t done, std::uint32_t) {
            if (stop.stop_requested())
                ++afterStop; // a schedule already being built when the stop came
            most = std::max(most.load(), done);
            if (done >= 10)
                stop.request_stop();
        };
        CHECK_FALSE(computeLandscape("binomial", topo, Params{}, LandscapeMetric::Tcd, options));
        CHECK(most >= 10);
        CHECK(most < 10 + threads); // at most one more schedule per worker
        CHECK(afterStop < static_cast<int>(threads));
    }
}

TEST_CASE("landscape: refusals name the problem", "[landscape][bad-input]")
{
    LandscapeOptions options;
    options.maxSchedules = 512;
    CHECK_THROWS_WITH(
        computeLandscape("bfs", Topology::parse("mesh:16x16x16"), Params{}, LandscapeMetric::Tcd, options),
        Catch::Contains("would build 4096 schedules") && Catch::Contains("the limit is 512"));
    CHECK_THROWS_WITH(
        computeLandscape("recursive-doubling", Topology::parse("mesh:6x6"), Params{}, LandscapeMetric::Tcd),
        Catch::Contains("power of two"));
    CHECK_THROWS_WITH(computeLandscape("no-such", Topology::parse("mesh:4x4"), Params{}, LandscapeMetric::Tcd),
                      Catch::Contains("no-such"));
    // An error inside one schedule build reaches the caller once every worker has stopped.
    LandscapeOptions two;
    two.threads = 2;
    CHECK_THROWS_WITH(
        computeLandscape("binomial", Topology::parse("mesh:4x4"), Params{{"order", "xq"}}, LandscapeMetric::Tcd, two),
        Catch::Contains("dimension order"));
    CHECK(parseLandscapeMetric("max_link_load") == LandscapeMetric::MaxLinkLoad);
    CHECK_THROWS_WITH(parseLandscapeMetric("hops"), Catch::Contains("tcd, steps, max_link_load, contention, time"));
}
