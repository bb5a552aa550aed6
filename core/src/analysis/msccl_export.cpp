// A topocast schedule written as an MSCCL program (msccl.h: mscclFromSchedule).
#include "topocast/analysis/msccl.h"

#include "topocast/analysis/reduction.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace topocast {

namespace {

/// Where a block lives at a rank: every pattern but all-to-all keeps each block in one slot of
/// one (in-place) buffer at every rank; all-to-all reads from the input, delivers into the output
/// and keeps blocks passing through in scratch.
class Slots {
public:
    Slots(const Schedule& s)
        : m_pattern(s.pattern()), m_n(static_cast<int>(s.topology().nodeCount())), m_c(static_cast<int>(s.parts)),
          m_scratch(static_cast<std::size_t>(m_n))
    {
    }

    bool inplace() const { return m_pattern != Pattern::Alltoall; }
    int inputChunks() const
    {
        switch (m_pattern) {
        case Pattern::Scatter:
        case Pattern::ReduceScatter:
        case Pattern::Alltoall:
            return m_n * m_c;
        default:
            return m_c;
        }
    }
    int outputChunks() const
    {
        return m_pattern == Pattern::Allgather || m_pattern == Pattern::Gather || m_pattern == Pattern::Alltoall
                   ? m_n * m_c
                   : m_c;
    }
    /// All-to-all: a rank's own block goes from its input to its output by a local copy.
    bool copiesOwnBlock() const { return m_pattern == Pattern::Alltoall; }
    int chunksPerPiece() const { return m_c; }
    int scratchChunks(int rank) const { return static_cast<int>(m_scratch[static_cast<std::size_t>(rank)].size()); }

