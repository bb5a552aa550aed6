#include "topocast/analysis/metrics.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace topocast {

namespace {

/// Refuses schedules whose per-channel (and per-node, per-step) arrays exceed memoryLimit().
void checkChannelMemory(const Topology& topo, std::size_t bytesPerSlot, std::uint64_t bytesPerNode = 0,
                        std::uint64_t steps = 0)
{
    const std::uint64_t bytes = saturatingAdd(
        saturatingAdd(saturatingMul(topo.channelSlots(), bytesPerSlot), saturatingMul(topo.nodeCount(), bytesPerNode)),
        saturatingMul(steps, sizeof(std::uint64_t)));
    std::string detail =
        std::to_string(topo.channelSlots()) + " channel slots × " + std::to_string(bytesPerSlot) + " B";
    if (bytesPerNode)
        detail += " + " + std::to_string(topo.nodeCount()) + " nodes × " + std::to_string(bytesPerNode) + " B";
    if (steps)
        detail += " + " + std::to_string(steps) + " steps × 8 B";
    checkMemory("channel metrics of the " + topo.displayName(), bytes, detail);
}

} // namespace

/// Fills a ChannelLoadHistory step by step during computeMetrics' pass over the routes.
class ChannelLoadHistoryBuilder {
public:
    ChannelLoadHistoryBuilder(ChannelLoadHistory& history, const Schedule& schedule) : m_h(history)
    {
        const std::vector<Transfer>& transfers = schedule.transfers();
        m_h = ChannelLoadHistory();
        m_h.m_severalTags = std::any_of(transfers.begin(), transfers.end(),
                                        [&](const Transfer& t) { return t.tag != transfers.front().tag; });
        if (!m_h.m_severalTags && !transfers.empty())
            m_h.m_uniformTag = static_cast<std::int32_t>(transfers.front().tag);
        // Channel ids fit 32 bits: at most 2^24 nodes × 24 ports.
        static_assert(std::uint64_t{Topology::kMaxNodes} * Topology::kMaxHypercubeDims <= 0xFFFFFFFFull);
        m_h.m_slots = static_cast<std::size_t>(schedule.topology().channelSlots());
        m_h.m_stepBegin.reserve(std::size_t{schedule.stepCount()} + 1);
        m_h.m_entries.reserve(transfers.size());
        if (m_h.m_severalTags) {
            m_tagNow.assign(m_h.m_slots, -1);
            m_h.m_tag.reserve(transfers.size());
        }
        m_what = "the channel load history of the " + schedule.topology().displayName();
    }

    /// Bytes per slot of the working array (this step's tags).
    static std::size_t workingBytesPerSlot(bool severalTags) { return severalTags ? sizeof(std::int32_t) : 0; }

    bool severalTags() const { return m_h.m_severalTags; }
    void tag(ChannelId c, std::uint32_t tag) { m_tagNow[c] = static_cast<std::int32_t>(tag); }

