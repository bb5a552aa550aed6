#include "topocast/scenario/frame.h"

#include "topocast/model/routing.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace topocast {

TransferSizes transferSizes(const Schedule& schedule)
{
    TransferSizes out;
    const auto transfers = schedule.transfers();
    double smallest = transfers.empty() ? 1.0 : transfers.front().size;
    out.largest = smallest;
    for (const Transfer& t : transfers) {
        smallest = std::min(smallest, t.size);
        out.largest = std::max(out.largest, t.size);
    }
    out.uniform = !(out.largest > smallest) || !(out.largest > 0);
    return out;
}

float messageScale(const TransferSizes& sizes, double size)
{
    if (sizes.uniform)
        return 1.0f;
    return 0.6f + 0.8f * static_cast<float>(std::sqrt(std::max(0.0, size) / sizes.largest));
}

Frame makeFrame(const ScenarioRun& run, const std::vector<DrawnChannel>& channels, const FrameRequest& request)
{
    Frame f;
    f.request = request;
    const Schedule& s = run.schedule;
    const auto step = static_cast<std::uint32_t>(std::max(request.step, 0));
    f.states = nodeStates(run, step);
    f.style = frameStyle(run, channels, request.step, request.mode, request.cumulativeHeat, request.palette);
    if (step >= 1 && step <= s.stepCount()) {
        const auto transfers = s.stepTransfers(StepNo{step});
        std::vector<std::vector<NodeId>> routes;
        std::set<std::pair<NodeId, NodeId>> hops; // every directed hop of the step
        for (const Transfer& t : transfers) {
            routes.push_back(routeNodes(s.topology(), t.from, t.to, t.route, s.dimensionOrder));
            for (std::size_t k = 0; k + 1 < routes.back().size(); ++k)
                hops.insert({routes.back()[k], routes.back()[k + 1]});
        }
        const bool tags = run.channelLoads.severalTags();
        const TransferSizes sizes = transferSizes(s);
        const std::size_t first = s.stepBegin(StepNo{step});
        for (std::size_t i = 0; i < transfers.size(); ++i) {
            const std::vector<NodeId>& r = routes[i];
            if (r.size() < 2)
                continue;
            const NodeId from = r[r.size() - 2], to = r.back();
            f.arrows.push_back({first + i, from, to,
                                messageColour(request.mode, request.palette, static_cast<int>(transfers[i].tag), tags),
                                messageScale(sizes, transfers[i].size), hops.count({to, from}) > 0});
        }
    }
    // Anchored at the run's layout (each output anchors them where it draws the node).
    f.labels = run.positions.size() == s.topology().nodeCount()
                   ? nodeSceneLabels(s, run.positions, step)
                   : nodeSceneLabels(s, std::vector<Vec3>(s.topology().nodeCount()), step);
    f.coverable = idleNodes(s, run.informedStep, step);
    f.legend = modeLegend(&run, request.mode, request.palette);
    return f;
}

} // namespace topocast
