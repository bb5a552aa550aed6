#pragma once

#include "topocast/analysis/holdings.h"
#include "topocast/analysis/reduction.h"
#include "topocast/model/schedule.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace topocast {

// The MPI-free half of replaying a schedule on real message passing (topocast-mpi):
// which bytes every block holds, checksums, and what one rank sends and receives in each step.

/// Byte `index` of the payload of block `b`: a fixed hash of (origin, dest, part, index), so
/// every rank can generate what it sends and what it must receive without talking to anyone.
/// O(1), never throws.
std::uint8_t blockByte(const Block& b, std::uint64_t index);

/// Fills `out` with bytes 0..out.size()−1 of block `b` (8 bytes per hash). O(out.size()).
void fillBlock(const Block& b, std::span<std::uint8_t> out);

/// FNV-1a 64-bit checksum of `bytes`. O(bytes.size()).
std::uint64_t checksum(std::span<const std::uint8_t> bytes);

/// Checksum of the first `bytes` bytes of block `b` (what a correct receiver holds).
/// O(bytes).
std::uint64_t blockChecksum(const Block& b, std::uint64_t bytes);

/// Index of the first byte of `bytes` that differs from block `b`'s payload, or bytes.size()
/// when every byte is right. O(bytes.size()).
std::size_t firstMismatch(const Block& b, std::span<const std::uint8_t> bytes);

/// "block (origin 3, dest 5, part 0)" with node names of `topo`; dest "all" for broadcast data.
std::string describeBlock(const Topology& topo, const Block& b);

/// The blocks `node` must hold when the schedule ends, besides the ones it starts with:
/// broadcast: every part of the source's message (nothing for the source); scatter: the
/// source's blocks addressed to `node` (nothing for a node outside Schedule::participants); allgather: every part of
/// every other node's message; alltoall: the block every other node addressed to `node`. Sorted. O(n · parts).
std::vector<Block> requiredBlocks(const Schedule& schedule, NodeId node);

/// True when `node` holds block `b` before step 1 (it is the block's origin).
inline bool holdsInitially(NodeId node, const Block& b)
{
    return b.origin == node;
}

/// One transfer as one of its two ranks sees it.
struct PlannedOp {
    std::size_t transfer = 0;  ///< index into Schedule::transfers()
    NodeId peer{};             ///< the other rank (receiver of a send, sender of a receive)
    std::uint32_t payload = 0; ///< Transfer::payload
    std::uint32_t blocks = 0;  ///< number of blocks in the payload
    int tag = 0;               ///< message tag both sides compute (see transferTag)
};

/// What one rank does in one step.
struct RankStep {
    std::vector<PlannedOp> sends;
    std::vector<PlannedOp> receives;
};

/// Everything one rank does: its sends and receives per step (index step−1, one entry for every
/// step of the schedule, empty where it is idle) and the blocks it must end with.
struct RankPlan {
    NodeId node{};
    std::vector<RankStep> steps;
    std::vector<Block> required;
};

/// The tag of the `ordinal`-th transfer (0-based, in schedule order) from one sender to one
/// receiver within step `step`: ordinal · 4096 + step mod 4096. Both sides compute it from the
/// schedule alone, and since every step completes before the next starts it identifies the
/// transfer. Throws Error if the tag would exceed `tagUpperBound` (MPI_TAG_UB; ≥ 32767).
int transferTag(std::uint32_t step, std::uint32_t ordinal, int tagUpperBound);

/// The plan of rank `node`: its transfers of each step in schedule order. Requires a finalized
/// schedule whose transfers name existing nodes and payloads (run validate() first).
/// O(transfers) time. Throws Error if `node` is out of range or a tag exceeds `tagUpperBound`.
RankPlan rankPlan(const Schedule& schedule, NodeId node, int tagUpperBound = 32767);

