#include "topocast/analysis/simulated_playback.h"

#include "topocast/model/units.h"
#include "topocast/text/numbers.h"

#include <algorithm>
#include <utility>

namespace topocast {

double Simulation::contentionCost() const
{
    return contentionFree.total > 0 ? time.total / contentionFree.total - 1.0 : 0.0;
}

namespace {

std::uint32_t hopCount(const Simulation& s, std::size_t t)
{
    return static_cast<std::uint32_t>(s.routeFirst[t + 1] - s.routeFirst[t]);
}

/// Whether transfer `t`'s hops have intervals of their own (store-and-forward) rather than one
/// interval for the whole route (cut-through).
bool hopsOfTheirOwn(const Simulation& s, std::size_t t)
{
    const std::uint64_t first = s.routeFirst[t];
    const std::uint64_t last = s.routeFirst[t + 1];
    for (std::uint64_t k = first + 1; k < last; ++k)
        if (s.hopTimes[k].start != s.hopTimes[first].start || s.hopTimes[k].end != s.hopTimes[first].end)
            return true;
    return false;
}

std::string shownNs(double ns)
{
    return formatSeconds(ns * 1e-9);
}

} // namespace

SimulatedPlayback::SimulatedPlayback(const Schedule& schedule, std::shared_ptr<const Simulation> simulation)
    : m_sim(std::move(simulation))
{
    const Simulation& s = *m_sim;
    const std::uint32_t steps = schedule.stepCount();
    m_stepEnd.assign(std::size_t{steps} + 1, 0.0);
    for (std::uint32_t k = 1; k <= steps; ++k) {
        const double end = k - 1 < s.time.stepEnds.size() ? s.time.stepEnds[k - 1] : 0.0;
        m_stepEnd[k] = std::max(m_stepEnd[k - 1], end);
    }
    const std::size_t transfers = s.routeFirst.empty() ? 0 : s.routeFirst.size() - 1;
    m_wireBegin.assign(transfers, 0.0);
    m_wireEnd.assign(transfers, 0.0);
    m_ownHops.assign(transfers, 0);
    for (std::size_t t = 0; t < transfers; ++t) {
        m_ownHops[t] = hopsOfTheirOwn(s, t) ? 1 : 0;
        const std::uint64_t first = s.routeFirst[t];
        const std::uint64_t last = s.routeFirst[t + 1];
        if (first == last) { // no link crossed: the transfer's own interval
            m_wireBegin[t] = t < s.time.transfers.size() ? s.time.transfers[t].start : 0.0;
            m_wireEnd[t] = t < s.time.transfers.size() ? s.time.transfers[t].end : 0.0;
            continue;
        }
        m_wireBegin[t] = s.hopTimes[first].start;
        m_wireEnd[t] = s.hopTimes[last - 1].end;
    }
}

double SimulatedPlayback::stepEnd(std::uint32_t step) const
{
    return m_stepEnd[std::min<std::size_t>(step, m_stepEnd.size() - 1)];
}

double SimulatedPlayback::timeAt(std::uint32_t step, double fraction) const
{
    if (step == 0)
        return 0.0;
    const double f = std::clamp(fraction, 0.0, 1.0);
    return stepEnd(step - 1) + f * (stepEnd(step) - stepEnd(step - 1));
}

std::vector<PlaybackHop> SimulatedPlayback::hopsBetween(double from, double to) const
{
    const Simulation& s = *m_sim;
    std::vector<PlaybackHop> out;
    for (std::size_t t = 0; t < m_wireBegin.size(); ++t) {
        if (m_wireEnd[t] < from || m_wireBegin[t] > to || m_wireEnd[t] <= m_wireBegin[t])
            continue;
        const std::uint32_t hops = hopCount(s, t);
        const bool own = m_ownHops[t] != 0;
        const double span = (m_wireEnd[t] - m_wireBegin[t]) / std::max<std::uint32_t>(hops, 1);
        for (std::uint32_t k = 0; k < hops; ++k) {
            const OpTiming& h = s.hopTimes[s.routeFirst[t] + k];
            const double begin = own ? h.start : m_wireBegin[t] + k * span;
            const double end = own ? h.end : m_wireBegin[t] + (k + 1) * span;
            if (end >= from && begin <= to)
                out.push_back({static_cast<std::uint32_t>(t), k, hops, begin, end});
        }
    }
    return out;
}

std::vector<ChannelId> SimulatedPlayback::channelsBetween(double from, double to) const
{
    const Simulation& s = *m_sim;
    std::vector<ChannelId> out;
    for (std::size_t t = 0; t < m_wireBegin.size(); ++t)
        if (m_wireEnd[t] >= from && m_wireBegin[t] <= to && m_wireEnd[t] > m_wireBegin[t])
            out.insert(out.end(), s.routeLinks.begin() + static_cast<std::ptrdiff_t>(s.routeFirst[t]),
                       s.routeLinks.begin() + static_cast<std::ptrdiff_t>(s.routeFirst[t + 1]));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

LinkOccupancy::LinkOccupancy(const Simulation& s, std::uint64_t channelCount)
    : m_count(channelCount, 0), m_stamp(channelCount, 0)
{
    m_events.reserve(2 * s.hopTimes.size());
    for (std::size_t k = 0; k < s.hopTimes.size() && k < s.routeLinks.size(); ++k) {
        const OpTiming& h = s.hopTimes[k];
        const std::uint64_t c = s.routeLinks[k].value();
        if (h.end <= h.start || c >= channelCount)
            continue;
        m_events.push_back({h.start, static_cast<std::uint32_t>(c), +1});
        m_events.push_back({h.end, static_cast<std::uint32_t>(c), -1});
    }
    std::sort(m_events.begin(), m_events.end(),
              [](const Event& a, const Event& b) { return a.time != b.time ? a.time < b.time : a.delta < b.delta; });
}

void LinkOccupancy::apply(const Event& e, int sign)
{
    m_count[e.channel] = static_cast<std::uint32_t>(static_cast<int>(m_count[e.channel]) + sign * e.delta);
    if (m_stamp[e.channel] != m_move) {
        m_stamp[e.channel] = m_move;
        m_changed.push_back(ChannelId{e.channel});
    }
}

const std::vector<ChannelId>& LinkOccupancy::moveTo(double ns)
{
    ++m_move;
    m_changed.clear();
    while (m_applied < m_events.size() && m_events[m_applied].time <= ns)
        apply(m_events[m_applied++], +1);
    while (m_applied > 0 && m_events[m_applied - 1].time > ns)
        apply(m_events[--m_applied], -1);
    m_now = ns;
    // A channel passed twice (a message began and ended between two moves) may be back where it was.
    return m_changed;
}

std::string linkFinding(const Topology& topology, const LinkLoad& link)
{
    return topology.channelName(link.channel) + " carries " + std::to_string(link.most) + " messages at once in step " +
           std::to_string(link.mostStep.value()) + " (shared " + shownNs(link.shared) + " in all)";
}

std::string contentionSentence(const Simulation& simulation, const Topology& topology)
{
    const double cost = simulation.contentionCost();
    if (simulation.links.empty() || simulation.links.front().shared <= 0)
        return "contention costs nothing: no two messages crossed one link at once";
    if (cost <= 1e-12)
        return "contention costs nothing in the total (links were shared off the critical path; the most: " +
               linkFinding(topology, simulation.links.front()) + ")";
    return "contention costs " + formatSignificant(cost * 100, 3) +
           " %: " + linkFinding(topology, simulation.links.front());
}

std::string stepContentionSentence(const Simulation& simulation, const Topology& topology, StepNo step)
{
    const std::size_t k = step.value() - 1;
    if (step.value() == 0 || k >= simulation.time.stepEnds.size())
        return {};
    const double end = simulation.time.stepEnds[k];
    const double free = k < simulation.contentionFree.stepEnds.size() ? simulation.contentionFree.stepEnds[k] : end;
    std::string text = "Simulated: step " + std::to_string(step.value()) + "'s last message arrives at " + shownNs(end);
    if (free > 0 && end > free * (1 + 1e-9))
        text += ", " + formatSignificant((end / free - 1) * 100, 3) + " % later than without contention (" +
                shownNs(free) + ")";
    else
        text += ", as without contention";
    for (const LinkLoad& l : simulation.links)
        if (l.mostStep == step && l.most >= 2)
            return text + "; " + topology.channelName(l.channel) + " carries " + std::to_string(l.most) +
                   " messages at once.";
    return text + "; no link carries two of its messages at once.";
}

} // namespace topocast
