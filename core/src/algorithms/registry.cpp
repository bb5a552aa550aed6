#include "topocast/algorithms/registry.h"

#include "topocast/algorithms/baselines.h"
#include "topocast/algorithms/tsay_wang.h"
#include "topocast/error.h"
#include "topocast/limits.h"

#include <sstream>

namespace topocast {

namespace {

bool allPowersOfTwo(const Topology& topo)
{
    for (int s : topo.sides())
        if (s < 1 || (s & (s - 1)) != 0)
            return false;
    return true;
}

std::vector<AlgorithmInfo> makeAlgorithms()
{
    std::vector<AlgorithmInfo> list;

    // ---- baselines (spec: DEVELOPERS.md / issue #2) ----------------------------------------
    list.push_back({
        "binomial",
        "MPICH binomial tree over ranks in row-major order, routed on the network (one-port)",
        "any mesh, torus or hypercube",
        {},
        {"broadcast"},
        [](const Topology&) -> std::optional<std::string> { return std::nullopt; },
        [](const Topology& t, NodeId s, const Params&) { return binomialBroadcast(t, s); },
        {},
    });
    list.push_back({
        "recursive-doubling",
        "halve the network dimension by dimension; send to the same spot in the other half (one-port)",
        "meshes, tori and hypercubes whose sides are powers of two",
        {},
        {"broadcast"},
        [](const Topology& t) -> std::optional<std::string> {
            if (allPowersOfTwo(t))
                return std::nullopt;
            return "recursive-doubling needs every side to be a power of two; got " + t.displayName();
        },
        [](const Topology& t, NodeId s, const Params&) { return recursiveDoublingBroadcast(t, s); },
        {},
    });
    list.push_back({
        "bfs",
        "Boost.Graph breadth-first spanning tree, one level per step (all-port)",
        "any mesh, torus or hypercube",
        {},
        {"broadcast"},
        [](const Topology&) -> std::optional<std::string> { return std::nullopt; },
        [](const Topology& t, NodeId s, const Params&) { return bfsBroadcast(t, s); },
        {},
    });

    // ---- paper algorithms: each issue adds its entry here ---------------------------------
    list.push_back({
        "tsay-wang",
        "Tsay & Wang: nearly optimal all-port wormhole broadcast, cyclic-dimension-order routes "
        "(variant paper|direct)",
        "d-dimensional n×…×n tori, d ≥ 2, n ≥ 3 (even n ≥ d); direct needs n or n−1 = (2d+1)^r",
        {},
        {"broadcast"},
        [](const Topology& t) -> std::optional<std::string> {
            if (!t.isTorus() || !t.isCubic())
                return "tsay-wang needs a d-dimensional n×…×n torus (d ≥ 2, n ≥ 3, even n ≥ d); got " + t.displayName();
            return tsayWangUnsupported(t.dims(), t.side(0), TsayWangVariant::Paper);
        },
        [](const Topology& t, NodeId s, const Params& p) {
            if (p.getString("pattern", "broadcast") != "broadcast")
                throw Error("tsay-wang computes a broadcast only; got pattern '" + p.getString("pattern", "") + "'");
            return tsayWangBroadcast(t, s, parseTsayWangVariant(p.getString("variant", "paper")));
        },
        {},
    });

    return list;
}

} // namespace

const std::vector<AlgorithmInfo>& algorithms()
{
    static const std::vector<AlgorithmInfo> list = makeAlgorithms();
    return list;
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
    Schedule s = info.build(topo, source, params);
    if (const auto order = params.find("order"))
        s.dimensionOrder = parseOrder(*order, topo.dims());
    s.finalize();
    return s;
}

} // namespace topocast
