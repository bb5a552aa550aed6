// Tsay & Wang's all-port torus broadcast: the bounds (Lemma 1 in §2, Theorems 4–6) and our exact step counts,
// the comparison with the results the paper cites in §1, the test vectors and worked examples of the phases
// of §4–§7 (computed by us, not printed in the paper), the structure checks and our independent checker, the
// mutations the checker must flag (one is §7's even-n phase as printed, which congests), and bad input.
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/tsay_wang.h"
#include "topocast/io/figures_json.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace topocast;

namespace {

Topology cubicTorus(int d, int n)
{
    return Topology::torus(std::vector<int>(static_cast<std::size_t>(d), n));
}

/// Informed nodes after steps 0, 1, 2, … (spec §7's "informed after each step").
std::vector<std::uint64_t> informedCounts(const Schedule& s)
{
    std::vector<std::uint64_t> counts(s.stepCount() + 1, 0);
    counts[0] = 1;
    for (const Transfer& t : s.transfers())
        ++counts[t.step];
    for (std::size_t i = 1; i < counts.size(); ++i)
        counts[i] += counts[i - 1];
    return counts;
}

/// The full §5.1 check: validate() (items 1, 2, 4 and route connectivity), the CDO start rule
/// (item 3) and the step count (item 5), plus the all-port limit and the transfer count.
void requireCorrectSchedule(const Schedule& s, TsayWangVariant v)
{
    const Topology& topo = s.topology();
    const int d = topo.dims();
    const int n = topo.side(0);
    INFO("d=" << d << " n=" << n << " variant=" << toString(v) << " source=" << topo.nodeName(s.source()));
    const Validation val = validate(s);
    INFO((val.violations.empty() ? std::string() : val.violations.front()));
    REQUIRE(val.ok());
    const auto routes = cyclicRouteViolations(s);
    INFO((routes.empty() ? std::string() : routes.front()));
    REQUIRE(routes.empty());
    const auto steps = tsayWangStepViolations(s, v);
    INFO((steps.empty() ? std::string() : steps.front()));
    REQUIRE(steps.empty());
    REQUIRE(s.size() == topo.nodeCount() - 1);
    const Metrics m = computeMetrics(s);
    REQUIRE(m.contentions.empty());
    REQUIRE(m.maxStepLoad == 1);
    REQUIRE(m.maxSendsPerNodeStep <= static_cast<std::uint32_t>(2 * d));
    REQUIRE(m.maxReceivesPerNodeStep == 1);
    REQUIRE(s.stepCount() == tsayWangSteps(d, n, v));
    REQUIRE(s.stepCount() >= allPortLowerBound(d, n));
    REQUIRE(s.stepCount() <= tsayWangPaperBound(d, n));
}

/// The transfer of `s` that delivers to `to` (each node receives exactly once).
const Transfer& receiveOf(const Schedule& s, const Coord& to)
{
    const NodeId id = s.topology().id(to);
    for (const Transfer& t : s.transfers())
        if (t.to == id)
            return t;
    FAIL("no transfer reaches " << s.topology().nodeName(id));
    throw Error("unreachable");
}

bool hasContentionAt(const Metrics& m, std::uint32_t step, ChannelId channel)
{
    for (const Contention& c : m.contentions)
        if (c.step == step && c.channel == channel)
            return true;
    return false;
}

} // namespace

// ---- §2 bounds ------------------------------------------------------------------------------

TEST_CASE("lower bound is exact in integers: LB(2,125) = 6, r(125) = 3 (docs/papers/torus-allport.md §2.1, §2.2)",
          "[tsaywang]")
{
    // In doubles 2·log(125)/log(5) = 6.000000000000001 and log(125)/log(5) = 3.0000000000000004,
    // which ceil to 7 and 4.
    CHECK(allPortLowerBound(2, 125) == 6);
    CHECK(ceilLogInt(5, 125) == 3);
    CHECK(allPortLowerBound(2, 126) == 7);
    CHECK(allPortLowerBound(3, 343) == 9);
    CHECK(allPortLowerBound(4, 6561) == 16);
    CHECK(allPortLowerBound(2, 1) == 0);
    CHECK(ceilLogInt(7, 1) == 0);
    CHECK(ceilLogInt(7, 7) == 1);
    CHECK(ceilLogInt(7, 8) == 2);
    // Every power: q^t ≥ n^d exactly at the boundary.
    for (int d = 2; d <= 6; ++d) {
        const long long q = 2 * d + 1;
        long long n = q;
        for (int r = 1; n <= 1'000'000'000LL; ++r, n *= q) {
            CHECK(allPortLowerBound(d, n) == static_cast<std::uint32_t>(d * r));
            CHECK(allPortLowerBound(d, n + 1) == static_cast<std::uint32_t>(d * r + 1));
            CHECK(ceilLogInt(q, n) == static_cast<std::uint32_t>(r));
            CHECK(ceilLogInt(q, n + 1) == static_cast<std::uint32_t>(r + 1));
            CHECK(isPowerOf(q, n));
            CHECK_FALSE(isPowerOf(q, n + 1));
        }
    }
    // Huge arguments (n^d ≈ 10^360) stay exact: (2d+1)^t ≥ n^d ⇔ t ≥ d·log n / log q.
    CHECK(allPortLowerBound(30, 1'000'000'000'000LL) == 202); // ⌈360 / log10(61)⌉ = ⌈201.6⌉
}

