#pragma once

#include "topocast/schedule.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace topocast {

// The MPI-free half of replaying a schedule on real message passing (topocast-mpi, issue #10):
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
/// source's blocks addressed to `node` (nothing for a node outside Schedule::participants); allgather: every part of every other node's message;
/// alltoall: the block every other node addressed to `node`. Sorted. O(n · parts).
std::vector<Block> requiredBlocks(const Schedule& schedule, NodeId node);

/// True when `node` holds block `b` before step 1 (it is the block's origin).
inline bool holdsInitially(NodeId node, const Block& b)
{
    return b.origin == node;
}

/// One transfer as one of its two ranks sees it.
struct PlannedOp {
    std::size_t transfer = 0;  ///< index into Schedule::transfers()
    NodeId peer{};           ///< the other rank (receiver of a send, sender of a receive)
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

/// How replaySchedule runs.
struct ReplayOptions {
    /// Bytes of every block (a message carries blocks × this many bytes).
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
    std::size_t messages = 0;       ///< messages matched to a posted receive and unpacked
    std::uint64_t bytes = 0;        ///< bytes of those messages
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
/// with the right checksum. A send of a block its rank does not hold, a receive no send
/// matches, a message nobody receives, wrong bytes and a missing block are problems; nothing
/// throws for them. Requires transfers that name existing nodes and payloads (run validate()
/// first). Throws Error where rankPlan does (schedule not finalized, a tag beyond
/// options.tagUpperBound). O(transfers · log + Σ payload blocks · (bytesPerBlock + log)) time,
/// O(Σ blocks held · bytesPerBlock) memory.
ReplayReport replaySchedule(const Schedule& schedule, const ReplayOptions& options = {});

/// Bytes on the wire of transfer `t` with blocks of `bytesPerBlock` bytes.
std::uint64_t transferBytes(const Schedule& schedule, const Transfer& t, std::uint64_t bytesPerBlock);

/// A 64-bit fingerprint of what the schedule moves (topology, pattern, parts, and every
/// transfer's step, sender, receiver and blocks), as 16 hex digits. A measured-times file stores
/// it so a viewer can tell whether it belongs to the schedule it has open. O(transfers + blocks).
std::string scheduleFingerprint(const Schedule& schedule);

} // namespace topocast
