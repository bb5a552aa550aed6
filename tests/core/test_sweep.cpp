// Checker sweep: every algorithm of the registry × every pattern, port model,
// mode and variant it supports, over a grid of sizes (every supported dimension for meshes and
// tori, hypercubes n = 1..10) and many sources (all of them on small networks, a spread on larger
// ones). Every schedule goes through the checker (validate.h) and the in-process byte-level
// replay (replay.h: every rank's plan, every byte of every block), and its step count must be
// the exact one the specs give (../shared/spec/; each expectation names its section).
//
// One test case per family, so ctest runs them side by side and times each. Each prints one
// line: schedules checked, transfers, blocks replayed, seconds.
#include "topocast/algorithms/divisible_load.h"
#include "topocast/algorithms/hypercube_cost.h"
#include "topocast/algorithms/registry.h"
#include "topocast/algorithms/tsay_wang.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/replay.h"
#include "topocast/analysis/validate.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace topocast;

namespace {

/// What a schedule must be: its exact step count, where that count comes from, and which
/// checker rules apply (wormhole schedules promise no step contention; others may combine).
struct Expectation {
    std::uint32_t steps = 0;
    std::string source; ///< spec section of the count, e.g. "mesh-tcd.md §1.2: T = d·k"
    bool contentionFree = true;
};

struct SweepStats {
    std::size_t schedules = 0;
    std::size_t refusals = 0; ///< requests refused as they must be (whyNot, a variant or placement that does not exist)
    std::uint64_t transfers = 0;
    std::uint64_t blocks = 0;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

    void print(const std::string& family) const
    {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "sweep " << family << ": " << schedules << " schedules, " << transfers << " transfers, " << blocks
                  << " blocks replayed byte for byte, " << refusals << " refusals, " << s << " s\n";
    }
};

/// Bytes per block in the replay: not a multiple of 8, so partial words of fillBlock are used.
constexpr std::uint64_t kBytesPerBlock = 12;

std::string describe(const std::string& algorithm, const Topology& t, NodeId source, const Params& p)
{
    std::ostringstream o;
    o << algorithm << " on " << t.spec() << " from " << t.nodeName(source);
    for (const auto& [key, value] : p.values())
        o << " " << key << "=" << value;
    return o.str();
}

/// Builds one schedule and runs it through everything. Failures name the schedule; `extra`
/// adds family-specific checks (it returns a problem or an empty string).
template <class Extra>
void sweepOne(const std::string& algorithm, const Topology& t, NodeId source, const Params& params,
              const Expectation& expect, SweepStats& stats, Extra&& extra)
{
    Schedule s;
    try {
        s = buildSchedule(algorithm, t, source, params);
    } catch (const Error& e) {
        FAIL_CHECK(describe(algorithm, t, source, params) << " throws: " << e.what());
        return;
    }
    ++stats.schedules;
    stats.transfers += s.size();
    if (s.stepCount() != expect.steps)
        FAIL_CHECK(describe(algorithm, t, source, params)
                   << " takes " << s.stepCount() << " steps; " << expect.source << " gives " << expect.steps);
    ValidateOptions vo;
    vo.forbidStepContention = expect.contentionFree;
    const Validation v = validate(s, vo);
    if (!v.ok()) {
        FAIL_CHECK(describe(algorithm, t, source, params)
                   << ": " << v.violationCount << " checker violations, first: " << v.violations.front());
        return; // the replay needs a schedule that names real nodes and payloads
    }
    // Partial results: the checker follows every contribution; the byte replay sums real bytes
    // (O(N) per received chunk to check it) on the networks up to 64 nodes.
    if (combines(s.pattern()) && s.topology().nodeCount() > 64) {
        if (const std::string problem = extra(s); !problem.empty())
            FAIL_CHECK(describe(algorithm, t, source, params) << ": " << problem);
        return;
    }
    ReplayOptions ro;
    ro.bytesPerBlock = combines(s.pattern()) ? 16 : kBytesPerBlock; // a reduction's chunks are 64-bit words
    const ReplayReport r = replaySchedule(s, ro);
    stats.blocks += r.blocksChecked;
    if (!r.ok())
        FAIL_CHECK(describe(algorithm, t, source, params)
                   << ": " << r.problemCount << " replay problems, first: " << r.problems.front());
    if (r.messages != s.size())
        FAIL_CHECK(describe(algorithm, t, source, params)
                   << ": the replay delivered " << r.messages << " of " << s.size() << " messages");
    const std::string problem = extra(s);
    if (!problem.empty())
        FAIL_CHECK(describe(algorithm, t, source, params) << ": " << problem);
}

const auto noExtra = [](const Schedule&) { return std::string(); };

/// A topology the algorithm does not take: whyNot names the reason, and buildSchedule throws
/// Error with that reason.
void expectRefused(const std::string& algorithm, const Topology& t, const Params& params, SweepStats& stats)
{
    ++stats.refusals;
    const auto why = findAlgorithm(algorithm).whyNot(t);
    if (!why) {
        FAIL_CHECK(algorithm << " should refuse " << t.spec() << " but whyNot finds nothing");
        return;
    }
    try {
        (void)buildSchedule(algorithm, t, NodeId{0}, params);
        FAIL_CHECK(algorithm << " builds on " << t.spec() << " although whyNot says: " << *why);
    } catch (const Error& e) {
        if (e.what() != *why)
            FAIL_CHECK(algorithm << " on " << t.spec() << " throws \"" << e.what() << "\", not whyNot's \"" << *why
                                 << "\"");
    }
}

/// A fixed pseudo-random sequence (the sweep must be the same on every run).
std::uint64_t nextRandom(std::uint64_t& state)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
}

