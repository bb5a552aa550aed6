#pragma once
// Inside checkMscclProgram (msccl.h): the collective's buffers (Shape), chunk contents (Value),
// findings as they are collected, and the run of a program op by op (Run, msccl_run.cpp).
// Private to core/src.

#include "topocast/analysis/msccl.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace topocast::msccl_detail {

/// What the collective's buffers hold: c chunks per piece, `in` contributions per rank (input
/// chunks), `out` output chunks checked per rank.
struct Shape {
    Pattern pattern = Pattern::Allgather;
    int n = 0;
    int c = 0;
    int in = 0;
    int out = 0;
    bool inplace = false;
    int root = 0;

    /// Where buffer `b` index `i` of `rank` lives: in-place programs share one buffer between
    /// input and output (all-gather: the input is the rank's piece of the output; reduce-scatter:
    /// the output is the rank's piece of the input; the others: the same chunks).
    std::pair<MscclBuffer, int> slot(int rank, MscclBuffer b, int i) const
    {
        if (!inplace)
            return {b, i};
        switch (pattern) {
        case Pattern::Allgather:
        case Pattern::Gather:
            if (b == MscclBuffer::Input)
                return {MscclBuffer::Output, rank * c + i};
            break;
        case Pattern::ReduceScatter:
        case Pattern::Scatter:
            if (b == MscclBuffer::Output)
                return {MscclBuffer::Input, rank * c + i};
            break;
        default:
            if (b == MscclBuffer::Output)
                return {MscclBuffer::Input, i};
        }
        return {b, i};
    }
    /// Whether `rank` must end with its output (the root only for reduce and gather).
    bool checksOutput(int rank) const
    {
        return (pattern != Pattern::Reduce && pattern != Pattern::Gather) || rank == root;
    }
    /// The contributions output chunk k of `rank` must hold, each once.
    std::vector<std::uint32_t> expected(int rank, int k) const
    {
        auto id = [&](int r, int i) { return static_cast<std::uint32_t>(r * in + i); };
        std::vector<std::uint32_t> e;
        switch (pattern) {
        case Pattern::Allgather:
        case Pattern::Gather:
            e.push_back(id(k / c, k % c));
            break;
        case Pattern::Alltoall:
            e.push_back(id(k / c, rank * c + k % c));
            break;
        case Pattern::Broadcast:
            e.push_back(id(root, k));
            break;
        case Pattern::Scatter:
            e.push_back(id(root, rank * c + k));
            break;
        case Pattern::Allreduce:
        case Pattern::Reduce:
            for (int r = 0; r < n; ++r)
                e.push_back(id(r, k));
            break;
        case Pattern::ReduceScatter:
            for (int r = 0; r < n; ++r)
                e.push_back(id(r, rank * c + k));
            break;
        case Pattern::PointToPoint:
            break; // (mscclPattern names collectives only)
        }
        return e;
    }
    /// "rank 3's chunk 2" (copies) or "rank 3's contribution" (reductions).
    std::string name(std::uint32_t contribution) const
    {
        const int r = static_cast<int>(contribution) / in, i = static_cast<int>(contribution) % in;
        if (combines(pattern))
            return "rank " + std::to_string(r) + "'s contribution to input chunk " + std::to_string(i);
        return "rank " + std::to_string(r) + "'s input chunk " + std::to_string(i);
    }
};

/// A chunk's contents: the contributions combined in it (sorted, each once), or nothing yet.
struct Value {
    std::vector<std::uint32_t> parts;
    bool defined = false;
};

