#include "topocast/algorithms/registry.h"

#include "topocast/algorithms/baselines.h"
#include "topocast/algorithms/cang_wu.h"
#include "topocast/algorithms/collectives.h"
#include "topocast/algorithms/divisible_load.h"
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/hypercube.h"
#include "topocast/algorithms/tsay_wang.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace topocast {

namespace {

/// The "mode" parameter of cang-wu (default optimal). Throws Error for an unknown mode.
CangWuMode cangWuModeParam(const Params& p)
{
    const std::string mode = p.getString("mode", "");
    return parseCangWuMode(mode.empty() ? "optimal" : mode);
}

using K = ParamSpec::Kind;

/// The parameters every algorithm has: its mode and pattern where it has a choice, and the
/// dimension order its routes follow.
void declareCommonParams(AlgorithmInfo& a)
{
    std::vector<ParamSpec> common;
    if (!a.modes.empty())
        common.push_back(
            {.key = "mode", .label = "mode", .kind = K::Choice, .choices = a.modes, .help = a.name + " mode"});
    if (!a.patterns.empty())
        common.push_back({.key = "pattern",
                          .label = "pattern",
                          .kind = K::Choice,
                          .choices = a.patterns,
                          .help = "the collective: " + [&] {
                              std::string text;
                              for (std::size_t i = 0; i < a.patterns.size(); ++i)
                                  text += (i == 0 ? "" : i + 1 == a.patterns.size() ? " or " : ", ") + a.patterns[i];
                              return text;
                          }()});
    a.params.insert(a.params.begin(), common.begin(), common.end());
    a.params.push_back({.key = "order",
                        .label = "dimension order",
                        .kind = K::Text,
                        .textAllowed = "a permutation of the dimension letters, e.g. xy, yx, xyz, zyx",
                        .defaultText = "the algorithm's own",
                        .help = "dimension order for dimension-ordered routes: xy, yx, xyz, zyx, …"});
}

bool allPowersOfTwo(const Topology& topo)
{
    for (int s : topo.sides())
        if (s < 1 || (s & (s - 1)) != 0)
            return false;
    return true;
}

/// The source map's time of a collective (CollectiveFigures: α·start-ups + β·data).
double collectiveTime(const Schedule& s)
{
    const CollectiveFigures* f = s.figures ? s.figures->get<CollectiveFigures>() : nullptr;
    return f ? f->time : std::numeric_limits<double>::quiet_NaN();
}
constexpr const char* kCollectiveTimeFigure = "T = α·start-ups + β·data per node for a message of M = 1 (α = β = 1)";

/// `a` as an α–β collective without a source (ring, bucket, rabenseifner): built from its pattern
/// alone by `schedule`, timed by collectiveTime. No source: every node starts with data, so the
/// schedule is the same whatever node is picked.
AlgorithmInfo alphaBetaCollective(AlgorithmInfo a, Schedule (*schedule)(const Topology&, Pattern))
{
    a.build = [schedule](const Topology& t, NodeId, const ParamValues& p) {
        return schedule(t, parsePattern(p.text("pattern", "allreduce")));
    };
    a.time = collectiveTime;
    a.timeFigure = kCollectiveTimeFigure;
    a.sameFromEverySource = [](const Topology&) { return true; };
    return a;
}

// ---- baselines: the textbook algorithms the papers are measured against ------------------
std::vector<AlgorithmInfo> baselineAlgorithms()
{
    std::vector<AlgorithmInfo> list;
    list.push_back({
        .name = "binomial",
        .summary =
            "MPICH binomial tree over ranks in row-major order, routed on the network (one-port); reduce and gather "
            "run it backwards",
        .topologies = "any mesh, torus or hypercube",
        .patterns = {"broadcast", "reduce", "gather"},
        .whyNot = [](const Topology&) -> std::optional<std::string> { return std::nullopt; },
        .build =
            [](const Topology& t, NodeId s, const ParamValues& p) {
                const std::string pattern = p.text("pattern", "broadcast");
                if (pattern == "reduce")
                    return binomialReduce(t, s);
                if (pattern == "gather")
                    return binomialGather(t, s);
                return binomialBroadcast(t, s);
            },
    });
    list.push_back(alphaBetaCollective(
        {
            .name = "ring",
            .summary =
                "every node sends one block to its successor on a Hamiltonian cycle each step (one-port): all-gather "
                "N−1 steps, reduce-scatter N−1, all-reduce 2(N−1) with 2(N−1)/N·M per node",
            .topologies = "tori, meshes with an even number of nodes (two or more dimensions), hypercubes (Gray code)",
            .patterns = {"allreduce", "allgather", "reduce-scatter"},
            .whyNot = [](const Topology& t) -> std::optional<std::string> {
                if (auto why = hamiltonianCycleWhyNot(t))
                    return "ring needs a Hamiltonian cycle: " + *why;
                return std::nullopt;
            },
        },
        ringSchedule));
    list.push_back(alphaBetaCollective(
        {
            .name = "bucket",
            .summary =
                "rings along each dimension in turn, reduce-scatter in dimension order and all-gather back (one-port): "
                "2·Σ(k_d−1) steps for an all-reduce, 2(N−1)/N·M per node",
            .topologies = "any mesh, torus or hypercube (mesh lines are folded rings of hops ≤ 2)",
            .patterns = {"allreduce", "allgather", "reduce-scatter"},
            .whyNot = [](const Topology& t) -> std::optional<std::string> {
                if (t.nodeCount() < 2)
                    return "bucket needs at least two nodes; got the " + t.displayName();
                return std::nullopt;
            },
        },
        bucketSchedule));
    list.push_back(alphaBetaCollective(
        {
            .name = "rabenseifner",
            .summary = "recursive halving (reduce-scatter), then recursive doubling (all-reduce): 2·log₂N steps and "
                       "2(N−1)/N·M per node, both lower bounds",
            .topologies = "hypercubes; meshes and tori whose sides are powers of two (exchanges then share channels)",
            .patterns = {"allreduce", "reduce-scatter"},
            .whyNot = [](const Topology& t) { return rabenseifnerWhyNot(t); },
        },
        rabenseifnerSchedule));
    list.push_back({
        .name = "recursive-doubling",
        .summary = "halve the network dimension by dimension; send to the same spot in the other half (one-port); "
                   "all-reduce: exchange the whole vector with the node at distance 1, 2, 4, … (log₂N steps, "
                   "log₂N·M per node)",
        .topologies = "meshes, tori and hypercubes whose sides are powers of two",
        .patterns = {"broadcast", "allreduce"},
        .whyNot = [](const Topology& t) -> std::optional<std::string> {
            if (allPowersOfTwo(t))
                return std::nullopt;
            return "recursive-doubling needs every side to be a power of two; got " + t.displayName();
        },
        .build =
            [](const Topology& t, NodeId s, const ParamValues& p) {
                if (p.text("pattern", "broadcast") == "allreduce")
                    return recursiveDoublingAllreduce(t);
                return recursiveDoublingBroadcast(t, s);
            },
    });
    list.push_back({
        .name = "bfs",
        .summary = "Boost.Graph breadth-first spanning tree, one level per step (all-port)",
        .topologies = "any mesh, torus or hypercube",
        .patterns = {"broadcast"},
        .whyNot = [](const Topology&) -> std::optional<std::string> { return std::nullopt; },
        .build = [](const Topology& t, NodeId s, const ParamValues&) { return bfsBroadcast(t, s); },
    });
    return list;
}

// ---- paper algorithms: one entry each --------------------------------------------------------

// Cang & Wu, minimum-TCD time-step-optimal broadcast (Algorithms 1–3 and the d-D extension).
AlgorithmInfo cangWuAlgorithm()
{
    return {
        .name = "cang-wu",
        .summary = "time-step-optimal one-port broadcast with minimum total communication distance (Cang & Wu; "
                   "modes optimal = SubmeshOptimal DP, eye-best, paper)",
        .topologies = "2^k × … × 2^k meshes (d = 1..6), tori of side 2^k ≥ 4, hypercubes of dimension ≤ 6",
        .modes = {"optimal", "eye-best", "paper"},
        .patterns = {"broadcast"},
        .whyNot = [](const Topology& t) -> std::optional<std::string> {
            std::string why = cangWuWhyNot(t);
            if (why.empty())
                return std::nullopt;
            return why;
        },
        .build =
            [](const Topology& t, NodeId s, const ParamValues& p) {
                const std::string pattern = p.text("pattern", "broadcast");
                if (pattern != "broadcast")
                    throw Error("cang-wu supports the pattern 'broadcast' only; got '" + pattern + "'");
                return cangWuSchedule(t, s, parseCangWuMode(p.text("mode", "optimal")));
            },
        .tcdSourceMap = [](const Topology& t, const Params& p) { return cangWuTcdSourceMap(t, cangWuModeParam(p)); },
        // On a torus every source gets the eye schedule translated (cangWuSchedule).
        .sameFromEverySource = [](const Topology& t) { return t.isTorus(); },
    };
}

// Tsay & Wang, all-port wormhole broadcast on tori.
AlgorithmInfo tsayWangAlgorithm()
{
    return {
        .name = "tsay-wang",
        .summary = "Tsay & Wang: nearly optimal all-port wormhole broadcast, cyclic-dimension-order routes "
                   "(variant paper|direct)",
        .topologies = "d-dimensional n×…×n tori, d ≥ 2, n ≥ 3 (even n ≥ d); direct needs n or n−1 = (2d+1)^r",
        .patterns = {"broadcast"},
        .whyNot = [](const Topology& t) -> std::optional<std::string> {
            if (!t.isTorus() || !t.isCubic())
                return "tsay-wang needs a d-dimensional n×…×n torus (d ≥ 2, n ≥ 3, even n ≥ d); got " + t.displayName();
            return tsayWangUnsupported(t.dims(), t.side(0), TsayWangVariant::Paper);
        },
        .build =
            [](const Topology& t, NodeId s, const ParamValues& p) {
                if (p.text("pattern", "broadcast") != "broadcast")
                    throw Error("tsay-wang computes a broadcast only; got pattern '" + p.text("pattern") + "'");
                return tsayWangBroadcast(t, s, parseTsayWangVariant(p.text("variant", "paper")));
            },
        // Built from the origin and translated to the source (tsayWangBroadcast).
        .sameFromEverySource = [](const Topology&) { return true; },
    };
}

// Hypercube spanning graphs (Johnsson & Ho §3): one entry per graph.
std::vector<AlgorithmInfo> hypercubeAlgorithms()
{
    struct Entry {
        const char* name;
        const char* summary;
    };
    const Entry entries[] = {
        {"hp", "Hamiltonian path: binary-reflected Gray code (one-port), n rotated paths nRBRG (n-port)"},
        {"sbt", "spanning binomial tree (Johnsson-Ho §3.2)"},
        {"tcbt", "two-rooted complete binary tree (Johnsson-Ho §3.3)"},
        {"nrsbt", "n rotated spanning binomial trees, data split n ways (Johnsson-Ho §3.4)"},
        {"nesbt", "n edge-disjoint spanning binomial trees (Johnsson-Ho §3.5)"},
        {"sbnt", "spanning balanced n-tree, one path per node (Johnsson-Ho §3.6)"},
        {"sbntc", "spanning balanced n-tree, cyclic nodes split evenly (Johnsson-Ho §3.6)"},
    };
    std::vector<AlgorithmInfo> list;
    for (const Entry& e : entries) {
        const std::string name = e.name;
        std::vector<std::string> patterns;
        for (Pattern p : hypercube::servedPatterns(name))
            patterns.push_back(toString(p));
        // Their broadcast run backwards is a reduce, their scatter a gather (reversedSchedule).
        for (Pattern p : hypercube::servedPatterns(name))
            if (p == Pattern::Broadcast || p == Pattern::Scatter)
                patterns.push_back(p == Pattern::Broadcast ? "reduce" : "gather");
        list.push_back({
            .name = name,
            .summary = e.summary,
            .topologies = name == "tcbt" ? "hypercubes of dimension 2..20" : "hypercubes of dimension 1..20",
            .patterns = patterns,
            .whyNot = [name](const Topology& t) { return hypercubeWhyNot(name, t); },
            .build = [name](const Topology& t, NodeId s,
                            const ParamValues& params) { return buildHypercube(name, t, s, params); },
            // The spec's cost T = startups·τ + transfer·t_c (HypercubeFigures::time).
            .time =
                [](const Schedule& s) {
                    const HypercubeFigures* f = s.figures ? s.figures->get<HypercubeFigures>() : nullptr;
                    return f ? f->time : std::numeric_limits<double>::quiet_NaN();
                },
            .timeFigure =
                "T = startups·τ + transfer·t_c (Johnsson–Ho closed form, or counted from the schedule where the paper "
                "has none; τ = --tau, t_c = --tc, default 1)",
            // The graphs are built from node 0 and moved to the source by XOR (hypercube_schedule.cpp).
            .sameFromEverySource = [](const Topology&) { return true; },
        });
        list.back().params = hypercubeParamSpecs(name);
    }
    return list;
}

// Drozdowski & Głazek, divisible-load scattering (SCATTER(p), §2.2).
AlgorithmInfo divisibleLoadAlgorithm()
{
    return {
        .name = "divisible-load",
        .summary =
            "divisible-load Scatter(p): every active processor sends p shipments per move, layers finish together",
        .topologies = "3-D meshes (and tori) large enough for the layers: side ≥ (p+1)^⌈h/3⌉ for full steps",
        .patterns = {"scatter"},
        .whyNot = [](const Topology& t) -> std::optional<std::string> {
            if (!t.isHypercube() && t.dims() == 3)
                return std::nullopt;
            return "divisible-load needs a 3-D mesh (or torus) large enough for the layers, e.g. side ≥ (p+1)^⌈h/3⌉; "
                   "got " +
                   t.displayName();
        },
        .build = [](const Topology& t, NodeId s, const ParamValues& p) { return divisibleLoadSchedule(t, s, p); },
        // The model's finish time T = A·α₀ (DivisibleLoadFigures: the solved model).
        .time =
            [](const Schedule& s) {
                const DivisibleLoadFigures* f = s.figures ? s.figures->get<DivisibleLoadFigures>() : nullptr;
                return f ? f->model.finishTime : std::numeric_limits<double>::quiet_NaN();
            },
        .timeFigure = "the divisible-load model's finish time T = A·α₀ in seconds (Drozdowski & Głazek, Theorem 1)",
        .timeUnit = "s",
        .someSourcesOnly = true, // the layers must fit around the source
    };
}

std::vector<AlgorithmInfo> makeAlgorithms()
{
    std::vector<AlgorithmInfo> list = baselineAlgorithms();
    list.push_back(cangWuAlgorithm());
    list.push_back(tsayWangAlgorithm());
    for (AlgorithmInfo& a : hypercubeAlgorithms())
        list.push_back(std::move(a));
    list.push_back(divisibleLoadAlgorithm());
    for (AlgorithmInfo& a : list) {
        if (a.name == "tsay-wang")
            a.params.push_back({.key = "variant",
                                .label = "variant",
                                .kind = K::Choice,
                                .choices = {"paper", "direct"},
                                .alsoAccepted = {"direct-final"},
                                .help = "paper: the paper's phases; direct: a direct final phase, for n' = (2d+1)^r "
                                        "only (README: Where the papers are wrong)"});
        else if (a.name == "divisible-load")
            a.params = divisibleLoadParamSpecs();
        declareCommonParams(a);
        for (ParamSpec& spec : a.params)
            if (a.name == "cang-wu" && spec.key == "mode")
                // parseCangWuMode's other spellings (the spec's names of the modes).
                spec.alsoAccepted = {"submesh-optimal", "SubmeshOptimal", "eye-best-order",
                                     "EyeBestOrder",    "paper-literal",  "PaperLiteral"};
    }
    return list;
}

} // namespace