/// Every source when the network has at most `allUpTo` nodes; otherwise a spread: the first and
/// last node, every corner reached by one far coordinate, the centre and its lower neighbour
/// (mesh/torus) or the two alternating bit patterns (hypercube), and `random` pseudo-random
/// nodes.
std::vector<NodeId> sourcesOf(const Topology& t, std::size_t allUpTo = 64, int random = 4)
{
    const NodeId n{t.nodeCount()};
    std::vector<NodeId> out;
    if (n <= allUpTo) {
        for (NodeId v{}; v < n; ++v)
            out.push_back(v);
        return out;
    }
    std::set<NodeId> pick{NodeId{0}, NodeId{n - 1}};
    if (t.isHypercube()) {
        pick.insert(static_cast<NodeId>(0x55555555u & (n - 1)));
        pick.insert(static_cast<NodeId>(0xAAAAAAAAu & (n - 1)));
    } else {
        Coord centre, below;
        for (int d = 0; d < t.dims(); ++d) {
            Coord far(static_cast<std::size_t>(t.dims()), 0);
            far[static_cast<std::size_t>(d)] = t.side(d) - 1;
            pick.insert(t.id(far));
            centre.push_back(t.side(d) / 2);
            below.push_back(std::max(0, t.side(d) / 2 - 1));
        }
        pick.insert(t.id(centre));
        pick.insert(t.id(below));
    }
    std::uint64_t state = n;
    for (int i = 0; i < random; ++i)
        pick.insert(static_cast<NodeId>(nextRandom(state) % n));
    return {pick.begin(), pick.end()};
}

std::uint32_t ceilLog2(std::uint64_t x)
{
    std::uint32_t k = 0;
    while ((std::uint64_t{1} << k) < x)
        ++k;
    return k;
}

/// The grid of meshes and tori every family draws from (those an algorithm refuses are checked
/// to be refused): every dimension 1..6, small sides, cubic and not.
std::vector<Topology> meshAndTorusGrid()
{
    std::vector<Topology> out;
    for (const char* spec :
         {"mesh:1",           "mesh:2",         "mesh:3",          "mesh:7",           "mesh:8",
          "mesh:32",          "mesh:2x2",       "mesh:3x3",        "mesh:4x4",         "mesh:3x5",
          "mesh:2x8",         "mesh:6x6",       "mesh:8x8",        "mesh:16x16",       "mesh:32x32",
          "mesh:2x2x2",       "mesh:3x3x3",     "mesh:2x4x8",      "mesh:4x4x4",       "mesh:3x4x5",
          "mesh:8x8x8",       "mesh:2x2x2x2",   "mesh:3x3x3x3",    "mesh:4x4x4x4",     "mesh:2x3x2x3",
          "mesh:2x2x2x2x2",   "mesh:3x3x3x3x3", "mesh:4x4x4x4x4",  "mesh:2x2x2x2x2x2", "mesh:4x4x4x4x4x4",
          "torus:3",          "torus:4",        "torus:5",         "torus:8",          "torus:16",
          "torus:3x3",        "torus:4x4",      "torus:5x5",       "torus:3x5",        "torus:8x8",
          "torus:16x16",      "torus:3x3x3",    "torus:4x4x4",     "torus:3x4x5",      "torus:8x8x8",
          "torus:3x3x3x3",    "torus:4x4x4x4",  "torus:3x3x3x3x3", "torus:4x4x4x4x4",  "torus:3x3x3x3x3x3",
          "torus:4x4x4x4x4x4"})
        out.push_back(Topology::parse(spec));
    return out;
}

} // namespace

TEST_CASE("sweep: binomial, recursive-doubling and bfs on every mesh, torus and hypercube of the grid, many "
          "sources, checker + byte replay + exact steps (baselines.h)",
          "[sweep][baseline]")
{
    SweepStats stats;
    std::vector<Topology> grid = meshAndTorusGrid();
    for (int n = 1; n <= 10; ++n)
        grid.push_back(Topology::hypercube(n));
    for (const Topology& t : grid) {
        const std::uint64_t N = t.nodeCount();
        for (NodeId src : sourcesOf(t)) {
            // binomial: ⌈log2 N⌉ steps (MPICH binomial tree, baselines.h); routes on the network
            // may share channels in a step (binomial on a torus contends), so contention is allowed.
            sweepOne("binomial", t, src, {}, {ceilLog2(N), "baselines.h: m = ⌈log2 N⌉", false}, stats, noExtra);
            // binomial reduce and gather: the broadcast reversed, the same ⌈log2 N⌉ steps (collectives.h).
            for (const char* pattern : {"reduce", "gather"})
                sweepOne("binomial", t, src, {{"pattern", pattern}},
                         {ceilLog2(N), "collectives.h: the broadcast reversed, ⌈log2 N⌉ steps", false}, stats, noExtra);
            // bfs: one step per BFS level = eccentricity of the source; single hops, all-port.
            std::uint32_t ecc = 0;
            for (int d = 0; d < t.dims(); ++d) {
                const int c = t.coord(src, d), side = t.side(d);
                ecc += static_cast<std::uint32_t>(t.isTorus() ? side / 2 : std::max(c, side - 1 - c));
            }
            sweepOne("bfs", t, src, {}, {ecc, "baselines.h: eccentricity(source) steps", true}, stats, noExtra);
            // recursive doubling: log2 N steps where every side is a power of two (baselines.h);
            // each send stays inside the box it halves, so no two sends of a step share a channel.
            if (findAlgorithm("recursive-doubling").whyNot(t)) {
                expectRefused("recursive-doubling", t, {}, stats);
                continue;
            }
            sweepOne("recursive-doubling", t, src, {}, {ceilLog2(N), "baselines.h: log2 N steps", true}, stats,
                     noExtra);
        }
    }
    stats.print("baselines");
    CHECK(stats.schedules > 3000);
}

