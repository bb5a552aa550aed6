#include "topocast/visibility.h"

#include "topocast/error.h"
#include "topocast/layout.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace topocast {

std::vector<NodeId> activeNodes(const Schedule& schedule, StepNo step)
{
    std::vector<NodeId> nodes{schedule.source()};
    for (const Transfer& t : schedule.stepTransfers(step)) {
        nodes.push_back(t.from);
        nodes.push_back(t.to);
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

VisibilityReport measureVisibility(const Schedule& schedule, const std::vector<Vec3>& positions, const OrbitView& view)
{
    const std::vector<bool> seen = visibleNodes(view, positions, drawnNodeRadius(positions.size()));
    VisibilityReport report;
    for (StepNo k : steps(schedule)) {
        StepVisibility sv;
        sv.step = k;
        for (NodeId v : activeNodes(schedule, k)) {
            ++sv.active;
            if (v < seen.size() && seen[v])
                ++sv.visible;
        }
        if (sv.active > 0)
            report.minFraction = std::min(report.minFraction, static_cast<double>(sv.visible) / static_cast<double>(sv.active));
        report.steps.push_back(sv);
    }
    return report;
}

int busiestPlane(const Schedule& schedule, StepNo step, int dim)
{
    const Topology& topo = schedule.topology();
    if (topo.isHypercube() || dim < 0 || dim >= topo.dims() || step < 1 || step > schedule.stepCount())
        return -1;
    std::vector<NodeId> receivers;
    for (const Transfer& t : schedule.stepTransfers(step))
        receivers.push_back(t.to);
    std::sort(receivers.begin(), receivers.end());
    receivers.erase(std::unique(receivers.begin(), receivers.end()), receivers.end());
    if (receivers.empty())
        return -1;
    std::vector<std::size_t> count(static_cast<std::size_t>(topo.side(dim)), 0);
    for (NodeId v : receivers)
        ++count[static_cast<std::size_t>(topo.coord(v, dim))];
    return static_cast<int>(std::max_element(count.begin(), count.end()) - count.begin());
}

VisibilityReport measureVisibility(const Schedule& schedule, float explode, float aspect)
{
    if (!std::isfinite(aspect) || aspect <= 0.0f)
        throw Error("viewport aspect " + std::to_string(aspect) + " must be positive (width / height)");
    const std::vector<Vec3> positions = nodePositions(schedule.topology(), explode);
    return measureVisibility(schedule, positions, defaultView(schedule.topology(), positions, aspect));
}

} // namespace topocast
