// Cang-Wu on a Topology: the Schedule the front ends show, the TCD source map, and the
// applicability check.

#include "topocast/algorithms/cang_wu.h"

#include "topocast/algorithms/figures.h"
#include "topocast/model/error.h"

#include <string>

namespace topocast {

namespace {

struct Shape {
    int d = 0;
    int k = 0;
};

Shape shapeOf(const Topology& topology)
{
    const int k = cubicPowerOfTwoExponent(topology);
    return {topology.dims(), k};
}

std::string boxName(int d, int j)
{
    std::string s;
    for (int i = 0; i < d; ++i) {
        if (i != 0)
            s += "×";
        s += std::to_string(1 << j);
    }
    return s;
}

} // namespace

std::string cangWuWhyNot(const Topology& topology)
{
    try {
        (void)cubicPowerOfTwoExponent(topology);
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

Schedule cangWuSchedule(const Topology& topology, NodeId source, CangWuMode mode)
{
    const Shape shape = shapeOf(topology);
    const int d = shape.d;
    const int k = shape.k;
    if (source >= topology.nodeCount())
        throw Error("source " + std::to_string(source) + " is outside the mesh (node ids 0.." +
                    std::to_string(topology.nodeCount() - 1) + ")");
    const std::vector<CangWuSend> sends =
        topology.isTorus() ? cangWuTorusSends(d, k, source) : cangWuSends(d, k, source, mode);

    Schedule schedule(topology, source, Pattern::Broadcast, PortModel::OnePort);
    schedule.algorithm = "cang-wu";
    schedule.mode = toString(mode);
    // Place the sends in step order directly (step t holds exactly 2^{t−1} sends, starting at
    // 2^{t−1} − 1), so finalize() finds them sorted and does not sort millions of transfers.
    const int steps = d * k;
    {
        std::vector<Transfer>& transfers = schedule.mutableTransfers();
        transfers.resize(sends.size());
        std::vector<std::size_t> next(static_cast<std::size_t>(steps) + 1);
        for (int t = 1; t <= steps; ++t)
            next[static_cast<std::size_t>(t)] = (std::size_t{1} << (t - 1)) - 1;
        for (const CangWuSend& s : sends) {
            std::size_t& at = next[s.step];
            transfers[at++] = Transfer{s.from, s.to, s.step, RouteSpec::dimensionOrder(), 0, s.level, 1.0};
        }
    }

    schedule.stepLabels.reserve(static_cast<std::size_t>(steps));
    for (int t = 1; t <= steps; ++t) {
        const int j = k - (t - 1) / d;
        const int q = (t - 1) % d + 1;
        schedule.stepLabels.push_back("level " + std::to_string(j) + " (" + boxName(d, j) + " boxes), step " +
                                      std::to_string(q) + " of " + std::to_string(d));
    }

    CangWuFigures f;
    f.mode = toString(mode);
    f.optimum = cangWuOptimum(d, k);
    if (topology.isTorus()) {
        f.sourceTcd = f.optimum;
        f.bestFromSource = f.optimum;
        f.torusNote = "translated eye schedule from E(1); TCD = OD_k from every source (eye schedule, not a "
                      "proven minimum on a torus)";
    } else {
        f.sourceTcd = cangWuTcd(d, k, source, mode);
        f.bestFromSource = mode == CangWuMode::Optimal ? f.sourceTcd : cangWuTcd(d, k, source, CangWuMode::Optimal);
        // Spec §7.2: exhaustive DP (paths up to 16 nodes, 2×2, 4×4, 2×2×2) and integer programs
        // (8×8, 4×4×4) prove the submesh-optimal values minimal there.
        f.bestFromSourceProven = (d == 1 && k <= 4) || (d == 2 && k <= 3) || (d == 3 && k <= 2);
    }
    f.eyes = meshEyes(d, k);
    f.eyeSide = eyeSide(k);
    f.sourceEyeLevel = topology.isTorus() ? k : eyeLevel(topology.coords(source), k);
    f.levels = k;
    schedule.figures = std::make_shared<const AlgorithmFigures>(AlgorithmFigures{std::move(f)});
    schedule.finalize();
    return schedule;
}

std::vector<std::uint64_t> cangWuTcdSourceMap(const Topology& topology, CangWuMode mode)
{
    const Shape shape = shapeOf(topology);
    if (topology.isTorus())
        return std::vector<std::uint64_t>(topology.nodeCount(), cangWuOptimum(shape.d, shape.k));
    return cangWuTcdSourceMap(shape.d, shape.k, mode);
}

} // namespace topocast
