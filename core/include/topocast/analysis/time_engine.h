#pragma once

// How long a schedule takes on a network model (model/network.h), without step barriers: every
// send starts as soon as the data it carries is held by its sender and the sender's processor and
// port are free; every receive completes when its message has arrived and the receiver's
// processor and port are free. The rules are LogGOPSim's LogGP rules (Hoefler, Schneider &
// Lumsdaine, HPDC 2010, §2–3: overhead o at both ends, gap g per message and G per byte at each
// port, latency L, eager messages up to S bytes and a rendezvous above it), with the latency per
// hop and store-and-forward routing added; with the `loggopsim` preset the times of a GOAL
// program are LogGOPSim's to the nanosecond (tests/core/test_time_engine.cpp, against values
// LogGOPSim printed). Contention between messages that share a link is not charged here: that
// is what a flow-level simulation adds.
//
// The step-synchronous reading of the papers (every step starts when the slowest message of the
// step before has arrived) is the same engine with a barrier between steps (TimeOptions::steps).

#include "topocast/model/network.h"
#include "topocast/model/op_program.h"
#include "topocast/model/schedule.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace topocast {

struct TimeOptions {
    /// A barrier between steps: no op of step k starts before every op of steps < k has ended
    /// (schedules only; a GOAL program has no steps).
    bool steps = false;
    /// Where every rank runs the same program (foldSchedule), time it once for all (exact, and
    /// checked: it falls back to every rank where it could not be); false times every rank.
    bool fold = true;
    /// Only the total, each rank's finish and each step's end: no op or transfer timings (what
    /// a sweep needs; spares memory of the size of the schedule).
    bool totalOnly = false;
};

/// When one op ran: its start (the processor takes it) and its end (it completed: a send's
/// data has left the sender's processor, a receive's data is in place, a calc is done).
/// Nanoseconds from the start of the collective (LogGOPSim's unit; whole numbers for its presets).
struct OpTiming {
    double start = 0;
    double end = 0;
};

/// The engine's answer; a flow-level simulation answers in the same form.
struct TimeResult {
    /// "loggp" (the engine, no barriers) or "loggp-steps" (a barrier between steps).
    std::string model;
    NetworkModel network;
    /// Nanoseconds: the latest time any rank finishes (LogGOPSim's "maximum finishing time").
    double total = 0;
    /// The first rank that finishes at `total`.
    std::uint32_t lastRank = 0;
    /// Each rank's finish: when its last op released its processor (LogGOPSim's per-host times).
    std::vector<double> rankFinish;
    /// Every op of the program, in the program's order.
    std::vector<OpTiming> ops;
    /// Schedules only: each transfer's start (its send starts) and end (its receive completes),
    /// in the schedule's transfer order; and each step's end (the last of its transfers' ends).
    std::vector<OpTiming> transfers;
    std::vector<double> stepEnds;
    /// Ops that never ran: receives never matched, ops waiting on them, sends nobody received
    /// (GOAL programs only; a schedule always completes). Empty when everything ran.
    std::vector<std::string> unfinished;
    /// What the figure leaves out, for the reader ("contention between messages is not charged").
    std::vector<std::string> notes;
    /// Programs matched by queues (GOAL): per op, for a receive, the send it matched (kNoOp
    /// for other ops and receives never matched). Empty for a schedule's program.
    static constexpr std::uint32_t kNoOp = 0xFFFFFFFFu;
    std::vector<std::uint32_t> matchedSend;
};

/// Bytes of one block of `schedule` when the collective has `message` bytes in all, as
/// nccl-tests counts the size (broadcast, reduce, all-reduce: the vector; all-gather, gather:
/// the gathered result; reduce-scatter and scatter: the vector before it is split; all-to-all:
/// what each rank sends in all): message / parts for broadcast, reduce and all-reduce, message /
/// (participants · parts) for the others, rounded up to whole bytes (at least 1). O(1).
std::uint64_t blockBytes(const Schedule& schedule, std::uint64_t message);

/// The bytes of each transfer of `schedule` for a collective of `message` bytes: its blocks ×
/// blockBytes, or, for schedules sized in load units (divisible load), its share of the load
/// leaving the source, or, for schedules sized in bytes (a GOAL program's), its size. The one place transfers are sized
/// (the program, its resizing, `time`).
class TransferBytes {
public:
    /// O(transfers) for load units (the load leaving the source, summed once), O(1) otherwise.
    TransferBytes(const Schedule& schedule, std::uint64_t message);
    /// O(1).
    std::uint64_t operator()(const Transfer& t) const;

private:
    const Schedule& m_schedule;
    double m_message;
    double m_load = 0; ///< load units leaving the source (load-unit schedules only)
    std::uint64_t m_perBlock;
    bool m_bytes = false; ///< sizes are bytes already (a program of messages, from GOAL)
};

