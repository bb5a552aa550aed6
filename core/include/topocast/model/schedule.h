#pragma once

#include "topocast/model/routing.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace topocast {

struct AlgorithmFigures;

/// What a node may do in one step.
enum class PortModel : std::uint8_t {
    /// At most one send and at most one receive per node per step (the mesh TCD papers; the
    /// hypercube paper's "one send + one receive").
    OnePort,
    /// Hypercube "one-port": a node exchanges with at most one neighbour per cycle (it may send
    /// to and receive from that same neighbour).
    OnePortExchange,
    /// Half duplex: a node either sends one message or receives one per step.
    HalfDuplex,
    /// All-port / n-port: one message per outgoing channel (distinct first channels) and one per
    /// incoming channel (distinct last channels).
    AllPort,
    /// Like AllPort, but a sender may inject any number of messages (divisible-load Scatter(p):
    /// at most `Schedule::maxSendsPerStep` sends per node per step, no channel limit).
    MultiPort,
};

/// What must hold at the end.
enum class Pattern : std::uint8_t {
    Broadcast, ///< one source; every node ends with every part of its message
    Scatter,   ///< one source; every node ends with its own block(s) (personalized)
    Allgather, ///< every node a source; every node ends with every node's message
    Alltoall,  ///< every node sends a distinct block to every other node
    Gather,    ///< one root; the root ends with every node's message (scatter reversed)
    /// One root; every node contributes to each of P chunks and the root ends with each chunk
    /// combined over all N contributions (sums: each contribution exactly once).
    Reduce,
    /// No root; a vector of N·P chunks, chunk (d, p) owned by node d: every node ends with its
    /// own chunks combined over all N contributions.
    ReduceScatter,
    /// No root; every node ends with each of the P chunks combined over all N contributions.
    Allreduce,
    /// Not a collective: a program of messages (a GOAL file) whose data topocast does not know.
    /// Each transfer carries a token block {sender, receiver, k} (k: the sender's k-th send) and
    /// the tokens of the receives its send waits for, so causality is checked (a sender holds
    /// what it sends) and the time engine waits as the program did; nothing is required at the
    /// end. Not among kPatterns: no algorithm builds one.
    PointToPoint,
};

/// Every collective pattern, in the order of the enum (for lists and parsing).
inline constexpr Pattern kPatterns[] = {Pattern::Broadcast,     Pattern::Scatter,  Pattern::Allgather,
                                        Pattern::Alltoall,      Pattern::Gather,   Pattern::Reduce,
                                        Pattern::ReduceScatter, Pattern::Allreduce};
/// Whether the pattern has a source/root (broadcast, scatter, gather, reduce); the others start
/// with data at every node and giving them a source is refused by the front ends.
constexpr bool hasRoot(Pattern p)
{
    return p == Pattern::Broadcast || p == Pattern::Scatter || p == Pattern::Gather || p == Pattern::Reduce;
}
/// Whether the pattern combines contributions (reduce, reduce-scatter, allreduce): its messages
/// carry partial results of chunks, not copies of blocks (see Block).
constexpr bool combines(Pattern p)
{
    return p == Pattern::Reduce || p == Pattern::ReduceScatter || p == Pattern::Allreduce;
}
/// Whether every node holds data at the start (all but broadcast and scatter).
constexpr bool everyNodeStarts(Pattern p)
{
    return p != Pattern::Broadcast && p != Pattern::Scatter;
}
/// Whether the pattern is a collective (every one but PointToPoint): something must hold at the end.
constexpr bool isCollective(Pattern p)
{
    return p != Pattern::PointToPoint;
}

std::string toString(PortModel m);
std::string toString(Pattern p);
/// Parse the names printed by toString ("one-port", "all-port", "broadcast", "reduce-scatter",
/// "point-to-point", …). Throw Error listing the names.
PortModel parsePortModel(std::string_view text);
Pattern parsePattern(std::string_view text);

