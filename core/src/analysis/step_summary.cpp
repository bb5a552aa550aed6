#include "topocast/analysis/step_summary.h"

#include "topocast/model/error.h"

#include <algorithm>

namespace topocast {

std::vector<StepSummary> summarizeSteps(const Schedule& schedule, const Metrics& metrics)
{
    if (!schedule.finalized())
        throw Error("summarizeSteps needs a finalized schedule");
    const std::uint32_t steps = schedule.stepCount();
    std::vector<StepSummary> out(steps);
    const std::vector<std::uint64_t> tcdSoFar = cumulativeTcd(metrics.tcdPerStep, steps);
    for (StepNo k{1}; k <= steps; ++k) {
        StepSummary& s = out[k - 1];
        s.step = k;
        if (k - 1 < schedule.stepLabels.size())
            s.label = schedule.stepLabels[k - 1];
        const auto transfers = schedule.stepTransfers(k);
        s.transfers = transfers.size();
        std::vector<NodeId> to;
        to.reserve(transfers.size());
        for (const Transfer& t : transfers) {
            to.push_back(t.to);
            s.maxHops = std::max(s.maxHops, static_cast<std::uint32_t>(schedule.hops(t)));
        }
        std::sort(to.begin(), to.end());
        s.receivers = static_cast<std::uint64_t>(std::unique(to.begin(), to.end()) - to.begin());
        s.tcd = k - 1 < metrics.tcdPerStep.size() ? metrics.tcdPerStep[k - 1] : 0;
        s.tcdSoFar = tcdSoFar[k];
    }
    for (const Contention& c : metrics.contentions)
        if (c.step >= 1 && c.step <= steps)
            ++out[c.step - 1].contendedChannels;
    // Nodes holding data after step k: a histogram of first-informed steps, summed.
    std::vector<std::uint64_t> firstAt(static_cast<std::size_t>(steps) + 1, 0);
    for (std::uint32_t s : informedSteps(schedule))
        if (s != kNeverInformed && s <= steps)
            ++firstAt[s];
    std::uint64_t informed = firstAt[0];
    for (StepNo k{1}; k <= steps; ++k) {
        informed += firstAt[k];
        out[k - 1].informedSoFar = informed;
    }
    return out;
}

std::string describeStepSummary(const StepSummary& s, std::uint64_t nodeCount)
{
    auto count = [](std::uint64_t n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    return count(s.transfers, "transfer", "transfers") + " to " + count(s.receivers, "node", "nodes") + ", " +
           count(s.tcd, "hop", "hops") + " (TCD so far " + std::to_string(s.tcdSoFar) + ", longest route " +
           count(s.maxHops, "hop", "hops") + "), " + std::to_string(s.informedSoFar) + " of " +
           std::to_string(nodeCount) + " nodes hold data, " +
           (s.contendedChannels == 0 ? std::string("no channel contended")
                                     : count(s.contendedChannels, "channel contended", "channels contended"));
}

} // namespace topocast