/// Bytes the engine holds per transfer of a schedule (its two ops, their dependencies, timings and
/// the engine's state), for estimates before anything is allocated.
inline constexpr std::uint64_t kEngineBytesPerTransfer =
    2 * sizeof(ProgramOp) + 2 * sizeof(ProgramDependency) + 2 * sizeof(OpTiming) + 64;

/// Bytes the engine holds per rank (its processors' and ports' times, its matching queues).
inline constexpr std::uint64_t kEngineBytesPerRank = 384;

/// The schedule as a program of sends and receives: transfer i is op 2i (the send, tag i) and
/// op 2i+1 (its receive); a send requires every receive of its sender in an earlier step that
/// brought a block it carries, and starts no sooner than its rank's send before it (a rank issues
/// its sends in the schedule's order, as a program does). Sizes from TransferBytes(…, network.message), hops from the
/// schedule's routes. Requires a finalized schedule. Throws Error (checkMemory, limits.h) before
/// allocating when transfers × kEngineBytesPerTransfer is over the memory limit.
/// O(transfers + Σ blocks).
OpProgram scheduleProgram(const Schedule& schedule, const NetworkModel& network);

/// Sets the sizes of `program` (scheduleProgram of `schedule`) for a collective of `message`
/// bytes, as scheduleProgram would have: one program serves every size of a sweep. O(ops).
void resizeProgram(OpProgram& program, const Schedule& schedule, std::uint64_t message);

/// A schedule's program folded by its symmetry. Where every rank sends, receives and waits in
/// the same way — the same sequence of sends (sizes, ports, hops, step, the receive of its peer
/// it pairs with, which of its own receives it waits for) and of receives — every rank's ops
/// take the same times, and one rank sending to itself stands for all (a ring or a bucket on
/// a torus, Rabenseifner where every exchange has the same hops). Exact where no two events of
/// the rank fall on the same instant (ties are broken in an order the fold does not keep), and
/// the engine falls back to every rank where they do.
struct FoldedProgram {
    OpProgram program;                     ///< one rank; send k is op 2k, its receive 2k+1
    std::vector<std::uint32_t> transferOf; ///< per schedule transfer: the folded transfer it is
    std::vector<std::uint32_t> example;    ///< per folded transfer: the first schedule transfer that is it
    std::vector<std::uint32_t> stepStart;  ///< folded transfers of step s (1-based): [stepStart[s−1], stepStart[s])
};
/// The folded program of `schedule` (sizes at network.message), or nothing where two ranks'
/// programs differ (stops at the first difference). O(transfers + Σ blocks), 8 B a transfer.
std::optional<FoldedProgram> foldSchedule(const Schedule& schedule, const NetworkModel& network);
/// Sets the sizes of `folded` for a collective of `message` bytes. O(folded transfers).
void resizeFolded(FoldedProgram& folded, const Schedule& schedule, std::uint64_t message);
/// The schedule's time from its folded program, or nothing where two events fell on one instant
/// (then time every rank: timeScheduleProgram). Ops and transfers expanded to the schedule's
/// unless options.totalOnly.
std::optional<TimeResult> timeFolded(const Schedule& schedule, const FoldedProgram& folded, const NetworkModel& network,
                                     const TimeOptions& options = {});
/// Runs `program` on `network`. Throws Error for a dependency on an op that does not exist, and
/// (checkMemory) before allocating past the memory limit (ranks × kEngineBytesPerRank + pairs of
/// ops × kEngineBytesPerTransfer).
/// Never hangs: a program that cannot finish (a receive never matched, a cycle of dependencies)
/// ends with what ran, and `unfinished` says what did not. O((ops + dependencies) · log ops).
TimeResult timeProgram(const OpProgram& program, const NetworkModel& network);

/// The schedule's time on `network` (folded where every rank runs the same program, otherwise
/// scheduleProgram, then the engine; with options.steps a barrier between steps). Fills `transfers` and `stepEnds`.
/// Requires a finalized schedule.
TimeResult timeSchedule(const Schedule& schedule, const NetworkModel& network, const TimeOptions& options = {});
/// The same for each of `each` (with and without barriers, say), folding the schedule or making
/// its program once for all of them.
std::vector<TimeResult> timeSchedule(const Schedule& schedule, const NetworkModel& network,
                                     std::initializer_list<TimeOptions> each);
/// The same with the schedule's program made already (scheduleProgram, resizeProgram for its size).
TimeResult timeScheduleProgram(const Schedule& schedule, const OpProgram& program, const NetworkModel& network,
                               const TimeOptions& options = {});

} // namespace topocast