/// A unit of data with an identity, so the checker can follow it: part `part` of the message
/// that `origin` sends to `dest` (kAll for broadcast-type data).
///
/// In the combining patterns (combines()) a block names a chunk of the result and origin is
/// kAll: {kAll, kAll, p} is chunk p of a reduce or allreduce, {kAll, d, p} chunk p of node d's
/// share of a reduce-scatter. A transfer that carries it sends the sender's partial result of
/// that chunk as it stands at the end of the previous step (every contribution the sender has
/// combined into it so far, its own included); the receiver adds it to its own partial when
/// the two share no contribution, or keeps it in place of its own when it already contains it
/// (the all-gather half of an all-reduce). Files write kAll as −1.
struct Block {
    static constexpr std::uint32_t kAll = 0xFFFFFFFFu;
    std::uint32_t origin = 0;
    std::uint32_t dest = kAll;
    std::uint32_t part = 0;
    friend bool operator==(const Block&, const Block&) = default;
    friend auto operator<=>(const Block&, const Block&) = default;
};

/// A hash of a block, for sets and maps of blocks.
struct BlockHash {
    std::size_t operator()(const Block& b) const
    {
        std::uint64_t h = b.origin;
        h = h * 0x9E3779B97F4A7C15ull ^ b.dest;
        h = h * 0x9E3779B97F4A7C15ull ^ b.part;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

/// One message of one step: `from` sends to `to` along `route`. 32 bytes.
struct Transfer {
    NodeId from{};
    NodeId to{};
    StepNo step{1}; ///< 1-based step (routing cycle)
    RouteSpec route{};
    std::uint32_t payload = 0; ///< index into Schedule's payload table; 0 = block {source, kAll, 0}
    std::uint32_t tag = 0;     ///< algorithm's label for colouring: tree/part index, layer, …
    double size = 1.0;         ///< amount of data (elements, bytes or load units; see Schedule::sizeUnit)
};
static_assert(sizeof(Transfer) <= 32);

/// A complete communication schedule on a topology: ordered steps of transfers.
///
/// Transfers are kept sorted by step (finalize() sorts and indexes them). Payloads are stored
/// once in a table shared by transfers that carry the same blocks; payload 0 is reserved for the
/// single broadcast message of the source.
class Schedule {
public:
    Schedule() = default;
    Schedule(Topology topology, NodeId source, Pattern pattern, PortModel ports);

    const Topology& topology() const { return m_topology; }
    NodeId source() const { return m_source; }
    Pattern pattern() const { return m_pattern; }
    PortModel portModel() const { return m_ports; }
    void setPortModel(PortModel m) { m_ports = m; }

    /// Algorithm name and mode as shown to users ("cang-wu", "optimal").
    std::string algorithm;
    std::string mode;
    /// The dimension order used by RouteKind::DimensionOrder routes (default identity).
    DimensionOrder dimensionOrder;
    /// Number of parts each message is cut into (packets); blocks have part 0..parts−1.
    std::uint32_t parts = 1;
    /// Unit of Transfer::size ("message", "elements", "bytes", "load").
    std::string sizeUnit = "message";
    /// Most sends one node may make in a step under PortModel::MultiPort.
    int maxSendsPerStep = 1;
    /// The contention model the algorithm promises: true when no two transfers of one step share
    /// a directed channel (wormhole schedules); false when they may (store-and-forward and
    /// baseline schedules). Written to schedule files ("step_contention") and honoured by
    /// promisedValidateOptions() (validate.h), so every file topocast writes validates.
    bool contentionFree = true;
    /// Optional caption for each step (index step−1), e.g. "phase 2, step 1 of 2".
    std::vector<std::string> stepLabels;
    /// Pattern::Scatter only: the nodes that take part (sorted or not; empty = every node). The
    /// checker requires blocks only at these nodes and rejects blocks addressed to others; the
    /// rest of the topology stays idle (divisible-load scatters over a sub-cube of the mesh).
    std::vector<NodeId> participants;
    /// What the algorithm reports next to the schedule (closed-form costs, bounds, layer shares, …)
    /// as typed fields (figures.h); null for baselines and for schedules read from files. Shared,
    /// never changed after the algorithm sets it, so copies of a schedule are cheap.
    std::shared_ptr<const AlgorithmFigures> figures;
    /// The algorithm keys of a schedule read from a file, in the file's order, each value as its
    /// JSON text, kept so the file can be written back; algorithms leave it empty (their keys are
    /// written from `figures`).
    std::vector<std::pair<std::string, std::string>> fileInfo;

    /// Adds a transfer. Amortized O(1). Call finalize() before reading steps. Throws Error
    /// (naming the algorithm, the topology and the memory) before the transfer list would grow
    /// beyond memoryLimit() (limits.h).
    void add(const Transfer& t)
    {
        if (m_transfers.size() == m_transfers.capacity())
            checkGrowth(m_transfers.size() + 1);
        m_transfers.push_back(t);
        m_finalized = false;
    }
    void add(NodeId from, NodeId to, StepNo step, RouteSpec route = {}, std::uint32_t payload = 0,
             std::uint32_t tag = 0, double size = 1.0)
    {
        add(Transfer{from, to, step, route, payload, tag, size});
    }
    /// Makes room for n transfers. Throws Error naming the algorithm, the topology, n × 32 B and
    /// the limit when that exceeds memoryLimit() (limits.h); nothing is allocated then.
    void reserve(std::size_t n);

    /// Registers a payload (a set of blocks) and returns its index for Transfer::payload.
    std::uint32_t addPayload(std::span<const Block> blocks);
    /// The blocks of payload `index`.
    std::span<const Block> payload(std::uint32_t index) const;
    std::uint32_t payloadCount() const { return static_cast<std::uint32_t>(m_payloadOffsets.size() - 1); }

    /// Sorts transfers by step (stable) and builds the step index. Idempotent. Throws Error when
    /// the step index (8 B per step up to the largest step number) would exceed memoryLimit().
    void finalize();
    /// True when the step index is current (finalize() ran after the last change).
    bool finalized() const { return m_finalized && !m_stepOffsets.empty(); }

    const std::vector<Transfer>& transfers() const { return m_transfers; }
    std::vector<Transfer>& mutableTransfers()
    {
        m_finalized = false;
        return m_transfers;
    }
    std::size_t size() const { return m_transfers.size(); }
    /// Number of steps (the largest step number; 0 for an empty schedule).
    std::uint32_t stepCount() const;
    /// The transfers of `step` (1-based). Requires finalize().
    std::span<const Transfer> stepTransfers(StepNo step) const;
    /// Index of the first transfer of `step` in transfers(). Requires finalize().
    std::size_t stepBegin(StepNo step) const;
    /// One past the index of the last transfer of `step` (= stepBegin of the next step).
    std::size_t stepEnd(StepNo step) const { return stepBegin(StepNo{step + 1}); }

    /// Hops of one transfer's route.
    int hops(const Transfer& t) const { return routeLength(m_topology, t.from, t.to, t.route, dimensionOrder); }

private:
    /// "the binomial schedule on the 24-cube" (for messages).
    std::string describe() const;
    void checkGrowth(std::size_t n) const;

    Topology m_topology = Topology::mesh({1});
    NodeId m_source{};
    Pattern m_pattern = Pattern::Broadcast;
    PortModel m_ports = PortModel::OnePort;
    std::vector<Transfer> m_transfers;
    std::vector<std::size_t> m_stepOffsets; // size stepCount()+1 after finalize()
    std::vector<std::uint32_t> m_payloadOffsets{0, 0};
    std::vector<Block> m_blocks;
    bool m_finalized = true;
};

/// Every step number of `schedule`, 1 … stepCount(), as a range: `for (StepNo s : steps(schedule))`.
inline IdRange<StepNo> steps(const Schedule& schedule)
{
    return {StepNo{1}, StepNo{schedule.stepCount() + 1}};
}

} // namespace topocast
