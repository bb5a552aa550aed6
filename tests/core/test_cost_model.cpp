// The wormhole step-time model that the app draws beside measured step times: the
// non-negative least-squares fit of t_s, t_h, t_b, samples from a measured file, and the model's
// step times (slowest message of each step). Every expected number is worked out in the comments.
#include "topocast/analysis/cost_model.h"

#include "topocast/analysis/replay.h"
#include "topocast/io/measured_json.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include "cli_runner.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <vector>

using namespace topocast;

namespace {

/// 4×4 mesh: step 1 (0,0)→(1,0) (1 hop); step 2 (0,0)→(3,0) (3 hops) and (1,0)→(2,0) (1 hop).
Schedule handSchedule()
{
    Schedule s(Topology::mesh({4, 4}), NodeId{0}, Pattern::Broadcast, PortModel::AllPort);
    s.algorithm = "hand-made";
    s.add(NodeId{0}, NodeId{1}, StepNo{1});
    s.add(NodeId{0}, NodeId{3}, StepNo{2});
    s.add(NodeId{1}, NodeId{2}, StepNo{2});
    s.finalize();
    return s;
}

MeasuredTransfer mt(std::size_t index, std::uint32_t step, NodeId from, NodeId to, double median)
{
    MeasuredTransfer t;
    t.index = index;
    t.step = StepNo{step};
    t.from = from;
    t.to = to;
    t.bytes = 1000;
    t.time = makeTimeStats({median});
    return t;
}

} // namespace

TEST_CASE("cost fit: exact data gives back t_s, t_h, t_b", "[cost]")
{
    // t_s = 10 µs, t_h = 1 µs, t_b = 1 ns: (1 hop, 1000 B) → 12 µs, (2, 1000) → 13 µs,
    // (1, 4000) → 15 µs, (3, 2000) → 15 µs.
    const std::vector<CostSample> samples = {{1, 1000, 12e-6}, {2, 1000, 13e-6}, {1, 4000, 15e-6}, {3, 2000, 15e-6}};
    const CostFit fit = fitLinearCost(samples);
    CHECK(fit.samples == 4);
    CHECK(fit.cost.startup == Approx(10e-6).epsilon(1e-9));
    CHECK(fit.cost.perHop == Approx(1e-6).epsilon(1e-9));
    CHECK(fit.cost.perByte == Approx(1e-9).epsilon(1e-9));
    CHECK(fit.rms == Approx(0.0).margin(1e-15));
}

TEST_CASE("cost fit: a constant hop count leaves t_h at 0 (it cannot be told from t_s)", "[cost]")
{
    // All one hop: 3 µs at 1000 B, 5 µs at 3000 B → t_b = 2 µs / 2000 B = 1 ns, t_s = 3 − 1 = 2 µs.
    const std::vector<CostSample> samples = {{1, 1000, 3e-6}, {1, 3000, 5e-6}};
    const CostFit fit = fitLinearCost(samples);
    CHECK(fit.cost.startup == Approx(2e-6).epsilon(1e-9));
    CHECK(fit.cost.perHop == 0.0);
    CHECK(fit.cost.perByte == Approx(1e-9).epsilon(1e-9));
}

TEST_CASE("cost fit: constants stay non-negative (times that fall with size give a pure start-up)", "[cost]")
{
    // Unconstrained, 5 µs at 1000 B and 3 µs at 2000 B would give t_b = −2 ns. With t_b ≥ 0 the
    // best fit is t_s = mean = 4 µs (residuals ±1 µs, rms 1 µs); t_b alone would be
    // Σb·y/Σb² = 11e-3/5e6 = 2.2 ns with residuals −2.8 and +1.4 µs, worse.
    const std::vector<CostSample> samples = {{1, 1000, 5e-6}, {1, 2000, 3e-6}};
    const CostFit fit = fitLinearCost(samples);
    CHECK(fit.cost.startup == Approx(4e-6).epsilon(1e-9));
    CHECK(fit.cost.perHop == 0.0);
    CHECK(fit.cost.perByte == 0.0);
    CHECK(fit.rms == Approx(1e-6).epsilon(1e-9));
}

TEST_CASE("cost fit: no samples gives zero constants", "[cost]")
{
    const CostFit fit = fitLinearCost({});
    CHECK(fit.samples == 0);
    CHECK(fit.cost.startup == 0.0);
    CHECK(fit.cost.perHop == 0.0);
    CHECK(fit.cost.perByte == 0.0);
}

