// The bytes of the combining patterns for the replays (replay.h): contributions, partial sums,
// the per-block plan every rank derives from one symbolic replay, and one node's partials.
#include "topocast/analysis/replay.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <cstring>

namespace topocast {

void requireWordBlocks(std::uint64_t bytesPerBlock)
{
    if (bytesPerBlock == 0 || bytesPerBlock % 8 != 0)
        throw Error("a reduction sums 64-bit integers: the bytes per block must be a multiple of 8 (got " +
                    std::to_string(bytesPerBlock) + ")");
}

void fillContribution(NodeId v, const Block& chunk, std::span<std::uint8_t> out)
{
    fillBlock(Block{v.value(), chunk.dest, chunk.part}, out);
    constexpr std::uint64_t kLow48 = (std::uint64_t{1} << 48) - 1;
    for (std::size_t i = 0; i + 8 <= out.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, out.data() + i, 8);
        w &= kLow48;
        std::memcpy(out.data() + i, &w, 8);
    }
}

void addWords(std::span<std::uint8_t> acc, std::span<const std::uint8_t> in)
{
    for (std::size_t i = 0; i + 8 <= acc.size(); i += 8) {
        std::uint64_t a = 0, b = 0;
        std::memcpy(&a, acc.data() + i, 8);
        std::memcpy(&b, in.data() + i, 8);
        a += b;
        std::memcpy(acc.data() + i, &a, 8);
    }
}

void fillPartial(const ContributionSets& sets, ContributionSets::SetId set, const Block& chunk,
                 std::span<std::uint8_t> out)
{
    std::fill(out.begin(), out.end(), std::uint8_t{0});
    std::vector<std::uint8_t> one(out.size());
    for (NodeId v : sets.members(set)) {
        fillContribution(v, chunk, one);
        addWords(out, one);
    }
}

void fillTotal(std::uint32_t nodes, const Block& chunk, std::span<std::uint8_t> out)
{
    std::fill(out.begin(), out.end(), std::uint8_t{0});
    std::vector<std::uint8_t> one(out.size());
    for (NodeId v{}; v < nodes; ++v) {
        fillContribution(v, chunk, one);
        addWords(out, one);
    }
}

CombinePlan combinePlan(const Schedule& schedule)
{
    CombinePlan plan;
    const auto transfers = schedule.transfers();
    plan.first.resize(transfers.size() + 1);
    for (std::size_t t = 0; t < transfers.size(); ++t) {
        const Transfer& tr = transfers[t];
        plan.first[t + 1] =
            plan.first[t] + (tr.payload < schedule.payloadCount() ? schedule.payload(tr.payload).size() : 0);
    }
    plan.arrivals.resize(plan.first.back());
    std::size_t lastTransfer = ~std::size_t{0}, k = 0;
    const ReductionReplay replay(schedule, [&](const ReductionArrival& a) {
        k = a.transfer == lastTransfer ? k + 1 : 0;
        lastTransfer = a.transfer;
        CombinePlan::Arrival& out = plan.arrivals[plan.first[a.transfer] + k];
        out.chunk = a.chunk;
        out.incoming = a.incoming;
        out.merge = a.merge;
    });
    plan.sets = replay.sets();
    plan.chunks = replay.chunks();
    return plan;
}

PartialResults::PartialResults(const Schedule& schedule, const CombinePlan& plan, NodeId node,
                               std::uint64_t bytesPerBlock)
    : m_schedule(schedule), m_plan(plan), m_node(node), m_bytes(static_cast<std::size_t>(bytesPerBlock)),
      m_scratch(m_bytes)
{
    requireWordBlocks(bytesPerBlock);
    if (schedule.topology().nodeCount() > kMaxContributions)
        throw Error("a reduction over more than " + std::to_string(kMaxContributions) +
                    " nodes could overflow its 64-bit sums (the " + schedule.topology().displayName() + " has " +
                    std::to_string(schedule.topology().nodeCount()) + ")");
    checkMemory("the partial results of one node", saturatingMul(plan.chunks, bytesPerBlock),
                std::to_string(plan.chunks) + " chunks × " + std::to_string(bytesPerBlock) + " B");
    m_data.resize(static_cast<std::size_t>(plan.chunks) * m_bytes);
    for (std::uint64_t c = 0; c < plan.chunks; ++c)
        fillContribution(node, chunkBlock(schedule, c), {m_data.data() + c * m_bytes, m_bytes});
}

std::span<const std::uint8_t> PartialResults::chunk(std::uint64_t c) const
{
    return {m_data.data() + c * m_bytes, m_bytes};
}

std::string PartialResults::receive(std::size_t transfer, std::size_t k, std::span<const std::uint8_t> got)
{
    std::string problem = check(transfer, k, got);
    if (const std::string merged = combine(transfer, k, got); !merged.empty())
        problem += (problem.empty() ? "" : "; ") + merged;
    return problem;
}

std::string PartialResults::check(std::size_t transfer, std::size_t k, std::span<const std::uint8_t> got)
{
    const CombinePlan::Arrival& a = m_plan.arrivals[m_plan.first[transfer] + k];
    if (a.chunk == kNoChunk)
        return {};
    const ContributionSets& sets = *m_plan.sets;
    const Block named = chunkBlock(m_schedule, a.chunk);
    fillPartial(sets, a.incoming, named, m_scratch);
    const auto bad = std::mismatch(got.begin(), got.end(), m_scratch.begin()).first;
    if (bad == got.end())
        return {};
    return chunkName(m_schedule, named) + " differs from byte " + std::to_string(bad - got.begin()) +
           " of the sum of " + std::to_string(sets.size(a.incoming)) + " of " + std::to_string(sets.nodeCount()) +
           " contributions its sender should hold";
}

std::string PartialResults::combine(std::size_t transfer, std::size_t k, std::span<const std::uint8_t> got)
{
    const CombinePlan::Arrival& a = m_plan.arrivals[m_plan.first[transfer] + k];
    if (a.chunk == kNoChunk)
        return {};
    const std::span<std::uint8_t> mine{m_data.data() + a.chunk * m_bytes, m_bytes};
    switch (a.merge.kind) {
    case ContributionSets::Merge::Added:
        addWords(mine, got);
        break;
    case ContributionSets::Merge::Replaced:
        std::copy(got.begin(), got.end(), mine.begin());
        break;
    case ContributionSets::Merge::Repeated:
        break;
    case ContributionSets::Merge::Overlap:
        return chunkName(m_schedule, chunkBlock(m_schedule, a.chunk)) + " would count " +
               m_schedule.topology().nodeName(a.merge.witness) + "'s contribution twice (left out)";
    }
    return {};
}

std::vector<std::string> PartialResults::finish() const
{
    std::vector<std::string> out;
    std::vector<std::uint8_t> full(m_bytes);
    const std::uint32_t n = m_schedule.topology().nodeCount();
    for (std::uint64_t c : requiredChunks(m_schedule, m_node)) {
        const Block named = chunkBlock(m_schedule, c);
        fillTotal(n, named, full);
        const auto have = chunk(c);
        const auto bad = std::mismatch(have.begin(), have.end(), full.begin()).first;
        if (bad != have.end())
            out.push_back("ends with " + chunkName(m_schedule, named) + " wrong from byte " +
                          std::to_string(bad - have.begin()) + " (not the sum of all " + std::to_string(n) +
                          " contributions)");
    }
    return out;
}

} // namespace topocast