TEST_CASE("step counts and the comparison table (docs/papers/torus-allport.md §2.3, §6.2)", "[tsaywang]")
{
    struct Row {
        int d, n, r, lb, paper, ours;
        int direct, tseng, tw, pc; // −1 = "–"
    };
    const Row row = GENERATE(values<Row>({
        {2, 3, 1, 2, 3, 2, -1, 2, -1, -1},    {2, 4, 1, 2, 4, 3, -1, 2, -1, -1},   {2, 5, 1, 2, 3, 2, 2, 2, -1, 2},
        {2, 6, 1, 3, 4, 3, 3, 4, -1, -1},     {2, 7, 2, 3, 5, 4, -1, 4, -1, -1},   {2, 8, 2, 3, 6, 5, -1, 4, -1, -1},
        {2, 9, 2, 3, 5, 4, -1, 4, -1, -1},    {2, 25, 2, 4, 5, 4, 4, 4, -1, 4},    {2, 26, 2, 5, 6, 5, 5, 6, -1, -1},
        {2, 27, 3, 5, 7, 6, -1, 6, -1, -1},   {2, 125, 3, 6, 7, 6, 6, 6, -1, 6},   {3, 3, 1, 2, 4, 4, -1, -1, 5, -1},
        {3, 4, 1, 3, 6, 6, -1, -1, 5, -1},    {3, 5, 1, 3, 4, 4, -1, -1, 5, -1},   {3, 6, 1, 3, 6, 6, -1, -1, 5, -1},
        {3, 7, 1, 3, 4, 4, 3, -1, 5, 3},      {3, 8, 1, 4, 6, 6, 5, -1, 8, -1},    {3, 9, 2, 4, 7, 7, -1, -1, 8, -1},
        {3, 10, 2, 4, 9, 9, -1, -1, 8, -1},   {3, 49, 2, 6, 7, 7, 6, -1, 8, 6},    {3, 50, 2, 7, 9, 9, 8, -1, 11, -1},
        {3, 343, 3, 9, 10, 10, 9, -1, 11, 9}, {4, 3, 1, 2, 5, 5, -1, -1, -1, -1},  {4, 4, 1, 3, 7, 7, -1, -1, -1, -1},
        {4, 5, 1, 3, 5, 5, -1, -1, -1, -1},   {4, 8, 1, 4, 7, 7, -1, -1, -1, -1},  {4, 9, 1, 4, 5, 5, 4, -1, -1, 4},
        {4, 10, 1, 5, 7, 7, 6, -1, -1, -1},   {4, 11, 2, 5, 9, 9, -1, -1, -1, -1}, {4, 25, 2, 6, 9, 9, -1, -1, -1, -1},
        {4, 81, 2, 8, 9, 9, 8, -1, -1, 8},
    }));
    INFO("d=" << row.d << " n=" << row.n);
    const TorusBroadcastBounds b = torusBroadcastBounds(row.d, row.n);
    auto opt = [](int v) {
        return v < 0 ? std::optional<std::uint32_t>() : std::optional<std::uint32_t>(static_cast<std::uint32_t>(v));
    };
    CHECK(b.r == static_cast<std::uint32_t>(row.r));
    CHECK(b.lowerBound == static_cast<std::uint32_t>(row.lb));
    CHECK(b.paperBound == static_cast<std::uint32_t>(row.paper));
    CHECK(b.paperVariantSteps == opt(row.ours));
    CHECK(b.directVariantSteps == opt(row.direct));
    CHECK(b.tseng2d == opt(row.tseng));
    CHECK(b.tsengWang3d == opt(row.tw));
    CHECK(b.parkChoi == opt(row.pc));
    CHECK(tsayWangSteps(row.d, row.n, TsayWangVariant::Paper) == static_cast<std::uint32_t>(row.ours));
    CHECK(b.lowerBound <= *b.paperVariantSteps);
    CHECK(*b.paperVariantSteps <= b.paperBound);
}