const std::vector<AlgorithmInfo>& algorithms()
{
    static const std::vector<AlgorithmInfo> list = makeAlgorithms();
    return list;
}

std::string algorithmReference(std::string_view name)
{
    // The full references of the papers the algorithms implement.
    static const std::string johnssonHo =
        "S. L. Johnsson and C.-T. Ho, Spanning Graphs for Optimum Broadcasting and Personalized Communication in "
        "Hypercubes, Yale YALEU/DCS/TR-500, 1986";
    if (name == "cang-wu")
        return "S. Cang and J. Wu, Minimizing Total Communication Distance of a Time-Step Optimal Broadcast in Mesh "
               "Networks, IPPS/SPDP 1998; and Time-Step Optimal Broadcasting in 3-D Meshes with Minimum Total "
               "Communication Distance";
    if (name == "tsay-wang")
        return "J.-J. Tsay and W.-T. Wang, Nearly Optimal Algorithms for Broadcast on d-Dimensional All-Port and "
               "Wormhole-Routed Torus, IPPS/SPDP 1998";
    if (name == "divisible-load")
        return "M. Drozdowski and W. Głazek, Scheduling Divisible Loads in a Three-Dimensional Mesh of Processors, "
               "Parallel Computing 25 (1999) 381-404";
    if (name == "hp" || name == "sbt" || name == "tcbt" || name == "nrsbt" || name == "nesbt" || name == "sbnt" ||
        name == "sbntc")
        return johnssonHo;
    if (name == "binomial")
        return "baseline: the binomial-tree broadcast of MPICH, run backwards for reduce and gather (no paper)";
    if (name == "bucket")
        return "baseline: the bucket (dimension-wise ring) all-gather, reduce-scatter and all-reduce of torus machines "
               "(Barnett et al., Interprocessor Collective Communication Library (InterCom), SHPCC 1994)";
    if (name == "rabenseifner")
        return "R. Rabenseifner, Optimization of Collective Reduction Operations, ICCS 2004 (recursive halving and "
               "doubling)";
    if (name == "ring")
        return "baseline: the ring all-gather, reduce-scatter and all-reduce (Thakur, Rabenseifner and Gropp, "
               "Optimization of Collective Communication Operations in MPICH, IJHPCA 19(1), 2005)";
    if (name == "recursive-doubling")
        return "baseline: recursive doubling, halving the network dimension by dimension (no paper); its all-reduce as "
               "in MPICH for short messages (Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, §4.4)";
    if (name == "bfs")
        return "baseline: a breadth-first spanning tree (Boost.Graph), one level per step (no paper)";
    return {};
}

