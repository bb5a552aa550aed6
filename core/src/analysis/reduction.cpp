#include "topocast/analysis/reduction.h"

#include "topocast/analysis/holdings.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>

namespace topocast {

namespace {

std::uint64_t hashRuns(std::span<const std::pair<std::uint32_t, std::uint32_t>> runs)
{
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ runs.size();
    for (const auto& [lo, hi] : runs) {
        h = (h ^ lo) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ hi) * 0x94D049BB133111EBull;
    }
    return h ^ (h >> 31);
}

} // namespace

ContributionSets::ContributionSets(std::uint32_t nodeCount) : m_nodes(nodeCount)
{
    m_runs.reserve(nodeCount);
    m_offsets.reserve(std::size_t{nodeCount} + 1);
    m_sizes.assign(nodeCount, 1);
    m_offsets.push_back(0);
    for (std::uint32_t v = 0; v < nodeCount; ++v) {
        m_runs.push_back({v, v + 1});
        m_offsets.push_back(m_runs.size());
    }
    // Singletons are found by id, never by hash: merges never produce one.
    m_hashes.assign(nodeCount, 0);
    m_table.assign(1024, kEmpty);
    m_memo.resize(std::size_t{1} << 16);
}

std::span<const ContributionSets::Run> ContributionSets::runs(SetId id) const
{
    return {m_runs.data() + m_offsets[id], m_runs.data() + m_offsets[id + 1]};
}

std::vector<NodeId> ContributionSets::members(SetId id) const
{
    std::vector<NodeId> out;
    out.reserve(m_sizes[id]);
    for (const auto& [lo, hi] : runs(id))
        for (std::uint32_t v = lo; v < hi; ++v)
            out.push_back(NodeId{v});
    return out;
}

NodeId ContributionSets::firstMissing(SetId id) const
{
    std::uint32_t next = 0;
    for (const auto& [lo, hi] : runs(id)) {
        if (lo > next)
            return NodeId{next};
        next = hi;
    }
    return NodeId{next};
}

ContributionSets::SetId ContributionSets::intern(const std::vector<Run>& r, std::uint32_t size)
{
    const std::uint64_t h = hashRuns(r);
    const std::size_t mask = m_table.size() - 1;
    std::size_t slot = h & mask;
    for (; m_table[slot] != kEmpty; slot = (slot + 1) & mask) {
        const SetId other = m_table[slot];
        if (m_hashes[other] != h)
            continue;
        const auto have = runs(other);
        if (std::equal(have.begin(), have.end(), r.begin(), r.end()))
            return other;
    }
    checkMemory("the partial results of a reduction", saturatingMul(m_runs.size() + r.size(), sizeof(Run) * 2),
                std::to_string(m_runs.size() + r.size()) + " runs of contributions × " +
                    std::to_string(2 * sizeof(Run)) + " B");
    const auto id = static_cast<SetId>(m_sizes.size());
    m_runs.insert(m_runs.end(), r.begin(), r.end());
    m_offsets.push_back(m_runs.size());
    m_sizes.push_back(size);
    m_hashes.push_back(h);
    m_table[slot] = id;
    if (2 * (m_sizes.size() - m_nodes) > m_table.size()) { // keep it at most half full
        std::vector<SetId> bigger(m_table.size() * 2, kEmpty);
        const std::size_t bigMask = bigger.size() - 1;
        for (SetId other : m_table)
            if (other != kEmpty) {
                std::size_t s = m_hashes[other] & bigMask;
                while (bigger[s] != kEmpty)
                    s = (s + 1) & bigMask;
                bigger[s] = other;
            }
        m_table.swap(bigger);
        if (m_memo.size() < (std::size_t{1} << 20))
            m_memo.resize(m_memo.size() * 2); // (a cache: dropping what it held only costs lookups)
    }
    return id;
}

ContributionSets::MergeResult ContributionSets::merge(SetId held, SetId incoming)
{
    if (held == incoming)
        return {Merge::Repeated, held, {}};
    const std::uint64_t key = (std::uint64_t{held} << 32) | incoming;
    const auto memoSlot = [&] { return ((key * 0x9E3779B97F4A7C15ull) >> 20) & (m_memo.size() - 1); };
    if (const MemoSlot& memo = m_memo[memoSlot()]; memo.key == key)
        return memo.result;

    const auto a = runs(held), b = runs(incoming);
    // Walk both run lists: the union's runs, and the first contribution they share.
    m_scratch.clear();
    bool overlap = false;
    std::uint32_t witness = 0;
    std::uint64_t common = 0;
    auto push = [&](Run r) {
        if (!m_scratch.empty() && m_scratch.back().second >= r.first)
            m_scratch.back().second = std::max(m_scratch.back().second, r.second);
        else
            m_scratch.push_back(r);
    };
    // Their intersection: two pointers, advancing the run that ends first.
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        const std::uint32_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
        if (lo < hi) {
            if (!overlap)
                witness = lo;
            overlap = true;
            common += hi - lo;
        }
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    // Their union, only when it is needed (no contribution in common).
    if (!overlap)
        for (std::size_t i = 0, j = 0; i < a.size() || j < b.size();) {
            if (j >= b.size() || (i < a.size() && a[i].first <= b[j].first))
                push(a[i++]);
            else
                push(b[j++]);
        }
    MergeResult r;
    if (!overlap) {
        r = {Merge::Added, intern(m_scratch, m_sizes[held] + m_sizes[incoming]), {}};
    } else if (common == m_sizes[held]) {
        r = {Merge::Replaced, incoming, {}}; // held ⊂ incoming (equal sets share an id: handled above)
    } else {
        r = {Merge::Overlap, held, NodeId{witness}};
    }
    m_memo[memoSlot()] = MemoSlot{key, r}; // after intern, which may have grown the cache
    return r;
}