    /// Ends step `step` (of `steps`): its channels `touched` with their counts in `stepLoad`; the
    /// cumulative loads after it are `cumulative` (computeMetrics' totals).
    void endStep(std::uint32_t step, std::uint32_t steps, const std::vector<std::uint32_t>& touched,
                 const std::vector<std::uint32_t>& stepLoad, const std::vector<std::uint32_t>& cumulative)
    {
        const bool tags = m_h.m_severalTags;
        const std::size_t entries = m_h.m_entries.size() + touched.size();
        if (entries > m_h.m_entries.capacity())
            checkMemory(m_what, saturatingAdd(saturatingMul(2 * entries, entryBytes()), m_checkpointBytes),
                        std::to_string(entries) + "+ channel uses × " + std::to_string(entryBytes()) +
                            " B + checkpoints");
        for (const std::uint32_t c : touched)
            m_h.m_entries.push_back({c, stepLoad[c]});
        if (tags)
            for (const std::uint32_t c : touched)
                m_h.m_tag.push_back(m_tagNow[c]);
        m_h.m_stepBegin.push_back(m_h.m_entries.size());
        m_sinceCheckpoint += touched.size();
        if (m_sinceCheckpoint < m_h.m_slots || step == steps)
            return;
        // Enough deltas since the last checkpoint: store the cumulative loads here, so reaching
        // any step replays fewer than channel-slots deltas.
        const std::uint64_t slotBytes = sizeof(std::uint32_t) + (tags ? sizeof(std::int32_t) : 0);
        m_checkpointBytes = saturatingAdd(m_checkpointBytes, saturatingMul(m_h.m_slots, slotBytes));
        checkMemory(m_what, saturatingAdd(saturatingMul(m_h.m_entries.size(), entryBytes()), m_checkpointBytes),
                    std::to_string(m_h.m_checkpointStep.size() + 1) + " checkpoints × " + std::to_string(m_h.m_slots) +
                        " channel slots × " + std::to_string(slotBytes) + " B + channel uses");
        if (tags) {
            // The last tags: the previous checkpoint's, then the tags of the entries since.
            std::vector<std::int32_t> lastTag =
                m_h.m_checkpointTag.empty() ? std::vector<std::int32_t>(m_h.m_slots, -1) : m_h.m_checkpointTag.back();
            const std::size_t from = m_h.m_checkpointStep.empty() ? 0 : m_h.m_stepBegin[m_h.m_checkpointStep.back()];
            for (std::size_t e = from; e < m_h.m_entries.size(); ++e)
                lastTag[m_h.m_entries[e].channel] = m_h.m_tag[e];
            m_h.m_checkpointTag.push_back(std::move(lastTag));
        }
        m_h.m_checkpointStep.push_back(step);
        m_h.m_checkpointLoad.push_back(cumulative);
        m_sinceCheckpoint = 0;
    }

private:
    std::uint64_t entryBytes() const
    {
        return 2 * sizeof(std::uint32_t) + (m_h.m_severalTags ? sizeof(std::int32_t) : 0);
    }

    ChannelLoadHistory& m_h;
    std::vector<std::int32_t> m_tagNow; // this step's last tag per channel (several tags only)
    std::size_t m_sinceCheckpoint = 0;
    std::uint64_t m_checkpointBytes = 0;
    std::string m_what;
};