std::string requestedPattern(std::string_view algorithm, const Params& params)
{
    if (std::string given = params.getString("pattern", ""); !given.empty())
        return given;
    for (const auto& a : algorithms())
        if (a.name == algorithm)
            return a.patterns.empty() ? "broadcast" : a.patterns.front();
    return {};
}

const AlgorithmInfo& findAlgorithm(std::string_view name)
{
    for (const auto& a : algorithms())
        if (a.name == name)
            return a;
    std::ostringstream msg;
    msg << "unknown algorithm '" << name << "'; known algorithms:";
    const char* sep = " ";
    for (const auto& a : algorithms()) {
        msg << sep << a.name;
        sep = ", ";
    }
    throw Error(msg.str());
}

std::vector<const ParamSpec*> allParamSpecs()
{
    std::vector<const ParamSpec*> out;
    for (const AlgorithmInfo& a : algorithms())
        for (const ParamSpec& p : a.params)
            if (std::none_of(out.begin(), out.end(), [&](const ParamSpec* q) { return q->key == p.key; }))
                out.push_back(&p);
    return out;
}

std::vector<ParamSpec> panelParamSpecs(const AlgorithmInfo& algorithm)
{
    std::vector<ParamSpec> out;
    for (const ParamSpec& p : algorithm.params)
        if (p.key != "mode" && p.key != "pattern" && p.key != "order")
            out.push_back(p);
    return out;
}

