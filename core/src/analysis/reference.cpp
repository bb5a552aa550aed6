#include "topocast/analysis/reference.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/model/error.h"

#include <algorithm>

namespace topocast {

namespace {

/// ⌈log_base n⌉ for n ≥ 1, base ≥ 2, by repeated multiplication (no floating point).
std::uint32_t ceilLog(std::uint64_t n, std::uint64_t base)
{
    std::uint32_t t = 0;
    std::uint64_t reach = 1;
    while (reach < n) {
        reach *= base;
        ++t;
    }
    return t;
}

} // namespace

BroadcastReference broadcastReference(const Topology& topo, NodeId source, PortModel ports)
{
    if (source >= topo.nodeCount())
        throw Error("source " + std::to_string(source) + " is outside the " + topo.displayName());
    BroadcastReference r;
    const std::uint64_t n = topo.nodeCount();
    switch (ports) {
    case PortModel::OnePort:
    case PortModel::OnePortExchange:
    case PortModel::HalfDuplex:
        r.minSteps = ceilLog(n, 2);
        r.minStepsReason = "⌈log2 " + std::to_string(n) + "⌉ = " + std::to_string(r.minSteps) + ", " + toString(ports) +
                           ": the informed nodes at most double each step";
        break;
    case PortModel::AllPort: {
        const auto k = static_cast<std::uint64_t>(topo.portsPerNode());
        r.minSteps = ceilLog(n, k + 1);
        r.minStepsReason = "⌈log" + std::to_string(k + 1) + " " + std::to_string(n) +
                           "⌉ = " + std::to_string(r.minSteps) + ", all-port: each informed node informs at most " +
                           std::to_string(k) + " more each step";
        break;
    }
    case PortModel::MultiPort:
        break;
    }
    for (const AlgorithmInfo& a : algorithms()) {
        if (a.whyNot && a.whyNot(topo))
            continue;
        if (!a.patterns.empty() && std::find(a.patterns.begin(), a.patterns.end(), "broadcast") == a.patterns.end())
            continue;
        try {
            Params params;
            if (!a.patterns.empty())
                params.set("pattern", "broadcast");
            Schedule s = a.build(topo, source, parseParams(a.name, a.params, params));
            if (s.pattern() != Pattern::Broadcast || s.portModel() != ports || s.parts != 1)
                continue;
            s.finalize();
            if (!validate(s).ok())
                continue;
            const Metrics m = computeMetrics(s);
            if (!r.bestTcd || m.tcd < *r.bestTcd) {
                r.bestTcd = m.tcd;
                r.bestTcdSteps = m.steps;
                r.bestTcdAlgorithm = a.name + (a.modes.empty() ? std::string() : " (" + a.modes.front() + ")");
            }
        } catch (const Error&) {
            // this algorithm cannot build it here (too large, a parameter it needs): not a reference
        }
    }
    return r;
}

} // namespace topocast