namespace {

/// The one pass over the routes behind computeMetrics (and ChannelLoadHistory when `loads`).
Metrics analyse(const Schedule& schedule, std::size_t contentionLimit, ChannelLoadHistory* loads)
{
    const Topology& topo = schedule.topology();
    if (loads && !schedule.finalized() && schedule.size() > 0)
        throw Error("channel load history: the schedule is not finalized (call Schedule::finalize())");
    std::optional<ChannelLoadHistoryBuilder> history;
    if (loads)
        history.emplace(*loads, schedule);
    const std::size_t historyBytes = ChannelLoadHistoryBuilder::workingBytesPerSlot(history && history->severalTags());
    checkChannelMemory(topo, 3 * sizeof(std::uint32_t) + historyBytes, 2 * sizeof(std::uint32_t), schedule.stepCount());
    const std::size_t slots = static_cast<std::size_t>(topo.channelSlots());
    const std::vector<Transfer>& transfers = schedule.transfers();

    Metrics m;
    m.steps = schedule.stepCount();
    m.transfers = transfers.size();
    m.tcdPerStep.assign(m.steps, 0);

    std::vector<std::uint32_t> stepLoad(slots, 0);
    std::vector<std::uint32_t> totalLoad(slots, 0);
    std::vector<std::uint32_t> lastStep(slots, 0); // high bit: already counted as depth-contended
    constexpr std::uint32_t kCounted = 0x80000000u;
    std::vector<std::uint32_t> sends(topo.nodeCount(), 0);
    std::vector<std::uint32_t> receives(topo.nodeCount(), 0);
    std::vector<std::uint32_t> touched; // channels used in this step, each once

    const DimensionOrder& order = schedule.dimensionOrder;
    const bool tags = history && history->severalTags();
    for (StepNo step{1}; step <= m.steps; ++step) {
        const std::size_t begin = schedule.stepBegin(step);
        const std::size_t end = schedule.stepEnd(step);
        std::uint32_t stepMax = 0;
        std::uint64_t stepHops = 0;
        touched.clear();
        for (std::size_t i = begin; i < end; ++i) {
            const Transfer& t = transfers[i];
            const int hops = forEachChannel(topo, t.from, t.to, t.route, order, [&](ChannelId c) {
                const std::uint32_t load = ++stepLoad[c];
                if (load == 1)
                    touched.push_back(static_cast<std::uint32_t>(c));
                if (tags)
                    history->tag(c, t.tag);
                stepMax = std::max(stepMax, load);
                m.maxLinkLoad = std::max(m.maxLinkLoad, ++totalLoad[c]);
                std::uint32_t& last = lastStep[c];
                const std::uint32_t prev = last & ~kCounted;
                if (prev != 0 && prev != step && !(last & kCounted)) {
                    ++m.depthContendedChannels;
                    last = step | kCounted;
                } else {
                    last = step | (last & kCounted);
                }
            });
            stepHops += static_cast<std::uint64_t>(hops);
            m.maxHops = std::max(m.maxHops, static_cast<std::uint32_t>(hops));
            m.maxSendsPerNodeStep = std::max(m.maxSendsPerNodeStep, ++sends[t.from]);
            m.maxReceivesPerNodeStep = std::max(m.maxReceivesPerNodeStep, ++receives[t.to]);
        }
        m.tcdPerStep[step - 1] = stepHops;
        m.tcd += stepHops;
        m.maxStepLoad = std::max(m.maxStepLoad, stepMax);

        if (stepMax > 1 && m.contentions.size() >= contentionLimit) {
            // Nothing more to list: a channel used k ≥ 2 times in this step is k contended uses.
            for (const std::uint32_t c : touched)
                if (stepLoad[c] > 1)
                    m.contentionUses += stepLoad[c];
        } else if (stepMax > 1) {
            // Second pass: which transfers share a channel in this step.
            std::map<ChannelId, std::vector<std::size_t>> shared;
            for (std::size_t i = begin; i < end; ++i) {
                const Transfer& t = transfers[i];
                forEachChannel(topo, t.from, t.to, t.route, order, [&](ChannelId c) {
                    if (stepLoad[c] > 1)
                        shared[c].push_back(i);
                });
            }
            for (auto& [channel, list] : shared) {
                m.contentionUses += list.size();
                if (m.contentions.size() < contentionLimit)
                    m.contentions.push_back(Contention{step, channel, std::move(list)});
            }
        }
        if (history)
            history->endStep(step, m.steps, touched, stepLoad, totalLoad);
        // Reset the per-step counters touched by this step.
        for (const std::uint32_t c : touched)
            stepLoad[c] = 0;
        for (std::size_t i = begin; i < end; ++i) {
            sends[transfers[i].from] = 0;
            receives[transfers[i].to] = 0;
        }
    }
    return m;
}

} // namespace

Metrics computeMetrics(const Schedule& schedule, std::size_t contentionLimit)
{
    return analyse(schedule, contentionLimit, nullptr);
}

Metrics computeMetrics(const Schedule& schedule, std::size_t contentionLimit, ChannelLoadHistory& loads)
{
    return analyse(schedule, contentionLimit, &loads);
}

std::vector<std::size_t> firstInformers(const Schedule& schedule)
{
    if (!schedule.finalized() && schedule.size() > 0)
        throw Error("spanning tree: the schedule is not finalized (call Schedule::finalize())");
    std::vector<std::size_t> first(schedule.topology().nodeCount(), kNoTransfer);
    const std::vector<Transfer>& transfers = schedule.transfers();
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const NodeId to = transfers[i].to;
        if (to != schedule.source() && first[to] == kNoTransfer)
            first[to] = i;
    }
    return first;
}

std::vector<std::uint32_t> informedSteps(const Schedule& schedule)
{
    const std::vector<std::size_t> first = firstInformers(schedule);
    const bool everyNodeStarts = topocast::everyNodeStarts(schedule.pattern());
    std::vector<std::uint32_t> steps(first.size(), everyNodeStarts ? 0 : kNeverInformed);
    if (everyNodeStarts)
        return steps;
    if (schedule.source() < steps.size())
        steps[schedule.source()] = 0;
    for (std::size_t v = 0; v < first.size(); ++v)
        if (first[v] != kNoTransfer)
            steps[v] = schedule.transfers()[first[v]].step;
    return steps;
}