std::vector<std::string> algorithmsFor(const Topology& topo, Pattern pattern)
{
    std::vector<std::string> names;
    const std::string wanted = toString(pattern);
    for (const AlgorithmInfo& a : algorithms()) {
        if (a.whyNot && a.whyNot(topo))
            continue;
        const bool builds = a.patterns.empty()
                                ? pattern == Pattern::Broadcast
                                : std::find(a.patterns.begin(), a.patterns.end(), wanted) != a.patterns.end();
        if (builds)
            names.push_back(a.name);
    }
    return names;
}

Schedule buildSchedule(std::string_view algorithm, const Topology& topo, NodeId source, const Params& params)
{
    const AlgorithmInfo& info = findAlgorithm(algorithm);
    if (auto why = info.whyNot(topo))
        throw Error(*why);
    if (source >= topo.nodeCount())
        throw Error("source " + std::to_string(source) + " is outside the " + topo.displayName() + " (0.." +
                    std::to_string(topo.nodeCount() - 1) + ")");
    // Every pattern delivers something to each of the other N − 1 nodes, so any schedule has at
    // least N − 1 transfers: refuse before the algorithm allocates anything.
    const std::uint64_t minTransfers = topo.nodeCount() - 1;
    checkMemory(std::string(algorithm) + " on the " + topo.displayName(), saturatingMul(minTransfers, sizeof(Transfer)),
                "at least " + std::to_string(minTransfers) + " transfers × " + std::to_string(sizeof(Transfer)) + " B");
    // The parameters are checked and typed once, here; the algorithm reads the typed values.
    const ParamValues values = parseParams(algorithm, info.params, params);
    // The dimension order is read before the build, so a bad one is refused before any work.
    std::optional<DimensionOrder> order;
    if (const std::string text = values.text("order"); !text.empty())
        order = parseOrder(text, topo.dims());
    Schedule s = info.build(topo, source, values);
    if (order)
        s.dimensionOrder = *order;
    s.finalize();
    return s;
}

} // namespace topocast
