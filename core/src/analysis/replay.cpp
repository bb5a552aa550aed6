#include "topocast/analysis/replay.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace topocast {

namespace {

std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

std::uint64_t blockSeed(const Block& b)
{
    std::uint64_t h = splitmix64(0x746F706F63617374ull ^ b.origin); // "topocast"
    h = splitmix64(h ^ b.dest);
    return splitmix64(h ^ b.part);
}

std::uint64_t word(std::uint64_t seed, std::uint64_t wordIndex)
{
    return splitmix64(seed ^ (wordIndex * 0xD6E8FEB86659FD93ull));
}

constexpr std::uint64_t kFnvOffset = 0xCBF29CE484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001B3ull;

void fnv(std::uint64_t& h, std::uint64_t value)
{
    for (int i = 0; i < 8; ++i) {
        h ^= (value >> (8 * i)) & 0xFF;
        h *= kFnvPrime;
    }
}

} // namespace

std::uint8_t blockByte(const Block& b, std::uint64_t index)
{
    return static_cast<std::uint8_t>(word(blockSeed(b), index / 8) >> (8 * (index % 8)));
}

void fillBlock(const Block& b, std::span<std::uint8_t> out)
{
    const std::uint64_t seed = blockSeed(b);
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (i % 8 == 0)
            w = word(seed, i / 8);
        out[i] = static_cast<std::uint8_t>(w >> (8 * (i % 8)));
    }
}

std::uint64_t checksum(std::span<const std::uint8_t> bytes)
{
    std::uint64_t h = kFnvOffset;
    for (std::uint8_t c : bytes) {
        h ^= c;
        h *= kFnvPrime;
    }
    return h;
}

std::uint64_t blockChecksum(const Block& b, std::uint64_t bytes)
{
    const std::uint64_t seed = blockSeed(b);
    std::uint64_t h = kFnvOffset;
    std::uint64_t w = 0;
    for (std::uint64_t i = 0; i < bytes; ++i) {
        if (i % 8 == 0)
            w = word(seed, i / 8);
        h ^= (w >> (8 * (i % 8))) & 0xFF;
        h *= kFnvPrime;
    }
    return h;
}

std::size_t firstMismatch(const Block& b, std::span<const std::uint8_t> bytes)
{
    const std::uint64_t seed = blockSeed(b);
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % 8 == 0)
            w = word(seed, i / 8);
        if (bytes[i] != static_cast<std::uint8_t>(w >> (8 * (i % 8))))
            return i;
    }
    return bytes.size();
}

std::string describeBlock(const Topology& topo, const Block& b)
{
    auto name = [&](NodeId v) { return v < topo.nodeCount() ? topo.nodeName(v) : std::to_string(v); };
    return "block (origin " + name(NodeId{b.origin}) + ", dest " +
           (b.dest == Block::kAll ? std::string("all") : name(NodeId{b.dest})) + ", part " + std::to_string(b.part) +
           ")";
}