inline std::vector<std::uint32_t> unique(std::vector<std::uint32_t> v)
{
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

struct Findings {
    std::vector<MscclFinding> list;
    std::size_t count = 0;
    void add(MscclFinding f)
    {
        ++count;
        if (list.size() < kMaxMscclFindings)
            list.push_back(std::move(f));
    }
};

inline MscclFinding finding(int rank, std::string what, int tb = -1, int s = -1,
                            MscclFindingKind kind = MscclFindingKind::Structure)
{
    MscclFinding f;
    f.kind = kind;
    f.rank = rank;
    f.tb = tb;
    f.s = s;
    f.what = std::move(what);
    return f;
}

inline std::string located(int tb, int s)
{
    return "tb " + std::to_string(tb) + " step " + std::to_string(s);
}

/// One op of the program while it runs.
struct Op {
    int gpu = 0, tb = 0, st = 0; ///< indices into the program
    int rank = 0;
    std::vector<int> next; ///< ops that wait for this one
    int waiting = 0;       ///< ops this one still waits for
    int start = 0;         ///< the step its inputs are ready after
    int done = 0;          ///< the step it completes in
    int send = -1;         ///< its send (index into Run::sends), −1 when it sends nothing
    int recv = -1;         ///< the send it receives, −1 when it receives nothing
    bool ran = false;
};

/// A paired send and receive.
struct Send {
    int from = 0, to = 0, channel = 0;
    int op = -1, recvOp = -1;
    int step = 0;
    std::vector<Value> chunks;
};

/// A partial result overwritten by one that does not contain it (reductions): the contributions
/// it held are gone unless they reach the chunk again.
struct Loss {
    int rank = 0, tb = 0, s = 0, step = 0;
    MscclBuffer buf = MscclBuffer::Output;
    int chunk = 0;
    std::vector<std::uint32_t> lost;
    bool reported = false;
};

/// A receive that put data where it does not belong: a reduction's contribution into another
/// chunk, read by the sender from a chunk it did belong to (the transfer that mixed the chunks), or
/// a copy's chunk into an output chunk that must end with another (copy = true). Either way the
/// wrong chunk was sent, or received into the wrong place.
struct Misplacement {
    int sender = 0, sendTb = 0, sendS = 0, sendStep = 0, sendChunk = 0;
    int receiver = 0, recvTb = 0, recvS = 0, chunk = 0;
    MscclBuffer buf = MscclBuffer::Input;
    std::uint32_t part = 0;
    bool reported = false;
    bool copy = false;
    MscclBuffer sendBuf = MscclBuffer::Input;
};

class Run {
public:
    Run(const MscclProgram& p, const Shape& sh, Findings& out) : m_p(p), m_sh(sh), m_out(out)
    {
        buildOps();
        pairSends();
        initBuffers();
    }

    void execute();
    void checkFinal();
    const std::vector<Send>& sends() const { return m_sends; }
    int steps() const { return m_steps; }

private:
    const MscclStep& step(const Op& op) const { return m_p.gpus[op.gpu].threadblocks[op.tb].steps[op.st]; }
    const MscclThreadblock& block(const Op& op) const { return m_p.gpus[op.gpu].threadblocks[op.tb]; }
    void buildOps();
    void pairSends();
    void initBuffers();
    void perform(Op& op);
    Value& at(int rank, MscclBuffer b, int i)
    {
        const auto [buf, idx] = m_sh.slot(rank, b, i);
        return m_buffers[static_cast<std::size_t>(rank)][static_cast<int>(buf)][static_cast<std::size_t>(idx)];
    }
    int& lastWrite(int rank, MscclBuffer b, int i)
    {
        const auto [buf, idx] = m_sh.slot(rank, b, i);
        return m_written[static_cast<std::size_t>(rank)][static_cast<int>(buf)][static_cast<std::size_t>(idx)];
    }
    Value combine(const Value& a, const Value& b, const Op& op, int chunk, int stepNo);
    void write(const Op& op, int chunk, Value v, int stepNo);
    void reportStuck();
    /// Records where a received value mixes a contribution into another chunk (reductions) or
    /// lands in an output chunk that must end with another (copies).
    void noteMisplaced(const Op& op, int k, const Value& received);
    /// The cause of foreign contributions in an output chunk: the transfer that first mixed them.
    void reportMisplaced(const std::vector<std::uint32_t>& foreign);

    const MscclProgram& m_p;
    const Shape& m_sh;
    Findings& m_out;
    std::vector<Op> m_ops;
    std::vector<Send> m_sends;
    std::vector<std::array<std::vector<Value>, 3>> m_buffers; ///< rank → buffer → chunk
    std::vector<std::array<std::vector<int>, 3>> m_written;   ///< the step each chunk was last written in
    std::vector<Loss> m_losses;
    std::vector<Misplacement> m_misplaced;
    std::vector<int> m_unmatched; ///< receive ops with no send
    int m_steps = 0;
};

} // namespace topocast::msccl_detail