ChannelLoadHistory::ChannelLoadHistory(const Schedule& schedule)
{
    analyse(schedule, 0, this);
}

void ChannelLoadHistory::loadsAt(std::uint32_t step, ChannelLoads& out) const
{
    step = std::min(step, stepCount());
    const bool tags = m_severalTags;
    // The last checkpoint at or before `step`, then the deltas after it (fewer than m_slots).
    const auto cp = std::upper_bound(m_checkpointStep.begin(), m_checkpointStep.end(), step);
    std::uint32_t from = 1;
    if (cp == m_checkpointStep.begin()) {
        out.cumulative.assign(m_slots, 0);
        out.lastTag.assign(m_slots, -1);
    } else {
        const auto i = static_cast<std::size_t>(cp - m_checkpointStep.begin()) - 1;
        out.cumulative = m_checkpointLoad[i];
        if (tags)
            out.lastTag = m_checkpointTag[i];
        else
            out.lastTag.assign(m_slots, -1);
        from = m_checkpointStep[i] + 1;
    }
    for (std::size_t e = m_stepBegin[from - 1]; e < m_stepBegin[step]; ++e)
        out.cumulative[m_entries[e].channel] += m_entries[e].count;
    if (tags)
        for (std::size_t e = m_stepBegin[from - 1]; e < m_stepBegin[step]; ++e)
            out.lastTag[m_entries[e].channel] = m_tag[e];
    if (m_uniformTag)
        for (std::size_t c = 0; c < m_slots; ++c)
            if (out.cumulative[c] > 0)
                out.lastTag[c] = *m_uniformTag;
    out.step.assign(m_slots, 0);
    out.contendedNow = 0;
    if (step == 0)
        return;
    for (std::size_t e = m_stepBegin[step - 1]; e < m_stepBegin[step]; ++e) {
        out.step[m_entries[e].channel] = m_entries[e].count;
        if (m_entries[e].count >= 2)
            ++out.contendedNow;
    }
}

ChannelLoads ChannelLoadHistory::at(std::uint32_t step) const
{
    ChannelLoads out;
    loadsAt(step, out);
    return out;
}

std::uint64_t ChannelLoadHistory::memoryBytes() const
{
    std::uint64_t bytes = m_stepBegin.size() * sizeof(std::size_t) + m_entries.size() * sizeof(Entry) +
                          m_tag.size() * sizeof(std::int32_t) + m_checkpointStep.size() * sizeof(std::uint32_t);
    for (const auto& c : m_checkpointLoad)
        bytes += c.size() * sizeof(std::uint32_t);
    for (const auto& c : m_checkpointTag)
        bytes += c.size() * sizeof(std::int32_t);
    return bytes;
}

std::vector<std::uint64_t> cumulativeTcd(const std::vector<std::uint64_t>& tcdPerStep, std::uint32_t steps)
{
    std::vector<std::uint64_t> out(static_cast<std::size_t>(steps) + 1, 0);
    for (std::uint32_t s = 1; s <= steps; ++s)
        out[s] = out[s - 1] + (s - 1 < tcdPerStep.size() ? tcdPerStep[s - 1] : 0);
    return out;
}

std::vector<std::uint32_t> cumulativeChannelLoad(const Schedule& schedule)
{
    const Topology& topo = schedule.topology();
    checkChannelMemory(topo, sizeof(std::uint32_t));
    std::vector<std::uint32_t> load(static_cast<std::size_t>(topo.channelSlots()), 0);
    for (const Transfer& t : schedule.transfers())
        forEachChannel(topo, t.from, t.to, t.route, schedule.dimensionOrder, [&](ChannelId c) { ++load[c]; });
    return load;
}

std::vector<std::uint32_t> stepChannelLoad(const Schedule& schedule, StepNo step)
{
    const Topology& topo = schedule.topology();
    checkChannelMemory(topo, sizeof(std::uint32_t));
    std::vector<std::uint32_t> load(static_cast<std::size_t>(topo.channelSlots()), 0);
    for (const Transfer& t : schedule.stepTransfers(step))
        forEachChannel(topo, t.from, t.to, t.route, schedule.dimensionOrder, [&](ChannelId c) { ++load[c]; });
    return load;
}

} // namespace topocast