TEST_CASE("sweep: ring all-gather, reduce-scatter and all-reduce on every network of the grid with a Hamiltonian "
          "cycle, refused on the others (collectives.h)",
          "[sweep][baseline]")
{
    SweepStats stats;
    std::vector<Topology> grid = meshAndTorusGrid();
    for (int n = 1; n <= 7; ++n)
        grid.push_back(Topology::hypercube(n));
    for (const Topology& t : grid) {
        const std::uint64_t N = t.nodeCount();
        if (N > 256)
            continue; // the ring takes N − 1 steps of N transfers: O(N²) (bench_collectives: torus:32x32)
        if (findAlgorithm("ring").whyNot(t)) {
            CHECK((N % 2 == 1 || (t.dims() == 1 && N > 2) || N < 2));
            expectRefused("ring", t, {{"pattern", "allreduce"}}, stats);
            continue;
        }
        // Every transfer is one hop to the ring successor, so no two of a step share a channel.
        const auto oneHop = [](const Schedule& s) {
            return computeMetrics(s).tcd == s.size() ? std::string() : std::string("a transfer is longer than one hop");
        };
        sweepOne("ring", t, NodeId{0}, {{"pattern", "allgather"}},
                 {static_cast<std::uint32_t>(N - 1), "ring: N − 1", true}, stats, oneHop);
        sweepOne("ring", t, NodeId{0}, {{"pattern", "reduce-scatter"}},
                 {static_cast<std::uint32_t>(N - 1), "ring: N − 1", true}, stats, oneHop);
        sweepOne("ring", t, NodeId{0}, {{"pattern", "allreduce"}},
                 {static_cast<std::uint32_t>(2 * (N - 1)), "ring: 2(N − 1)", true}, stats, oneHop);
    }
    stats.print("ring");
    CHECK(stats.schedules > 100);
}

TEST_CASE("sweep: every hypercube graph's broadcast run backwards as a reduce and its scatter as a gather, under every "
          "port model it serves: the checker, the forward schedule's steps and TCD (collectives.h reversedSchedule)",
          "[sweep][hypercube]")
{
    SweepStats stats;
    for (const std::string& a : hypercube::algorithmNames())
        for (int n = a == "tcbt" ? 2 : 1; n <= 6; ++n) {
            const Topology t = Topology::hypercube(n);
            for (const auto& [forward, backward] :
                 {std::pair{Pattern::Broadcast, "reduce"}, std::pair{Pattern::Scatter, "gather"}})
                for (hypercube::Ports ports : hypercube::servedPorts(a, forward))
                    for (NodeId src : {NodeId{0}, NodeId{t.nodeCount() - 1}}) {
                        const Params fwd{{"pattern", toString(forward)}, {"ports", hypercube::portsName(ports)}};
                        const Params back{{"pattern", backward}, {"ports", hypercube::portsName(ports)}};
                        const Schedule f = buildSchedule(a, t, src, fwd);
                        const std::uint64_t tcd = computeMetrics(f).tcd;
                        // Idle steps before the forward schedule's first transfer are not run backwards.
                        const std::uint32_t idle = f.transfers().front().step - 1;
                        sweepOne(a, t, src, back,
                                 {f.stepCount() - idle, "the forward schedule's busy steps", f.contentionFree}, stats,
                                 [&](const Schedule& s) {
                                     return computeMetrics(s).tcd == tcd
                                                ? std::string()
                                                : "its TCD differs from the forward schedule's";
                                 });
                    }
        }
    stats.print("hypercube reduce/gather");
    CHECK(stats.schedules > 300);
}

TEST_CASE("sweep: bucket on every network of the grid, rabenseifner and recursive-doubling's all-reduce where every "
          "side is a power of two (refused elsewhere) — the checker, exact steps (collectives.h)",
          "[sweep][baseline]")
{
    SweepStats stats;
    std::vector<Topology> grid = meshAndTorusGrid();
    for (int n = 1; n <= 9; ++n)
        grid.push_back(Topology::hypercube(n));
    for (const Topology& t : grid) {
        const std::uint64_t N = t.nodeCount();
        if (N < 2 || N > 512)
            continue; // an all-reduce follows N chunks at N nodes: O(N²) partial results
        std::uint32_t rings = 0, halvings = 0;
        for (int d = 0; d < t.dims(); ++d) {
            rings += static_cast<std::uint32_t>(t.side(d) - 1);
            halvings += static_cast<std::uint32_t>(std::bit_width(static_cast<unsigned>(t.side(d))) - 1);
        }
        sweepOne("bucket", t, NodeId{0}, {{"pattern", "allreduce"}}, {2 * rings, "bucket: 2·Σ(k_d − 1)", true}, stats,
                 noExtra);
        sweepOne("bucket", t, NodeId{0}, {{"pattern", "allgather"}}, {rings, "bucket: Σ(k_d − 1)", true}, stats,
                 noExtra);
        if (findAlgorithm("rabenseifner").whyNot(t)) {
            expectRefused("rabenseifner", t, {{"pattern", "allreduce"}}, stats);
            continue;
        }
        const bool oneHop = std::all_of(t.sides().begin(), t.sides().end(), [](int k) { return k <= 2; });
        sweepOne("rabenseifner", t, NodeId{0}, {{"pattern", "allreduce"}},
                 {2 * halvings, "rabenseifner: 2·log₂N", oneHop}, stats, noExtra);
        sweepOne("rabenseifner", t, NodeId{0}, {{"pattern", "reduce-scatter"}},
                 {halvings, "rabenseifner: log₂N", oneHop}, stats, noExtra);
        sweepOne("recursive-doubling", t, NodeId{0}, {{"pattern", "allreduce"}},
                 {halvings, "recursive-doubling: log₂N", oneHop}, stats, noExtra);
    }
    stats.print("bucket, rabenseifner");
    CHECK(stats.schedules > 100);
}