TEST_CASE("paper bound: d·r+1 (odd n), d·r(n−1)+⌈d/2⌉+1 (even n), d ≥ 3 Paper variant meets it (spec §2.2, §2.3)",
          "[tsaywang]")
{
    for (int d = 2; d <= 8; ++d)
        for (int n = 3; n <= 200; ++n) {
            INFO("d=" << d << " n=" << n);
            const std::uint32_t r = ceilLogInt(2 * d + 1, n % 2 != 0 ? n : n - 1);
            const std::uint32_t expected =
                static_cast<std::uint32_t>(d) * r + 1 + (n % 2 == 0 ? static_cast<std::uint32_t>((d + 1) / 2) : 0u);
            CHECK(tsayWangPaperBound(d, n) == expected);
            if (tsayWangUnsupported(d, n, TsayWangVariant::Paper))
                continue;
            const std::uint32_t ours = tsayWangSteps(d, n, TsayWangVariant::Paper);
            CHECK(ours == (d >= 3 ? expected : expected - 1));
            CHECK(allPortLowerBound(d, n) <= ours);
        }
}

// ---- §7 test vectors ------------------------------------------------------------------------

TEST_CASE("informed counts and channels per step match the vectors (docs/papers/torus-allport.md §7)", "[tsaywang]")
{
    struct Vector {
        int d, n;
        TsayWangVariant v;
        std::vector<std::uint64_t> informed;
        std::vector<std::uint64_t> channels;
    };
    const auto P = TsayWangVariant::Paper;
    const auto F = TsayWangVariant::DirectFinal;
    const Vector vec = GENERATE_COPY(values<Vector>({
        {2, 5, P, {1, 5, 25}, {12, 30}},
        {2, 25, P, {1, 5, 25, 125, 625}, {60, 60, 750, 750}},
        {2, 7, P, {1, 5, 7, 35, 49}, {16, 4, 56, 14}},
        {2, 6, P, {1, 5, 25, 36}, {16, 36, 12}},
        {3, 7, P, {1, 7, 49, 91, 343}, {36, 266, 147, 504}},
        {3, 7, F, {1, 7, 49, 343}, {36, 266, 490}},
        {3, 9, P, {1, 7, 9, 63, 81, 153, 585, 729}, {45, 6, 459, 162, 324, 1080, 144}},
        {3, 8, P, {1, 7, 49, 91, 343, 511, 512}, {45, 304, 168, 576, 252, 1}},
        {4, 9, P, {1, 9, 81, 729, 1377, 6561}, {80, 702, 5184, 2916, 12960}},
        {4, 9, F, {1, 9, 81, 729, 6561}, {80, 702, 5184, 10206}},
    }));
    INFO("d=" << vec.d << " n=" << vec.n << " variant=" << toString(vec.v));
    const Schedule s = tsayWangBroadcast(cubicTorus(vec.d, vec.n), NodeId{0}, vec.v);
    CHECK(s.stepCount() == vec.informed.size() - 1);
    CHECK(informedCounts(s) == vec.informed);
    const Metrics m = computeMetrics(s);
    CHECK(m.tcdPerStep == vec.channels); // contention-free, so channels used = hops
    requireCorrectSchedule(s, vec.v);
}

TEST_CASE("step labels and info name the phases and bounds (docs/papers/torus-allport.md §3.9, §8)", "[tsaywang]")
{
    const Schedule s3 = tsayWangBroadcast(cubicTorus(3, 8), NodeId{0});
    CHECK(s3.stepLabels == std::vector<std::string>{"1.1", "2.1", "3.0", "3.1", "E.1", "E.2"});
    CHECK(s3.algorithm == "tsay-wang");
    CHECK(s3.mode == "paper");
    CHECK(s3.portModel() == PortModel::AllPort);
    CHECK(scheduleInfo(s3)["lower_bound"] == 4);
    CHECK(scheduleInfo(s3)["paper_bound"] == 6);
    CHECK(scheduleInfo(s3)["spec_steps"] == 6);
    CHECK(scheduleInfo(s3)["n_prime"] == 7);
    CHECK(scheduleInfo(s3)["r"] == 1);
    const Schedule s2 = tsayWangBroadcast(cubicTorus(2, 25), NodeId{0});
    CHECK(s2.stepLabels == std::vector<std::string>{"1.1", "1.2", "2.1", "2.2"});
    const Schedule s4 = tsayWangBroadcast(cubicTorus(4, 9), NodeId{0}, TsayWangVariant::DirectFinal);
    CHECK(s4.stepLabels == std::vector<std::string>{"1.1", "2.1", "3.1", "4.1"});
    CHECK(s4.mode == "direct");
    // Tags are the phase (1..d, d+1 for the extra phase).
    for (const Transfer& t : s3.transfers()) {
        const std::string& label = s3.stepLabels[t.step - 1];
        CHECK(t.tag == (label[0] == 'E' ? 4u : static_cast<std::uint32_t>(label[0] - '0')));
    }
}

// ---- worked examples of §3 ------------------------------------------------------------------