/// The bytes of the combining patterns (reduce, reduce-scatter, allreduce).
/// A chunk is an array of 64-bit unsigned integers (native byte order), so a block's size must be
/// a multiple of 8 bytes. Node v's contribution to the chunk a block {*, d, p} names is the
/// payload of block {v, d, p} (fillBlock) with each word cut to its low 48 bits, and a partial
/// result is the word-wise sum of the contributions it combines: what MPI_SUM computes on
/// MPI_UINT64_T, so the MPI library's own MPI_Reduce / MPI_Allreduce / MPI_Reduce_scatter_block
/// are checked against the same bytes. 48-bit words keep every sum of up to kMaxContributions
/// contributions exact: MPI leaves an overflowing sum undefined (Open MPI 4.1's AVX sums of 8-
/// and 16-bit integers saturate instead of wrapping, open-mpi/ompi#8045).
inline constexpr std::uint32_t kMaxContributions = 65535;

/// Throws Error naming the size unless `bytesPerBlock` is a positive multiple of 8. O(1).
void requireWordBlocks(std::uint64_t bytesPerBlock);

/// Fills `out` (a multiple of 8 bytes) with node v's contribution to the chunk `chunk` names.
/// O(out.size()).
void fillContribution(NodeId v, const Block& chunk, std::span<std::uint8_t> out);

/// acc += in, word by word as 64-bit unsigned integers (sizes equal, multiples of 8). O(size).
void addWords(std::span<std::uint8_t> acc, std::span<const std::uint8_t> in);

/// Fills `out` with the complete result of the chunk `chunk` names on a network of `nodes`
/// nodes: the sum of every node's contribution. O(nodes · out.size()).
void fillTotal(std::uint32_t nodes, const Block& chunk, std::span<std::uint8_t> out);

/// Fills `out` with the partial result that combines the contributions of set `set` to the
/// chunk `chunk` names. O(|set| · out.size()).
void fillPartial(const ContributionSets& sets, ContributionSets::SetId set, const Block& chunk,
                 std::span<std::uint8_t> out);

/// What every block a combining schedule delivers does at its receiver, from one symbolic replay
/// (ReductionReplay): for transfer t, arrivals()[first[t] + k] is the k-th block of its payload.
/// Every rank of topocast-mpi builds it from the schedule alone, as a real reduction's code knows
/// in each phase whether it adds what arrives or keeps it.
struct CombinePlan {
    struct Arrival {
        std::uint64_t chunk = kNoChunk;       ///< chunkId, or kNoChunk (a block that names no chunk)
        ContributionSets::SetId incoming = 0; ///< what the sender's partial combines
        ContributionSets::MergeResult merge;  ///< Added: the receiver adds it; Replaced: keeps it
    };
    std::shared_ptr<const ContributionSets> sets;
    std::vector<std::uint64_t> first; ///< transfer → its first arrival; size transfers + 1
    std::vector<Arrival> arrivals;
    std::uint64_t chunks = 0; ///< chunkCount(schedule)
};

/// The plan of a finalized schedule of a combining pattern. Throws Error for another pattern
/// and where ReductionReplay does. O(Σ payload blocks + merges) time, 32 B per payload block.
CombinePlan combinePlan(const Schedule& schedule);

/// One node's partial results of a combining schedule while it is replayed: chunks × bytes,
/// each chunk starting as the node's own contribution.
class PartialResults {
public:
    /// Throws Error (naming the sizes) where chunks × bytesPerBlock exceeds memoryLimit(), where
    /// bytesPerBlock is not a multiple of 8 or the network has more than kMaxContributions nodes.
    PartialResults(const Schedule& schedule, const CombinePlan& plan, NodeId node, std::uint64_t bytesPerBlock);

    /// The node's partial of chunk `c` (< plan.chunks) as it stands. O(1).
    std::span<const std::uint8_t> chunk(std::uint64_t c) const;

    /// Block k of transfer `transfer` arrived with bytes `got` (the node is its receiver): checks
    /// `got` against the partial the plan says the sender held, then adds or keeps it as the plan
    /// says. Returns what went wrong ("chunk 3 differs from byte 5 of the sum of 2 of 16
    /// contributions"; "… would count (1,0)'s contribution twice"), or "" when right. A block
    /// that names no chunk is left to the caller ("" here). O(|incoming| · bytes).
    std::string receive(std::size_t transfer, std::size_t k, std::span<const std::uint8_t> got);

    /// receive()'s check alone: `got` against the partial its sender should hold, the partials
    /// unchanged ("" when right). O(|incoming| · bytes).
    std::string check(std::size_t transfer, std::size_t k, std::span<const std::uint8_t> got);

