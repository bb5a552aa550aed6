#include "topocast/model/schedule.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>

namespace topocast {

std::string toString(PortModel m)
{
    switch (m) {
    case PortModel::OnePort:
        return "one-port";
    case PortModel::OnePortExchange:
        return "one-port-exchange";
    case PortModel::HalfDuplex:
        return "half-duplex";
    case PortModel::AllPort:
        return "all-port";
    case PortModel::MultiPort:
        return "multi-port";
    }
    return "one-port";
}

std::string toString(Pattern p)
{
    switch (p) {
    case Pattern::Broadcast:
        return "broadcast";
    case Pattern::Scatter:
        return "scatter";
    case Pattern::Allgather:
        return "allgather";
    case Pattern::Alltoall:
        return "alltoall";
    case Pattern::Gather:
        return "gather";
    case Pattern::Reduce:
        return "reduce";
    case Pattern::ReduceScatter:
        return "reduce-scatter";
    case Pattern::Allreduce:
        return "allreduce";
    case Pattern::PointToPoint:
        return "point-to-point";
    }
    return "broadcast";
}

PortModel parsePortModel(std::string_view text)
{
    for (PortModel m : {PortModel::OnePort, PortModel::OnePortExchange, PortModel::HalfDuplex, PortModel::AllPort,
                        PortModel::MultiPort})
        if (toString(m) == text)
            return m;
    throw Error("unknown port model '" + std::string(text) +
                "'; expected one-port, one-port-exchange, half-duplex, all-port or multi-port");
}

Pattern parsePattern(std::string_view text)
{
    for (Pattern p : kPatterns)
        if (toString(p) == text)
            return p;
    if (text == "point-to-point")
        return Pattern::PointToPoint;
    throw Error("unknown pattern '" + std::string(text) +
                "'; expected broadcast, scatter, allgather, alltoall, gather, reduce, reduce-scatter, allreduce "
                "or point-to-point (a program of messages, as imported from GOAL)");
}

Schedule::Schedule(Topology topology, NodeId source, Pattern pattern, PortModel ports)
    : dimensionOrder(defaultOrder(topology.dims())), m_topology(std::move(topology)), m_source(source),
      m_pattern(pattern), m_ports(ports), m_payloadOffsets{0, 1}, m_blocks{Block{source, Block::kAll, 0}}
{
    if (source >= m_topology.nodeCount())
        throw Error("source " + std::to_string(source) + " is outside the " + m_topology.displayName() + " (0.." +
                    std::to_string(m_topology.nodeCount() - 1) + ")");
}

std::string Schedule::describe() const
{
    return (algorithm.empty() ? std::string("a schedule") : "the " + algorithm + " schedule") + " on the " +
           m_topology.displayName();
}

void Schedule::reserve(std::size_t n)
{
    if (n <= m_transfers.capacity())
        return;
    checkMemory(describe(), saturatingMul(n, sizeof(Transfer)),
                std::to_string(n) + " transfers × " + std::to_string(sizeof(Transfer)) + " B");
    m_transfers.reserve(n);
}

void Schedule::checkGrowth(std::size_t n) const
{
    // std::vector grows to about twice its size and holds both buffers while it moves.
    const std::uint64_t next = std::max<std::uint64_t>(n, 2 * std::uint64_t{m_transfers.capacity()});
    checkMemory(describe() + " with more than " + std::to_string(m_transfers.size()) + " transfers",
                saturatingMul(saturatingAdd(next, m_transfers.capacity()), sizeof(Transfer)),
                std::to_string(next) + " transfers × " + std::to_string(sizeof(Transfer)) + " B while growing");
}

std::uint32_t Schedule::addPayload(std::span<const Block> blocks)
{
    checkMemory(describe() + "'s payload table",
                saturatingMul(saturatingAdd(m_blocks.size(), blocks.size()), sizeof(Block)),
                std::to_string(m_blocks.size() + blocks.size()) + " blocks × " + std::to_string(sizeof(Block)) + " B");
    m_blocks.insert(m_blocks.end(), blocks.begin(), blocks.end());
    m_payloadOffsets.push_back(static_cast<std::uint32_t>(m_blocks.size()));
    return static_cast<std::uint32_t>(m_payloadOffsets.size() - 2);
}

std::span<const Block> Schedule::payload(std::uint32_t index) const
{
    if (index + 1 >= m_payloadOffsets.size())
        throw Error("payload " + std::to_string(index) + " does not exist (the schedule has " +
                    std::to_string(payloadCount()) + ")");
    return {m_blocks.data() + m_payloadOffsets[index], m_blocks.data() + m_payloadOffsets[index + 1]};
}

void Schedule::finalize()
{
    if (m_finalized && !m_stepOffsets.empty())
        return;
    const bool sorted = std::is_sorted(m_transfers.begin(), m_transfers.end(),
                                       [](const Transfer& a, const Transfer& b) { return a.step < b.step; });
    if (!sorted)
        std::stable_sort(m_transfers.begin(), m_transfers.end(),
                         [](const Transfer& a, const Transfer& b) { return a.step < b.step; });
    const std::uint32_t steps = m_transfers.empty() ? 0 : m_transfers.back().step;
    checkMemory("the step index of " + describe(), saturatingMul(std::uint64_t{steps} + 2, sizeof(std::size_t)),
                "largest step number " + std::to_string(steps) + " × " + std::to_string(sizeof(std::size_t)) + " B");
    m_stepOffsets.assign(static_cast<std::size_t>(steps) + 2, 0);
    // m_stepOffsets[s] = first transfer of step s (s = 1..steps); [steps+1] = end.
    std::size_t i = 0;
    for (std::uint32_t s = 0; s <= steps + 1 && s < m_stepOffsets.size(); ++s) {
        while (i < m_transfers.size() && m_transfers[i].step < s)
            ++i;
        m_stepOffsets[s] = i;
    }
    m_finalized = true;
}

std::uint32_t Schedule::stepCount() const
{
    if (m_transfers.empty())
        return 0;
    if (m_finalized)
        return m_transfers.back().step;
    StepNo s{0};
    for (const auto& t : m_transfers)
        s = std::max(s, t.step);
    return s;
}

std::size_t Schedule::stepBegin(StepNo step) const
{
    if (!m_finalized)
        throw Error("internal: Schedule::finalize() must run before steps are read");
    if (step < 1)
        return 0;
    if (step >= m_stepOffsets.size())
        return m_transfers.size();
    return m_stepOffsets[step];
}

std::span<const Transfer> Schedule::stepTransfers(StepNo step) const
{
    const std::size_t b = stepBegin(step);
    const std::size_t e = stepEnd(step);

    return {m_transfers.data() + b, m_transfers.data() + e};
}

} // namespace topocast