TEST_CASE("d=3, n=7, step 2.1: the origin's six transfers (docs/papers/torus-allport.md §3.4)", "[tsaywang]")
{
    const Schedule s = tsayWangBroadcast(cubicTorus(3, 7), NodeId{0});
    const Topology& topo = s.topology();
    struct Expect {
        Coord to;
        int dim, sign, hops;
    };
    const std::vector<Expect> expected = {{{1, 6, 0}, 1, +1, 7}, {{2, 5, 0}, 2, +1, 7}, {{0, 1, 4}, 3, +1, 5},
                                          {{6, 1, 0}, 1, -1, 7}, {{5, 2, 0}, 2, -1, 7}, {{0, 6, 3}, 3, -1, 5}};
    int fromOrigin = 0;
    for (const Transfer& t : s.stepTransfers(StepNo{2}))
        if (t.from == 0)
            ++fromOrigin;
    CHECK(fromOrigin == 6);
    for (const Expect& e : expected) {
        const Transfer& t = receiveOf(s, e.to);
        INFO(topo.nodeName(t.to));
        CHECK(t.from == 0);
        CHECK(t.step == 2);
        CHECK(t.route == RouteSpec::cyclic(e.dim - 1, e.sign));
        CHECK(s.hops(t) == e.hops);
    }
}

TEST_CASE("d=3, n=7, step 3.1: the origin's transfers are straight segments (docs/papers/torus-allport.md §3.5)",
          "[tsaywang]")
{
    const Schedule s = tsayWangBroadcast(cubicTorus(3, 7), NodeId{0});
    REQUIRE(s.stepLabels[3] == "3.1");
    struct Expect {
        Coord to;
        int dim, sign, hops;
    };
    const std::vector<Expect> expected = {{{1, 0, 0}, 1, +1, 1}, {{6, 0, 0}, 1, -1, 1}, {{0, 5, 0}, 2, -1, 2},
                                          {{0, 2, 0}, 2, +1, 2}, {{0, 0, 4}, 3, -1, 3}, {{0, 0, 3}, 3, +1, 3}};
    int fromOrigin = 0;
    for (const Transfer& t : s.stepTransfers(StepNo{4}))
        if (t.from == 0)
            ++fromOrigin;
    CHECK(fromOrigin == 6);
    for (const Expect& e : expected) {
        const Transfer& t = receiveOf(s, e.to);
        CHECK(t.from == 0);
        CHECK(t.step == 4);
        CHECK(t.route == RouteSpec::cyclic(e.dim - 1, e.sign));
        CHECK(s.hops(t) == e.hops);
    }
}

TEST_CASE("d=3, n=7, step 3.0 redistributes to S along (1,+) (docs/papers/torus-allport.md §3.5, gap G5)", "[tsaywang]")
{
    const Schedule s = tsayWangBroadcast(cubicTorus(3, 7), NodeId{0});
    const Topology& topo = s.topology();
    const auto step = s.stepTransfers(StepNo{3});
    CHECK(step.size() == 49 - 7); // n'^{d−1} − n'^{d−2}
    for (const Transfer& t : step) {
        CHECK(t.route == RouteSpec::cyclic(0, +1));
        CHECK(topo.coord(t.from, 1) == topo.coord(t.to, 1));
        CHECK(topo.coord(t.from, 2) == topo.coord(t.to, 2));
        CHECK((topo.coord(t.to, 0) - topo.coord(t.to, 1) - topo.coord(t.to, 2)) % 7 == 0); // φ = 0
    }
}

TEST_CASE("d=3, n=9, step 1.2 follows own[2] = {(3,4,+1), (7,8,+1)} (docs/papers/torus-allport.md §3.1)", "[tsaywang]")
{
    const Schedule s = tsayWangBroadcast(cubicTorus(3, 9), NodeId{0});
    const Topology& topo = s.topology();
    const auto step = s.stepTransfers(StepNo{2});
    REQUIRE(step.size() == 2);
    CHECK(step[0].from == topo.id({3, 3, 3}));
    CHECK(step[0].to == topo.id({4, 4, 4}));
    CHECK(step[0].route == RouteSpec::cyclic(0, +1));
    CHECK(step[1].from == topo.id({7, 7, 7}));
    CHECK(step[1].to == topo.id({8, 8, 8}));
    CHECK(step[1].route == RouteSpec::cyclic(0, +1));
}

TEST_CASE("d=2, n=7: step 1.2 has two transfers on (1,+) (docs/papers/torus-allport.md §3.6)", "[tsaywang]")
{
    const Schedule s = tsayWangBroadcast(cubicTorus(2, 7), NodeId{0});
    const Topology& topo = s.topology();
    const auto step = s.stepTransfers(StepNo{2});
    REQUIRE(step.size() == 2);
    CHECK(step[0].from == topo.id({2, 2}));
    CHECK(step[0].to == topo.id({3, 3}));
    CHECK(step[1].from == topo.id({5, 5}));
    CHECK(step[1].to == topo.id({6, 6}));
    for (const Transfer& t : step)
        CHECK(t.route == RouteSpec::cyclic(0, +1));
    // Step 1: routes wrap and are long (spec §1.3, §4 G10): 2 → 4 hops at most per dimension here.
    for (const Transfer& t : s.stepTransfers(StepNo{1}))
        CHECK(s.hops(t) >= 2);
}

