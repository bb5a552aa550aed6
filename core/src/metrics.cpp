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
