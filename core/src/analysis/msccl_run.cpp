// Running an MSCCL program op by op: its time (steps), its chunks' contents and what goes
// wrong (msccl_run.h).
#include "msccl_run.h"

#include "topocast/model/limits.h"

#include <algorithm>
#include <map>
#include <queue>
#include <tuple>

namespace topocast::msccl_detail {

void Run::buildOps()
{
    std::vector<std::vector<int>> first(m_p.gpus.size()); // gpu → tb → index of its step 0
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
                m_out.add(finding(to,
                                  located(block(r).id, step(r).s) + " receives " + std::to_string(step(r).cnt) +
                                      " chunks from rank " + std::to_string(from) + ", whose matching send (" +
                                      located(block(s).id, step(s).s) + ") sends " + std::to_string(step(s).cnt),
                                  block(r).id, step(r).s));
        }
        for (std::size_t k = paired; k < sends.size(); ++k) {
            const Op& s = m_ops[static_cast<std::size_t>(sends[k])];
            m_out.add(finding(from,
                              located(block(s).id, step(s).s) + " sends to rank " + std::to_string(to) +
                                  " on channel " + std::to_string(channel) + ", but rank " + std::to_string(to) +
                                  " has no receive left for it (a send with no receive)",
                              block(s).id, step(s).s, MscclFindingKind::Deadlock));
        }
        for (std::size_t k = paired; k < recvs.size(); ++k) {
            Op& r = m_ops[static_cast<std::size_t>(recvs[k])];
            ++r.waiting; // for a send that never comes: it and everything after it never run
            m_unmatched.push_back(recvs[k]);
            m_out.add(finding(to,
                              located(block(r).id, step(r).s) + " waits for a receive from rank " +
                                  std::to_string(from) + " on channel " + std::to_string(channel) +
                                  " that is never sent: a deadlock (this stream and every op after it never run)",
                              block(r).id, step(r).s, MscclFindingKind::Deadlock));
        }
    }
}

void Run::initBuffers()
{
    std::uint64_t chunks = 0;
    for (const MscclGpu& g : m_p.gpus)
        chunks += static_cast<std::uint64_t>(std::max(g.inputChunks, m_sh.in)) +
                  static_cast<std::uint64_t>(std::max(g.outputChunks, m_sh.out)) +
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
        MscclFinding f =
            finding(op.rank, located(block(op).id, st.s) + ": " + what, block(op).id, st.s, MscclFindingKind::Data);
        f.step = static_cast<std::uint32_t>(stepNo);
        f.chunk = chunk;
        m_out.add(std::move(f));
    };
    if (!combines(m_sh.pattern)) {
        if (chunk == st.srcOff) // once per op
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
        report(
            "combines " + m_sh.name(twice.front()) + " twice" +
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
            m_losses.push_back(Loss{.rank = op.rank,
                                    .tb = block(op).id,
                                    .s = st.s,
                                    .step = stepNo,
                                    .buf = st.dstBuf,
                                    .chunk = chunk,
                                    .lost = std::move(lost)});
    }
    old = std::move(v);
    lastWrite(op.rank, st.dstBuf, chunk) = stepNo;
}

