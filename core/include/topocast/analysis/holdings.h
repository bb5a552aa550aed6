#pragma once
// What each node holds after each step: the blocks a node starts with (those
// it is the origin of) and every block of every transfer it has received so far, each once.

#include "topocast/model/schedule.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace topocast {

class ContributionSets;

/// One block a node holds. `chunk` numbers the pattern's data densely (chunkId); `sources` are
/// the nodes whose data it stands for — one, its origin, for the patterns without reduction;
/// for reduce, reduce-scatter and allreduce the contributions combined into its partial result.
struct HeldBlock {
    std::uint64_t chunk = 0;
    Block block;
    std::vector<NodeId> sources;
    friend bool operator==(const HeldBlock&, const HeldBlock&) = default;
};

/// The dense number of `b` among the data of `schedule`'s pattern, with N nodes and P parts:
/// broadcast p; scatter dest·P + p; allgather and gather origin·P + p; alltoall
/// (origin·N + dest)·P + p; reduce and allreduce p; reduce-scatter dest·P + p;
/// ~0 (kNoChunk) for a block that is not data of the pattern (a file may carry one). O(1).
inline constexpr std::uint64_t kNoChunk = ~std::uint64_t{0};
std::uint64_t chunkId(const Schedule& schedule, const Block& b);

/// One past the largest chunk id of the pattern: P, N·P, N·P, N²·P; gather N·P, reduce and
/// allreduce P, reduce-scatter N·P (a few ids name no data: the
/// source's scatter block to itself, a node's all-to-all block to itself). O(1).
std::uint64_t chunkCount(const Schedule& schedule);

/// The blocks `node` starts with: broadcast, the source's P parts; scatter, the source's
/// blocks for every node that takes part (itself excluded); allgather, its own P parts;
/// alltoall, its block for every other node; gather, its own P parts; reduce and allreduce, its
/// contribution to each of the P chunks; reduce-scatter, to each of the N·P. Sorted. O(N · P).
std::vector<Block> initialBlocks(const Schedule& schedule, NodeId node);

/// What every node holds after every step of a finalized schedule, built once in
/// O(transfers + Σ payload blocks) time and O(N + transfers) memory (one entry per received
/// transfer, not per block). Then, for any step in any order (stepping back as cheaply as
/// forward): how many blocks a node holds, and how many of those the pattern requires of it, in
/// O(log transfers it receives); and the blocks themselves in O(blocks held).
/// A block received twice counts once, from its first arrival. It keeps no reference to the
/// schedule: blocksAt takes it again (the one it was built from).
///
/// Reduce, reduce-scatter and allreduce count contributions instead of blocks: a node holds a
/// partial result of every chunk from the start (its own contribution), countAt is the sum of
/// their sizes, requiredCount N × the chunks it must end with complete (ReductionReplay,
/// reduction.h). Built in O(Σ payload blocks) time plus the merges, with 8 B per delivered chunk.
class Holdings {
public:
    explicit Holdings(const Schedule& schedule);

    /// Blocks `node` holds at the end of `step` (0: before step 1), each once, its initial
    /// blocks first and then in order of arrival. `schedule` is the one it was built from.
    std::vector<HeldBlock> blocksAt(const Schedule& schedule, NodeId node, StepNo step) const;
    /// How many blocks `node` holds at the end of `step`.
    std::uint64_t countAt(NodeId node, StepNo step) const;
    /// How many of requiredBlocks(node) it holds at the end of `step`.
    std::uint64_t requiredHeldAt(NodeId node, StepNo step) const;
    /// |requiredBlocks(node)|.
    std::uint64_t requiredCount(NodeId node) const { return m_required[node]; }
    /// requiredHeldAt / requiredCount (1 for a node that needs nothing).
    double finalShareAt(NodeId node, StepNo step) const;
    /// Reduce, reduce-scatter, allreduce: how many contributions `node`'s partial result of
    /// `chunk` combines at the end of `step` (1, its own, before any arrival); 0 for the other
    /// patterns. O(arrivals of `node` up to `step` × their blocks).
    std::uint32_t partialSizeAt(NodeId node, std::uint64_t chunk, StepNo step) const;

private:
    struct Arrival {
        StepNo step{};
        std::uint32_t transfer = 0;    ///< index into Schedule::transfers()
        std::uint64_t newBlocks = 0;   ///< blocks held after it (cumulative, initial ones included)
        std::uint64_t newRequired = 0; ///< required blocks held after it (cumulative)
    };
    /// The arrivals of `node` with step ≤ `step`: [begin, end) in m_arrivals.
    std::size_t arrivalsEnd(NodeId node, StepNo step) const;
    /// The combining patterns: replays the partial results, fills the counts and m_results.
    void replayPartials(const Schedule& schedule);

    static constexpr std::uint32_t kNoChunk32 = ~std::uint32_t{0};
    /// A partial result one arrival leaves at its receiver: chunk and set (ContributionSets).
    struct ChunkResult {
        std::uint32_t chunk = kNoChunk32;
        std::uint32_t set = 0;
    };

    std::vector<std::uint64_t> m_initial;         ///< per node: |initialBlocks|
    std::vector<std::uint64_t> m_required;        ///< per node: |requiredBlocks|
    std::vector<std::size_t> m_offsets;           ///< per node: its arrivals in m_arrivals (N + 1)
    std::vector<Arrival> m_arrivals;              ///< grouped by receiver, each group in step order
    std::vector<std::uint64_t> m_initialRequired; ///< per node: required held before step 1
    // Combining patterns only:
    std::shared_ptr<const ContributionSets> m_sets;
    std::vector<ChunkResult> m_results;    ///< per arrival, one per payload block, in arrival order
    std::vector<std::size_t> m_resultEnds; ///< per arrival: one past its last entry in m_results
};

} // namespace topocast