namespace {

/// a_k = (2^k − (−1)^k)/3, the eye-square side (mesh-tcd.md §2.2).
long long eyeSide(int k)
{
    return ((1LL << k) - (k % 2 ? -1 : 1)) / 3;
}

/// lo(k) = (2^{k+1} + (−1)^k − 3)/6, the low eye coordinate (mesh-tcd.md §2.2).
int eyeLow(int k)
{
    return static_cast<int>(((1LL << (k + 1)) + (k % 2 ? -1 : 1) - 3) / 6);
}

/// OD_k, the optimal TCD (from an eye), by the recursion of mesh-tcd.md §5.1 (eq. 14–15):
/// OD_1 = 2^d − 1, OD_k = (2^d − 1)·a_k + 2^d·OD_{k−1}.
long long optimalTcd(int d, int k)
{
    const long long c = (1LL << d) - 1;
    long long od = c;
    for (int j = 2; j <= k; ++j)
        od = c * eyeSide(j) + (1LL << d) * od;
    return od;
}

/// MD_k(corner) by the d-D corner recursion of mesh-tcd.md §5.2 (the same in all three modes):
/// MD_k = (2^d−1)a_k + [d²(2^{k−1}−1) + d·a_{k−1}]/2 + MD_{k−1} + (2^d−1)·OD_{k−1}, MD_1 = 2^d − 1.
long long cornerTcd(int d, int k)
{
    const long long c = (1LL << d) - 1;
    long long md = c;
    for (int j = 2; j <= k; ++j)
        md = c * eyeSide(j) + (static_cast<long long>(d) * d * ((1LL << (j - 1)) - 1) + d * eyeSide(j - 1)) / 2 + md +
             c * optimalTcd(d, j - 1);
    return md;
}

std::uint64_t tcdOf(const Schedule& s)
{
    std::uint64_t tcd = 0;
    for (const Transfer& t : s.transfers())
        tcd += static_cast<std::uint64_t>(s.hops(t));
    return tcd;
}

} // namespace

TEST_CASE("sweep: cang-wu in every mode on 2^k meshes d = 1..6, tori of side 2^k, hypercubes n ≤ 6, all DOR "
          "orders in 2-D and 3-D, checker + byte replay + exact steps (mesh-tcd.md)",
          "[sweep][cang-wu]")
{
    SweepStats stats;
    std::vector<Topology> grid = meshAndTorusGrid();
    for (const char* spec : {"mesh:16", "mesh:64", "mesh:8x8x8x8", "torus:32", "torus:32x32"})
        grid.push_back(Topology::parse(spec));
    for (int n = 1; n <= 10; ++n)
        grid.push_back(Topology::hypercube(n));
    const AlgorithmInfo& info = findAlgorithm("cang-wu");
    REQUIRE(info.modes == std::vector<std::string>{"optimal", "eye-best", "paper"});
    for (const Topology& t : grid) {
        if (info.whyNot(t)) {
            expectRefused("cang-wu", t, {}, stats);
            continue;
        }
        const int d = t.dims();
        int k = 0;
        while ((1 << k) < t.side(0))
            ++k;
        // Time-step optimal: T = log2 N = d·k steps, 2^{t−1} sends in step t (mesh-tcd.md §1.2; a
        // hypercube is the mesh with k = 1, §1.1; the torus schedule is the translated eye schedule,
        // §3.2). No step contention under any DOR order (§1.4, §7.1).
        const Expectation expect{static_cast<std::uint32_t>(d * k), "mesh-tcd.md §1.2: T = d·k", true};
        std::vector<NodeId> sources = sourcesOf(t);
        Coord eye(static_cast<std::size_t>(d), eyeLow(k));
        const NodeId e1{t.isHypercube() ? 0 : t.id(eye)};
        if (std::find(sources.begin(), sources.end(), e1) == sources.end())
            sources.push_back(e1);
        std::vector<std::string> orders{""};
        if (!t.isHypercube() && (d == 2 || d == 3) && t.nodeCount() <= 512) {
            std::vector<int> perm(static_cast<std::size_t>(d));
            for (int i = 0; i < d; ++i)
                perm[static_cast<std::size_t>(i)] = i;
            orders.clear();
            do {
                std::string o;
                for (int i : perm)
                    o += "xyz"[i];
                orders.push_back(o);
            } while (std::next_permutation(perm.begin(), perm.end()));
        }
        for (const std::string& mode : info.modes)
            for (const std::string& order : orders)
                for (NodeId src : sources) {
                    Params p{{"mode", mode}};
                    if (!order.empty())
                        p.set("order", order);
                    const Coord c = t.coords(src);
                    const bool corner = std::all_of(c.begin(), c.end(), [&](int x) { return x == 0; }) && !t.isTorus();
                    sweepOne("cang-wu", t, src, p, expect, stats, [&](const Schedule& s) -> std::string {
                        for (StepNo step{1}; step <= s.stepCount(); ++step)
                            if (s.stepTransfers(step).size() != (std::size_t{1} << (step - 1)))
                                return "step " + std::to_string(step) + " has " +
                                       std::to_string(s.stepTransfers(step).size()) + " sends, not 2^{t−1} (§1.2)";
                        const auto tcd = static_cast<long long>(tcdOf(s));
                        // Every source of a torus, and the eye E(1) of a mesh, give OD_k (§3.2, §5.1);
                        // a corner of a mesh gives MD_k(corner) in every mode (§5.2).
                        if ((t.isTorus() || src == e1) && tcd != optimalTcd(d, k))
                            return "TCD " + std::to_string(tcd) + ", not OD_k = " + std::to_string(optimalTcd(d, k)) +
                                   " (§3.2, §5.1)";
                        if (corner && tcd != cornerTcd(d, k))
                            return "TCD " + std::to_string(tcd) +
                                   " from the corner, not MD_k(corner) = " + std::to_string(cornerTcd(d, k)) +
                                   " (§5.2)";
                        return {};
                    });
                }
    }
    stats.print("cang-wu");
    CHECK(stats.schedules > 5000);
}

namespace {

/// r(m) = least r ≥ 0 with q^r ≥ m (torus-allport.md §2.2), by integer loop.
std::uint32_t ceilLogQ(long long q, long long m)
{
    std::uint32_t r = 0;
    for (long long p = 1; p < m; p *= q)
        ++r;
    return r;
}

/// The exact step count of torus-allport.md §2.3, or 0 where the schedule does not exist (d < 2,
/// n < 3, even n < d, §1.1, §3.7; DirectFinal only when n' = (2d+1)^r, §3.8).
std::uint32_t tsayWangExpectedSteps(int d, long long n, bool direct)
{
    if (d < 2 || n < 3 || (n % 2 == 0 && n < d))
        return 0;
    const long long q = 2 * d + 1, nPrime = n % 2 ? n : n - 1;
    const std::uint32_t r = ceilLogQ(q, nPrime);
    const std::uint32_t even = n % 2 ? 0 : static_cast<std::uint32_t>((d + 1) / 2);
    if (!direct)
        return static_cast<std::uint32_t>(d) * r + (d >= 3 ? 1 : 0) + even;
    long long power = 1;
    for (std::uint32_t i = 0; i < r; ++i)
        power *= q;
    return power == nPrime ? static_cast<std::uint32_t>(d) * r + even : 0;
}

} // namespace