TEST_CASE("even n: the extra phase's examples (docs/papers/torus-allport.md §3.7)", "[tsaywang]")
{
    SECTION("d=3, n=8")
    {
        const Schedule s = tsayWangBroadcast(cubicTorus(3, 8), NodeId{0});
        const Topology& topo = s.topology();
        struct Expect {
            Coord to, from;
            int dim, sign, hops;
            std::string label;
        };
        const std::vector<Expect> expected = {
            {{7, 7, 0}, {0, 0, 0}, 1, -1, 2, "E.1"}, {{7, 0, 7}, {0, 0, 1}, 1, -1, 3, "E.1"},
            {{0, 7, 7}, {0, 0, 1}, 2, -1, 3, "E.1"}, {{2, 7, 7}, {2, 0, 6}, 2, -1, 8, "E.1"},
            {{7, 7, 7}, {6, 7, 7}, 1, +1, 1, "E.2"}, {{7, 0, 0}, {6, 0, 0}, 1, +1, 1, "E.1"},
        };
        for (const Expect& e : expected) {
            const Transfer& t = receiveOf(s, e.to);
            INFO(topo.nodeName(t.to));
            CHECK(t.from == topo.id(e.from));
            CHECK(t.route == RouteSpec::cyclic(e.dim - 1, e.sign));
            CHECK(s.hops(t) == e.hops);
            CHECK(s.stepLabels[t.step - 1] == e.label);
        }
    }
    SECTION("d=4, n=10")
    {
        const Schedule s = tsayWangBroadcast(cubicTorus(4, 10), NodeId{0});
        const Transfer& t = receiveOf(s, {3, 9, 4, 9});
        CHECK(t.from == s.topology().id({3, 0, 4, 4}));
        CHECK(t.route == RouteSpec::cyclic(1, -1));
        CHECK(s.hops(t) == 6);
        CHECK(s.stepLabels[t.step - 1] == "E.1");
        requireCorrectSchedule(s, TsayWangVariant::Paper);
    }
    SECTION("E.t adds C(d,2t−1)(n−1)^{d−2t+1} + C(d,2t)(n−1)^{d−2t} nodes (spec §7)")
    {
        const Schedule s = tsayWangBroadcast(cubicTorus(4, 6), NodeId{0});
        const auto counts = informedCounts(s);
        const std::size_t steps = counts.size() - 1;
        REQUIRE(s.stepLabels[steps - 2] == "E.1");
        CHECK(counts[steps - 1] - counts[steps - 2] == 4u * 125 + 6u * 25); // levels 1, 2
        CHECK(counts[steps] - counts[steps - 1] == 4u * 5 + 1u);            // levels 3, 4
    }
}

// ---- §5.1 structure checks ------------------------------------------------------------------

TEST_CASE("the closed form of B_h equals the column construction (docs/papers/torus-allport.md §3.3, Lemmas 3-4)",
          "[tsaywang]")
{
    for (int d = 3; d <= 5; ++d)
        for (int np : {3, 5, 7, 9}) {
            if (d == 5 && np > 5)
                continue;
            INFO("d=" << d << " n'=" << np);
            // B_2 = main diagonal; B_{h+1} = {C_β(o)}.
            std::vector<Coord> base;
            for (int t = 0; t < np; ++t)
                base.push_back(Coord(static_cast<std::size_t>(d), t));
            for (int h = 2; h <= d - 1; ++h) {
                for (const Coord& b : base)
                    CHECK(tsayWangInBase(h, np, b));
                const int D = d - h + 1;
                std::vector<Coord> next;
                for (const Coord& b : base)
                    for (int o = 0; o < np; ++o) {
                        Coord c = b;
                        for (int i = 0; i < D - 1; ++i)
                            c[static_cast<std::size_t>(i)] = (b[0] + o) % np;
                        c[static_cast<std::size_t>(D - 1)] = ((b[0] - o) % np + np) % np;
                        next.push_back(c);
                    }
                base = next;
                // |B_{h+1}| = n'^h and the closed form counts exactly these points.
                long long count = 0, total = 1;
                for (int i = 0; i < d; ++i)
                    total *= np;
                for (long long id = 0; id < total; ++id) {
                    Coord x(static_cast<std::size_t>(d));
                    long long v = id;
                    for (int i = 0; i < d; ++i, v /= np)
                        x[static_cast<std::size_t>(i)] = static_cast<int>(v % np);
                    if (tsayWangInBase(h + 1, np, x))
                        ++count;
                }
                CHECK(static_cast<std::size_t>(count) == next.size());
            }
            for (const Coord& b : base)
                CHECK(tsayWangInBase(d, np, b));
        }
}

