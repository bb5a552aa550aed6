#include "topocast/holdings.h"

#include "topocast/error.h"

#include <algorithm>
#include <unordered_set>

namespace topocast {

namespace {

struct BlockHash {
    std::size_t operator()(const Block& b) const
    {
        std::uint64_t h = b.origin;
        h = h * 0x9E3779B97F4A7C15ull ^ b.dest;
        h = h * 0x9E3779B97F4A7C15ull ^ b.part;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

using BlockSet = std::unordered_set<Block, BlockHash>;

std::vector<bool> participantMask(const Schedule& s)
{
    std::vector<bool> mask(s.topology().nodeCount(), s.participants.empty());
    for (NodeId v : s.participants)
        if (v < mask.size())
            mask[v] = true;
    return mask;
}

/// Whether `node` must end with `b` (requiredBlocks' rule for one block).
bool isRequired(const Schedule& s, const std::vector<bool>& takesPart, NodeId node, const Block& b)
{
    if (b.part >= s.parts || b.origin == node)
        return false;
    switch (s.pattern()) {
    case Pattern::Broadcast:
        return b.origin == s.source() && b.dest == Block::kAll;
    case Pattern::Scatter:
        return b.origin == s.source() && b.dest == node && takesPart[node];
    case Pattern::Allgather:
        return b.dest == Block::kAll && b.origin < s.topology().nodeCount();
    case Pattern::Alltoall:
        return b.dest == node && b.origin < s.topology().nodeCount();
    }
    return false;
}

HeldBlock held(const Schedule& s, const Block& b) { return HeldBlock{chunkId(s, b), b, {NodeId{b.origin}}}; }

} // namespace

std::uint64_t chunkCount(const Schedule& s)
{
    const std::uint64_t n = s.topology().nodeCount(), p = s.parts;
    switch (s.pattern()) {
    case Pattern::Broadcast:
        return p;
    case Pattern::Scatter:
    case Pattern::Allgather:
        return n * p;
    case Pattern::Alltoall:
        return n * n * p;
    }
    return 0;
}

std::uint64_t chunkId(const Schedule& s, const Block& b)
{
    const std::uint64_t n = s.topology().nodeCount(), p = s.parts;
    constexpr std::uint64_t kNone = kNoChunk;
    if (b.part >= p)
        return kNone;
    switch (s.pattern()) {
    case Pattern::Broadcast:
        return b.origin == s.source() && b.dest == Block::kAll ? b.part : kNone;
    case Pattern::Scatter:
        return b.origin == s.source() && b.dest < n ? b.dest * p + b.part : kNone;
    case Pattern::Allgather:
        return b.origin < n && b.dest == Block::kAll ? b.origin * p + b.part : kNone;
    case Pattern::Alltoall:
        return b.origin < n && b.dest < n && b.origin != b.dest ? (b.origin * n + b.dest) * p + b.part : kNone;
    }
    return kNone;
}

std::vector<Block> initialBlocks(const Schedule& s, NodeId node)
{
    const std::uint32_t n = s.topology().nodeCount();
    if (node >= n)
        throw Error("node " + std::to_string(node) + " is outside the " + s.topology().displayName() + " (0.." +
                    std::to_string(n - 1) + ")");
    std::vector<Block> out;
    const std::vector<bool> takesPart = participantMask(s);
    for (std::uint32_t p = 0; p < s.parts; ++p) {
        switch (s.pattern()) {
        case Pattern::Broadcast:
            if (node == s.source())
                out.push_back(Block{node, Block::kAll, p});
            break;
        case Pattern::Scatter:
            if (node == s.source())
                for (NodeId v{}; v < n; ++v)
                    if (v != node && takesPart[v])
                        out.push_back(Block{node, v, p});
            break;
        case Pattern::Allgather:
            out.push_back(Block{node, Block::kAll, p});
            break;
        case Pattern::Alltoall:
            for (NodeId v{}; v < n; ++v)
                if (v != node)
                    out.push_back(Block{node, v, p});
            break;
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

Holdings::Holdings(const Schedule& schedule)
{
    const Schedule& s = schedule;
    if (!s.finalized())
        throw Error("the holdings of a schedule need it finalized (Schedule::finalize)");
    const std::uint32_t n = s.topology().nodeCount();
    const std::uint64_t p = s.parts;
    const std::vector<bool> takesPart = participantMask(s);
    std::uint64_t scatterTargets = 0;
    for (NodeId v{}; v < n; ++v)
        scatterTargets += v != s.source() && takesPart[v] ? 1 : 0;
    m_initial.resize(n);
    m_required.resize(n);
    for (NodeId v{}; v < n; ++v) {
        switch (s.pattern()) {
        case Pattern::Broadcast:
            m_initial[v] = v == s.source() ? p : 0;
            m_required[v] = v == s.source() ? 0 : p;
            break;
        case Pattern::Scatter:
            m_initial[v] = v == s.source() ? scatterTargets * p : 0;
            m_required[v] = v != s.source() && takesPart[v] ? p : 0;
            break;
        case Pattern::Allgather:
            m_initial[v] = p;
            m_required[v] = (n - 1) * p;
            break;
        case Pattern::Alltoall:
            m_initial[v] = (n - 1) * p;
            m_required[v] = (n - 1) * p;
            break;
        }
    }
    // Transfers grouped by receiver (a counting sort keeps each group in step order).
    const auto& transfers = s.transfers();
    m_offsets.assign(n + 1, 0);
    for (const Transfer& t : transfers)
        if (t.to < n)
            ++m_offsets[t.to + 1];
    for (std::uint32_t v = 0; v < n; ++v)
        m_offsets[v + 1] += m_offsets[v];
    m_arrivals.resize(m_offsets[n]);
    std::vector<std::size_t> next(m_offsets.begin(), m_offsets.end() - 1);
    for (std::size_t i = 0; i < transfers.size(); ++i)
        if (transfers[i].to < n)
            m_arrivals[next[transfers[i].to]++] = Arrival{transfers[i].step, static_cast<std::uint32_t>(i), 0, 0};
    // Per receiver, what each arrival adds: blocks it did not hold yet (its own data it holds
    // from the start), and of those the ones it must end with.
    BlockSet seen;
    for (NodeId v{}; v < n; ++v) {
        seen.clear();
        std::uint64_t count = m_initial[v], required = 0;
        for (std::size_t a = m_offsets[v]; a < m_offsets[v + 1]; ++a) {
            for (const Block& b : s.payload(transfers[m_arrivals[a].transfer].payload)) {
                const bool initially = chunkId(s, b) != kNoChunk && b.origin == v;
                if (initially || !seen.insert(b).second)
                    continue;
                ++count;
                required += isRequired(s, takesPart, v, b) ? 1 : 0;
            }
            m_arrivals[a].newBlocks = count;
            m_arrivals[a].newRequired = required;
        }
    }
}

std::size_t Holdings::arrivalsEnd(NodeId node, StepNo step) const
{
    const auto begin = m_arrivals.begin() + static_cast<std::ptrdiff_t>(m_offsets[node]);
    const auto end = m_arrivals.begin() + static_cast<std::ptrdiff_t>(m_offsets[node + 1]);
    return static_cast<std::size_t>(
        std::upper_bound(begin, end, step, [](StepNo k, const Arrival& a) { return k < a.step; }) - m_arrivals.begin());
}

std::uint64_t Holdings::countAt(NodeId node, StepNo step) const
{
    const std::size_t end = arrivalsEnd(node, step);
    return end == m_offsets[node] ? m_initial[node] : m_arrivals[end - 1].newBlocks;
}

std::uint64_t Holdings::requiredHeldAt(NodeId node, StepNo step) const
{
    const std::size_t end = arrivalsEnd(node, step);
    return end == m_offsets[node] ? 0 : m_arrivals[end - 1].newRequired;
}

double Holdings::finalShareAt(NodeId node, StepNo step) const
{
    return m_required[node] == 0 ? 1.0
                                 : static_cast<double>(requiredHeldAt(node, step)) / static_cast<double>(m_required[node]);
}

std::vector<HeldBlock> Holdings::blocksAt(const Schedule& s, NodeId node, StepNo step) const
{
    std::vector<HeldBlock> out;
    for (const Block& b : initialBlocks(s, node))
        out.push_back(held(s, b));
    BlockSet seen;
    const std::size_t end = arrivalsEnd(node, step);
    for (std::size_t a = m_offsets[node]; a < end; ++a)
        for (const Block& b : s.payload(s.transfers()[m_arrivals[a].transfer].payload)) {
            const bool initially = chunkId(s, b) != kNoChunk && b.origin == node;
            if (!initially && seen.insert(b).second)
                out.push_back(held(s, b));
        }
    return out;
}

} // namespace topocast