TEST_CASE("sweep: tsay-wang paper and direct on tori d = 2..6, many n, checker + byte replay + exact steps "
          "(torus-allport.md)",
          "[sweep][tsay-wang]")
{
    // The formula of §2.3 as written here against the "ours" and "direct" columns of §6.2.
    CHECK(tsayWangExpectedSteps(2, 4, false) == 3);
    CHECK(tsayWangExpectedSteps(2, 27, false) == 6);
    CHECK(tsayWangExpectedSteps(2, 26, true) == 5);
    CHECK(tsayWangExpectedSteps(3, 8, false) == 6);
    CHECK(tsayWangExpectedSteps(3, 8, true) == 5);
    CHECK(tsayWangExpectedSteps(3, 10, false) == 9);
    CHECK(tsayWangExpectedSteps(3, 9, true) == 0);
    CHECK(tsayWangExpectedSteps(4, 9, false) == 5);
    CHECK(tsayWangExpectedSteps(4, 10, true) == 6);
    CHECK(tsayWangExpectedSteps(4, 25, false) == 9);

    SweepStats stats;
    std::vector<Topology> grid = meshAndTorusGrid();
    for (const auto& [d, sides] : std::vector<std::pair<int, std::vector<int>>>{
             {2, {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24, 25, 26, 27, 28, 125, 126}},
             {3, {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}},
             {4, {3, 4, 5, 6, 7, 8, 9, 10}},
             {5, {3, 4, 5, 6, 7}},
             {6, {3, 4, 5}}})
        for (int n : sides)
            grid.push_back(Topology::torus(std::vector<int>(static_cast<std::size_t>(d), n)));
    grid.push_back(Topology::torus({5, 7}));
    grid.push_back(Topology::hypercube(4));
    const AlgorithmInfo& info = findAlgorithm("tsay-wang");
    for (const Topology& t : grid) {
        if (info.whyNot(t)) {
            expectRefused("tsay-wang", t, {}, stats);
            continue;
        }
        const int d = t.dims();
        const long long n = t.side(0);
        const std::uint64_t N = t.nodeCount();
        for (const char* variant : {"paper", "direct"}) {
            const Params p{{"variant", variant}};
            const std::uint32_t steps = tsayWangExpectedSteps(d, n, variant == std::string("direct"));
            if (steps == 0) {
                ++stats.refusals;
                CHECK_THROWS_AS(buildSchedule("tsay-wang", t, NodeId{0}, p), Error);
                continue;
            }
            // Lemma 1's lower bound LB = least t with (2d+1)^t ≥ n^d (§2.1) and the paper's bound
            // (§2.2): d·r(n) + 1 for odd n, d·r(n−1) + ⌈d/2⌉ + 1 for even n; LB ≤ steps ≤ bound (§2.3).
            std::uint32_t lb = 0;
            for (std::uint64_t reach = 1; reach < N; reach *= static_cast<std::uint64_t>(2 * d + 1))
                ++lb;
            const std::uint32_t bound = n % 2 ? static_cast<std::uint32_t>(d) * ceilLogQ(2 * d + 1, n) + 1
                                              : static_cast<std::uint32_t>(d) * ceilLogQ(2 * d + 1, n - 1) +
                                                    static_cast<std::uint32_t>((d + 1) / 2) + 1;
            CHECK(lb <= steps);
            CHECK(steps <= bound);
            // All-port wormhole: no directed channel twice in a step (§5.1 item 4).
            const Expectation expect{steps, std::string("torus-allport.md §2.3 (") + variant + ")", true};
            for (NodeId src : sourcesOf(t, 64, N > 5000 ? 1 : 4))
                sweepOne("tsay-wang", t, src, p, expect, stats, [&](const Schedule& s) -> std::string {
                    if (s.size() != N - 1)
                        return std::to_string(s.size()) + " transfers, not n^d − 1 (§3.9)";
                    for (StepNo step{1}; step <= s.stepCount(); ++step)
                        if (s.stepTransfers(step).empty())
                            return "step " + std::to_string(step) + " is empty (§5.1 item 5)";
                    return {};
                });
        }
    }
    stats.print("tsay-wang");
    CHECK(stats.schedules > 1000);
}

namespace {

/// One hypercube request of the sweep.
struct CubeCase {
    std::string algorithm;
    Pattern pattern = Pattern::Broadcast;
    hypercube::Ports ports = hypercube::Ports::One;
    long long M = 1, B = 1;
    std::string variant;