TEST_CASE(
    "after phase h the informed set is B_{h+1}, phase 1 holds q^k nodes (docs/papers/torus-allport.md §5.1 item 6)",
    "[tsaywang]")
{
    struct Case {
        int d, n;
    };
    const Case c = GENERATE(values<Case>({{3, 7}, {3, 8}, {3, 9}, {3, 13}, {4, 5}, {4, 9}, {4, 10}, {5, 5}, {5, 6}}));
    INFO("d=" << c.d << " n=" << c.n);
    const Topology topo = cubicTorus(c.d, c.n);
    const NodeId source{topo.nodeCount() / 3};
    const Schedule s = tsayWangBroadcast(topo, source);
    const int np = c.n % 2 != 0 ? c.n : c.n - 1;
    const std::uint32_t r = ceilLogInt(2 * c.d + 1, np);
    const Coord src = topo.coords(source);
    std::vector<char> informed(topo.nodeCount(), 0);
    informed[source] = 1;
    std::size_t next = 0;
    const auto& transfers = s.transfers();
    for (int h = 1; h <= c.d - 1; ++h) {
        for (std::uint32_t k = 1; k <= r; ++k) {
            const std::uint32_t step = static_cast<std::uint32_t>(h - 1) * r + k;
            while (next < transfers.size() && transfers[next].step <= step)
                informed[transfers[next++].to] = 1;
            if (h == 1 && isPowerOf(2 * c.d + 1, np)) {
                std::size_t count = 0;
                for (char i : informed)
                    count += i != 0;
                long long qk = 1;
                for (std::uint32_t i = 0; i < k; ++i)
                    qk *= 2 * c.d + 1;
                CHECK(count == static_cast<std::size_t>(qk));
            }
        }
        for (NodeId v{}; v < topo.nodeCount(); ++v) {
            Coord x = topo.coords(v);
            bool inSub = true;
            for (int i = 0; i < c.d; ++i) {
                auto& xi = x[static_cast<std::size_t>(i)];
                xi = (xi - src[static_cast<std::size_t>(i)] + c.n) % c.n;
                inSub = inSub && xi < np;
            }
            const bool expected = inSub && tsayWangInBase(h + 1, np, x);
            if ((informed[v] != 0) != expected)
                FAIL("after phase " << h << ", " << topo.nodeName(v) << " informed=" << int(informed[v]));
        }
    }
}

TEST_CASE("a source other than the origin is the origin's schedule translated (docs/papers/torus-allport.md §3)",
          "[tsaywang]")
{
    const Topology topo = cubicTorus(3, 8);
    const Schedule s0 = tsayWangBroadcast(topo, NodeId{0});
    const Coord src = {5, 2, 7};
    const Schedule s1 = tsayWangBroadcast(topo, topo.id(src));
    REQUIRE(s0.size() == s1.size());
    auto shift = [&](NodeId v) {
        Coord c = topo.coords(v);
        for (int i = 0; i < 3; ++i)
            c[static_cast<std::size_t>(i)] = (c[static_cast<std::size_t>(i)] + src[static_cast<std::size_t>(i)]) % 8;
        return topo.id(c);
    };
    for (std::size_t i = 0; i < s0.size(); ++i) {
        const Transfer& a = s0.transfers()[i];
        const Transfer& b = s1.transfers()[i];
        CHECK(shift(a.from) == b.from);
        CHECK(shift(a.to) == b.to);
        CHECK(a.step == b.step);
        CHECK(a.route == b.route);
    }
    requireCorrectSchedule(s1, TsayWangVariant::Paper);
}

// ---- §5.1 the checker over every small size -------------------------------------------------

namespace {

/// The §5.1 check for every (d, n) with d = 2..4, n = 3..30 whose torus has between `minNodes`
/// and `maxNodes` nodes, both variants where they exist, from three sources (or one, the middle).
int checkRange(std::uint32_t minNodes, std::uint32_t maxNodes, bool threeSources)
{
    int runs = 0;
    for (int d = 2; d <= 4; ++d)
        for (int n = 3; n <= 30; ++n)
            for (TsayWangVariant v : {TsayWangVariant::Paper, TsayWangVariant::DirectFinal}) {
                if (tsayWangUnsupported(d, n, v))
                    continue;
                const Topology topo = cubicTorus(d, n);
                if (topo.nodeCount() < minNodes || topo.nodeCount() > maxNodes)
                    continue;
                const std::vector<NodeId> sources =
                    threeSources
                        ? std::vector<NodeId>{NodeId{0}, NodeId{topo.nodeCount() / 2 + 3}, NodeId{topo.nodeCount() - 1}}
                        : std::vector<NodeId>{NodeId{topo.nodeCount() / 2 + 3}};
                for (NodeId src : sources) {
                    requireCorrectSchedule(tsayWangBroadcast(topo, src, v), v);
                    ++runs;
                }
            }
    return runs;
}

} // namespace

TEST_CASE(
    "checker: every d = 2..4, n = 3..30 up to 30,000 nodes, both variants, three sources (docs/papers/torus-allport.md "
    "§5.1, §6.3)",
    "[tsaywang]")
{
    CHECK(checkRange(0, 30000, true) == 3 * 75);
}

