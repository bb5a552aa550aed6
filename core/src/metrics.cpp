#include "topocast/metrics.h"

#include "topocast/error.h"
#include "topocast/limits.h"

#include <algorithm>
#include <map>

namespace topocast {

namespace {

/// Refuses schedules whose per-channel (and per-node, per-step) arrays exceed memoryLimit().
void checkChannelMemory(const Topology& topo, std::size_t bytesPerSlot, std::uint64_t bytesPerNode = 0,
                        std::uint64_t steps = 0)
{
    const std::uint64_t bytes =
        saturatingAdd(saturatingAdd(saturatingMul(topo.channelSlots(), bytesPerSlot), saturatingMul(topo.nodeCount(), bytesPerNode)),
                      saturatingMul(steps, sizeof(std::uint64_t)));
    std::string detail = std::to_string(topo.channelSlots()) + " channel slots × " + std::to_string(bytesPerSlot) + " B";
    if (bytesPerNode)
        detail += " + " + std::to_string(topo.nodeCount()) + " nodes × " + std::to_string(bytesPerNode) + " B";
    if (steps)
        detail += " + " + std::to_string(steps) + " steps × 8 B";
    checkMemory("channel metrics of the " + topo.displayName(), bytes, detail);
}

} // namespace

Metrics computeMetrics(const Schedule& schedule, std::size_t contentionLimit)
{
    const Topology& topo = schedule.topology();
    checkChannelMemory(topo, 3 * sizeof(std::uint32_t), 2 * sizeof(std::uint32_t), schedule.stepCount());
    const std::size_t slots = static_cast<std::size_t>(topo.channelSlots());
    const std::vector<Transfer>& transfers = schedule.transfers();

    Metrics m;
    m.steps = schedule.stepCount();
    m.transfers = transfers.size();
    m.tcdPerStep.assign(m.steps, 0);

    std::vector<std::uint32_t> stepLoad(slots, 0);
    std::vector<std::uint32_t> totalLoad(slots, 0);
    std::vector<std::uint32_t> lastStep(slots, 0);  // high bit: already counted as depth-contended
    constexpr std::uint32_t kCounted = 0x80000000u;
    std::vector<std::uint32_t> sends(topo.nodeCount(), 0);
    std::vector<std::uint32_t> receives(topo.nodeCount(), 0);

    const DimensionOrder& order = schedule.dimensionOrder;
    for (std::uint32_t step = 1; step <= m.steps; ++step) {
        const std::size_t begin = schedule.stepBegin(step);
        const std::size_t end = schedule.stepBegin(step + 1);
        std::uint32_t stepMax = 0;
        std::uint64_t stepHops = 0;
        for (std::size_t i = begin; i < end; ++i) {
            const Transfer& t = transfers[i];
            const int hops = forEachChannel(topo, t.from, t.to, t.route, order, [&](ChannelId c) {
                const std::uint32_t load = ++stepLoad[c];
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

        if (stepMax > 1) {
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
        // Reset the per-step counters touched by this step.
        for (std::size_t i = begin; i < end; ++i) {
            const Transfer& t = transfers[i];
            forEachChannel(topo, t.from, t.to, t.route, order, [&](ChannelId c) { stepLoad[c] = 0; });
            sends[t.from] = 0;
            receives[t.to] = 0;
        }
    }
    return m;
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
    const bool everyNodeStarts = schedule.pattern() == Pattern::Allgather || schedule.pattern() == Pattern::Alltoall;
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
    if (!schedule.finalized() && schedule.size() > 0)
        throw Error("channel load history: the schedule is not finalized (call Schedule::finalize())");
    const Topology& topo = schedule.topology();
    const std::vector<Transfer>& transfers = schedule.transfers();
    const bool tags = std::any_of(transfers.begin(), transfers.end(),
                                  [&](const Transfer& t) { return t.tag != transfers.front().tag; });
    m_severalTags = tags;
    if (!tags && !transfers.empty())
        m_uniformTag = static_cast<std::int32_t>(transfers.front().tag);
    // Channel ids fit 32 bits: at most 2^24 nodes × 24 ports.
    static_assert(std::uint64_t{Topology::kMaxNodes} * Topology::kMaxHypercubeDims <= 0xFFFFFFFFull);
    m_slots = static_cast<std::size_t>(topo.channelSlots());
    const std::uint64_t slotBytes = tags ? 2 * sizeof(std::uint32_t) : sizeof(std::uint32_t);  // a checkpoint, per slot
    const std::uint64_t entryBytes = 2 * sizeof(std::uint32_t) + (tags ? sizeof(std::int32_t) : 0);
    const std::uint32_t steps = schedule.stepCount();
    // Working arrays: this step's count (and last tag), the running cumulative loads (and tags).
    checkChannelMemory(topo, static_cast<std::size_t>(2 * slotBytes), 0, steps);

    std::vector<std::uint32_t> load(m_slots, 0);
    std::vector<std::int32_t> tagNow(tags ? m_slots : 0, -1);
    std::vector<std::uint32_t> cumulative(m_slots, 0);
    std::vector<std::int32_t> lastTag(tags ? m_slots : 0, -1);
    std::vector<std::uint32_t> touched;
    m_stepBegin.reserve(std::size_t{steps} + 1);
    const DimensionOrder& order = schedule.dimensionOrder;
    std::size_t sinceCheckpoint = 0;
    std::uint64_t checkpointBytes = 0;
    for (std::uint32_t step = 1; step <= steps; ++step) {
        touched.clear();
        for (const Transfer& t : schedule.stepTransfers(step)) {
            forEachChannel(topo, t.from, t.to, t.route, order, [&](ChannelId c) {
                if (load[c]++ == 0)
                    touched.push_back(static_cast<std::uint32_t>(c));
                if (tags)
                    tagNow[c] = static_cast<std::int32_t>(t.tag);
            });
        }
        const std::size_t entries = m_channel.size() + touched.size();
        if (entries > m_channel.capacity()) {
            const std::uint64_t need = saturatingAdd(saturatingMul(2 * entries, entryBytes), checkpointBytes);
            checkMemory("the channel load history of the " + topo.displayName(), need,
                        std::to_string(entries) + "+ channel uses × " + std::to_string(entryBytes) + " B + checkpoints");
        }
        for (const std::uint32_t c : touched) {
            m_channel.push_back(c);
            m_count.push_back(load[c]);
            cumulative[c] += load[c];
            load[c] = 0;
            if (tags) {
                m_tag.push_back(tagNow[c]);
                lastTag[c] = tagNow[c];
            }
        }
        m_stepBegin.push_back(m_channel.size());
        sinceCheckpoint += touched.size();
        if (sinceCheckpoint >= m_slots && step < steps) {
            checkpointBytes = saturatingAdd(checkpointBytes, saturatingMul(m_slots, slotBytes));
            checkMemory("the channel load history of the " + topo.displayName(),
                        saturatingAdd(saturatingMul(m_channel.size(), entryBytes), checkpointBytes),
                        std::to_string(m_checkpointStep.size() + 1) + " checkpoints × " + std::to_string(m_slots) +
                            " channel slots × " + std::to_string(slotBytes) + " B + channel uses");
            m_checkpointStep.push_back(step);
            m_checkpointLoad.push_back(cumulative);
            if (tags)
                m_checkpointTag.push_back(lastTag);
            sinceCheckpoint = 0;
        }
    }
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
    for (std::size_t e = m_stepBegin[from - 1]; e < m_stepBegin[step]; ++e) {
        out.cumulative[m_channel[e]] += m_count[e];
        if (tags)
            out.lastTag[m_channel[e]] = m_tag[e];
    }
    if (m_uniformTag)
        for (std::size_t c = 0; c < m_slots; ++c)
            if (out.cumulative[c] > 0)
                out.lastTag[c] = *m_uniformTag;
    out.step.assign(m_slots, 0);
    out.contendedNow = 0;
    if (step == 0)
        return;
    for (std::size_t e = m_stepBegin[step - 1]; e < m_stepBegin[step]; ++e) {
        out.step[m_channel[e]] = m_count[e];
        if (m_count[e] >= 2)
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
    std::uint64_t bytes = m_stepBegin.size() * sizeof(std::size_t) + m_channel.size() * sizeof(std::uint32_t) +
                          m_count.size() * sizeof(std::uint32_t) + m_tag.size() * sizeof(std::int32_t) +
                          m_checkpointStep.size() * sizeof(std::uint32_t);
    for (const auto& c : m_checkpointLoad)
        bytes += c.size() * sizeof(std::uint32_t);
    for (const auto& c : m_checkpointTag)
        bytes += c.size() * sizeof(std::int32_t);
    return bytes;
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

std::vector<std::uint32_t> stepChannelLoad(const Schedule& schedule, std::uint32_t step)
{
    const Topology& topo = schedule.topology();
    checkChannelMemory(topo, sizeof(std::uint32_t));
    std::vector<std::uint32_t> load(static_cast<std::size_t>(topo.channelSlots()), 0);
    for (const Transfer& t : schedule.stepTransfers(step))
        forEachChannel(topo, t.from, t.to, t.route, schedule.dimensionOrder, [&](ChannelId c) { ++load[c]; });
    return load;
}

} // namespace topocast