    Params params() const
    {
        Params p{{"pattern", toString(pattern)},
                 {"ports", hypercube::portsName(ports)},
                 {"message", std::to_string(M)},
                 {"packet", std::to_string(B)}};
        if (!variant.empty())
            p.set("variant", variant);
        return p;
    }
};

/// Exact cycle count of a hypercube schedule on the n-cube, with the spec section it comes from
/// (hypercube.md; Q = ⌈M/B⌉ packets, N = 2^n). "label schedules" use max label + 1 cycles
/// (§2, §6.2); n-port level schedules one cycle per level of the graph's height (§3, Thm. 6.2,
/// 7.3, 7.4). The count depends on the source only for the half-duplex nESBT broadcast.
Expectation cubeSteps(const CubeCase& c, int n, NodeId source)
{
    using hypercube::Ports;
    const std::string& a = c.algorithm;
    const long long N = 1LL << n, Q = (c.M + c.B - 1) / c.B;
    const bool nport = c.ports == Ports::N;
    auto e = [](long long steps, std::string why) { return Expectation{static_cast<std::uint32_t>(steps), why, true}; };
    // nESBT with n = 1 is the single edge s → s⊕1 (§3.5: its height and label facts need n ≥ 2).
    const bool nesbtEdge = a == "nesbt" && n == 1;
    switch (c.pattern) {
    case Pattern::Broadcast:
        if (a == "hp") {
            if (nport)
                return e(N - 1, "§4.2 nRBRG n-port: N − 1");
            if (c.variant == "nopipe")
                return e(N - 1, "§4.2 BRG no pipelining: N − 1 hops");
            return c.ports == Ports::SendRecv ? e(Q + N - 2, "§4.2 BRG one send + one receive: Q + N − 2")
                                              : e(2 * Q + N - 3, "§4.2 BRG one-port: 2Q + N − 3");
        }
        if (a == "sbt")
            return nport ? e(Q + n - 1, "§4.2 SBT n-port: Q + n − 1") : e(n, "§4.2 SBT one-port: n");
        if (a == "tcbt") {
            if (nport)
                return e(Q + n - 1, "§4.2 TCBT n-port (as SBT): Q + n − 1");
            return c.ports == Ports::SendRecv ? e(2 * Q + 2 * n - 4, "§4.2 TCBT one send + one receive: 2Q + 2n − 4")
                                              : e(3 * Q + 2 * n - 5, "§4.2 TCBT one-port: 3Q + 2n − 5");
        }
        if (a == "nrsbt")
            return nport ? e(n, "§4.2 nRSBT n-port: n") : e(2 * n - 1, "§4.2 nRSBT one-port: 2n − 1");
        if (a == "nesbt") {
            if (nport) {
                const long long rounds = (c.M + n * c.B - 1) / (n * c.B);
                return nesbtEdge ? e(rounds, "§3.5 n = 1: one edge, one packet per cycle")
                                 : e(rounds + n, "§4.2 nESBT n-port: ⌈M/(nB)⌉ + n");
            }
            if (c.ports == Ports::One)
                return nesbtEdge ? e(Q, "§3.5 n = 1: one edge, one packet per cycle")
                                 : e(Q + n, "§4.2 nESBT one-port: Q + n (Thm. 4.2)");
            // Half duplex: the paper gives no schedule, only Thm. 4.3's 2Q + n − 1 (§4.2). The
            // schedule here [R] splits each cycle of the one-port one in two, the end whose bit of
            // the cycle's dimension is 0 sending first. Its last one-port cycle Q + n − 1 holds only
            // the leaf edges of ERSBT_j, j = (Q − 1) mod n, in dimension j, sent by nodes whose
            // relative bit j is 1 (§3.5 labels): absolute bit 1 ⊕ s_j. So 2(Q + n) − s_j cycles,
            // n or n + 1 more than Thm. 4.3. For n = 1 the one edge leaves the source: 2Q − 1 + s_0.
            const long long j = (Q - 1) % n;
            const long long bit = (source >> j) & 1u;
            return nesbtEdge ? e(2 * Q - 1 + bit, "§3.5 n = 1 split into half-duplex cycles [R]: 2Q − 1 + s_0")
                             : e(2 * (Q + n) - bit, "§4.2 nESBT one-port split into half-duplex cycles [R]: "
                                                    "2(Q + n) − s_((Q−1) mod n)");
        }
        break;
    case Pattern::Scatter:
        if (a == "hp") {
            if (nport)
                return e(N - 1, "§5.3 Table 7 nRBRG n-port, no pipelining: N − 1");
            return c.ports == Ports::SendRecv ? e(N - 1, "§5.2 BRG one send + one receive: N − 1")
                                              : e(2 * N - 3, "§5.2 BRG one-port: 2N − 3");
        }
        if (a == "sbt") {
            if (nport)
                return e(n, "§5.2 SBT n-port reverse breadth-first: n");
            const bool postorder = c.variant == "postorder" || (c.variant.empty() && c.B <= c.M);
            return postorder ? e(N - 1, "§5.2 SBT one-port postorder, B = M (V40): N − 1")
                             : e(n, "§5.2 SBT one-port, B ≥ NM/2: n");
        }
        if (a == "tcbt")
            return nport ? e(n, "§5.2 TCBT n-port reverse breadth-first: n")
                         : e(2 * n - 2, "§5.2 TCBT one-port: 2n − 2");
        [[fallthrough]];
    case Pattern::Allgather:
    case Pattern::Alltoall:
        if (a == "hp")
            return e(N - 1, nport ? "§6.3 Table 13 / §7.3 Table 17 nRBRG n-port: N − 1"
                                  : "§6.2 BRG labels 0..N − 2 (§7.2 N − 1 − t in cycle t): N − 1");
        if (a == "sbt" || a == "tcbt")
            return e(n, nport ? "Thm. 6.2 / 7.3 / 7.4: height n" : "§6.2 / §7.2 SBT exchange algorithm: n");
        if (a == "nrsbt" || a == "sbntc")
            return nport ? e(n, "Thm. 6.2 / 7.3 / 7.4, §7.2 alternative scheme: n")
                         : e(2 * n - 1, "§6.2 labels j + ((d − j) mod n) ≤ 2n − 2: 2n − 1");
        if (a == "nesbt") {
            if (nesbtEdge)
                return e(1, "§3.5 n = 1: one edge");
            return nport ? e(n + 1, "Thm. 3.2 / 6.2 / 7.3: height n + 1")
                         : e(2 * n, "§3.5 Thm. 4.1 labels ≤ 2n − 1 (§6.2): 2n");
        }
        if (a == "sbnt") {
            if (nport)
                return e(n, "Thm. 6.2 / 7.3 / 7.4: height n");
            return n == 1 ? e(1, "§6.2 one edge (label 0)")
                          : e(2 * n - 2, "§6.2 single-path SBnT, max label 2n − 3: 2n − 2");
        }
        break;
    default:
        break; // the hypercube graphs serve these four
    }
    FAIL("no step count for " << a << " " << toString(c.pattern));
    return {};
}

/// Every request the sweep makes on the hypercube graphs: each graph × pattern × port model it
/// serves (hypercube_cost.h servedPatterns / servedPorts), broadcast with one packet, three
/// equal packets and a smaller last packet, the variants (hp nopipe, sbt postorder / subtree),
/// and the sbt scatter with B > M.
std::vector<CubeCase> cubeCases(bool allToAll)
{
    std::vector<CubeCase> out;
    for (const std::string& a : hypercube::algorithmNames())
        for (Pattern pat : hypercube::servedPatterns(a)) {
            const bool everyNode = pat == Pattern::Allgather || pat == Pattern::Alltoall;
            if (everyNode != allToAll)
                continue;
            for (hypercube::Ports ports : hypercube::servedPorts(a, pat)) {
                if (pat == Pattern::Broadcast) {
                    for (auto [M, B] : {std::pair{1LL, 1LL}, {6LL, 2LL}, {5LL, 2LL}})
                        out.push_back({a, pat, ports, M, B, ""});
                    if (a == "hp" && ports != hypercube::Ports::N)
                        out.push_back({a, pat, ports, 6, 2, "nopipe"});
                    continue;
                }
                out.push_back({a, pat, ports, 2, 2, ""});
                if (a == "sbt" && pat == Pattern::Scatter && ports == hypercube::Ports::One) {
                    out.push_back({a, pat, ports, 1, 4, ""});
                    out.push_back({a, pat, ports, 2, 2, "subtree"});
                    out.push_back({a, pat, ports, 2, 4, "postorder"});
                }
            }
        }
    return out;
}

/// Block moves of one schedule (what the replay and the checker walk), roughly: a personalized
/// block crosses every edge of its path, Hamiltonian paths are N − 1 edges long, and n-tree
/// graphs carry n parts.
double cubeMoves(const CubeCase& c, int n)
{
    const double N = std::ldexp(1.0, n);
    const bool nTrees = c.algorithm == "nrsbt" || c.algorithm == "nesbt" || c.algorithm == "sbntc" ||
                        (c.algorithm == "hp" && c.ports == hypercube::Ports::N);
    const double trees = nTrees ? n : 1;
    const double path = c.algorithm == "hp" ? N / 2 : (n + 1) / 2.0;
    switch (c.pattern) {
    case Pattern::Broadcast:
        return N * 3 * trees;
    case Pattern::Scatter:
        return trees * N * path;
    case Pattern::Allgather:
        return N * N * trees;
    case Pattern::Alltoall:
        return N * trees * N * path;
    default:
        break; // the hypercube graphs serve these four
    }
    return 0;
}

/// The default sweep takes schedules of at most 2^18 block moves: broadcast every graph to
/// n = 10; scatter every graph to n = 10 but the Hamiltonian paths (BRG to n = 9, nRBRG to 8);
/// allgather to n = 8 (n-tree graphs and nRBRG to 7); alltoall to n = 7 (n-tree graphs and BRG
/// to 6, nRBRG to 5). The hidden [sweep-heavy] case runs the rest, up to 2^24 block moves (n = 10,
/// all-to-all n = 8), with one source each.
constexpr double kDefaultMoves = 1 << 18;
constexpr double kHeavyMoves = 1 << 24;

void sweepCubes(bool allToAll, int maxN, bool heavy, SweepStats& stats)
{
    const std::vector<CubeCase> cases = cubeCases(allToAll);
    for (int n = 1; n <= maxN; ++n) {
        const Topology t = Topology::hypercube(n);
        const NodeId last{t.nodeCount() - 1};
        for (const CubeCase& c : cases) {
            const double moves = cubeMoves(c, n);
            if ((moves > kDefaultMoves) != heavy || moves > kHeavyMoves)
                continue;
            const Params p = c.params();
            if (c.algorithm == "tcbt" && n < 2) {
                expectRefused(c.algorithm, t, p, stats);
                continue;
            }
            // Every node is a source in all-to-all patterns (the source only names the schedule);
            // one-to-all patterns take every source up to 64 nodes, then a spread, fewer as the
            // schedules grow.
            std::vector<NodeId> sources;
            if (heavy)
                sources = {NodeId{last / 3}};
            else if (allToAll)
                sources = {NodeId{0}, last};
            else
                sources = sourcesOf(t, moves > 8192 ? 16 : 64, moves > 8192 ? 1 : 3);
            for (NodeId src : sources)
                sweepOne(c.algorithm, t, src, p, cubeSteps(c, n, src), stats, noExtra);
        }
    }
}

} // namespace

