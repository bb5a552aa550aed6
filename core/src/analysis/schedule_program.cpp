// A schedule as a program of sends and receives for the time engine (time_engine.h): its
// transfers' sizes in bytes, the ports they use and the data each send waits for.
#include "schedule_walk.h"
#include "topocast/analysis/time_engine.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/routing.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

namespace topocast {

std::uint64_t blockBytes(const Schedule& schedule, std::uint64_t message)
{
    const Pattern p = schedule.pattern();
    std::uint64_t divisor = std::max<std::uint32_t>(schedule.parts, 1);
    if (p != Pattern::Broadcast && p != Pattern::Reduce && p != Pattern::Allreduce) {
        const std::uint64_t n =
            schedule.participants.empty() ? schedule.topology().nodeCount() : schedule.participants.size();
        divisor *= std::max<std::uint64_t>(n, 1);
    }
    return std::max<std::uint64_t>(1, (message + divisor - 1) / divisor);
}

TransferBytes::TransferBytes(const Schedule& schedule, std::uint64_t message)
    : m_schedule(schedule), m_message(static_cast<double>(message)), m_perBlock(blockBytes(schedule, message)),
      m_bytes(schedule.sizeUnit == "bytes")
{
    if (schedule.sizeUnit == "load")
        for (const Transfer& u : schedule.transfers())
            if (u.from == schedule.source())
                m_load += u.size;
}

std::uint64_t TransferBytes::operator()(const Transfer& t) const
{
    if (m_bytes)
        return static_cast<std::uint64_t>(std::max(0.0, t.size));
    if (m_load > 0)
        return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(t.size / m_load * m_message)));
    return m_schedule.payload(t.payload).size() * m_perBlock;
}

namespace {

/// The receives that brought each block to each node, as lists in one pool: (node, block) →
/// the latest receive, each receive → the one before it; and how far the node's sends have
/// taken them. Indexed densely (node · blocks + block) where that fits in 64 Mi entries, hashed
/// otherwise.
class HeldBy {
public:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    HeldBy(std::uint64_t nodes, std::uint64_t blocks) : m_blocks(blocks | 1)
    {
        // (An odd row length: rows a power of two apart would fall on the same cache sets.)
        if (nodes * m_blocks <= (std::uint64_t{1} << 26))
            m_dense.assign(nodes * m_blocks, Slot{});
    }
    /// Calls f(receive) for each receive that brought `block` to `node` since the node's last
    /// send of it, newest first. A send need not wait for the receives an earlier send of its
    /// rank waited for: it starts after that send started, so after they ended.
    template <class F> void takeNew(std::uint32_t node, std::uint32_t block, F&& f)
    {
        const std::uint64_t key = node * m_blocks + block;
        Slot* slot = nullptr;
        if (!m_dense.empty()) {
            slot = &m_dense[key];
        } else if (const auto it = m_sparse.find(key); it != m_sparse.end()) {
            slot = &it->second;
        }
        if (slot == nullptr)
            return;
        for (std::uint32_t e = slot->head; e != slot->taken; e = m_pool[e].second)
            f(m_pool[e].first);
        slot->taken = slot->head;
    }
    void reserve(std::size_t receives) { m_pool.reserve(receives); }
    void add(std::uint32_t node, std::uint32_t block, std::uint32_t recv)
    {
        const std::uint64_t key = node * m_blocks + block;
        Slot& slot = m_dense.empty() ? m_sparse.try_emplace(key).first->second : m_dense[key];
        m_pool.emplace_back(recv, slot.head);
        slot.head = static_cast<std::uint32_t>(m_pool.size() - 1);
    }

private:
    struct Slot {
        std::uint32_t head = kNone;  ///< the latest receive's entry
        std::uint32_t taken = kNone; ///< the entry the node's last send of the block took from
    };
    std::uint64_t m_blocks;
    std::vector<Slot> m_dense;
    std::unordered_map<std::uint64_t, Slot> m_sparse;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_pool; // (receiving transfer, entry before it)
};

/// The port a message leaves `from` by (all-port: its first link's direction; k-port: that
/// modulo k; one-port: 0) and the port it arrives at `to` by.
std::pair<std::uint32_t, std::uint32_t> portsOf(const Schedule& s, const Transfer& t, const NetworkModel& m)
{
    if (m.ports == NetworkPorts::One || m.ports == NetworkPorts::Half || t.from == t.to)
        return {0, 0};
    const Topology& topo = s.topology();
    const auto ports = static_cast<std::uint64_t>(topo.portsPerNode());
    std::int64_t first = -1, last = -1;
    forEachChannel(topo, t.from, t.to, t.route, s.dimensionOrder, [&](ChannelId c) {
        if (first < 0)
            first = static_cast<std::int64_t>(c % ports);
        last = static_cast<std::int64_t>(c % ports);
    });
    if (first < 0)
        return {0, 0};
    auto out = static_cast<std::uint32_t>(first);
    // The receiver's port faces back along the last link: the opposite sign in its dimension.
    auto in = static_cast<std::uint32_t>(topo.isHypercube() ? last : last ^ 1);
    if (m.ports == NetworkPorts::K) {
        out %= static_cast<std::uint32_t>(m.k);
        in %= static_cast<std::uint32_t>(m.k);
    }
    return {out, in};
}

} // namespace