TEST_CASE("checker: d = 4, n = 14..30 (38,416 to 810,000 nodes), both variants (docs/papers/torus-allport.md §5.1, "
          "§6.3)",
          "[tsaywang][slow]")
{
    CHECK(checkRange(30001, 1000000, false) == 17);
}

TEST_CASE("checker: larger sizes and d = 5, 6 (docs/papers/torus-allport.md §6.3)", "[tsaywang][slow]")
{
    struct Case {
        int d, n;
    };
    const Case c = GENERATE(values<Case>({{2, 125},
                                          {2, 126},
                                          {2, 250},
                                          {2, 625},
                                          {2, 626},
                                          {3, 48},
                                          {3, 49},
                                          {3, 50},
                                          {4, 25},
                                          {4, 26},
                                          {5, 5},
                                          {5, 7},
                                          {5, 8},
                                          {5, 11},
                                          {6, 5},
                                          {6, 6},
                                          {6, 7}}));
    for (TsayWangVariant v : {TsayWangVariant::Paper, TsayWangVariant::DirectFinal}) {
        if (tsayWangUnsupported(c.d, c.n, v))
            continue;
        const Topology topo = cubicTorus(c.d, c.n);
        requireCorrectSchedule(tsayWangBroadcast(topo, NodeId{topo.nodeCount() / 2}, v), v);
    }
}

// ---- §5.2 mutations the checker must flag ---------------------------------------------------

TEST_CASE("mutation: phase-1 transfers all starting in dimension 1 conflict (docs/papers/torus-allport.md §5.2)",
          "[tsaywang]")
{
    Schedule s = tsayWangBroadcast(cubicTorus(2, 5), NodeId{0});
    for (Transfer& t : s.mutableTransfers())
        if (t.step == 1)
            t.route.start = 0;
    s.finalize();
    CHECK_FALSE(validate(s).ok());
    const Metrics m = computeMetrics(s);
    CHECK(hasContentionAt(m, 1, s.topology().channel(s.topology().id({0, 0}), 0, +1)));
}

TEST_CASE("mutation: global transfers started in dimension D conflict (docs/papers/torus-allport.md §5.2)",
          "[tsaywang]")
{
    Schedule s = tsayWangBroadcast(cubicTorus(3, 7), NodeId{0});
    REQUIRE(s.stepLabels[1] == "2.1");
    for (Transfer& t : s.mutableTransfers())
        if (t.step == 2 && t.route.start == 2) // D + j = 3 → D = 2 (0-based 1)
            t.route.start = 1;
    s.finalize();
    CHECK_FALSE(validate(s).ok());
    const Metrics m = computeMetrics(s);
    CHECK(hasContentionAt(m, 2, s.topology().channel(NodeId{0}, 1, +1)));
}

TEST_CASE(
    "mutation: the paper's literal even-n rule conflicts at E.1 for d = 3, 4 (docs/papers/torus-allport.md §3.7, §5.2)",
    "[tsaywang]")
{
    const int d = GENERATE(3, 4);
    const int n = d == 3 ? 8 : 10;
    Schedule s = tsayWangBroadcast(cubicTorus(d, n), NodeId{0});
    const Topology& topo = s.topology();
    std::uint32_t e1 = 0;
    for (Transfer& t : s.mutableTransfers()) {
        Coord c = topo.coords(t.to);
        int level = 0, f = -1;
        for (int i = 0; i < d; ++i)
            if (c[static_cast<std::size_t>(i)] == n - 1) {
                ++level;
                if (f < 0)
                    f = i;
            }
        if (level != 2 || t.tag != static_cast<std::uint32_t>(d + 1))
            continue;
        // "sender = p with both n−1 coordinates set to 0, two-hop negative path"
        for (auto& x : c)
            if (x == n - 1)
                x = 0;
        t.from = topo.id(c);
        t.route = RouteSpec::cyclic(f, -1);
        e1 = t.step;
    }
    s.finalize();
    REQUIRE(s.stepLabels[e1 - 1] == "E.1");
    CHECK_FALSE(validate(s).ok());
    const Metrics m = computeMetrics(s);
    REQUIRE_FALSE(m.contentions.empty());
    CHECK(m.contentions.front().step == e1);
    CHECK(hasContentionAt(m, e1, topo.channel(NodeId{0}, 0, -1)));
}

TEST_CASE(
    "mutation: flipping the final-phase signs for d=2, n=25 conflicts at step 2.2 (docs/papers/torus-allport.md §5.2)",
    "[tsaywang]")
{
    Schedule s = tsayWangBroadcast(cubicTorus(2, 25), NodeId{0});
    for (Transfer& t : s.mutableTransfers())
        if (t.tag == 2)
            t.route.sign = static_cast<std::int8_t>(-t.route.sign);
    s.finalize();
    CHECK_FALSE(validate(s).ok());
    const Metrics m = computeMetrics(s);
    REQUIRE_FALSE(m.contentions.empty());
    CHECK(s.stepLabels[m.contentions.front().step - 1] == "2.2");
}

