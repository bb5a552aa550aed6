// A schedule's program folded by its symmetry (time_engine.h, FoldedProgram): where every rank
// runs the same program, one rank sending to itself stands for all of them.
#include "schedule_walk.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace topocast {

namespace {

constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();

/// The k-th send of a rank, as every rank's k-th send must be for the fold to hold.
struct SendShape {
    std::uint64_t size = 0; ///< blocks carried, or the load's bits (independent of the message size)
    std::uint32_t out = 0, in = 0, hops = 0;
    std::uint32_t recvNo = 0; ///< which receive of its peer it pairs with
    std::uint32_t step = 0;
    std::uint32_t depBegin = 0, depEnd = 0; ///< its sender's receives it waits for, in the pool
    bool sentBefore = false;
    bool sameAs(const SendShape& o) const
    {
        return size == o.size && out == o.out && in == o.in && hops == o.hops && recvNo == o.recvNo && step == o.step &&
               sentBefore == o.sentBefore;
    }
};

/// Walks the schedule once, comparing every rank's k-th send and k-th receive with the first
/// one seen; the shapes of the first ones make the folded program.
class Folder {
public:
    Folder(const Schedule& s) : m_schedule(s), m_load(s.sizeUnit == "load")
    {
        const std::uint32_t n = s.topology().nodeCount();
        m_sends.assign(n, 0);
        m_recvs.assign(n, 0);
        m_recvNo.assign(s.size(), 0);
        m_transferOf.assign(s.size(), 0);
    }

    bool visit(const WalkedTransfer& w)
    {
        const Transfer& t = w.transfer;
        if (t.from == t.to)
            return false;
        const std::uint32_t k = m_sends[t.from]++, q = m_recvs[t.to]++;
        m_recvNo[w.index] = q;
        m_transferOf[w.index] = k;
        m_deps.clear();
        for (std::uint32_t j : w.waitsFor)
            m_deps.push_back(m_recvNo[j]);
        if (m_deps.size() > 1)
            std::sort(m_deps.begin(), m_deps.end());
        SendShape shape{.size = m_load ? std::bit_cast<std::uint64_t>(t.size) : m_schedule.payload(t.payload).size(),
                        .out = w.out,
                        .in = w.in,
                        .hops = w.hops,
                        .recvNo = q,
                        .step = t.step.value(),
                        .sentBefore = w.sentBefore};
        if (k == m_shapes.size()) {
            shape.depBegin = static_cast<std::uint32_t>(m_pool.size());
            m_pool.insert(m_pool.end(), m_deps.begin(), m_deps.end());
            shape.depEnd = static_cast<std::uint32_t>(m_pool.size());
            m_shapes.push_back(shape);
            m_example.push_back(static_cast<std::uint32_t>(w.index));
        } else {
            const SendShape& first = m_shapes[k];
            if (!shape.sameAs(first) || m_deps.size() != first.depEnd - first.depBegin)
                return false;
            for (std::size_t d = 0; d < m_deps.size(); ++d)
                if (m_deps[d] != m_pool[first.depBegin + d])
                    return false;
        }
        if (q == m_recvPort.size())
            m_recvPort.push_back(w.in);
        else if (m_recvPort[q] != w.in)
            return false;
        return true;
    }

    /// The folded program, or nothing where ranks sent or received different numbers of messages
    /// or the pairing of sends with receives is not one to one.
    std::optional<FoldedProgram> finish(const NetworkModel& network)
    {
        const std::size_t count = m_shapes.size();
        for (std::size_t r = 0; r < m_sends.size(); ++r)
            if (m_sends[r] != count || m_recvs[r] != count)
                return std::nullopt;
        std::vector<std::uint32_t> sendOf(count, kUnset);
        for (std::uint32_t k = 0; k < count; ++k) {
            if (sendOf[m_shapes[k].recvNo] != kUnset)
                return std::nullopt;
            sendOf[m_shapes[k].recvNo] = k;
        }
        FoldedProgram f;
        f.program.ranks = 1;
        f.program.pairedByIndex = true;
        f.program.ops.reserve(2 * count);
        f.stepStart.assign(m_schedule.stepCount() + 1, 0);
        for (std::uint32_t k = 0; k < count; ++k) {
            const SendShape& s = m_shapes[k];
            const auto transfer = static_cast<std::int64_t>(m_example[k]);
            f.program.ops.push_back(ProgramOp{.kind = ProgramOp::Kind::Send,
                                              .tag = k,
                                              .nic = s.out,
                                              .recvNic = s.in,
                                              .hops = s.hops,
                                              .transfer = transfer});
            f.program.ops.push_back(
                ProgramOp{.kind = ProgramOp::Kind::Recv, .tag = k, .nic = s.in, .recvNic = s.in, .transfer = transfer});
            if (s.sentBefore)
                f.program.dependencies.push_back({2 * k, 2 * (k - 1), true});
            for (std::uint32_t d = s.depBegin; d < s.depEnd; ++d)
                f.program.dependencies.push_back({2 * k, 2 * sendOf[m_pool[d]] + 1, false});
            ++f.stepStart[s.step];
        }
        for (std::size_t s = 1; s < f.stepStart.size(); ++s)
            f.stepStart[s] += f.stepStart[s - 1];
        f.transferOf = std::move(m_transferOf);
        f.example = std::move(m_example);
        resizeFolded(f, m_schedule, network.message);
        return f;
    }

private:
    const Schedule& m_schedule;
    bool m_load;
    std::vector<std::uint32_t> m_sends, m_recvs; ///< per rank: sends and receives so far
    std::vector<std::uint32_t> m_recvNo;         ///< per transfer: its receive's number at the receiver
    std::vector<std::uint32_t> m_transferOf;     ///< per transfer: its send's number at the sender
    std::vector<SendShape> m_shapes;             ///< the k-th send, as first seen
    std::vector<std::uint32_t> m_example;        ///< the transfer it was first seen in
    std::vector<std::uint32_t> m_recvPort;       ///< the q-th receive's port, as first seen
    std::vector<std::uint32_t> m_pool, m_deps;
};

} // namespace

std::optional<FoldedProgram> foldSchedule(const Schedule& schedule, const NetworkModel& network)
{
    if (!schedule.finalized())
        throw Error("the schedule must be finalized before it is timed");
    const std::uint32_t n = schedule.topology().nodeCount();
    // Every rank sends as often as every other: a cheap first test before the walk.
    if (n < 2 || schedule.size() == 0 || schedule.size() % n != 0)
        return std::nullopt;
    checkMemory("folding " + schedule.algorithm + " on the " + schedule.topology().displayName(),
                saturatingMul(schedule.size(), 24), std::to_string(schedule.size()) + " transfers, 24 B each");
    Folder folder(schedule);
    bool same = true;
    walkScheduleProgram(schedule, network, [&](const WalkedTransfer& w) { return same = folder.visit(w); });
    if (!same)
        return std::nullopt;
    return folder.finish(network);
}

void resizeFolded(FoldedProgram& folded, const Schedule& schedule, std::uint64_t message)
{
    const TransferBytes bytesOf(schedule, message);
    for (std::size_t k = 0; k < folded.example.size(); ++k)
        folded.program.ops[2 * k].size = folded.program.ops[2 * k + 1].size =
            bytesOf(schedule.transfers()[folded.example[k]]);
}

} // namespace topocast