void Run::perform(Op& op)
{
    const MscclStep& st = step(op);
    const MscclOp type = st.type;
    const int stepNo = op.start; // when it receives, reads or writes (a send runs in the step after)
    const int sendStep = op.send >= 0 ? op.done : 0;
    std::vector<Value> result(static_cast<std::size_t>(std::max(st.cnt, 0)));
    for (int k = 0; k < st.cnt; ++k) {
        Value v;
        if (type == MscclOp::Send || type == MscclOp::Copy)
            v = at(op.rank, st.srcBuf, st.srcOff + k);
        else if (type == MscclOp::Reduce)
            v = combine(at(op.rank, st.dstBuf, st.dstOff + k), at(op.rank, st.srcBuf, st.srcOff + k), op, st.srcOff + k,
                        stepNo);
        else if (mscclReceives(type) && op.recv >= 0) {
            const Send& in = m_sends[static_cast<std::size_t>(op.recv)];
            v = k < static_cast<int>(in.chunks.size()) ? in.chunks[static_cast<std::size_t>(k)] : Value{};
            noteMisplaced(op, k, v);
            if (mscclReduces(type))
                v = combine(v, at(op.rank, st.srcBuf, st.srcOff + k), op, st.srcOff + k, stepNo);
        }
        if (type == MscclOp::Send && !v.defined && k == 0) {
            MscclFinding f =
                finding(op.rank,
                        located(block(op).id, st.s) + ": sends " + std::string(mscclBufferName(st.srcBuf)) + " chunk " +
                            std::to_string(st.srcOff + k) + ", which holds no data yet",
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
        m_out.add(finding(op.rank,
                          located(block(op).id, step(op).s) + " (" + std::string(mscclOpName(step(op).type)) +
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
            reportMisplaced(foreign);
            // Where a partial result lost what is missing: that op is the cause.
            for (Loss& loss : m_losses) {
                if (loss.reported || std::none_of(missing.begin(), missing.end(), [&](std::uint32_t m) {
                        return std::binary_search(loss.lost.begin(), loss.lost.end(), m);
                    }))
                    continue;
                loss.reported = true;
                MscclFinding cause =
                    finding(loss.rank,
                            located(loss.tb, loss.s) + " overwrites " + std::string(mscclBufferName(loss.buf)) +
                                " chunk " + std::to_string(loss.chunk) + ", losing " + m_sh.name(loss.lost.front()) +
                                (loss.lost.size() > 1 ? " and " + std::to_string(loss.lost.size() - 1) + " more"
                                                      : std::string()) +
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
                f.what +=
                    std::string(missing.empty() ? "" : ",") + " holding " + m_sh.name(foreign.front()) +
                    (foreign.size() > 1 ? " and " + std::to_string(foreign.size() - 1) + " more" : std::string()) +
                    ", which " + (foreign.size() > 1 ? "do" : "does") + " not belong there";
            m_out.add(std::move(f));
        }
    }
}

void Run::noteMisplaced(const Op& op, int k, const Value& received)
{
    const MscclStep& st = step(op);
    if (!received.defined || op.recv < 0)
        return;
    const auto [buf, idx] = m_sh.slot(op.rank, st.dstBuf, st.dstOff + k);
    const Send& in = m_sends[static_cast<std::size_t>(op.recv)];
    const Op& sender = m_ops[static_cast<std::size_t>(in.op)];
    const MscclStep& sent = step(sender);
    if (!combines(m_sh.pattern)) {
        // A copy into an output chunk the rank must end with: what arrives must be what belongs
        // there (a later write may still fix it, then nothing is reported: see reportMisplaced).
        const int out = st.dstOff + k;
        if (st.dstBuf != MscclBuffer::Output || out < 0 || out >= m_sh.out || !m_sh.checksOutput(op.rank))
            return;
        const std::vector<std::uint32_t> want = m_sh.expected(op.rank, out);
        // Only where the sender read it from a place it belongs (its own input chunk, or an output
        // chunk that must hold it): a chunk passed on from a wrong place is what followed.
        const int from = sent.srcOff + k;
        auto belongsWhereRead = [&](std::uint32_t part) {
            if (sent.srcBuf == MscclBuffer::Input)
                return from >= 0 && from < m_sh.in && part == static_cast<std::uint32_t>(sender.rank * m_sh.in + from);
            if (sent.srcBuf != MscclBuffer::Output || from < 0 || from >= m_sh.out || !m_sh.checksOutput(sender.rank))
                return false;
            const std::vector<std::uint32_t> home = m_sh.expected(sender.rank, from);
            return std::find(home.begin(), home.end(), part) != home.end();
        };
        for (const std::uint32_t part : received.parts)
            if (std::find(want.begin(), want.end(), part) == want.end() && belongsWhereRead(part))
                m_misplaced.push_back({sender.rank, block(sender).id, sent.s, in.step, sent.srcOff + k, op.rank,
                                       block(op).id, st.s, out, MscclBuffer::Output, part, false, true, sent.srcBuf});
        return;
    }
    const auto [sentBuf, sentIdx] = m_sh.slot(sender.rank, sent.srcBuf, sent.srcOff + k);
    if (buf != MscclBuffer::Input || sentBuf != MscclBuffer::Input || m_sh.in <= 0)
        return; // scratch chunks have no chunk index of their own
    for (const std::uint32_t part : received.parts) {
        const int chunk = static_cast<int>(part) % m_sh.in;
        // Foreign here, at home where it was read: this transfer mixed the chunks.
        if (chunk != idx % m_sh.in && chunk == sentIdx % m_sh.in)
            m_misplaced.push_back({sender.rank, block(sender).id, sent.s, in.step, sent.srcOff + k, op.rank,
                                   block(op).id, st.s, st.dstOff + k, st.dstBuf, part, false});
    }
}

void Run::reportMisplaced(const std::vector<std::uint32_t>& foreign)
{
    for (Misplacement& m : m_misplaced) {
        if (m.reported || !std::binary_search(foreign.begin(), foreign.end(), m.part))
            continue;
        m.reported = true;
        const std::string what = m.copy ? m_sh.name(m.part) + " placed in output chunk " + std::to_string(m.chunk) +
                                              ", where " + m_sh.name(m_sh.expected(m.receiver, m.chunk).front()) +
                                              " belongs"
                                        : m_sh.name(m.part) + " mixed into chunk " + std::to_string(m.chunk);
        MscclFinding cause = finding(
            m.sender,
            located(m.sendTb, m.sendS) + " sends " + std::string(mscclBufferName(m.sendBuf)) + " chunk " +
                std::to_string(m.sendChunk) + " to rank " + std::to_string(m.receiver) + ", whose " +
                located(m.recvTb, m.recvS) + " takes it into " + std::string(mscclBufferName(m.buf)) + " chunk " +
                std::to_string(m.chunk) + ": " + what + " (the wrong chunk sent, or received into the wrong place?)",
            m.sendTb, m.sendS, MscclFindingKind::Data);
        cause.step = static_cast<std::uint32_t>(m.sendStep);
        cause.chunk = m.chunk;
        m_out.add(std::move(cause));
    }
}

} // namespace topocast::msccl_detail