    /// receive()'s combining alone, unchecked, as a timed run does it (the check comes after the
    /// clock stops): adds or keeps `got` as the plan says. Returns the problem only where the plan
    /// counts a contribution twice. O(bytes).
    std::string combine(std::size_t transfer, std::size_t k, std::span<const std::uint8_t> got);

    /// What the node ends without: one line per required chunk (requiredChunks) whose bytes are
    /// not the sum of all N contributions. O(required · N · bytes).
    std::vector<std::string> finish() const;

private:
    const Schedule& m_schedule;
    const CombinePlan& m_plan;
    NodeId m_node;
    std::size_t m_bytes;
    std::vector<std::uint8_t> m_data; ///< chunk-major
    std::vector<std::uint8_t> m_scratch;
};

/// How replaySchedule runs.
struct ReplayOptions {
    /// Bytes of every block (a message carries blocks × this many bytes); a multiple of 8 for the
    /// combining patterns (their chunks are 64-bit integers).
    std::uint64_t bytesPerBlock = 16;
    /// Stop recording problems after this many (the count goes on).
    std::size_t maxProblems = 20;
    /// Largest message tag allowed (MPI_TAG_UB), as for rankPlan.
    int tagUpperBound = 32767;
    /// Called with every message after its sender packed it and before its receiver unpacks it
    /// (transfer index, the message's bytes): a hook for tests that corrupt data on the wire.
    std::function<void(std::size_t transfer, std::span<std::uint8_t> message)> onWire;
};

/// What replaySchedule found.
struct ReplayReport {
    bool ok() const { return problemCount == 0; }
    std::size_t messages = 0;        ///< messages matched to a posted receive and unpacked
    std::uint64_t bytes = 0;         ///< bytes of those messages
    std::uint64_t blocksChecked = 0; ///< received blocks compared byte for byte
    std::size_t problemCount = 0;
    /// The first maxProblems problems, e.g. "step 3: transfer 17 block (origin (0,0), dest all,
    /// part 0) differs from byte 5", "node (1,2) ends without block (…)".
    std::vector<std::string> problems;
};

/// Replays a finalized schedule in one process the way topocast-mpi runs it over MPI, for every
/// rank, with the plans rankPlan makes (built step by step, so no rank's whole plan is held):
/// per step, every rank packs the blocks of each planned send from what it held at the end of
/// the previous step (its own blocks generated by fillBlock), each message is matched to exactly
/// one posted receive by (sender, receiver, tag), every received block is checked byte for byte
/// (firstMismatch) and stored, and at the end every rank must hold each of its requiredBlocks
/// with the right checksum. A combining pattern (reduce, reduce-scatter, allreduce) sends each
/// chunk's partial result as it stands, and every rank keeps its partials in PartialResults:
/// each one received is checked against the sum its sender should hold, then added or kept, and
/// every required chunk must end as the sum of all N contributions. A send of a block its rank
/// does not hold, a receive no send matches, a message nobody receives, wrong bytes and a
/// missing block are problems; nothing throws for them. Requires transfers that name existing nodes and payloads (run
/// validate() first). Throws Error where rankPlan does (schedule not finalized, a tag beyond options.tagUpperBound) and
/// where PartialResults does (a combining pattern with a block size that is not a multiple of 8). O(transfers · log + Σ
/// payload blocks · (bytesPerBlock + log)) time, O(Σ blocks held · bytesPerBlock) memory (combining: N · chunks ·
/// bytesPerBlock, and the partial checks O(Σ |incoming| · bytesPerBlock) time).
ReplayReport replaySchedule(const Schedule& schedule, const ReplayOptions& options = {});

/// Bytes on the wire of transfer `t` with blocks of `bytesPerBlock` bytes.
std::uint64_t transferBytes(const Schedule& schedule, const Transfer& t, std::uint64_t bytesPerBlock);

/// A 64-bit fingerprint of what the schedule moves (topology, pattern, parts, and every
/// transfer's step, sender, receiver and blocks), as 16 hex digits. A measured-times file stores
/// it so a viewer can tell whether it belongs to the schedule it has open. O(transfers + blocks).
std::string scheduleFingerprint(const Schedule& schedule);

} // namespace topocast
