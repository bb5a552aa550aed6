// Checking an MSCCL program on a network (msccl.h): its structure here, its run in msccl_run.cpp.
#include "topocast/analysis/msccl.h"

#include "msccl_run.h"

#include "topocast/model/error.h"
#include "topocast/model/routing.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace topocast {

Pattern mscclPattern(std::string_view c)
{
    for (Pattern p : kPatterns)
        if (c == mscclCollective(p))
            return p;
    if (c == "reducescatter")
        return Pattern::ReduceScatter;
    throw Error("coll=\"" + std::string(c) +
                "\" is not a collective topocast checks; use allgather, allreduce, "
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
    case MscclFindingKind::Structure:
        return "structure";
    case MscclFindingKind::Deadlock:
        return "deadlock";
    case MscclFindingKind::Data:
        return "data";
    case MscclFindingKind::Incomplete:
        return "incomplete";
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

using namespace msccl_detail;

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
    case Pattern::Gather:
        sh.c = piece(o, "o_chunks");
        sh.in = sh.c;
        sh.out = n * sh.c;
        break;
    case Pattern::ReduceScatter:
        sh.c = piece(i, "i_chunks");
        sh.in = n * sh.c;
        sh.out = sh.c;
        break;
    case Pattern::Scatter:
        sh.c = piece(i, "i_chunks");
        sh.in = n * sh.c;
        sh.out = sh.c;
        break;
    case Pattern::Alltoall:
        sh.c = piece(i, "i_chunks");
        sh.in = n * sh.c;
        sh.out = n * sh.c;
        break;
    case Pattern::Allreduce:
    case Pattern::Reduce:
    case Pattern::Broadcast:
        sh.c = std::max(i, o);
        if (sh.c <= 0)
            out.add(finding(g.id, "i_chunks and o_chunks are 0: a " + mscclCollective(pattern) + " needs chunks"));
        sh.in = sh.c;
        sh.out = sh.c;
        break;
    case Pattern::PointToPoint:
        return std::nullopt; // (mscclPattern names collectives only)
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
            out.add(
                finding(r, "rank " + std::to_string(r) + " has no <gpu> element (ngpus=" + std::to_string(n) + ")"));
    if (hasRoot(sh.pattern) && (p.root < 0 || p.root >= n))
        out.add(finding(p.root,
                        "root=\"" + std::to_string(p.root) + "\" is not a rank (0.." + std::to_string(n - 1) + ")"));

    for (const MscclGpu& g : p.gpus) {
        const int declared[3] = {g.inputChunks, g.outputChunks, g.scratchChunks};
        // Chunks a buffer holds: its own, or where it lives in the other (in place) as far as
        // that one reaches — an in-place program may leave the aliased buffer undeclared.
        auto storage = [&](MscclBuffer t) {
            return t == MscclBuffer::Input    ? std::max(g.inputChunks, sh.in)
                   : t == MscclBuffer::Output ? std::max(g.outputChunks, sh.out)
                                              : g.scratchChunks;
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
                    out.add(finding(g.id,
                                    "tb " + std::to_string(tb.id) + " " + role + "=\"" + std::to_string(peer) +
                                        "\" is not a peer: use another rank 0.." + std::to_string(n - 1) + " or -1",
                                    tb.id));
            if (tb.channel < 0)
                out.add(finding(
                    g.id, "tb " + std::to_string(tb.id) + " chan=\"" + std::to_string(tb.channel) + "\" is negative",
                    tb.id));
            if (tb.send >= 0 && !sendChan.emplace(std::pair{tb.send, tb.channel}, tb.id).second)
                out.add(finding(g.id,
                                "tb " + std::to_string(sendChan[{tb.send, tb.channel}]) + " and tb " +
                                    std::to_string(tb.id) + " both send to rank " + std::to_string(tb.send) +
                                    " on channel " + std::to_string(tb.channel),
                                tb.id));
            if (tb.recv >= 0 && !recvChan.emplace(std::pair{tb.recv, tb.channel}, tb.id).second)
                out.add(finding(g.id,
                                "tb " + std::to_string(recvChan[{tb.recv, tb.channel}]) + " and tb " +
                                    std::to_string(tb.id) + " both receive from rank " + std::to_string(tb.recv) +
                                    " on channel " + std::to_string(tb.channel),
                                tb.id));
        }
        for (const MscclThreadblock& tb : g.threadblocks) {
            for (std::size_t k = 0; k < tb.steps.size(); ++k) {
                const MscclStep& st = tb.steps[k];
                auto bad = [&](const std::string& what) {
                    out.add(finding(g.id, located(tb.id, st.s) + ": " + what, tb.id, st.s));
                };
                if (st.s != static_cast<int>(k))
                    bad("steps of a threadblock are numbered 0, 1, 2, … in order; this is its step " +
                        std::to_string(k));
                if (mscclSends(st.type) && tb.send < 0)
                    bad(std::string(mscclOpName(st.type)) + " sends, but the threadblock has no send peer");
                if (mscclReceives(st.type) && tb.recv < 0)
                    bad(std::string(mscclOpName(st.type)) + " receives, but the threadblock has no recv peer");
                if (st.type != MscclOp::Nop && st.cnt <= 0)
                    bad("cnt=\"" + std::to_string(st.cnt) + "\": an op moves at least one chunk");
                auto range = [&](MscclBuffer b, int off, const char* which) {
                    const int limit = size(b);
                    if (st.cnt > 0 && (off < 0 || off > limit - st.cnt))
                        bad(std::string(which) + " chunks " + std::to_string(off) + ".." +
                            std::to_string(std::int64_t{off} + st.cnt - 1) + " are outside the " +
                            std::string(mscclBufferName(b)) + " buffer of " + std::to_string(limit) + " chunks (" +
                            mscclBufferLetter(b) + "_chunks)");
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

/// The block a contribution is in topocast's terms (schedule.h Block), ranks placed on nodes.
Block blockOf(const Shape& sh, std::uint32_t contribution, std::span<const NodeId> node)
{
    const int r = static_cast<int>(contribution) / sh.in, i = static_cast<int>(contribution) % sh.in;
    const auto at = [&](int rank) { return node[static_cast<std::size_t>(rank)].value(); };
    const auto part = [&](int x) { return static_cast<std::uint32_t>(x); };
    switch (sh.pattern) {
    case Pattern::Broadcast:
    case Pattern::Allgather:
    case Pattern::Gather:
        return Block{at(r), Block::kAll, part(i)};
    case Pattern::Scatter:
    case Pattern::Alltoall:
        return Block{at(r), at(i / sh.c), part(i % sh.c)};
    case Pattern::Allreduce:
    case Pattern::Reduce:
        return Block{Block::kAll, Block::kAll, part(i)};
    case Pattern::ReduceScatter:
        return Block{Block::kAll, at(i / sh.c), part(i % sh.c)};
    case Pattern::PointToPoint:
        break; // (mscclPattern names collectives only)
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
    std::map<std::tuple<int, int, int>, std::pair<std::vector<Block>, int>> merged; // (step, from, to)
    for (const Send& send : sends) {
        if (send.step <= 0)
            continue; // never ran
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
    try {
        check.pattern = mscclPattern(program.collective);
    } catch (const Error& e) { // where the file says it
        throw Error(program.algoAt.empty() ? std::string(e.what()) : program.algoAt + ": " + e.what());
    }
    check.ranks = program.ranks;
    if (program.ranks <= 0)
        throw Error("ngpus=\"" + std::to_string(program.ranks) + "\": a program needs at least one rank");
    if (static_cast<std::uint64_t>(program.ranks) != topology.nodeCount())
        throw Error("the program has " + std::to_string(program.ranks) + " ranks and the " + topology.displayName() +
                    " has " + std::to_string(topology.nodeCount()) +
                    " nodes; place it on a network with one node per rank");
    std::vector<NodeId> node(placement.begin(), placement.end());
    if (node.empty())
        for (NodeId v : nodes(topology))
            node.push_back(v);
    if (node.size() != static_cast<std::size_t>(program.ranks))
        throw Error("the placement names " + std::to_string(node.size()) + " nodes for " +
                    std::to_string(program.ranks) + " ranks");

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

std::vector<NodeId> parseRankPlacement(std::string_view text, const Topology& topology, int ranks,
                                       std::string_view what)
{
    std::vector<NodeId> nodes;
    std::map<NodeId, std::pair<std::size_t, int>> taken; // node → (rank, line)
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
            throw Error(where + "node " + topology.nodeName(v) + " is already rank " +
                        std::to_string(it->second.first) + "'s (line " + std::to_string(it->second.second) +
                        "); each rank needs a node of its own");
        nodes.push_back(v);
    }
    if (static_cast<int>(nodes.size()) != ranks)
        throw Error(std::string(what) + ": " + std::to_string(nodes.size()) + " nodes for " + std::to_string(ranks) +
                    " ranks; give one node per line, line r for rank r");
    return nodes;
}

} // namespace topocast
