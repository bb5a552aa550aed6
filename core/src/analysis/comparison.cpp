#include "topocast/analysis/comparison.h"
#include "topocast/algorithms/figures.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <optional>

namespace topocast {

namespace {

std::vector<std::uint64_t> padded(const std::vector<std::uint64_t>& perStep, std::uint32_t steps)
{
    std::vector<std::uint64_t> out(steps, 0);
    std::copy_n(perStep.begin(), std::min<std::size_t>(perStep.size(), steps), out.begin());
    return out;
}

} // namespace

std::vector<NodeId> Comparison::informedOnOneSide(std::uint32_t step) const
{
    std::vector<NodeId> out;
    for (NodeId v : differing) {
        const auto [lo, hi] = std::minmax(informedA[v], informedB[v]);
        if (lo <= step && step < hi)
            out.push_back(v);
    }
    return out;
}

Comparison compareSchedules(const Schedule& a, const Metrics& ma, const Schedule& b, const Metrics& mb)
{
    if (!(a.topology() == b.topology()))
        throw Error("the two schedules are on different networks: A on the " + a.topology().displayName() + " (" +
                    a.topology().spec() + "), B on the " + b.topology().displayName() + " (" + b.topology().spec() +
                    "); a comparison needs one network");
    Comparison c;
    c.steps = std::max(a.stepCount(), b.stepCount());
    c.tcdPerStepA = padded(ma.tcdPerStep, c.steps);
    c.tcdPerStepB = padded(mb.tcdPerStep, c.steps);
    c.cumulativeTcdA = cumulativeTcd(c.tcdPerStepA, c.steps);
    c.cumulativeTcdB = cumulativeTcd(c.tcdPerStepB, c.steps);
    c.informedA = informedSteps(a);
    c.informedB = informedSteps(b);
    for (NodeId v{}; v < c.informedA.size(); ++v)
        if (c.informedA[v] != c.informedB[v])
            c.differing.push_back(v);
    auto row = [&](const char* name, double x, double y) { c.rows.push_back({name, x, y}); };
    row("steps", ma.steps, mb.steps);
    row("transfers", static_cast<double>(ma.transfers), static_cast<double>(mb.transfers));
    row("TCD", static_cast<double>(ma.tcd), static_cast<double>(mb.tcd));
    row("max hops", ma.maxHops, mb.maxHops);
    row("contention uses", static_cast<double>(ma.contentionUses), static_cast<double>(mb.contentionUses));
    row("max step load", ma.maxStepLoad, mb.maxStepLoad);
    row("max link load", ma.maxLinkLoad, mb.maxLinkLoad);
    // The algorithms' own cost figure (hypercube graphs: Johnsson-Ho's time), when both have one.
    auto time = [](const Schedule& s) -> std::optional<double> {
        if (const HypercubeFigures* h = s.figures ? s.figures->get<HypercubeFigures>() : nullptr)
            return h->time;
        return std::nullopt;
    };
    if (const auto ta = time(a), tb = time(b); ta && tb)
        row("time (cost model)", *ta, *tb);
    return c;
}

} // namespace topocast
