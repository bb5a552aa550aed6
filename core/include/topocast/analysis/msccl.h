#pragma once
// An MSCCL program placed on a network: run as soon as its dependencies allow, turned into
// topocast steps, and checked against the collective it claims to be; and any topocast schedule
// written as an MSCCL program.
//
// Time: a send takes one step; a receive completes in the step its matching send runs (or later,
// when its own stream is still busy); local ops (cpy, re, nop) take no time. Ops of one
// threadblock run in order, and an op with depid/deps waits for that step of that threadblock.
// A send reads its chunks as they stand at the end of the previous step, like every topocast
// transfer, so the check below and topocast's own checker (validate.h) judge the same moves.

#include "topocast/model/msccl_program.h"
#include "topocast/model/schedule.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// The pattern of an MSCCL collective name: allgather, allreduce, reduce_scatter (or
/// reducescatter), alltoall, broadcast, reduce, gather, scatter. Throws Error listing them.
Pattern mscclPattern(std::string_view collective);
/// The name MSCCL files use for a pattern ("reduce_scatter", …).
std::string mscclCollective(Pattern pattern);

/// What kind of problem a finding is (for colours and filters).
enum class MscclFindingKind : std::uint8_t {
    Structure,  ///< the file: a rank, peer, offset, count or dependency out of range
    Deadlock,   ///< a send with no receive, a receive never sent, a dependency cycle
    Data,       ///< a contribution combined twice or lost, a reduce that only copies, a send of nothing
    Incomplete, ///< a rank ends without what the collective defines
};
/// "structure", "deadlock", "data", "incomplete".
std::string_view toString(MscclFindingKind kind);

/// One problem of a program, where it happens.
struct MscclFinding {
    MscclFindingKind kind = MscclFindingKind::Structure;
    /// The topocast step it happens in; none for the file's structure and for ops that never run.
    std::optional<std::uint32_t> step;
    int rank = -1;                     ///< the rank at fault, or the rank holding a wrong chunk
    std::optional<std::int64_t> chunk; ///< the chunk (index in the buffer `what` names)
    int tb = -1;                       ///< the threadblock of the op at fault (−1: none)
    int s = -1;                        ///< its step in that threadblock (−1: none)
    std::string what;
};

/// "rank 3: tb 0 step 1 overwrites …", or the text alone where it begins with its rank
/// ("rank 3 ends with output chunk 2 lacking …").
std::string mscclFindingText(const MscclFinding& finding);

/// Most chunks one buffer of one rank may declare (i_chunks, o_chunks, s_chunks): MSCCL programs
/// use a few thousand at most.
inline constexpr int kMaxMscclBufferChunks = 65536;

/// Most findings kept (the count goes on).
inline constexpr std::size_t kMaxMscclFindings = 100;

struct MscclCheck {
    bool valid() const { return findingCount == 0; }
    Pattern pattern = Pattern::Allgather;
    int ranks = 0;
    std::uint64_t chunkTransfers = 0; ///< Σ cnt over the sends that run
    std::uint32_t steps = 0;
    int maxHops = 0; ///< longest route of a send (dimension order)
    std::vector<MscclFinding> findings;
    std::size_t findingCount = 0;
    /// The sends that run as a topocast schedule: one transfer per (sender, receiver, step) —
    /// the chunks of every channel between the two in that step — routed in dimension order,
    /// PortModel::MultiPort (as many sends per node and step as the program makes), step
    /// contention allowed. Empty when the file's structure is broken (a peer, offset or count
    /// out of range, …): nothing can run then.
    Schedule schedule;
};

/// Runs `program` with rank r on node placement[r] (empty: node r) and checks it: the structure
/// (ranks, peers, offsets, counts, dependencies), every send paired with a receive (the k-th
/// send from a to b on channel c with the k-th receive at b from a on c), no dependency cycle,
/// no contribution combined twice, and the buffers at the end: what the collective defines
/// (all-reduce: every rank's every chunk holds every rank's contribution once; all-gather: every
/// rank holds every rank's chunks; …). Throws Error when the program's rank count is not the
/// topology's node count or the placement is not one distinct node per rank.
/// O(ops · chunks per op · ranks) for the reductions.
MscclCheck checkMscclProgram(const MscclProgram& program, const Topology& topology,
                             std::span<const NodeId> placement = {});

/// One node per line (as Topology::parseNode reads them; blank lines and '#' comments skipped),
/// line r holding rank r. Throws Error naming the line for a node out of range, a node given
/// twice, or a count other than `ranks`.
std::vector<NodeId> parseRankPlacement(std::string_view text, const Topology& topology, int ranks,
                                       std::string_view what = "rank placement");

/// `schedule` (finalized, any pattern) as an MSCCL program with rank r on node r: every transfer
/// becomes a send on the sender and a receive on the receiver, one channel per contiguous run of
/// its chunks; dependencies order every op after the ops of its rank it needs (the receive that
/// brought a chunk, the op of the step before), so checkMscclProgram gives back the same
/// transfers in the same steps — except where a node waits a step with nothing to send or
/// receive: those waits close up. Combining patterns receive with rrc where topocast adds a
/// partial and with r where it keeps the incoming one. Throws Error for an empty schedule.
MscclProgram mscclFromSchedule(const Schedule& schedule);

/// The sends of `schedule` that follow a step in which their node neither sends nor receives
/// (a one-port node waiting for its partner, say). An MSCCL program has no way to wait without
/// a message, so the executor — and checkMscclProgram — runs such a send, and what follows from
/// it, sooner: export and import give back the same transfers in the same steps exactly when
/// this is 0, and the same transfers in the same order, some earlier, otherwise. O(transfers).
std::size_t mscclWaitingSends(const Schedule& schedule);

} // namespace topocast
