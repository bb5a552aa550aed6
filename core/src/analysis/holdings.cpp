#include "topocast/analysis/holdings.h"

#include "topocast/analysis/reduction.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace topocast {

namespace {

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
    case Pattern::Gather:
        return node == s.source() && b.dest == Block::kAll && b.origin < s.topology().nodeCount();
    case Pattern::Reduce:
    case Pattern::ReduceScatter:
    case Pattern::Allreduce:
        return false; // partial results: counted by contributions (Holdings' combining path)
    case Pattern::PointToPoint:
        return false; // tokens of a program's messages: nothing must end anywhere
    }
    return false;
}

/// Whether `node` holds `b` from the start: data of the pattern whose origin it is.
bool initiallyHeld(const Schedule& s, NodeId node, const Block& b)
{
    return b.origin == node && chunkId(s, b) != kNoChunk;
}

HeldBlock held(const Schedule& s, const Block& b)
{
    return HeldBlock{chunkId(s, b), b, {NodeId{b.origin}}};
}

} // namespace

std::uint64_t chunkCount(const Schedule& s)
{
    const std::uint64_t n = s.topology().nodeCount(), p = s.parts;
    switch (s.pattern()) {
    case Pattern::Broadcast:
        return p;
    case Pattern::Scatter:
    case Pattern::Allgather:
    case Pattern::Gather:
    case Pattern::ReduceScatter:
        return n * p;
    case Pattern::Alltoall:
    case Pattern::PointToPoint:
        return n * n * p;
    case Pattern::Reduce:
    case Pattern::Allreduce:
        return p;
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
    case Pattern::PointToPoint: // a token {sender, receiver, k}
        return b.origin < n && b.dest < n && b.origin != b.dest ? (b.origin * n + b.dest) * p + b.part : kNone;
    case Pattern::Gather:
        return b.origin < n && b.dest == Block::kAll ? b.origin * p + b.part : kNone;
    case Pattern::Reduce:
    case Pattern::Allreduce:
        return b.origin == Block::kAll && b.dest == Block::kAll ? b.part : kNone;
    case Pattern::ReduceScatter:
        return b.origin == Block::kAll && b.dest < n ? b.dest * p + b.part : kNone;
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
        case Pattern::Gather:
            out.push_back(Block{node, Block::kAll, p});
            break;
        case Pattern::Alltoall:
            for (NodeId v{}; v < n; ++v)
                if (v != node)
                    out.push_back(Block{node, v, p});
            break;
        case Pattern::Reduce:
        case Pattern::Allreduce:
            out.push_back(Block{Block::kAll, Block::kAll, p}); // its own contribution to chunk p
            break;
        case Pattern::ReduceScatter:
            for (NodeId v{}; v < n; ++v)
                out.push_back(Block{Block::kAll, v, p}); // its own contribution to v's chunk part p
            break;
        case Pattern::PointToPoint:
            break; // a program's tokens are not data a node starts with
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
    m_initialRequired.assign(n, 0);
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
        case Pattern::Gather:
            m_initial[v] = p;
            m_required[v] = v == s.source() ? (n - 1) * p : 0;
            break;
        case Pattern::Reduce:
        case Pattern::ReduceScatter:
        case Pattern::Allreduce:
            // Counted in contributions: one to each chunk at the start, N per chunk it must end with.
            m_initial[v] = chunkCount(s);
            m_initialRequired[v] = requiredChunks(s, v).size();
            m_required[v] = m_initialRequired[v] * n;
            break;
        case Pattern::PointToPoint:
            m_initial[v] = 0;
            m_required[v] = 0;
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
    if (combines(s.pattern())) {
        replayPartials(s);
        return;
    }
    // Per receiver, what each arrival adds: blocks it did not hold yet (its own data it holds
    // from the start), and of those the ones it must end with.
    BlockSet seen;
    for (NodeId v{}; v < n; ++v) {
        seen.clear();
        std::uint64_t count = m_initial[v], required = 0;
        for (std::size_t a = m_offsets[v]; a < m_offsets[v + 1]; ++a) {
            for (const Block& b : s.payload(transfers[m_arrivals[a].transfer].payload)) {
                if (initiallyHeld(s, v, b) || !seen.insert(b).second)
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
    return end == m_offsets[node] ? m_initialRequired[node] : m_arrivals[end - 1].newRequired;
}

double Holdings::finalShareAt(NodeId node, StepNo step) const
{
    return m_required[node] == 0
               ? 1.0
               : static_cast<double>(requiredHeldAt(node, step)) / static_cast<double>(m_required[node]);
}

void Holdings::replayPartials(const Schedule& s)
{
    const std::uint32_t n = s.topology().nodeCount();
    const std::uint64_t chunks = chunkCount(s);
    if (chunks > std::numeric_limits<std::uint32_t>::max())
        throw Error("the holdings of a " + toString(s.pattern()) + " with " + std::to_string(chunks) +
                    " chunks are not kept (at most 2^32 − 1 chunks)");
    // Where each transfer's arrival sits, and room for one result per block it delivers.
    constexpr std::size_t kNone = ~std::size_t{0};
    std::vector<std::size_t> arrivalOf(s.transfers().size(), kNone);
    for (std::size_t a = 0; a < m_arrivals.size(); ++a)
        arrivalOf[m_arrivals[a].transfer] = a;
    m_resultEnds.assign(m_arrivals.size(), 0);
    std::size_t total = 0;
    for (std::size_t a = 0; a < m_arrivals.size(); ++a) {
        const Transfer& t = s.transfers()[m_arrivals[a].transfer];
        total += t.payload < s.payloadCount() ? s.payload(t.payload).size() : 0;
        m_resultEnds[a] = total;
    }
    checkMemory("what each node holds of a " + toString(s.pattern()) + " on the " + s.topology().displayName(),
                saturatingMul(total, sizeof(ChunkResult)), std::to_string(total) + " partial results delivered × 8 B");
    m_results.assign(total, ChunkResult{kNoChunk32, 0});
    std::vector<std::size_t> filled(m_arrivals.size(), 0);
    // Running contributions per node (all chunks, and the chunks it must end with).
    std::vector<std::uint64_t> held(m_initial.begin(), m_initial.end()), heldRequired(m_initialRequired);
    const std::uint64_t p = s.parts;
    auto isRequiredChunk = [&](NodeId v, std::uint64_t c) {
        switch (s.pattern()) {
        case Pattern::Reduce:
            return v == s.source();
        case Pattern::Allreduce:
            return true;
        default:
            return c / p == v; // reduce-scatter: its own chunks
        }
    };
    constexpr std::uint64_t kUnset = ~std::uint64_t{0};
    for (Arrival& a : m_arrivals)
        a.newBlocks = kUnset;
    ReductionReplay replay(s, [&](const ReductionArrival& r) {
        const std::size_t a = arrivalOf[r.transfer];
        if (a == kNone)
            return;
        const NodeId v = s.transfers()[r.transfer].to;
        const std::size_t slot = (a == 0 ? 0 : m_resultEnds[a - 1]) + filled[a]++;
        if (r.chunk != kNoChunk) {
            m_results[slot] = ChunkResult{static_cast<std::uint32_t>(r.chunk), r.merge.result};
            const std::int64_t delta = static_cast<std::int64_t>(r.sets->size(r.merge.result)) -
                                       static_cast<std::int64_t>(r.sets->size(r.before));
            held[v] = static_cast<std::uint64_t>(static_cast<std::int64_t>(held[v]) + delta);
            if (isRequiredChunk(v, r.chunk))
                heldRequired[v] = static_cast<std::uint64_t>(static_cast<std::int64_t>(heldRequired[v]) + delta);
        }
        m_arrivals[a].newBlocks = held[v];
        m_arrivals[a].newRequired = heldRequired[v];
    });
    m_sets = replay.sets();
    // Arrivals the replay skipped (a transfer it cannot deliver) change nothing.
    for (NodeId v{}; v < n; ++v) {
        std::uint64_t count = m_initial[v], req = m_initialRequired[v];
        for (std::size_t a = m_offsets[v]; a < m_offsets[v + 1]; ++a) {
            if (m_arrivals[a].newBlocks == kUnset) {
                m_arrivals[a].newBlocks = count;
                m_arrivals[a].newRequired = req;
            }
            count = m_arrivals[a].newBlocks;
            req = m_arrivals[a].newRequired;
        }
    }
}

std::uint32_t Holdings::partialSizeAt(NodeId node, std::uint64_t chunk, StepNo step) const
{
    if (!m_sets)
        return 0;
    const std::size_t end = arrivalsEnd(node, step);
    for (std::size_t a = end; a-- > m_offsets[node];)
        for (std::size_t r = m_resultEnds[a]; r-- > (a == 0 ? 0 : m_resultEnds[a - 1]);)
            if (m_results[r].chunk == chunk)
                return m_sets->size(m_results[r].set);
    return 1;
}

std::vector<HeldBlock> Holdings::blocksAt(const Schedule& s, NodeId node, StepNo step) const
{
    std::vector<HeldBlock> out;
    if (combines(s.pattern())) {
        const std::uint64_t chunks = chunkCount(s);
        std::vector<ContributionSets::SetId> partial(chunks, ContributionSets::single(node));
        const std::size_t end = arrivalsEnd(node, step);
        for (std::size_t a = m_offsets[node]; a < end; ++a)
            for (std::size_t r = a == 0 ? 0 : m_resultEnds[a - 1]; r < m_resultEnds[a]; ++r)
                if (m_results[r].chunk != kNoChunk32)
                    partial[m_results[r].chunk] = m_results[r].set;
        out.reserve(chunks);
        for (std::uint64_t c = 0; c < chunks; ++c)
            out.push_back(HeldBlock{c, chunkBlock(s, c), m_sets->members(partial[c])});
        return out;
    }
    for (const Block& b : initialBlocks(s, node))
        out.push_back(held(s, b));
    BlockSet seen;
    const std::size_t end = arrivalsEnd(node, step);
    for (std::size_t a = m_offsets[node]; a < end; ++a)
        for (const Block& b : s.payload(s.transfers()[m_arrivals[a].transfer].payload)) {
            if (!initiallyHeld(s, node, b) && seen.insert(b).second)
                out.push_back(held(s, b));
        }
    return out;
}

} // namespace topocast
