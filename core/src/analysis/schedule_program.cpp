// A schedule as a program of sends and receives for the time engine (time_engine.h): its
// transfers' sizes in bytes, the ports they use and the data each send waits for.
#include "topocast/analysis/time_engine.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/routing.h"

#include <algorithm>
#include <cmath>
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
    : m_schedule(schedule), m_message(static_cast<double>(message)), m_perBlock(blockBytes(schedule, message))
{
    if (schedule.sizeUnit == "load")
        for (const Transfer& u : schedule.transfers())
            if (u.from == schedule.source())
                m_load += u.size;
}

std::uint64_t TransferBytes::operator()(const Transfer& t) const
{
    if (m_load > 0)
        return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(t.size / m_load * m_message)));
    return m_schedule.payload(t.payload).size() * m_perBlock;
}

namespace {

/// The receives that brought each block to each node, as lists in one pool: (node, block) →
/// the latest receive, each receive → the one before it. Indexed densely (node · blocks + block)
/// where that fits in 64 Mi entries, hashed otherwise.
class HeldBy {
public:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    HeldBy(std::uint64_t nodes, std::uint64_t blocks) : m_blocks(blocks)
    {
        if (nodes * blocks <= (std::uint64_t{1} << 26))
            m_dense.assign(nodes * blocks, kNone);
    }
    std::uint32_t head(std::uint32_t node, std::uint32_t block) const
    {
        const std::uint64_t key = node * m_blocks + block;
        if (!m_dense.empty())
            return m_dense[key];
        const auto it = m_sparse.find(key);
        return it == m_sparse.end() ? kNone : it->second;
    }
    std::uint32_t next(std::uint32_t entry) const { return m_pool[entry].second; }
    std::uint32_t recv(std::uint32_t entry) const { return m_pool[entry].first; }
    void add(std::uint32_t node, std::uint32_t block, std::uint32_t recv)
    {
        const std::uint64_t key = node * m_blocks + block;
        std::uint32_t& h = m_dense.empty() ? m_sparse.try_emplace(key, kNone).first->second : m_dense[key];
        m_pool.emplace_back(recv, h);
        h = static_cast<std::uint32_t>(m_pool.size() - 1);
    }

private:
    std::uint64_t m_blocks;
    std::vector<std::uint32_t> m_dense;
    std::unordered_map<std::uint64_t, std::uint32_t> m_sparse;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_pool;  // (receive op, entry before it)
};

/// The port a message leaves `from` by (all-port: its first link's direction; k-port: that
/// modulo k; one-port: 0) and the port it arrives at `to` by.
std::pair<std::uint32_t, std::uint32_t> portsOf(const Schedule& s, const Transfer& t, const NetworkModel& m)
{
    if (m.ports == NetworkPorts::One || t.from == t.to)
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

OpProgram scheduleProgram(const Schedule& schedule, const NetworkModel& network)
{
    if (!schedule.finalized())
        throw Error("the schedule must be finalized before it is timed");
    checkMemory("timing " + schedule.algorithm + " on the " + schedule.topology().displayName(),
                saturatingMul(schedule.size(), kEngineBytesPerTransfer),
                std::to_string(schedule.size()) + " transfers, " + std::to_string(kEngineBytesPerTransfer) + " B each");
    OpProgram program;
    program.ranks = schedule.topology().nodeCount();
    program.pairedByIndex = true;  // send 2i, its receive 2i+1, tag i: unique
    const std::vector<Transfer>& transfers = schedule.transfers();
    program.ops.reserve(transfers.size() * 2);
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
    HeldBy held(program.ranks, std::max<std::size_t>(number.size(), 1));
    std::vector<std::pair<std::uint32_t, std::uint32_t>> arriving;  // (node, block) of this step's receives
    std::vector<std::uint32_t> arrivingRecv;
    std::vector<std::uint32_t> lastSend(program.ranks, HeldBy::kNone);
    // The send that last took each receive as a dependency (per transfer), so each is taken once.
    std::vector<std::uint32_t> addedFor(transfers.size(), HeldBy::kNone);
    program.dependencies.reserve(transfers.size() * 2);
    for (StepNo step : steps(schedule)) {
        for (std::size_t i = schedule.stepBegin(step); i < schedule.stepEnd(step); ++i) {
            const Transfer& t = transfers[i];
            const std::uint32_t first = payloadStart[t.payload], last = payloadStart[t.payload + 1];
            const std::uint64_t bytes = bytesOf(t);
            const auto [out, in] = portsOf(schedule, t, network);
            const auto hops = static_cast<std::uint32_t>(schedule.hops(t));
            const auto send = static_cast<std::uint32_t>(program.ops.size());
            program.ops.push_back(ProgramOp{.kind = ProgramOp::Kind::Send, .rank = t.from.value(), .peer = t.to.value(),
                                            .tag = static_cast<std::uint32_t>(i), .size = bytes, .nic = out,
                                            .recvNic = in, .hops = hops, .transfer = static_cast<std::int64_t>(i)});
            program.ops.push_back(ProgramOp{.kind = ProgramOp::Kind::Recv, .rank = t.to.value(), .peer = t.from.value(),
                                            .tag = static_cast<std::uint32_t>(i), .size = bytes, .nic = in,
                                            .recvNic = in, .transfer = static_cast<std::int64_t>(i)});
            // A rank issues its sends in the schedule's order (as a program does): a send
            // starts no sooner than the rank's send before it.
            if (lastSend[t.from] != HeldBy::kNone)
                program.dependencies.push_back({send, lastSend[t.from], true});
            lastSend[t.from] = send;
            // The receives (of earlier steps) that brought the blocks it carries, each once.
            for (std::uint32_t k = first; k < last; ++k) {
                for (std::uint32_t e = held.head(t.from, blockIds[k]); e != HeldBy::kNone; e = held.next(e)) {
                    const std::uint32_t recv = held.recv(e);
                    if (addedFor[recv / 2] == send)
                        continue;
                    addedFor[recv / 2] = send;
                    program.dependencies.push_back({send, recv, false});
                }
                arriving.emplace_back(t.to.value(), blockIds[k]);
                arrivingRecv.push_back(send + 1);
            }
        }
        for (std::size_t k = 0; k < arriving.size(); ++k)
            held.add(arriving[k].first, arriving[k].second, arrivingRecv[k]);
        arriving.clear();
        arrivingRecv.clear();
    }
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