TEST_CASE("sweep: hypercube graphs, broadcast and scatter, every port model, n = 1..10 up to 2^18 block moves, "
          "checker + byte replay + exact cycles (hypercube.md §4.2, §5.2)",
          "[sweep][hypercube]")
{
    SweepStats stats;
    sweepCubes(false, 10, false, stats);
    stats.print("hypercube broadcast/scatter");
    CHECK(stats.schedules > 3000);
}

TEST_CASE("sweep: hypercube graphs, allgather and alltoall, every port model, n = 1..8 up to 2^18 block moves, "
          "checker + byte replay + exact cycles (hypercube.md §6, §7)",
          "[sweep][hypercube]")
{
    SweepStats stats;
    sweepCubes(true, 8, false, stats);
    stats.print("hypercube allgather/alltoall");
    CHECK(stats.schedules > 300);
}

TEST_CASE("sweep, heavy part (hidden, run by name): the hypercube schedules of more than 2^17 block moves, up to "
          "n = 10 (all-to-all n = 8), one source each (hypercube.md)",
          "[.][sweep-heavy]")
{
    SweepStats stats;
    sweepCubes(false, 10, true, stats);
    sweepCubes(true, 8, true, stats);
    stats.print("hypercube heavy");
    CHECK(stats.schedules > 20);
}

