#pragma once
// What the combining patterns (reduce, reduce-scatter, allreduce) compute, step by step: which
// contributions each node has combined into each chunk of its result.
// Shared by the checker (validate.h) and Holdings (holdings.h).

#include "topocast/model/schedule.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace topocast {

/// Sets of contributions (node ids), each stored once: equal sets share one id, so the partial
/// results of millions of (node, chunk) pairs cost 4 B each. A set is kept as sorted runs of
/// consecutive node ids — one or two runs for the partial sums of a ring, a box's rows for a
/// torus's dimension-wise rings. Ids 0..N−1 are the singletons {v}.
class ContributionSets {
public:
    using SetId = std::uint32_t;

    explicit ContributionSets(std::uint32_t nodeCount);

    std::uint32_t nodeCount() const { return m_nodes; }
    /// {v}. O(1).
    static SetId single(NodeId v) { return v.value(); }
    /// How many contributions set `id` combines. O(1).
    std::uint32_t size(SetId id) const { return m_sizes[id]; }
    /// Whether `id` combines all N contributions. O(1).
    bool isFull(SetId id) const { return m_sizes[id] == m_nodes; }
    /// Its members in increasing order. O(size).
    std::vector<NodeId> members(SetId id) const;
    /// The smallest node id that is not a member (nodeCount() for a full set). O(runs).
    NodeId firstMissing(SetId id) const;

    /// What receiving a partial result `incoming` does to a node's partial `held` of one chunk.
    enum class Merge : std::uint8_t {
        Added,    ///< no contribution in common: the result is their union
        Replaced, ///< incoming contains held and more: the node keeps incoming
        Repeated, ///< the same set again: nothing changes (a repeated receive)
        Overlap,  ///< a contribution in both, and incoming does not contain held: it would count twice
    };
    struct MergeResult {
        Merge kind = Merge::Added;
        SetId result = 0; ///< the node's partial afterwards (held again for Repeated and Overlap)
        NodeId witness{}; ///< Overlap: the smallest contribution in both
    };
    /// Memoized: the same (held, incoming) pair costs one hash lookup the second time.
    MergeResult merge(SetId held, SetId incoming);

    /// Sets stored so far (singletons included).
    std::size_t count() const { return m_sizes.size(); }

private:
    using Run = std::pair<std::uint32_t, std::uint32_t>; ///< [first, last + 1)
    static constexpr SetId kEmpty = ~SetId{0};
    SetId intern(const std::vector<Run>& runs, std::uint32_t size);
    std::span<const Run> runs(SetId id) const;

    std::uint32_t m_nodes = 0;
    std::vector<Run> m_runs;              ///< every set's runs, back to back (singletons too)
    std::vector<std::uint64_t> m_offsets; ///< set id → its first run in m_runs (count + 1)
    std::vector<std::uint32_t> m_sizes;
    std::vector<std::uint64_t> m_hashes; ///< per set: the hash of its runs (singletons: unused)
    /// Open addressing over set ids (kEmpty where free), at most half full: finds a set by its runs.
    std::vector<SetId> m_table;
    /// A direct-mapped cache of merges, keyed by (held, incoming): a ring's merges never repeat,
    /// a torus's dimension-wise rings repeat each merge for every chunk of a message.
    struct MemoSlot {
        std::uint64_t key = ~std::uint64_t{0};
        MergeResult result;
    };
    std::vector<MemoSlot> m_memo;
    std::vector<Run> m_scratch;
};

/// One partial result delivered by a transfer of a combining schedule.
struct ReductionArrival {
    std::size_t transfer = 0;               ///< index into Schedule::transfers()
    Block block;                            ///< the payload's block naming the chunk
    std::uint64_t chunk = 0;                ///< chunkId(schedule, block), or kNoChunk for a block that names no chunk
    ContributionSets::SetId incoming = 0;   ///< the sender's partial at the end of the previous step
    ContributionSets::SetId before = 0;     ///< the receiver's partial before it
    ContributionSets::MergeResult merge;    ///< what it does (unset for kNoChunk)
    const ContributionSets* sets = nullptr; ///< the sets the ids name
};

/// Replays a finalized schedule of a combining pattern (combines()). Every node starts with its
/// own contribution to every chunk; in each step every transfer carries, for each chunk its
/// payload names, the sender's partial as it stood at the end of the previous step, and the
/// receivers merge them (ContributionSets::merge) once the step's sends are read. Calls
/// `onArrival` for every delivered block, in step order (within a step in transfer order).
/// Transfers with endpoints outside the topology, to themselves or with a missing payload are
/// skipped (the checker reports them). Throws Error for a pattern that does not combine, and
/// before allocating N × chunkCount × 4 B beyond memoryLimit(). O(Σ payload blocks + merges).
class ReductionReplay {
public:
    ReductionReplay(const Schedule& schedule, const std::function<void(const ReductionArrival&)>& onArrival);

    /// The partial result `node` ends with for `chunk` (< chunkCount(schedule)).
    ContributionSets::SetId finalSet(NodeId node, std::uint64_t chunk) const
    {
        return m_state[node * m_chunks + chunk];
    }
    std::uint64_t chunks() const { return m_chunks; }
    const std::shared_ptr<ContributionSets>& sets() const { return m_sets; }

private:
    std::shared_ptr<ContributionSets> m_sets;
    std::uint64_t m_chunks = 0;
    std::vector<ContributionSets::SetId> m_state; ///< node · chunks + chunk
};

/// The chunks `node` must end with complete: reduce, every chunk at the root; reduce-scatter,
/// its own P chunks; allreduce, every chunk. Empty for other nodes and other patterns. O(P).
std::vector<std::uint64_t> requiredChunks(const Schedule& schedule, NodeId node);

/// The block that names chunk `c` (< chunkCount) of a combining pattern: {*, *, c}, or for a
/// reduce-scatter {*, c / P, c % P}. O(1).
Block chunkBlock(const Schedule& schedule, std::uint64_t c);

/// "chunk 3", "chunk 2 of (1,0)'s share" (reduce-scatter), with " part p" where parts > 1 for
/// reduce-scatter. O(1).
std::string chunkName(const Schedule& schedule, const Block& block);

} // namespace topocast