TEST_CASE("mutation: a start dimension outside Δ and a wrong step count are flagged (docs/papers/torus-allport.md §5.1 "
          "items 3, 5)",
          "[tsaywang]")
{
    Schedule s = tsayWangBroadcast(cubicTorus(3, 7), NodeId{0});
    CHECK(cyclicRouteViolations(s).empty());
    CHECK(tsayWangStepViolations(s, TsayWangVariant::Paper).empty());
    // Step 3.1 sends straight segments; starting one in another dimension is not CDO.
    Schedule bad = s;
    for (Transfer& t : bad.mutableTransfers())
        if (t.step == 4 && t.route.start == 0) {
            t.route.start = 1;
            break;
        }
    bad.finalize();
    const auto routes = cyclicRouteViolations(bad);
    REQUIRE(routes.size() == 1);
    CHECK_THAT(routes.front(), Catch::Contains("start must be in Δ"));
    // One step too many: move a transfer of the last step into a new step.
    Schedule longer = s;
    longer.mutableTransfers().back().step = StepNo{5};
    longer.finalize();
    CHECK_FALSE(tsayWangStepViolations(longer, TsayWangVariant::Paper).empty());
    // Validated against the other variant's count.
    CHECK_FALSE(tsayWangStepViolations(s, TsayWangVariant::DirectFinal).empty());
}

// ---- §6.4 bad input -------------------------------------------------------------------------

TEST_CASE("bad input gives a clear error (docs/papers/torus-allport.md §6.4)", "[tsaywang]")
{
    using Catch::Contains;
    CHECK_THROWS_WITH(tsayWangBroadcast(Topology::torus({7}), NodeId{0}), Contains("d ≥ 2"));
    CHECK_THROWS_WITH(tsayWangBroadcast(Topology::torus({4, 4, 4, 4, 4}), NodeId{0}), Contains("even n=4 < d=5"));
    CHECK_THROWS_WITH(tsayWangBroadcast(Topology::torus({5, 7}), NodeId{0}), Contains("n×…×n"));
    CHECK_THROWS_WITH(tsayWangBroadcast(Topology::mesh({5, 5}), NodeId{0}), Contains("tori"));
    CHECK_THROWS_WITH(tsayWangBroadcast(Topology::torus({5, 5}), NodeId{25}), Contains("source 25 is outside"));
    CHECK_THROWS_WITH(tsayWangBroadcast(Topology::torus({7, 7}), NodeId{0}, TsayWangVariant::DirectFinal),
                      Contains("power of 2d+1 = 5"));
    CHECK(tsayWangUnsupported(2, 2, TsayWangVariant::Paper).value().find("n ≥ 3") != std::string::npos);
    CHECK(tsayWangUnsupported(1, 5, TsayWangVariant::Paper).value().find("d ≥ 2") != std::string::npos);
    CHECK_THROWS_AS(tsayWangSteps(3, 2, TsayWangVariant::Paper), Error);
    CHECK_THROWS_AS(tsayWangPaperBound(1, 5), Error);
    CHECK_THROWS_AS(torusBroadcastBounds(2, 2), Error);
    CHECK_THROWS_WITH(parseTsayWangVariant("fast"), Contains("paper, direct"));
    CHECK(parseTsayWangVariant("direct") == TsayWangVariant::DirectFinal);
}

// ---- registry -------------------------------------------------------------------------------

TEST_CASE("tsay-wang is registered: all-port broadcast, variant parameter", "[tsaywang]")
{
    const AlgorithmInfo& info = findAlgorithm("tsay-wang");
    CHECK(info.patterns == std::vector<std::string>{"broadcast"});
    CHECK_FALSE(info.whyNot(Topology::torus({5, 5})));
    CHECK(info.whyNot(Topology::torus({5, 7})).value().find("n×…×n") != std::string::npos);
    CHECK(info.whyNot(Topology::mesh({5, 5})).has_value());
    CHECK(info.whyNot(Topology::torus({4, 4, 4, 4, 4})).has_value());
    const Topology topo = Topology::torus({7, 7, 7});
    const Schedule paper = buildSchedule("tsay-wang", topo, NodeId{5}, Params{});
    CHECK(paper.stepCount() == 4);
    CHECK(paper.portModel() == PortModel::AllPort);
    const Schedule direct = buildSchedule("tsay-wang", topo, NodeId{5}, Params{{"variant", "direct"}});
    CHECK(direct.stepCount() == 3);
    CHECK_THROWS_WITH(buildSchedule("tsay-wang", Topology::torus({9, 9, 9}), NodeId{0}, Params{{"variant", "direct"}}),
                      Catch::Contains("power of 2d+1"));
    CHECK_THROWS_AS(buildSchedule("tsay-wang", topo, NodeId{0}, Params{{"variant", "sideways"}}), Error);
}
