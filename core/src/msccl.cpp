// Running an MSCCL program on a network and checking it (msccl.h).
#include "topocast/msccl.h"

#include "topocast/error.h"
#include "topocast/limits.h"
#include "topocast/routing.h"

#include <algorithm>
#include <array>
#include <map>
#include <queue>
#include <tuple>

namespace topocast {

Pattern mscclPattern(std::string_view c)
{
    for (Pattern p : kPatterns)
        if (c == mscclCollective(p))
            return p;
    if (c == "reducescatter")
        return Pattern::ReduceScatter;
    throw Error("coll=\"" + std::string(c) + "\" is not a collective topocast checks; use allgather, allreduce, "
                "reduce_scatter, alltoall, broadcast, reduce, gather or scatter");
}

std::string mscclCollective(Pattern p)
{
    // MSCCL writes reduce_scatter where topocast writes reduce-scatter; the others agree.
    return p == Pattern::ReduceScatter ? std::string("reduce_scatter") : toString(p);
}

std::string_view toString(MscclFindingKind kind)
{
    switch (kind) {
    case MscclFindingKind::Structure: return "structure";
    case MscclFindingKind::Deadlock: return "deadlock";
    case MscclFindingKind::Data: return "data";
    case MscclFindingKind::Incomplete: return "incomplete";
    }
    return "structure";
}

std::string mscclFindingText(const MscclFinding& f)
{
    const std::string rank = "rank " + std::to_string(f.rank);
    if (f.what.rfind(rank + " ", 0) == 0)
        return f.what;
    return rank + ": " + f.what;
}

namespace {

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
            if (b == MscclBuffer::Input) return {MscclBuffer::Output, rank * c + i};
            break;
        case Pattern::ReduceScatter:
        case Pattern::Scatter:
            if (b == MscclBuffer::Output) return {MscclBuffer::Input, rank * c + i};
            break;
        default:
            if (b == MscclBuffer::Output) return {MscclBuffer::Input, i};
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
        case Pattern::Gather: e.push_back(id(k / c, k % c)); break;
        case Pattern::Alltoall: e.push_back(id(k / c, rank * c + k % c)); break;
        case Pattern::Broadcast: e.push_back(id(root, k)); break;
        case Pattern::Scatter: e.push_back(id(root, rank * c + k)); break;
        case Pattern::Allreduce:
        case Pattern::Reduce:
            for (int r = 0; r < n; ++r) e.push_back(id(r, k));
            break;
        case Pattern::ReduceScatter:
            for (int r = 0; r < n; ++r) e.push_back(id(r, rank * c + k));
            break;
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

std::vector<std::uint32_t> unique(std::vector<std::uint32_t> v)
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

MscclFinding finding(int rank, std::string what, int tb = -1, int s = -1,
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

std::string located(int tb, int s) { return "tb " + std::to_string(tb) + " step " + std::to_string(s); }

/// The chunk counts of the collective from the root's (or rank 0's) buffers; a finding when they
/// do not describe it.
std::optional<Shape> shapeOf(const MscclProgram& p, Pattern pattern, const MscclGpu& g, Findings& out)
{
    Shape sh;
    sh.pattern = pattern;
    sh.n = p.ranks;
    sh.inplace = p.inplace;
    sh.root = p.root;
    const int n = p.ranks, i = g.inputChunks, o = g.outputChunks;
    auto piece = [&](int total, const char* which) {
        if (total <= 0 || total % n != 0) {
            out.add(finding(g.id, std::string(which) + "=" + std::to_string(total) + " does not describe a " +
                                      mscclCollective(pattern) + " of " + std::to_string(n) +
                                      " ranks: it must be a positive multiple of ngpus"));
            return 0;
        }
        return total / n;
    };
    switch (pattern) {
    case Pattern::Allgather:
    case Pattern::Gather: sh.c = piece(o, "o_chunks"); sh.in = sh.c; sh.out = n * sh.c; break;
    case Pattern::ReduceScatter: sh.c = piece(i, "i_chunks"); sh.in = n * sh.c; sh.out = sh.c; break;
    case Pattern::Scatter: sh.c = piece(i, "i_chunks"); sh.in = n * sh.c; sh.out = sh.c; break;
    case Pattern::Alltoall: sh.c = piece(i, "i_chunks"); sh.in = n * sh.c; sh.out = n * sh.c; break;
    case Pattern::Allreduce:
    case Pattern::Reduce:
    case Pattern::Broadcast:
        sh.c = std::max(i, o);
        if (sh.c <= 0)
            out.add(finding(g.id, "i_chunks and o_chunks are 0: a " + mscclCollective(pattern) + " needs chunks"));
        sh.in = sh.c;
        sh.out = sh.c;
        break;
    }
    if (sh.c <= 0)
        return std::nullopt;
    return sh;
}

/// Ranks, peers, channels, offsets, counts and dependencies in range. Reports every problem.
void checkStructure(const MscclProgram& p, const Shape& sh, Findings& out)
{
    const int n = p.ranks;
    std::vector<int> seen(static_cast<std::size_t>(n), 0);
    for (const MscclGpu& g : p.gpus) {
        if (g.id < 0 || g.id >= n) {
            out.add(finding(g.id, "<gpu id=\"" + std::to_string(g.id) + "\"> is not a rank of " + std::to_string(n) +
                                      " (ids 0.." + std::to_string(n - 1) + ")"));
            continue;
        }
        if (seen[static_cast<std::size_t>(g.id)]++)
            out.add(finding(g.id, "rank " + std::to_string(g.id) + " has two <gpu> elements"));
    }
    for (int r = 0; r < n; ++r)
        if (!seen[static_cast<std::size_t>(r)])
            out.add(finding(r, "rank " + std::to_string(r) + " has no <gpu> element (ngpus=" + std::to_string(n) + ")"));
    if (hasRoot(sh.pattern) && (p.root < 0 || p.root >= n))
        out.add(finding(p.root, "root=\"" + std::to_string(p.root) + "\" is not a rank (0.." + std::to_string(n - 1) + ")"));

    for (const MscclGpu& g : p.gpus) {
        const int declared[3] = {g.inputChunks, g.outputChunks, g.scratchChunks};
        // Chunks a buffer holds: its own, or where it lives in the other (in place) as far as
        // that one reaches — an in-place program may leave the aliased buffer undeclared.
        auto storage = [&](MscclBuffer t) {
            return t == MscclBuffer::Input ? std::max(g.inputChunks, sh.in)
                                           : t == MscclBuffer::Output ? std::max(g.outputChunks, sh.out) : g.scratchChunks;
        };
        auto size = [&](MscclBuffer b) {
            int d = declared[static_cast<int>(b)];
            const auto [target, base] = sh.slot(g.id, b, 0);
            if (target == b)
                return d;
            if (d == 0)
                d = b == MscclBuffer::Input ? sh.in : sh.out;
            return std::max(0, std::min(d, storage(target) - base));
        };
        for (int b = 0; b < 3; ++b)
            if (declared[b] < 0 || declared[b] > kMaxMscclBufferChunks)
                out.add(finding(g.id, std::string(mscclBufferName(static_cast<MscclBuffer>(b))) + " chunks " +
                                          std::to_string(declared[b]) + " is outside 0.." +
                                          std::to_string(kMaxMscclBufferChunks) + " (a buffer's chunks)"));
        std::map<std::pair<int, int>, int> sendChan, recvChan;
        std::map<int, const MscclThreadblock*> ids;
        for (const MscclThreadblock& tb : g.threadblocks) {
            if (!ids.emplace(tb.id, &tb).second)
                out.add(finding(g.id, "two threadblocks have id " + std::to_string(tb.id), tb.id));
            for (auto [peer, role] : {std::pair{tb.send, "send"}, std::pair{tb.recv, "recv"}})
                if (peer < -1 || peer >= n || peer == g.id)
                    out.add(finding(g.id, "tb " + std::to_string(tb.id) + " " + role + "=\"" + std::to_string(peer) +
                                              "\" is not a peer: use another rank 0.." + std::to_string(n - 1) +
                                              " or -1",
                                    tb.id));
            if (tb.channel < 0)
                out.add(finding(g.id, "tb " + std::to_string(tb.id) + " chan=\"" + std::to_string(tb.channel) + "\" is negative", tb.id));
            if (tb.send >= 0 && !sendChan.emplace(std::pair{tb.send, tb.channel}, tb.id).second)
                out.add(finding(g.id, "tb " + std::to_string(sendChan[{tb.send, tb.channel}]) + " and tb " + std::to_string(tb.id) +
                                          " both send to rank " + std::to_string(tb.send) + " on channel " + std::to_string(tb.channel), tb.id));
            if (tb.recv >= 0 && !recvChan.emplace(std::pair{tb.recv, tb.channel}, tb.id).second)
                out.add(finding(g.id, "tb " + std::to_string(recvChan[{tb.recv, tb.channel}]) + " and tb " + std::to_string(tb.id) +
                                          " both receive from rank " + std::to_string(tb.recv) + " on channel " + std::to_string(tb.channel), tb.id));
        }
        for (const MscclThreadblock& tb : g.threadblocks) {
            for (std::size_t k = 0; k < tb.steps.size(); ++k) {
                const MscclStep& st = tb.steps[k];
                auto bad = [&](const std::string& what) { out.add(finding(g.id, located(tb.id, st.s) + ": " + what, tb.id, st.s)); };
                if (st.s != static_cast<int>(k))
                    bad("steps of a threadblock are numbered 0, 1, 2, … in order; this is its step " + std::to_string(k));
                if (mscclSends(st.type) && tb.send < 0)
                    bad(std::string(mscclOpName(st.type)) + " sends, but the threadblock has no send peer");
                if (mscclReceives(st.type) && tb.recv < 0)
                    bad(std::string(mscclOpName(st.type)) + " receives, but the threadblock has no recv peer");
                if (st.type != MscclOp::Nop && st.cnt <= 0)
                    bad("cnt=\"" + std::to_string(st.cnt) + "\": an op moves at least one chunk");
                auto range = [&](MscclBuffer b, int off, const char* which) {
                    const int limit = size(b);
                    if (st.cnt > 0 && (off < 0 || off > limit - st.cnt))
                        bad(std::string(which) + " chunks " + std::to_string(off) + ".." + std::to_string(std::int64_t{off} + st.cnt - 1) +
                            " are outside the " + std::string(mscclBufferName(b)) + " buffer of " + std::to_string(limit) +
                            " chunks (" + mscclBufferLetter(b) + "_chunks)");
                };
                if (st.type != MscclOp::Nop && mscclReadsSource(st.type))
                    range(st.srcBuf, st.srcOff, "source");
                if (st.type != MscclOp::Nop && mscclWritesDestination(st.type))
                    range(st.dstBuf, st.dstOff, "destination");
                if (st.depTb >= 0) {
                    const auto it = ids.find(st.depTb);
                    if (it == ids.end() || st.depStep < 0 || st.depStep >= static_cast<int>(it->second->steps.size()))
                        bad("depends on tb " + std::to_string(st.depTb) + " step " + std::to_string(st.depStep) +
                            ", which rank " + std::to_string(g.id) + " does not have");
                } else if (st.depTb < -1) {
                    bad("depid=\"" + std::to_string(st.depTb) + "\" is not a threadblock (or -1)");
                }
            }
        }
    }
}

/// One op of the program while it runs.
struct Op {
    int gpu = 0, tb = 0, st = 0;  ///< indices into the program
    int rank = 0;
    std::vector<int> next;         ///< ops that wait for this one
    int waiting = 0;               ///< ops this one still waits for
    int start = 0;                 ///< the step its inputs are ready after
    int done = 0;                  ///< the step it completes in
    int send = -1;                 ///< its send (index into Run::sends), −1 when it sends nothing
    int recv = -1;                 ///< the send it receives, −1 when it receives nothing
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

    const MscclProgram& m_p;
    const Shape& m_sh;
    Findings& m_out;
    std::vector<Op> m_ops;
    std::vector<Send> m_sends;
    std::vector<std::array<std::vector<Value>, 3>> m_buffers;  ///< rank → buffer → chunk
    std::vector<std::array<std::vector<int>, 3>> m_written;    ///< the step each chunk was last written in
    std::vector<Loss> m_losses;
    std::vector<int> m_unmatched;                              ///< receive ops with no send
    int m_steps = 0;
};

void Run::buildOps()
{
    std::vector<std::vector<int>> first(m_p.gpus.size());  // gpu → tb → index of its step 0
    for (std::size_t g = 0; g < m_p.gpus.size(); ++g)
        for (std::size_t t = 0; t < m_p.gpus[g].threadblocks.size(); ++t) {
            first[g].push_back(static_cast<int>(m_ops.size()));
            for (std::size_t s = 0; s < m_p.gpus[g].threadblocks[t].steps.size(); ++s) {
                Op op;
                op.gpu = static_cast<int>(g);
                op.tb = static_cast<int>(t);
                op.st = static_cast<int>(s);
                op.rank = m_p.gpus[g].id;
                m_ops.push_back(op);
            }
        }
    auto edge = [&](int from, int to) {
        m_ops[static_cast<std::size_t>(from)].next.push_back(to);
        ++m_ops[static_cast<std::size_t>(to)].waiting;
    };
    for (std::size_t g = 0; g < m_p.gpus.size(); ++g) {
        std::map<int, int> tbIndex;
        for (std::size_t t = 0; t < m_p.gpus[g].threadblocks.size(); ++t)
            tbIndex[m_p.gpus[g].threadblocks[t].id] = static_cast<int>(t);
        for (std::size_t t = 0; t < m_p.gpus[g].threadblocks.size(); ++t) {
            const auto& steps = m_p.gpus[g].threadblocks[t].steps;
            for (std::size_t s = 0; s < steps.size(); ++s) {
                const int op = first[g][t] + static_cast<int>(s);
                if (s > 0)
                    edge(op - 1, op);
                if (steps[s].depTb >= 0)
                    edge(first[g][static_cast<std::size_t>(tbIndex.at(steps[s].depTb))] + steps[s].depStep, op);
            }
        }
    }
}

void Run::pairSends()
{
    // The k-th send from a to b on channel c meets the k-th receive at b from a on c.
    std::map<std::tuple<int, int, int>, std::pair<std::vector<int>, std::vector<int>>> links;
    for (std::size_t i = 0; i < m_ops.size(); ++i) {
        const Op& op = m_ops[i];
        const MscclThreadblock& tb = block(op);
        const MscclOp type = step(op).type;
        if (mscclSends(type))
            links[{op.rank, tb.send, tb.channel}].first.push_back(static_cast<int>(i));
        if (mscclReceives(type))
            links[{tb.recv, op.rank, tb.channel}].second.push_back(static_cast<int>(i));
    }
    for (auto& [key, ops] : links) {
        const auto [from, to, channel] = key;
        const auto& [sends, recvs] = ops;
        const std::size_t paired = std::min(sends.size(), recvs.size());
        for (std::size_t k = 0; k < paired; ++k) {
            Op& s = m_ops[static_cast<std::size_t>(sends[k])];
            Op& r = m_ops[static_cast<std::size_t>(recvs[k])];
            Send send;
            send.from = from;
            send.to = to;
            send.channel = channel;
            send.op = sends[k];
            send.recvOp = recvs[k];
            s.send = r.recv = static_cast<int>(m_sends.size());
            m_sends.push_back(std::move(send));
            s.next.push_back(recvs[k]);
            ++r.waiting;
            if (step(s).cnt != step(r).cnt)
                m_out.add(finding(to, located(block(r).id, step(r).s) + " receives " + std::to_string(step(r).cnt) + " chunks from rank " +
                                          std::to_string(from) + ", whose matching send (" + located(block(s).id, step(s).s) +
                                          ") sends " + std::to_string(step(s).cnt),
                                  block(r).id, step(r).s));
        }
        for (std::size_t k = paired; k < sends.size(); ++k) {
            const Op& s = m_ops[static_cast<std::size_t>(sends[k])];
            m_out.add(finding(from, located(block(s).id, step(s).s) + " sends to rank " + std::to_string(to) + " on channel " +
                                        std::to_string(channel) + ", but rank " + std::to_string(to) +
                                        " has no receive left for it (a send with no receive)",
                              block(s).id, step(s).s, MscclFindingKind::Deadlock));
        }
        for (std::size_t k = paired; k < recvs.size(); ++k) {
            const Op& r = m_ops[static_cast<std::size_t>(recvs[k])];
            m_unmatched.push_back(recvs[k]);
            m_out.add(finding(to, located(block(r).id, step(r).s) + " waits for a receive from rank " + std::to_string(from) +
                                      " on channel " + std::to_string(channel) +
                                      " that is never sent: a deadlock (this stream and every op after it never run)",
                              block(r).id, step(r).s, MscclFindingKind::Deadlock));
        }
    }
}

void Run::initBuffers()
{
    std::uint64_t chunks = 0;
    for (const MscclGpu& g : m_p.gpus)
        chunks += static_cast<std::uint64_t>(std::max(g.inputChunks, m_sh.in)) + static_cast<std::uint64_t>(std::max(g.outputChunks, m_sh.out)) +
                  static_cast<std::uint64_t>(g.scratchChunks);
    checkMemory("running the MSCCL program", saturatingMul(chunks, sizeof(Value) + sizeof(int)),
                std::to_string(chunks) + " buffer chunks of " + std::to_string(m_sh.n) + " ranks");
    m_buffers.resize(static_cast<std::size_t>(m_sh.n));
    m_written.resize(static_cast<std::size_t>(m_sh.n));
    for (const MscclGpu& g : m_p.gpus) {
        const std::size_t r = static_cast<std::size_t>(g.id);
        const int sizes[3] = {std::max(g.inputChunks, m_sh.in), std::max(g.outputChunks, m_sh.out), g.scratchChunks};
        for (int b = 0; b < 3; ++b) {
            m_buffers[r][b].assign(static_cast<std::size_t>(sizes[b]), Value{});
            m_written[r][b].assign(static_cast<std::size_t>(sizes[b]), 0);
        }
        for (int i = 0; i < m_sh.in; ++i) {
            Value& v = at(g.id, MscclBuffer::Input, i);
            v.parts = {static_cast<std::uint32_t>(g.id * m_sh.in + i)};
            v.defined = true;
        }
    }
}

Value Run::combine(const Value& a, const Value& b, const Op& op, int chunk, int stepNo)
{
    const MscclStep& st = step(op);
    auto report = [&](const std::string& what) {
        MscclFinding f = finding(op.rank, located(block(op).id, st.s) + ": " + what, block(op).id, st.s, MscclFindingKind::Data);
        f.step = static_cast<std::uint32_t>(stepNo);
        f.chunk = chunk;
        m_out.add(std::move(f));
    };
    if (!combines(m_sh.pattern)) {
        if (chunk == st.srcOff)  // once per op
            report(std::string(mscclOpName(st.type)) + " adds chunks in a " + mscclCollective(m_sh.pattern) +
                   ", which only copies them");
    }
    if (!a.defined || !b.defined) {
        report("adds a chunk that holds no data (" + std::string(mscclBufferName(st.srcBuf)) + " chunk " +
               std::to_string(chunk) + ")");
        return a.defined ? a : b;
    }
    Value sum;
    sum.defined = true;
    // Each contribution once: a repeat is reported here, and keeping it would let a loop of
    // reduces double a chunk's size at every step.
    std::set_union(a.parts.begin(), a.parts.end(), b.parts.begin(), b.parts.end(), std::back_inserter(sum.parts));
    std::vector<std::uint32_t> twice;
    std::set_intersection(a.parts.begin(), a.parts.end(), b.parts.begin(), b.parts.end(), std::back_inserter(twice));
    if (!twice.empty())
        report("combines " + m_sh.name(twice.front()) + " twice" +
               (twice.size() > 1 ? " (and " + std::to_string(twice.size() - 1) + " more contributions)" : std::string()));
    return sum;
}

void Run::write(const Op& op, int chunk, Value v, int stepNo)
{
    const MscclStep& st = step(op);
    Value& old = at(op.rank, st.dstBuf, chunk);
    if (combines(m_sh.pattern) && old.defined && v.defined) {
        const std::vector<std::uint32_t> before = unique(old.parts), after = unique(v.parts);
        std::vector<std::uint32_t> lost;
        std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(lost));
        if (!lost.empty())
            m_losses.push_back(Loss{op.rank, block(op).id, st.s, stepNo, st.dstBuf, chunk, std::move(lost)});
    }
    old = std::move(v);
    lastWrite(op.rank, st.dstBuf, chunk) = stepNo;
}

void Run::perform(Op& op)
{
    const MscclStep& st = step(op);
    const MscclOp type = st.type;
    const int stepNo = op.start;  // when it receives, reads or writes (a send runs in the step after)
    const int sendStep = op.send >= 0 ? op.done : 0;
    std::vector<Value> result(static_cast<std::size_t>(std::max(st.cnt, 0)));
    for (int k = 0; k < st.cnt; ++k) {
        Value v;
        if (type == MscclOp::Send || type == MscclOp::Copy)
            v = at(op.rank, st.srcBuf, st.srcOff + k);
        else if (type == MscclOp::Reduce)
            v = combine(at(op.rank, st.dstBuf, st.dstOff + k), at(op.rank, st.srcBuf, st.srcOff + k), op, st.srcOff + k, stepNo);
        else if (mscclReceives(type) && op.recv >= 0) {
            const Send& in = m_sends[static_cast<std::size_t>(op.recv)];
            v = k < static_cast<int>(in.chunks.size()) ? in.chunks[static_cast<std::size_t>(k)] : Value{};
            if (mscclReduces(type))
                v = combine(v, at(op.rank, st.srcBuf, st.srcOff + k), op, st.srcOff + k, stepNo);
        }
        if (type == MscclOp::Send && !v.defined && k == 0) {
            MscclFinding f = finding(op.rank, located(block(op).id, st.s) + ": sends " + std::string(mscclBufferName(st.srcBuf)) +
                                                  " chunk " + std::to_string(st.srcOff + k) + ", which holds no data yet",
                                     block(op).id, st.s, MscclFindingKind::Data);
            f.step = static_cast<std::uint32_t>(sendStep);
            f.chunk = st.srcOff + k;
            m_out.add(std::move(f));
        }
        result[static_cast<std::size_t>(k)] = std::move(v);
    }
    if (mscclWritesDestination(type))
        for (int k = 0; k < st.cnt; ++k)
            write(op, st.dstOff + k, result[static_cast<std::size_t>(k)], stepNo);
    if (op.send >= 0) {
        Send& out = m_sends[static_cast<std::size_t>(op.send)];
        out.step = sendStep;
        out.chunks = std::move(result);
        m_steps = std::max(m_steps, sendStep);
    }
}

void Run::execute()
{
    // Ops in the order of their time: (step, reads-before-sends, rank, op). A send's chunks are
    // read after every write of the step before it; every edge leads to a key no smaller, so each
    // op is taken after everything it waits for (Dijkstra's argument).
    using Key = std::tuple<int, int, int, int>;
    std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
    auto key = [&](int i) {
        const Op& op = m_ops[static_cast<std::size_t>(i)];
        const bool plainSend = step(op).type == MscclOp::Send;
        return Key{op.start, plainSend ? 1 : 0, op.rank, i};
    };
    auto schedule = [&](int i) {
        Op& op = m_ops[static_cast<std::size_t>(i)];
        op.done = op.send >= 0 ? op.start + 1 : op.start;
        ready.push(key(i));
    };
    for (std::size_t i = 0; i < m_ops.size(); ++i)
        if (m_ops[i].waiting == 0)
            schedule(static_cast<int>(i));
    while (!ready.empty()) {
        const int i = std::get<3>(ready.top());
        ready.pop();
        Op& op = m_ops[static_cast<std::size_t>(i)];
        perform(op);
        op.ran = true;
        for (int j : op.next) {
            Op& next = m_ops[static_cast<std::size_t>(j)];
            next.start = std::max(next.start, op.done);
            if (--next.waiting == 0)
                schedule(j);
        }
    }
    reportStuck();
}

void Run::reportStuck()
{
    // Ops behind a receive that is never sent are reported with it; the rest wait in a cycle.
    std::vector<char> behindDeadlock(m_ops.size(), 0);
    std::vector<int> todo = m_unmatched;
    while (!todo.empty()) {
        const int i = todo.back();
        todo.pop_back();
        if (behindDeadlock[static_cast<std::size_t>(i)]++)
            continue;
        for (int j : m_ops[static_cast<std::size_t>(i)].next)
            todo.push_back(j);
    }
    std::vector<char> reported(static_cast<std::size_t>(m_sh.n), 0);
    for (std::size_t i = 0; i < m_ops.size(); ++i) {
        const Op& op = m_ops[i];
        if (op.ran || behindDeadlock[i] || reported[static_cast<std::size_t>(op.rank)]++)
            continue;
        m_out.add(finding(op.rank, located(block(op).id, step(op).s) + " (" + std::string(mscclOpName(step(op).type)) +
                                       ") never runs: it waits in a dependency cycle (through depid/deps, stream order and "
                                       "sends that wait for it)",
                          block(op).id, step(op).s, MscclFindingKind::Deadlock));
    }
}

void Run::checkFinal()
{
    for (int r = 0; r < m_sh.n; ++r) {
        if (!m_sh.checksOutput(r))
            continue;
        for (int k = 0; k < m_sh.out; ++k) {
            const Value& v = at(r, MscclBuffer::Output, k);
            const std::vector<std::uint32_t> want = m_sh.expected(r, k);
            MscclFinding f;
            f.kind = MscclFindingKind::Incomplete;
            f.rank = r;
            f.chunk = k;
            f.step = static_cast<std::uint32_t>(std::max(lastWrite(r, MscclBuffer::Output, k), m_steps));
            const std::string where = "rank " + std::to_string(r) + " ends with output chunk " + std::to_string(k);
            if (!v.defined) {
                f.what = where + " holding no data (it must hold " + m_sh.name(want.front()) +
                         (want.size() > 1 ? " and " + std::to_string(want.size() - 1) + " more" : std::string()) + ")";
                m_out.add(std::move(f));
                continue;
            }
            const std::vector<std::uint32_t> has = unique(v.parts);
            std::vector<std::uint32_t> missing, foreign;
            std::set_difference(want.begin(), want.end(), has.begin(), has.end(), std::back_inserter(missing));
            std::set_difference(has.begin(), has.end(), want.begin(), want.end(), std::back_inserter(foreign));
            if (missing.empty() && foreign.empty())
                continue;
            // Where a partial result lost what is missing: that op is the cause.
            for (Loss& loss : m_losses) {
                if (loss.reported || std::none_of(missing.begin(), missing.end(), [&](std::uint32_t m) {
                        return std::binary_search(loss.lost.begin(), loss.lost.end(), m);
                    }))
                    continue;
                loss.reported = true;
                MscclFinding cause = finding(loss.rank, located(loss.tb, loss.s) + " overwrites " + std::string(mscclBufferName(loss.buf)) +
                                                            " chunk " + std::to_string(loss.chunk) + ", losing " +
                                                            m_sh.name(loss.lost.front()) +
                                                            (loss.lost.size() > 1 ? " and " + std::to_string(loss.lost.size() - 1) + " more" : std::string()) +
                                                            " (a copy where a reduce was needed?)",
                                             loss.tb, loss.s, MscclFindingKind::Data);
                cause.step = static_cast<std::uint32_t>(loss.step);
                cause.chunk = loss.chunk;
                m_out.add(std::move(cause));
            }
            f.what = where;
            if (!missing.empty())
                f.what += " lacking " + m_sh.name(missing.front()) +
                          (missing.size() > 1 ? " and " + std::to_string(missing.size() - 1) + " more" : std::string());
            if (!foreign.empty())
                f.what += std::string(missing.empty() ? "" : ",") + " holding " + m_sh.name(foreign.front()) +
                          (foreign.size() > 1 ? " and " + std::to_string(foreign.size() - 1) + " more" : std::string()) +
                          ", which " + (foreign.size() > 1 ? "do" : "does") + " not belong there";
            m_out.add(std::move(f));
        }
    }
}

/// The block a contribution is in topocast's terms (schedule.h Block), ranks placed on nodes.
Block blockOf(const Shape& sh, std::uint32_t contribution, std::span<const NodeId> node)
{
    const int r = static_cast<int>(contribution) / sh.in, i = static_cast<int>(contribution) % sh.in;
    const auto at = [&](int rank) { return node[static_cast<std::size_t>(rank)].value(); };
    const auto part = [&](int x) { return static_cast<std::uint32_t>(x); };
    switch (sh.pattern) {
    case Pattern::Broadcast:
    case Pattern::Allgather:
    case Pattern::Gather: return Block{at(r), Block::kAll, part(i)};
    case Pattern::Scatter:
    case Pattern::Alltoall: return Block{at(r), at(i / sh.c), part(i % sh.c)};
    case Pattern::Allreduce:
    case Pattern::Reduce: return Block{Block::kAll, Block::kAll, part(i)};
    case Pattern::ReduceScatter: return Block{Block::kAll, at(i / sh.c), part(i % sh.c)};
    }
    return {};
}

Schedule toSchedule(const MscclProgram& p, const Shape& sh, const Topology& topology, std::span<const NodeId> node,
                    const std::vector<Send>& sends, MscclCheck& check)
{
    const NodeId source = node[static_cast<std::size_t>(hasRoot(sh.pattern) ? std::clamp(p.root, 0, sh.n - 1) : 0)];
    Schedule s(topology, source, sh.pattern, PortModel::MultiPort);
    s.algorithm = p.name.empty() ? "msccl" : p.name;
    s.mode = "msccl-xml";
    s.parts = static_cast<std::uint32_t>(sh.c);
    s.sizeUnit = "chunks";
    s.contentionFree = false;
    // One transfer per (sender, receiver, step): the channels between two ranks share the link.
    std::map<std::tuple<int, int, int>, std::pair<std::vector<Block>, int>> merged;  // (step, from, to)
    for (const Send& send : sends) {
        if (send.step <= 0)
            continue;  // never ran
        auto& [blocks, count] = merged[{send.step, send.from, send.to}];
        count += static_cast<int>(send.chunks.size());
        for (const Value& v : send.chunks)
            for (std::uint32_t c : unique(v.parts))
                blocks.push_back(blockOf(sh, c, node));
    }
    std::map<std::pair<int, int>, int> sendsPerStep;
    for (auto& [key, value] : merged) {
        auto& [blocks, count] = value;
        const auto [stepNo, from, to] = key;
        std::sort(blocks.begin(), blocks.end());
        blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
        const NodeId a = node[static_cast<std::size_t>(from)], b = node[static_cast<std::size_t>(to)];
        s.add(a, b, StepNo{static_cast<std::uint32_t>(stepNo)}, RouteSpec::dimensionOrder(), s.addPayload(blocks), 0,
              static_cast<double>(count));
        check.maxHops = std::max(check.maxHops, topology.distance(a, b));
        s.maxSendsPerStep = std::max(s.maxSendsPerStep, ++sendsPerStep[{stepNo, from}]);
    }
    s.finalize();
    return s;
}

} // namespace

MscclCheck checkMscclProgram(const MscclProgram& program, const Topology& topology, std::span<const NodeId> placement)
{
    MscclCheck check;
    check.pattern = mscclPattern(program.collective);
    check.ranks = program.ranks;
    if (program.ranks <= 0)
        throw Error("ngpus=\"" + std::to_string(program.ranks) + "\": a program needs at least one rank");
    if (static_cast<std::uint64_t>(program.ranks) != topology.nodeCount())
        throw Error("the program has " + std::to_string(program.ranks) + " ranks and " + topology.displayName() + " has " +
                    std::to_string(topology.nodeCount()) + " nodes; place it on a network with one node per rank");
    std::vector<NodeId> node(placement.begin(), placement.end());
    if (node.empty())
        for (NodeId v : nodes(topology))
            node.push_back(v);
    if (node.size() != static_cast<std::size_t>(program.ranks))
        throw Error("the placement names " + std::to_string(node.size()) + " nodes for " + std::to_string(program.ranks) + " ranks");

    Findings out;
    const MscclGpu* shapeGpu = nullptr;
    for (const MscclGpu& g : program.gpus)
        if (!shapeGpu || g.id == (hasRoot(check.pattern) ? program.root : 0))
            shapeGpu = &g;
    std::optional<Shape> shape;
    if (shapeGpu)
        shape = shapeOf(program, check.pattern, *shapeGpu, out);
    else
        out.add(finding(-1, "the program has no <gpu> element"));
    if (shape)
        checkStructure(program, *shape, out);
    if (out.count == 0) {
        Run run(program, *shape, out);
        run.execute();
        run.checkFinal();
        for (const Send& send : run.sends())
            if (send.step > 0)
                check.chunkTransfers += send.chunks.size();
        check.steps = static_cast<std::uint32_t>(run.steps());
        check.schedule = toSchedule(program, *shape, topology, node, run.sends(), check);
    }
    check.findings = std::move(out.list);
    check.findingCount = out.count;
    return check;
}

std::vector<NodeId> parseRankPlacement(std::string_view text, const Topology& topology, int ranks, std::string_view what)
{
    std::vector<NodeId> nodes;
    std::map<NodeId, std::pair<std::size_t, int>> taken;  // node → (rank, line)
    int line = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view l = text.substr(pos, end - pos);
        pos = end + 1;
        ++line;
        while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t'))
            l.remove_suffix(1);
        while (!l.empty() && (l.front() == ' ' || l.front() == '\t'))
            l.remove_prefix(1);
        if (l.empty() || l.front() == '#')
            continue;
        const std::string where = std::string(what) + ":" + std::to_string(line) + ": ";
        NodeId v;
        try {
            v = topology.parseNode(l);
        } catch (const Error& e) {
            throw Error(where + e.what());
        }
        if (const auto [it, fresh] = taken.emplace(v, std::pair{nodes.size(), line}); !fresh)
            throw Error(where + "node " + topology.nodeName(v) + " is already rank " + std::to_string(it->second.first) +
                        "'s (line " + std::to_string(it->second.second) + "); each rank needs a node of its own");
        nodes.push_back(v);
    }
    if (static_cast<int>(nodes.size()) != ranks)
        throw Error(std::string(what) + ": " + std::to_string(nodes.size()) + " nodes for " + std::to_string(ranks) +
                    " ranks; give one node per line, line r for rank r");
    return nodes;
}

} // namespace topocast