void walkScheduleProgram(const Schedule& schedule, const NetworkModel& network,
                         const std::function<bool(const WalkedTransfer&)>& visit)
{
    const auto ranks = schedule.topology().nodeCount();
    const std::vector<Transfer>& transfers = schedule.transfers();
    const TransferBytes bytesOf(schedule, network.message);
    // Every distinct block of the payload table gets a number; each payload, its blocks' numbers.
    std::unordered_map<Block, std::uint32_t, BlockHash> number;
    std::vector<std::uint32_t> payloadStart(schedule.payloadCount() + 1, 0);
    std::vector<std::uint32_t> blockIds;
    for (std::uint32_t p = 0; p < schedule.payloadCount(); ++p) {
        for (const Block& b : schedule.payload(p))
            blockIds.push_back(number.try_emplace(b, static_cast<std::uint32_t>(number.size())).first->second);
        payloadStart[p + 1] = static_cast<std::uint32_t>(blockIds.size());
    }
    HeldBy held(ranks, std::max<std::size_t>(number.size(), 1));
    std::size_t arrivals = 0; // blocks received in all: the pool's size at the end
    for (const Transfer& t : transfers)
        arrivals += payloadStart[t.payload + 1] - payloadStart[t.payload];
    held.reserve(arrivals);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> arriving; // (node, block) of this step's receives
    std::vector<std::uint32_t> arrivingRecv;
    std::vector<std::uint8_t> sent(ranks, 0);
    // The send that last took each receive as a dependency (per transfer), so each is taken once.
    std::vector<std::uint32_t> addedFor(transfers.size(), HeldBy::kNone);
    std::vector<std::uint32_t> deps;
    for (StepNo step : steps(schedule)) {
        for (std::size_t i = schedule.stepBegin(step); i < schedule.stepEnd(step); ++i) {
            const Transfer& t = transfers[i];
            const auto send = static_cast<std::uint32_t>(i);
            const std::uint32_t first = payloadStart[t.payload], last = payloadStart[t.payload + 1];
            const auto [out, in] = portsOf(schedule, t, network);
            // The receives (of earlier steps) that brought the blocks it carries, each once, less
            // those an earlier send of its rank waited for.
            deps.clear();
            for (std::uint32_t k = first; k < last; ++k) {
                held.takeNew(t.from, blockIds[k], [&](std::uint32_t recv) {
                    if (addedFor[recv] != send) {
                        addedFor[recv] = send;
                        deps.push_back(recv);
                    }
                });
                arriving.emplace_back(t.to.value(), blockIds[k]);
                arrivingRecv.push_back(send);
            }
            const WalkedTransfer w{.index = i,
                                   .transfer = t,
                                   .bytes = bytesOf(t),
                                   .out = out,
                                   .in = in,
                                   .hops = static_cast<std::uint32_t>(schedule.hops(t)),
                                   .sentBefore = sent[t.from] != 0,
                                   .waitsFor = deps};
            sent[t.from] = 1;
            if (!visit(w))
                return;
        }
        for (std::size_t k = 0; k < arriving.size(); ++k)
            held.add(arriving[k].first, arriving[k].second, arrivingRecv[k]);
        arriving.clear();
        arrivingRecv.clear();
    }
}

OpProgram scheduleProgram(const Schedule& schedule, const NetworkModel& network)
{
    if (!schedule.finalized())
        throw Error("the schedule must be finalized before it is timed");
    checkMemory("timing " + schedule.algorithm + " on the " + schedule.topology().displayName(),
                saturatingMul(schedule.size(), kEngineBytesPerTransfer),
                std::to_string(schedule.size()) + " transfers, " + std::to_string(kEngineBytesPerTransfer) + " B each");
    OpProgram program;
    program.ranks = schedule.topology().nodeCount();
    program.pairedByIndex = true; // send 2i, its receive 2i+1, tag i: unique
    program.ops.reserve(schedule.size() * 2);
    program.dependencies.reserve(schedule.size() * 2);
    std::vector<std::uint32_t> lastSend(program.ranks, 0);
    walkScheduleProgram(schedule, network, [&](const WalkedTransfer& w) {
        const Transfer& t = w.transfer;
        const auto send = static_cast<std::uint32_t>(2 * w.index);
        const auto tag = static_cast<std::uint32_t>(w.index);
        program.ops.push_back(ProgramOp{.kind = ProgramOp::Kind::Send,
                                        .rank = t.from.value(),
                                        .peer = t.to.value(),
                                        .tag = tag,
                                        .size = w.bytes,
                                        .nic = w.out,
                                        .recvNic = w.in,
                                        .hops = w.hops,
                                        .transfer = static_cast<std::int64_t>(w.index)});
        program.ops.push_back(ProgramOp{.kind = ProgramOp::Kind::Recv,
                                        .rank = t.to.value(),
                                        .peer = t.from.value(),
                                        .tag = tag,
                                        .size = w.bytes,
                                        .nic = w.in,
                                        .recvNic = w.in,
                                        .transfer = static_cast<std::int64_t>(w.index)});
        // A rank issues its sends in the schedule's order (as a program does): a send starts no
        // sooner than the rank's send before it.
        if (w.sentBefore)
            program.dependencies.push_back({send, lastSend[t.from], true});
        lastSend[t.from] = send;
        for (std::uint32_t recv : w.waitsFor)
            program.dependencies.push_back({send, 2 * recv + 1, false});
        return true;
    });
    return program;
}

void resizeProgram(OpProgram& program, const Schedule& schedule, std::uint64_t message)
{
    const TransferBytes bytesOf(schedule, message);
    const std::vector<Transfer>& transfers = schedule.transfers();
    for (std::size_t i = 0; i < transfers.size() && 2 * i + 1 < program.ops.size(); ++i)
        program.ops[2 * i].size = program.ops[2 * i + 1].size = bytesOf(transfers[i]);
}

} // namespace topocast