    std::pair<MscclBuffer, int> at(int rank, const Block& b)
    {
        const int part = static_cast<int>(b.part);
        switch (m_pattern) {
        case Pattern::Allgather:
        case Pattern::Gather:
            return {MscclBuffer::Output, static_cast<int>(b.origin) * m_c + part};
        case Pattern::Broadcast:
        case Pattern::Allreduce:
        case Pattern::Reduce:
            return {MscclBuffer::Input, part};
        case Pattern::Scatter:
        case Pattern::ReduceScatter:
            return {MscclBuffer::Input, static_cast<int>(b.dest) * m_c + part};
        case Pattern::PointToPoint:
            break; // (refused by mscclFromSchedule)
        case Pattern::Alltoall:
            if (static_cast<int>(b.origin) == rank)
                return {MscclBuffer::Input, static_cast<int>(b.dest) * m_c + part};
            if (static_cast<int>(b.dest) == rank)
                return {MscclBuffer::Output, static_cast<int>(b.origin) * m_c + part};
            auto& scratch = m_scratch[static_cast<std::size_t>(rank)];
            return {MscclBuffer::Scratch, scratch.emplace(b, static_cast<int>(scratch.size())).first->second};
        }
        return {MscclBuffer::Input, 0};
    }

private:
    Pattern m_pattern;
    int m_n, m_c;
    std::vector<std::map<Block, int>> m_scratch; ///< rank → block passing through → scratch chunk
};

/// One send or receive of one rank before it is placed in a threadblock.
struct Move {
    std::uint32_t step = 0;
    bool send = false;
    bool add = false; ///< a receive that adds the incoming partial (rrc), not a copy (r)
    int peer = 0, channel = 0;
    MscclBuffer buf = MscclBuffer::Input;
    int off = 0, cnt = 0;
    MscclBuffer peerBuf = MscclBuffer::Input; ///< the other side's slot (written for readers of the file)
    int peerOff = 0;
    std::vector<int> deps; ///< earlier moves of the same rank it must follow
    int tb = -1, s = -1;   ///< where it was written
};

/// How each delivered block of a combining schedule merges: (transfer, block) → adds or keeps.
std::map<std::pair<std::size_t, Block>, bool> mergesThatAdd(const Schedule& s)
{
    std::map<std::pair<std::size_t, Block>, bool> adds;
    if (!combines(s.pattern()))
        return adds;
    ReductionReplay replay(s, [&](const ReductionArrival& a) {
        adds[{a.transfer, a.block}] =
            a.merge.kind == ContributionSets::Merge::Added || a.merge.kind == ContributionSets::Merge::Overlap;
    });
    return adds;
}

/// Every transfer as sends and receives, per rank, one per contiguous run of its blocks.
std::vector<std::vector<Move>> movesOf(const Schedule& s, Slots& slots)
{
    const auto adds = mergesThatAdd(s);
    std::vector<std::vector<Move>> moves(s.topology().nodeCount());
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, int> channels; // (step, from, to) → runs so far
    const auto& transfers = s.transfers();
    for (std::size_t ti = 0; ti < transfers.size(); ++ti) {
        const Transfer& t = transfers[ti];
        const int from = static_cast<int>(t.from.value()), to = static_cast<int>(t.to.value());
        struct Entry {
            MscclBuffer sb;
            int si;
            MscclBuffer rb;
            int ri;
            bool add;
        };
        std::vector<Entry> entries;
        for (const Block& b : s.payload(t.payload)) {
            const auto [sb, si] = slots.at(from, b);
            const auto [rb, ri] = slots.at(to, b);
            const auto it = adds.find({ti, b});
            entries.push_back({sb, si, rb, ri, it != adds.end() && it->second});
        }
        std::sort(entries.begin(), entries.end(),
                  [](const Entry& a, const Entry& b) { return std::tie(a.sb, a.si) < std::tie(b.sb, b.si); });
        for (std::size_t i = 0; i < entries.size();) {
            std::size_t j = i + 1;
            while (j < entries.size() && entries[j].sb == entries[i].sb && entries[j].si == entries[j - 1].si + 1 &&
                   entries[j].rb == entries[i].rb && entries[j].ri == entries[j - 1].ri + 1 &&
                   entries[j].add == entries[i].add)
                ++j;
            const int channel = channels[{t.step.value(), t.from.value(), t.to.value()}]++;
            const int cnt = static_cast<int>(j - i);
            const Entry& e = entries[i];
            moves[static_cast<std::size_t>(from)].push_back(Move{.step = t.step.value(),
                                                                 .send = true,
                                                                 .peer = to,
                                                                 .channel = channel,
                                                                 .buf = e.sb,
                                                                 .off = e.si,
                                                                 .cnt = cnt,
                                                                 .peerBuf = e.rb,
                                                                 .peerOff = e.ri});
            moves[static_cast<std::size_t>(to)].push_back(Move{.step = t.step.value(),
                                                               .add = e.add,
                                                               .peer = from,
                                                               .channel = channel,
                                                               .buf = e.rb,
                                                               .off = e.ri,
                                                               .cnt = cnt,
                                                               .peerBuf = e.sb,
                                                               .peerOff = e.si});
            i = j;
        }
    }
    return moves;
}

/// Orders one rank's moves (by step, sends before receives) and gives each the moves it waits
/// for: the writes of the chunks it reads, the reads and writes of the chunks it writes, and a
/// move of the step before, so that it runs in its own step and no sooner.
void orderMoves(std::vector<Move>& moves)
{
    std::stable_sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) {
        return std::pair{a.step, !a.send} < std::pair{b.step, !b.send};
    });
    std::map<std::pair<MscclBuffer, int>, int> writer;
    std::map<std::pair<MscclBuffer, int>, std::vector<int>> readers;
    int lastBefore = -1; // the last move of an earlier step
    for (std::size_t i = 0; i < moves.size(); ++i) {
        Move& m = moves[i];
        while (lastBefore + 1 < static_cast<int>(i) && moves[static_cast<std::size_t>(lastBefore + 1)].step < m.step)
            ++lastBefore;
        if (m.send && lastBefore >= 0)
            m.deps.push_back(lastBefore);
        for (int k = 0; k < m.cnt; ++k) {
            const std::pair key{m.buf, m.off + k};
            if (const auto w = writer.find(key); w != writer.end())
                m.deps.push_back(w->second);
            if (m.send) {
                readers[key].push_back(static_cast<int>(i));
            } else {
                auto& r = readers[key];
                m.deps.insert(m.deps.end(), r.begin(), r.end());
                r.clear();
                writer[key] = static_cast<int>(i);
            }
        }
    }
}

MscclStep stepOf(const Move& m)
{
    MscclStep st;
    st.cnt = m.cnt;
    if (m.send) {
        st.type = MscclOp::Send;
        st.srcBuf = m.buf;
        st.srcOff = m.off;
        st.dstBuf = m.peerBuf;
        st.dstOff = m.peerOff;
    } else {
        st.type = m.add ? MscclOp::RecvReduceCopy : MscclOp::Recv;
        st.srcBuf = m.add ? m.buf : m.peerBuf;
        st.srcOff = m.add ? m.off : m.peerOff;
        st.dstBuf = m.buf;
        st.dstOff = m.off;
    }
    return st;
}