std::vector<std::uint64_t> requiredChunks(const Schedule& s, NodeId node)
{
    const std::uint64_t p = s.parts;
    std::vector<std::uint64_t> out;
    switch (s.pattern()) {
    case Pattern::Reduce:
        if (node != s.source())
            break;
        [[fallthrough]];
    case Pattern::Allreduce:
        for (std::uint64_t c = 0; c < p; ++c)
            out.push_back(c);
        break;
    case Pattern::ReduceScatter:
        for (std::uint64_t c = 0; c < p; ++c)
            out.push_back(node * p + c);
        break;
    default:
        break;
    }
    return out;
}

Block chunkBlock(const Schedule& s, std::uint64_t c)
{
    const std::uint64_t p = s.parts;
    if (s.pattern() == Pattern::ReduceScatter)
        return Block{Block::kAll, static_cast<std::uint32_t>(c / p), static_cast<std::uint32_t>(c % p)};
    return Block{Block::kAll, Block::kAll, static_cast<std::uint32_t>(c)};
}

std::string chunkName(const Schedule& s, const Block& b)
{
    const Topology& topo = s.topology();
    if (s.pattern() == Pattern::ReduceScatter && b.dest != Block::kAll) {
        const std::string owner = b.dest < topo.nodeCount() ? topo.nodeName(NodeId{b.dest}) : std::to_string(b.dest);
        return owner + "'s chunk" + (s.parts > 1 ? " part " + std::to_string(b.part) : std::string());
    }
    return "chunk " + std::to_string(b.part);
}

ReductionReplay::ReductionReplay(const Schedule& s, const std::function<void(const ReductionArrival&)>& onArrival)
{
    if (!combines(s.pattern()))
        throw Error("a " + toString(s.pattern()) +
                    " does not combine contributions; only reduce, reduce-scatter and "
                    "allreduce are replayed as partial results");
    if (!s.finalized())
        throw Error("replaying a reduction needs the schedule finalized (Schedule::finalize)");
    const Topology& topo = s.topology();
    const std::uint32_t n = topo.nodeCount();
    m_chunks = chunkCount(s);
    checkMemory("the partial results of a " + toString(s.pattern()) + " on the " + topo.displayName(),
                saturatingMul(saturatingMul(n, m_chunks), sizeof(ContributionSets::SetId)),
                std::to_string(n) + " nodes × " + std::to_string(m_chunks) + " chunks × 4 B");
    m_sets = std::make_shared<ContributionSets>(n);
    m_state.resize(std::size_t{n} * m_chunks);
    for (std::uint32_t v = 0; v < n; ++v)
        std::fill_n(m_state.begin() + static_cast<std::ptrdiff_t>(std::uint64_t{v} * m_chunks), m_chunks,
                    ContributionSets::single(NodeId{v}));

    // Per step: read every sender's partials first (the end of the previous step), then merge.
    std::vector<ReductionArrival> pending;
    for (StepNo step : steps(s)) {
        pending.clear();
        const std::size_t begin = s.stepBegin(step), end = s.stepEnd(step);
        for (std::size_t i = begin; i < end; ++i) {
            const Transfer& t = s.transfers()[i];
            if (t.from >= n || t.to >= n || t.from == t.to || t.payload >= s.payloadCount())
                continue;
            for (const Block& b : s.payload(t.payload)) {
                ReductionArrival a;
                a.sets = m_sets.get();
                a.transfer = i;
                a.block = b;
                a.chunk = b.origin == Block::kAll ? chunkId(s, b) : kNoChunk;
                if (a.chunk != kNoChunk)
                    a.incoming = m_state[t.from * m_chunks + a.chunk];
                pending.push_back(a);
            }
        }
        for (ReductionArrival& a : pending) {
            if (a.chunk != kNoChunk) {
                ContributionSets::SetId& mine = m_state[s.transfers()[a.transfer].to * m_chunks + a.chunk];
                a.before = mine;
                a.merge = m_sets->merge(mine, a.incoming);
                mine = a.merge.result;
            }
            onArrival(a);
        }
    }
}

} // namespace topocast