TEST_CASE("model step times: the slowest message of each step", "[cost]")
{
    // t_s = 10 µs, t_h = 1 µs, t_b = 1 ns, 1000 B per block (one block per transfer):
    // step 1: 10 + 1·1 + 1 = 12 µs; step 2: max(10 + 3 + 1, 10 + 1 + 1) = 14 µs.
    const Schedule s = handSchedule();
    const auto times = modelStepTimes(s, LinearCost{10e-6, 1e-6, 1e-9}, 1000);
    REQUIRE(times.size() == 2);
    CHECK(times[0] == Approx(12e-6));
    CHECK(times[1] == Approx(14e-6));
}

TEST_CASE("cost samples: one per measured transfer, or per step without transfers", "[cost]")
{
    const Schedule s = handSchedule();
    MeasuredTimes m;
    m.topology = "mesh:4x4";
    m.stepCount = 2;
    m.bytesPerBlock = 1000;
    MeasuredStep s1, s2;
    s1.step = StepNo{1};
    s1.time = makeTimeStats({20e-6});
    s2.step = StepNo{2};
    s2.time = makeTimeStats({30e-6});
    m.steps = {s1, s2};

    SECTION("per step: the step's longest route and largest message")
    {
        const auto samples = costSamples(m, s);
        REQUIRE(samples.size() == 2);
        CHECK(samples[0].hops == 1.0);
        CHECK(samples[0].bytes == 1000.0);
        CHECK(samples[0].seconds == 20e-6);
        CHECK(samples[1].hops == 3.0); // (0,0)→(3,0)
        CHECK(samples[1].bytes == 1000.0);
        CHECK(samples[1].seconds == 30e-6);
    }
    SECTION("per transfer: hops from the schedule's routes")
    {
        m.transfers = {mt(0, 1, NodeId{0}, NodeId{1}, 11e-6), mt(1, 2, NodeId{0}, NodeId{3}, 13e-6),
                       mt(2, 2, NodeId{1}, NodeId{2}, 12e-6)};
        const auto samples = costSamples(m, s);
        REQUIRE(samples.size() == 3);
        CHECK(samples[1].hops == 3.0);
        CHECK(samples[1].seconds == 13e-6);
        CHECK(samples[2].hops == 1.0);
    }
    SECTION("a transfer that is not the schedule's is refused")
    {
        m.transfers = {mt(0, 1, NodeId{0}, NodeId{2}, 11e-6)};
        CHECK_THROWS_WITH(costSamples(m, s), Catch::Contains("is not the schedule's transfer 0"));
        m.transfers = {mt(7, 1, NodeId{0}, NodeId{1}, 11e-6)};
        CHECK_THROWS_WITH(costSamples(m, s), Catch::Contains("measured transfer 7 is not in the schedule"));
    }
}

TEST_CASE("the shipped measured fixture belongs to the cang-wu-4x4 scenario's schedule", "[cost][measured]")
{
    const std::filesystem::path root(TOPOCAST_SOURCE_DIR);
    const Schedule s = buildScenario(loadScenario(root / "resources/scenarios/cang-wu-4x4.json"));
    const MeasuredTimes m = readMeasuredTimes(root / "resources/measured/cang-wu-4x4.measured.json");
    CHECK_FALSE(measuredMismatch(m, s).has_value());
    CHECK(m.fingerprint == scheduleFingerprint(s));
    CHECK(m.ranks == 16);
    CHECK(m.verified);
    const auto samples = costSamples(m, s);
    CHECK(samples.size() == s.size()); // one per transfer: 15 for a 16-node broadcast
    const CostFit fit = fitLinearCost(samples);
    CHECK(fit.cost.startup >= 0.0);
    CHECK(fit.cost.perHop >= 0.0);
    CHECK(fit.cost.perByte >= 0.0);
}

TEST_CASE("topocast-cli measured --schedule prints the fitted model beside the measured steps", "[cost][measured][cli]")
{
    const std::filesystem::path root(TOPOCAST_SOURCE_DIR);
    const auto r =
        topocast::testing::runCli({"measured", (root / "resources/measured/cang-wu-4x4.measured.json").string(),
                                   "--schedule", (root / "resources/measured/cang-wu-4x4.schedule.json").string()});
    INFO(r.err);
    REQUIRE(r.status == 0);
    // Every message of the fixture is one 4096-byte block and its hop count (1 or 2) does not
    // explain the times (oversubscribed ranks), so the fit keeps a start-up alone: the mean of
    // the 15 message medians; the measured steps grow with their transfer count instead.
    CHECK_THAT(r.out, Catch::Contains("min_us   median_us    model_us"));
    CHECK_THAT(r.out, Catch::Contains("   4          8      8        32768       125.0       239.3        54.9"));
    CHECK_THAT(r.out, Catch::Contains("total (sum of steps)                      287.2       880.4       219.8"));
    CHECK_THAT(r.out,
               Catch::Contains("fitted to 15 samples (non-negative least squares): t_s = 54.9 us, t_h = 0.0 us"));
}