/// One rank's moves as threadblocks: one per (send peer, channel) and one per (recv peer,
/// channel), ids in that order; a dependency on another threadblock becomes depid/deps, and a
/// second one a nop before the op.
MscclGpu gpuOf(int rank, std::vector<Move>& moves, const Slots& slots)
{
    MscclGpu g;
    g.id = rank;
    std::map<std::tuple<int, int, int>, int> tbOf; // (send, recv, chan) → tb id
    for (const Move& m : moves)
        tbOf.emplace(m.send ? std::tuple{m.peer, -1, m.channel} : std::tuple{-1, m.peer, m.channel}, 0);
    if (slots.copiesOwnBlock())
        tbOf.emplace(std::tuple{-1, -1, 0}, 0);
    for (auto& [key, id] : tbOf) {
        id = static_cast<int>(g.threadblocks.size());
        MscclThreadblock& tb = g.threadblocks.emplace_back();
        tb.id = id;
        std::tie(tb.send, tb.recv, tb.channel) = key;
    }
    if (slots.copiesOwnBlock()) {
        MscclStep copy;
        copy.type = MscclOp::Copy;
        copy.srcBuf = MscclBuffer::Input;
        copy.dstBuf = MscclBuffer::Output;
        copy.srcOff = copy.dstOff = rank * slots.chunksPerPiece();
        copy.cnt = slots.chunksPerPiece();
        g.threadblocks[static_cast<std::size_t>(tbOf.at(std::tuple{-1, -1, 0}))].steps.push_back(copy);
    }
    for (Move& m : moves) {
        m.tb = tbOf.at(m.send ? std::tuple{m.peer, -1, m.channel} : std::tuple{-1, m.peer, m.channel});
        std::map<int, int> waits; // other threadblock → latest step waited for
        for (int d : m.deps) {
            const Move& dep = moves[static_cast<std::size_t>(d)];
            if (dep.tb != m.tb)
                waits[dep.tb] = std::max(waits[dep.tb], dep.s);
        }
        auto& steps = g.threadblocks[static_cast<std::size_t>(m.tb)].steps;
        std::size_t left = waits.size();
        for (const auto& [tb, s] : waits) {
            g.threadblocks[static_cast<std::size_t>(tb)].steps[static_cast<std::size_t>(s)].hasDep = true;
            MscclStep st = --left == 0 ? stepOf(m) : MscclStep{};
            if (left != 0) {
                st.type = MscclOp::Nop;
                st.cnt = 0;
                st.srcOff = st.dstOff = -1;
            }
            st.s = static_cast<int>(steps.size());
            st.depTb = tb;
            st.depStep = s;
            steps.push_back(st);
        }
        if (waits.empty()) {
            MscclStep st = stepOf(m);
            st.s = static_cast<int>(steps.size());
            steps.push_back(st);
        }
        m.s = static_cast<int>(steps.size()) - 1;
    }
    g.inputChunks = slots.inputChunks();
    g.outputChunks = slots.outputChunks();
    g.scratchChunks = slots.scratchChunks(rank);
    return g;
}

} // namespace

std::size_t mscclWaitingSends(const Schedule& schedule)
{
    std::set<std::pair<std::uint32_t, std::uint32_t>> busy; // (node, step) with a send or receive
    for (const Transfer& t : schedule.transfers()) {
        busy.emplace(t.from.value(), t.step.value());
        busy.emplace(t.to.value(), t.step.value());
    }
    std::size_t waiting = 0;
    for (const Transfer& t : schedule.transfers())
        if (t.step.value() > 1 && !busy.count({t.from.value(), t.step.value() - 1}))
            ++waiting;
    return waiting;
}

MscclProgram mscclFromSchedule(const Schedule& schedule)
{
    if (schedule.size() == 0)
        throw Error("the schedule has no transfers: there is nothing to write as MSCCL XML");
    if (!isCollective(schedule.pattern()))
        throw Error("the schedule is a program of point-to-point messages (imported from GOAL): MSCCL XML holds "
                    "collectives, whose data it names; write it as --format goal, json or csv");
    Schedule s = schedule;
    s.finalize();
    Slots slots(s);
    std::vector<std::vector<Move>> moves = movesOf(s, slots);
    MscclProgram p;
    p.name = s.algorithm.empty() ? "topocast" : s.algorithm;
    p.collective = mscclCollective(s.pattern());
    p.inplace = slots.inplace();
    p.ranks = static_cast<int>(s.topology().nodeCount());
    p.root = hasRoot(s.pattern()) ? static_cast<int>(s.source().value()) : 0;
    p.chunksPerLoop = std::max(slots.inputChunks(), slots.outputChunks());
    p.channels = 1;
    for (int r = 0; r < p.ranks; ++r) {
        auto& mine = moves[static_cast<std::size_t>(r)];
        orderMoves(mine);
        for (const Move& m : mine)
            p.channels = std::max(p.channels, m.channel + 1);
        p.gpus.push_back(gpuOf(r, mine, slots));
    }
    return p;
}

} // namespace topocast