std::vector<Block> requiredBlocks(const Schedule& schedule, NodeId node)
{
    const std::uint32_t n = schedule.topology().nodeCount();
    if (node >= n)
        throw Error("node " + std::to_string(node) + " is outside the " + schedule.topology().displayName() + " (0.." +
                    std::to_string(n - 1) + ")");
    const NodeId src = schedule.source();
    std::vector<Block> out;
    const auto& takesPart = schedule.participants;
    if (schedule.pattern() == Pattern::Scatter && !takesPart.empty() &&
        std::find(takesPart.begin(), takesPart.end(), node) == takesPart.end())
        return out; // a scatter over part of the topology leaves the others idle
    for (std::uint32_t p = 0; p < schedule.parts; ++p) {
        switch (schedule.pattern()) {
        case Pattern::Broadcast:
            if (node != src)
                out.push_back(Block{src, Block::kAll, p});
            break;
        case Pattern::Scatter:
            if (node != src)
                out.push_back(Block{src, node, p});
            break;
        case Pattern::Allgather:
            for (NodeId u{}; u < n; ++u)
                if (u != node)
                    out.push_back(Block{u, Block::kAll, p});
            break;
        case Pattern::Alltoall:
            for (NodeId u{}; u < n; ++u)
                if (u != node)
                    out.push_back(Block{u, node, p});
            break;
        case Pattern::Gather:
            if (node == src)
                for (NodeId u{}; u < n; ++u)
                    if (u != node)
                        out.push_back(Block{u, Block::kAll, p});
            break;
        case Pattern::Reduce:
            if (node == src)
                out.push_back(Block{Block::kAll, Block::kAll, p}); // chunk p, complete
            break;
        case Pattern::Allreduce:
            out.push_back(Block{Block::kAll, Block::kAll, p});
            break;
        case Pattern::ReduceScatter:
            out.push_back(Block{Block::kAll, node, p});
            break;
        case Pattern::PointToPoint:
            break; // a program of messages: nothing must end anywhere
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

int transferTag(std::uint32_t step, std::uint32_t ordinal, int tagUpperBound)
{
    constexpr std::uint64_t kStepModulus = 4096;
    const std::uint64_t tag = std::uint64_t{ordinal} * kStepModulus + step % kStepModulus;
    if (tagUpperBound < 0 || tag > static_cast<std::uint64_t>(tagUpperBound))
        throw Error("step " + std::to_string(step) + " has " + std::to_string(ordinal + 1) +
                    " transfers between the same two nodes; their message tags would exceed the MPI tag limit " +
                    std::to_string(tagUpperBound));
    return static_cast<int>(tag);
}

namespace {

/// Calls `op(node, isSend, PlannedOp)` for both ends of every transfer of `step`, in schedule
/// order: the one place that numbers transfers between a pair and gives them their tags, for
/// rankPlan and replaySchedule alike. `ordinals` is scratch space.
template <class F>
void planStep(const Schedule& schedule, StepNo step, int tagUpperBound,
              std::map<std::pair<NodeId, NodeId>, std::uint32_t>& ordinals, F&& op)
{
    ordinals.clear();
    const std::size_t first = schedule.stepBegin(step);
    const auto transfers = schedule.stepTransfers(step);
    for (std::size_t k = 0; k < transfers.size(); ++k) {
        const Transfer& t = transfers[k];
        const std::uint32_t ordinal = ordinals[{t.from, t.to}]++;
        PlannedOp planned;
        planned.transfer = first + k;
        planned.payload = t.payload;
        planned.blocks = static_cast<std::uint32_t>(schedule.payload(t.payload).size());
        planned.tag = transferTag(step, ordinal, tagUpperBound);
        planned.peer = t.to;
        op(t.from, true, planned);
        planned.peer = t.from;
        op(t.to, false, planned);
    }
}

void requireFinalized(const Schedule& schedule)
{
    if (!schedule.finalized())
        throw Error("internal: Schedule::finalize() must run before rankPlan");
}

} // namespace

RankPlan rankPlan(const Schedule& schedule, NodeId node, int tagUpperBound)
{
    requireFinalized(schedule);
    RankPlan plan;
    plan.node = node;
    plan.required = requiredBlocks(schedule, node);
    const std::uint32_t steps = schedule.stepCount();
    plan.steps.resize(steps);
    std::map<std::pair<NodeId, NodeId>, std::uint32_t> ordinals;
    for (StepNo step{1}; step <= steps; ++step) {
        RankStep& mine = plan.steps[step - 1];
        planStep(schedule, step, tagUpperBound, ordinals, [&](NodeId v, bool isSend, const PlannedOp& op) {
            if (v == node)
                (isSend ? mine.sends : mine.receives).push_back(op);
        });
    }
    return plan;
}

namespace {

/// What one rank holds: every block it received, its bytes in one arena.
struct Holdings {
    std::unordered_map<Block, std::size_t, BlockHash> offset;
    std::vector<std::uint8_t> bytes;
};

/// Collects problems up to the limit and counts them all.
class Problems {
public:
    Problems(ReplayReport& report, std::size_t limit) : m_report(report), m_limit(limit) {}
    template <class MakeText> void add(MakeText&& text)
    {
        if (m_report.problems.size() < m_limit)
            m_report.problems.push_back(text());
        ++m_report.problemCount;
    }

private:
    ReplayReport& m_report;
    std::size_t m_limit;
};

} // namespace

namespace {

/// One replay in progress: what every rank holds, and the messages of the step being replayed.
class Replay {
public:
    Replay(const Schedule& schedule, const ReplayOptions& options, ReplayReport& report)
        : m_schedule(schedule), m_options(options), m_report(report), m_problems(report, options.maxProblems),
          m_topo(schedule.topology()), m_bytes(static_cast<std::size_t>(options.bytesPerBlock)),
          m_held(m_topo.nodeCount())
    {
        if (combines(schedule.pattern())) {
            const std::uint32_t n = m_topo.nodeCount();
            m_combine = combinePlan(schedule);
            checkMemory("the byte replay of a " + toString(schedule.pattern()) + " on the " + m_topo.displayName(),
                        saturatingMul(saturatingMul(n, m_combine.chunks), options.bytesPerBlock),
                        std::to_string(n) + " nodes × " + std::to_string(m_combine.chunks) + " chunks × " +
                            std::to_string(options.bytesPerBlock) + " B");
            m_partials.reserve(n);
            for (NodeId v{}; v < n; ++v)
                m_partials.emplace_back(schedule, m_combine, v, options.bytesPerBlock);
        }
    }

    void runStep(StepNo step)
    {
        m_receives.clear();
        m_receivers.clear();
        m_messages.clear();
        m_wire.clear();
        m_posted.clear();
        // Every rank packs its sends from what it held at the end of the previous step.
        planStep(m_schedule, step, m_options.tagUpperBound, m_ordinals,
                 [&](NodeId v, bool isSend, const PlannedOp& op) {
                     if (!isSend) {
                         m_receives.push_back(op);
                         m_receivers.push_back(v);
                         return;
                     }
                     send(step, v, op);
                 });
        if (m_options.onWire)
            for (const Message& m : m_messages)
                m_options.onWire(m.op.transfer,
                                 std::span<std::uint8_t>{m_wire.data() + m.offset, m.op.blocks * m_bytes});
        // Every rank completes its receives and checks every byte.
        for (std::size_t r = 0; r < m_receives.size(); ++r)
            receive(step, m_receives[r], m_receivers[r]);
        for (const Message& m : m_messages)
            if (!m.received)
                m_problems.add([&] {
                    return "step " + std::to_string(step) + ": transfer " + std::to_string(m.op.transfer) +
                           " is never received";
                });
    }

    /// Every rank ends with what the pattern requires.
    void checkFinalHoldings()
    {
        if (!m_partials.empty()) {
            for (NodeId v{}; v < m_topo.nodeCount(); ++v)
                for (const std::string& line : m_partials[v].finish())
                    m_problems.add([&] { return "node " + name(v) + " " + line; });
            return;
        }
        for (NodeId v{}; v < m_topo.nodeCount(); ++v)
            for (const Block& b : requiredBlocks(m_schedule, v)) {
                const auto it = m_held[v].offset.find(b);
                if (it == m_held[v].offset.end()) {
                    m_problems.add([&] { return "node " + name(v) + " ends without " + describeBlock(m_topo, b); });
                    continue;
                }
                const std::span<const std::uint8_t> have{m_held[v].bytes.data() + it->second, m_bytes};
                if (checksum(have) != blockChecksum(b, m_bytes))
                    m_problems.add(
                        [&] { return "node " + name(v) + " ends with wrong bytes of " + describeBlock(m_topo, b); });
            }
    }

private:
    struct Message {
        PlannedOp op;
        std::size_t offset = 0; // into wire
        bool received = false;
    };

    std::string name(NodeId v) const { return m_topo.nodeName(v); }

    /// The chunk block k of transfer `transfer` carries in a combining schedule, else kNoChunk.
    std::uint64_t combinedChunk(std::size_t transfer, std::size_t k) const
    {
        return m_partials.empty() ? kNoChunk : m_combine.arrivals[m_combine.first[transfer] + k].chunk;
    }

    /// Rank `v` packs the blocks of `op` from what it holds and posts the message.
    void send(std::uint32_t step, NodeId v, const PlannedOp& op)
    {
        const std::size_t at = m_wire.size();
        const auto blocks = m_schedule.payload(op.payload);
        m_wire.resize(at + blocks.size() * m_bytes);
        for (std::size_t k = 0; k < blocks.size(); ++k) {
            const Block& b = blocks[k];
            const std::span<std::uint8_t> out{m_wire.data() + at + k * m_bytes, m_bytes};
            if (const std::uint64_t c = combinedChunk(op.transfer, k); c != kNoChunk) {
                const auto partial = m_partials[v].chunk(c); // as it stood at the end of the last step
                std::copy(partial.begin(), partial.end(), out.begin());
                continue;
            }
            if (holdsInitially(v, b)) {
                fillBlock(b, out);
                continue;
            }
            const auto it = m_held[v].offset.find(b);
            if (it == m_held[v].offset.end()) {
                m_problems.add([&] {
                    return "step " + std::to_string(step) + ": transfer " + std::to_string(op.transfer) + ": " +
                           name(v) + " sends " + describeBlock(m_topo, b) + " but does not hold it";
                });
                continue; // the bytes stay zero
            }
            std::copy_n(m_held[v].bytes.begin() + static_cast<std::ptrdiff_t>(it->second), m_bytes, out.begin());
        }
        if (!m_posted.emplace(std::tuple{v, op.peer, op.tag}, m_messages.size()).second)
            m_problems.add([&] {
                return "step " + std::to_string(step) + ": " + name(v) + " sends two messages to " + name(op.peer) +
                       " with tag " + std::to_string(op.tag);
            });
        m_messages.push_back(Message{op, at, false});
    }

    /// Rank `v` matches the receive `op` to a posted send, checks its blocks and keeps them.
    void receive(std::uint32_t step, const PlannedOp& op, NodeId v)
    {
        const auto it = m_posted.find({op.peer, v, op.tag});
        if (it == m_posted.end() || m_messages[it->second].op.transfer != op.transfer ||
            m_messages[it->second].received) {
            m_problems.add([&] {
                return "step " + std::to_string(step) + ": " + name(v) + " posts a receive from " + name(op.peer) +
                       " (tag " + std::to_string(op.tag) + ") that no send matches";
            });
            return;
        }
        Message& m = m_messages[it->second];
        m.received = true;
        ++m_report.messages;
        m_report.bytes += std::uint64_t{m.op.blocks} * m_bytes;
        const auto blocks = m_schedule.payload(op.payload);
        for (std::size_t k = 0; k < blocks.size(); ++k) {
            const Block& b = blocks[k];
            const std::span<const std::uint8_t> got{m_wire.data() + m.offset + k * m_bytes, m_bytes};
            ++m_report.blocksChecked;
            if (combinedChunk(op.transfer, k) != kNoChunk) {
                if (std::string problem = m_partials[v].receive(op.transfer, k, got); !problem.empty())
                    m_problems.add([&] {
                        return "step " + std::to_string(step) + ": transfer " + std::to_string(op.transfer) +
                               " reaches " + name(v) + ": " + problem;
                    });
                continue;
            }
            const std::size_t bad = firstMismatch(b, got);
            if (bad != m_bytes)
                m_problems.add([&] {
                    return "step " + std::to_string(step) + ": transfer " + std::to_string(op.transfer) + " " +
                           describeBlock(m_topo, b) + " reaches " + name(v) + " wrong from byte " + std::to_string(bad);
                });
            Holdings& h = m_held[v];
            const auto [slot, fresh] = h.offset.try_emplace(b, h.bytes.size());
            if (fresh)
                h.bytes.resize(h.bytes.size() + m_bytes);
            std::copy(got.begin(), got.end(), h.bytes.begin() + static_cast<std::ptrdiff_t>(slot->second));
        }
    }

    const Schedule& m_schedule;
    const ReplayOptions& m_options;
    ReplayReport& m_report;
    Problems m_problems;
    const Topology& m_topo;
    const std::size_t m_bytes;
    std::vector<Holdings> m_held;
    CombinePlan m_combine;                  // combining patterns only
    std::vector<PartialResults> m_partials; // combining patterns: every node's partials
    std::vector<PlannedOp> m_receives;
    std::vector<NodeId> m_receivers;
    std::vector<Message> m_messages;
    std::vector<std::uint8_t> m_wire;
    // (sender, receiver, tag) → index into messages: how MPI matches a receive to a send.
    std::map<std::tuple<NodeId, NodeId, int>, std::size_t> m_posted;
    std::map<std::pair<NodeId, NodeId>, std::uint32_t> m_ordinals;
};

} // namespace

ReplayReport replaySchedule(const Schedule& schedule, const ReplayOptions& options)
{
    requireFinalized(schedule);
    ReplayReport report;
    Replay replay(schedule, options, report);
    for (StepNo step : steps(schedule))
        replay.runStep(step);
    replay.checkFinalHoldings();
    return report;
}

std::uint64_t transferBytes(const Schedule& schedule, const Transfer& t, std::uint64_t bytesPerBlock)
{
    return static_cast<std::uint64_t>(schedule.payload(t.payload).size()) * bytesPerBlock;
}

std::string scheduleFingerprint(const Schedule& schedule)
{
    std::uint64_t h = kFnvOffset;
    for (char c : schedule.topology().spec())
        fnv(h, static_cast<unsigned char>(c));
    fnv(h, static_cast<std::uint64_t>(schedule.pattern()));
    fnv(h, schedule.source());
    fnv(h, schedule.parts);
    for (const Transfer& t : schedule.transfers()) {
        fnv(h, (std::uint64_t{t.step} << 32) ^ 0x5eed);
        fnv(h, (std::uint64_t{t.from} << 32) | t.to);
        for (const Block& b : schedule.payload(t.payload)) {
            fnv(h, (std::uint64_t{b.origin} << 32) | b.dest);
            fnv(h, b.part);
        }
    }
    return fmt::format("{:016x}", h);
}

} // namespace topocast