TEST_CASE("sweep: divisible-load Scatter(p), p = 1..6, every feasible number of layers that fits, 3-D meshes and "
          "tori, checker + byte replay + exact moves (divisible-load.md §1.3–§1.5)",
          "[sweep][divisible]")
{
    SweepStats stats;
    std::vector<Topology> grid = meshAndTorusGrid();
    for (const char* spec : {"mesh:5x5x5", "mesh:6x6x6", "mesh:7x7x7", "mesh:9x9x9", "mesh:10x9x8", "mesh:16x16x16",
                             "torus:5x5x5", "torus:6x6x6", "torus:7x7x7", "torus:9x9x9", "torus:4x8x16"})
        grid.push_back(Topology::parse(spec));
    grid.push_back(Topology::hypercube(3));
    const AlgorithmInfo& info = findAlgorithm("divisible-load");
    for (const Topology& t : grid) {
        if (info.whyNot(t)) {
            expectRefused("divisible-load", t, {}, stats);
            continue;
        }
        const double N = t.nodeCount();
        for (int p = 1; p <= 6; ++p) {
            DivisibleLoadParams model;
            model.ports = p;
            const int hMax = divisibleLoadMaxLayers(model).value_or(kDivisibleMaxLayers);
            for (int h = 0; h <= hMax && std::pow(p + 1.0, h) <= N; ++h) {
                // The sources: the spread, plus where the pattern's originator sits when its
                // bounding box is put in the corner (so some source fits whenever the box does).
                const auto box = scatterBox(p, h);
                bool boxFits = true;
                Coord originator;
                for (int a = 0; a < 3; ++a) {
                    const auto i = static_cast<std::size_t>(a);
                    boxFits = boxFits && box[1][i] - box[0][i] + 1 <= t.side(a);
                    originator.push_back(std::min(box[2][i] - box[0][i], t.side(a) - 1));
                }
                std::vector<NodeId> sources = sourcesOf(t, 64, 2);
                sources.push_back(t.id(originator));
                const Params params{{"p", std::to_string(p)}, {"layers", std::to_string(h)}};
                // h moves (§1.3: one move per layer); move k sends n_k = p(p+1)^{k−1} messages, p from
                // every processor of layers < k. Routes are link-disjoint for p ≤ 2 (§1.5 Routes);
                // p = 3's move 2 and p ≥ 4 ("display only") may share channels.
                const Expectation expect{static_cast<std::uint32_t>(h), "divisible-load.md §1.3: h moves", p <= 2};
                std::size_t placed = 0;
                for (NodeId src : sources) {
                    bool fits = true;
                    try {
                        (void)placeScatter(t, src, p, h);
                    } catch (const Error&) {
                        fits = false;
                    }
                    if (!fits) {
                        ++stats.refusals;
                        CHECK_THROWS_AS(buildSchedule("divisible-load", t, src, params), Error);
                        continue;
                    }
                    ++placed;
                    sweepOne("divisible-load", t, src, params, expect, stats, [&](const Schedule& s) -> std::string {
                        for (int k = 1; k <= h; ++k) {
                            const auto step = s.stepTransfers(StepNo{static_cast<std::uint32_t>(k)});
                            const double expected = p * std::pow(p + 1.0, k - 1);
                            if (static_cast<double>(step.size()) != expected)
                                return "move " + std::to_string(k) + " sends " + std::to_string(step.size()) +
                                       " messages, not p(p+1)^{k−1} (§1.3)";
                            std::set<NodeId> senders;
                            for (const Transfer& tr : step)
                                senders.insert(tr.from);
                            if (static_cast<double>(senders.size()) != std::pow(p + 1.0, k - 1))
                                return "move " + std::to_string(k) + " has " + std::to_string(senders.size()) +
                                       " senders, not (p+1)^{k−1} (§1.3)";
                        }
                        return {};
                    });
                }
                if (boxFits && placed == 0)
                    FAIL_CHECK("divisible-load p = " << p << " h = " << h << " fits " << t.spec()
                                                     << " but no source of the sweep could place it");
            }
        }
    }
    stats.print("divisible-load");
    CHECK(stats.schedules > 300);
}

TEST_CASE("sweep: every algorithm of the registry, with every mode and pattern it lists, is in the sweep", "[sweep]")
{
    // The family each algorithm is swept in, and the one pattern the non-hypercube families use.
    const std::vector<std::pair<std::string, std::string>> swept = {{"binomial", "broadcast reduce gather"},
                                                                    {"ring", "allreduce allgather reduce-scatter"},
                                                                    {"bucket", "allreduce allgather reduce-scatter"},
                                                                    {"rabenseifner", "allreduce reduce-scatter"},
                                                                    {"recursive-doubling", "broadcast allreduce"},
                                                                    {"bfs", "broadcast"},
                                                                    {"cang-wu", "broadcast"},
                                                                    {"tsay-wang", "broadcast"},
                                                                    {"divisible-load", "scatter"},
                                                                    {"hp", ""},
                                                                    {"sbt", ""},
                                                                    {"tcbt", ""},
                                                                    {"nrsbt", ""},
                                                                    {"nesbt", ""},
                                                                    {"sbnt", ""},
                                                                    {"sbntc", ""}};
    std::vector<CubeCase> cube = cubeCases(false);
    for (const CubeCase& c : cubeCases(true))
        cube.push_back(c);
    CHECK(algorithms().size() == swept.size());
    for (const AlgorithmInfo& a : algorithms()) {
        INFO("algorithm " << a.name << ": add it to tests/core/test_sweep.cpp");
        const auto it = std::find_if(swept.begin(), swept.end(), [&](const auto& s) { return s.first == a.name; });
        REQUIRE(it != swept.end());
        // Only cang-wu has modes, and its family runs every one of info.modes.
        CHECK((a.modes.empty() || a.name == "cang-wu"));
        for (const std::string& pattern : a.patterns) {
            INFO("pattern " << pattern);
            if (!it->second.empty()) {
                CHECK((" " + it->second + " ").find(" " + pattern + " ") != std::string::npos);
                continue;
            }
            if (pattern == "reduce" || pattern == "gather")
                continue; // the broadcast or scatter run backwards: the sweep of reversed hypercube schedules
            for (hypercube::Ports ports : hypercube::servedPorts(a.name, hypercube::parsePatternName(pattern))) {
                INFO("ports " << hypercube::portsName(ports));
                CHECK(std::any_of(cube.begin(), cube.end(), [&](const CubeCase& c) {
                    return c.algorithm == a.name && toString(c.pattern) == pattern && c.ports == ports;
                }));
            }
        }
    }
}
