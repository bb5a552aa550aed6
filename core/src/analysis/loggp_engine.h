#pragma once
// Internal to the time engine: LogGOPSim's simulation loop (the LogGP backend without noise) over
// an OpProgram, shared by timeProgram (time_engine.cpp) and the schedule timings
// (schedule_time.cpp).
#include "topocast/analysis/time_engine.h"

#include "loggp_match.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <string>
#include <vector>

namespace topocast::loggp {

/// Seconds to nanoseconds, rounded to 10⁻⁶ ns so that values given in whole nanoseconds (every
/// LogGOPSim parameter) are whole numbers here and sums of them exact.
inline double nanoseconds(double seconds)
{
    return std::round(seconds * 1e15) / 1e6;
}

/// The network model in nanoseconds, as the engine uses it.
struct Params {
    double L, o, g, G, hop;
    std::uint64_t S;
    bool storeAndForward;
    bool receiveCopies;
    bool halfDuplex; ///< a port's sends and receives share one gap
    explicit Params(const NetworkModel& m)
        : L(nanoseconds(m.latency)), o(nanoseconds(m.overhead)), g(nanoseconds(m.gap)), G(nanoseconds(m.perByte)),
          hop(nanoseconds(m.hopLatency)), S(m.rendezvous), storeAndForward(m.routing == Routing::StoreAndForward),
          receiveCopies(m.receiveCopies), halfDuplex(m.ports == NetworkPorts::Half)
    {
    }
    /// When a message sent at `t` reaches the receiver's port: LogGOPSim's t + o + L, plus the
    /// latency of each hop, plus, store-and-forward, the whole message again at every hop but the
    /// last (the last hop's bytes are charged at the receiver, as LogGP charges them).
    double arrival(double t, std::uint64_t bytes, std::uint32_t hops) const
    {
        double a = t + o + L + hops * hop;
        if (storeAndForward && hops > 1)
            a += (hops - 1) * static_cast<double>(bytes) * G;
        return a;
    }
};

enum class Kind : std::uint8_t {
    Send = 1,
    Recv = 2,
    Calc = 3,
    Msg = 4,
    Transit = 5
}; // LogGOPSim's numbering and order (Transit: the wire's)

/// An entry of the event queue (LogGOPSim's graph_node_properties, reduced to what is not in the
/// op itself: a message is its send op arriving at the peer).
struct Event {
    double time = 0;
    std::uint64_t ts = 0; ///< insertion count: ties in time go in insertion order
    std::uint32_t op = 0;
    Kind kind = Kind::Send;
};

struct Later {
    bool operator()(const Event& a, const Event& b) const { return a.time != b.time ? a.time > b.time : a.ts > b.ts; }
};

/// Where a message's bytes cross the links of its route when something else than the model's own
/// arithmetic decides how long that takes (a flow-level simulation, simgrid_run.cpp). The engine
/// asks it to move the bytes of a send at the time they would start moving, and is told
/// (Engine::flowDone) when they are through; a message alone on its links takes exactly the
/// model's time, so a wire only adds the delay of sharing them.
class Wire {
public:
    virtual ~Wire() = default;
    /// Moves the bytes of send op `op` from `at` (nanoseconds): `transit`, store-and-forward,
    /// the whole message over every link of the route but the last, one after the other; else
    /// over the links left (cut-through: the whole route; store-and-forward: the last link).
    virtual void start(std::uint32_t op, bool transit, double at) = 0;
};

/// LogGOPSim's simulation loop (LogGOPSim.cpp, the LogGP backend without noise), over an
/// OpProgram. One instance can run several programs in turn on the same hosts (the steps of a
/// schedule with barriers between them): resource times carry over.
class Engine {
public:
    Engine(std::uint32_t ranks, std::uint32_t cpus, std::uint32_t nics, const Params& p, bool wildcards)
        : m_p(p), m_cpus(cpus), m_nics(nics), m_nexto(std::size_t{ranks} * cpus, 0.0),
          m_nextgs(std::size_t{ranks} * nics, 0.0), m_nextgr(std::size_t{ranks} * nics, 0.0),
          m_rq(ranks, MatchQueue(wildcards)), m_uq(ranks, MatchQueue(wildcards))
    {
    }

    /// Runs `program`'s ops (their timings into `timing`, indexed as the program) with every op
    /// free of dependencies made ready at `start`.
    void run(const OpProgram& program, double start, std::vector<OpTiming>& timing, std::vector<std::uint8_t>& done)
    {
        begin(program, start, timing, done);
        drain(std::numeric_limits<double>::infinity());
    }

    /// What run does before its loop: the program's ops and the first of them queued.
    void begin(const OpProgram& program, double start, std::vector<OpTiming>& timing, std::vector<std::uint8_t>& done)
    {
        m_ops = &program.ops;
        m_timing = &timing;
        m_done = &done;
        const std::size_t n = program.ops.size();
        buildDependencies(program);
        m_paired = program.pairedByIndex;
        if (m_w.wire && !m_paired)
            throw Error("a program of messages matched by queues cannot go on a wire (only a schedule's program can)");
        if (m_paired) {
            m_posted.assign(n / 2, 0);
            m_arrived.assign(n / 2, -1.0);
        }
        m_readyAt.assign(n, 0.0);
        m_finish.resize(program.ranks, 0.0);
        m_executable.assign(program.ranks, {});
        for (std::uint32_t i = 0; i < n; ++i)
            if (m_depcnt[i] == 0)
                m_executable[program.ops[i].rank].push_back(i);
        if (m_w.wire) {
            m_w.flowStart.assign(n / 2, 0.0);
            m_w.nominal.assign(n / 2, 0.0);
            m_w.postedAt.assign(n / 2, 0.0);
            m_w.head.assign(n / 2, 0);
        }
        for (std::uint32_t host = 0; host < program.ranks; ++host)
            release(host, start, true);
    }

    /// Takes the queue's events up to time `upTo` (their consequences at `upTo` or before too).
    void drain(double upTo)
    {
        while (!m_queue.empty() && m_queue.top().time <= upTo) {
            Event e = m_queue.top();
            m_queue.pop();
            m_ties.tied = m_ties.tied || e.time == m_ties.lastPop;
            m_ties.lastPop = e.time;
            step(e);
            releaseChecked();
        }
    }
    /// The time of the next event queued (infinity when none).
    double nextTime() const { return m_queue.empty() ? std::numeric_limits<double>::infinity() : m_queue.top().time; }
    /// Messages whose bytes are on a wire now.
    std::size_t inFlight() const { return m_w.inFlight; }

    /// Paired programs only: every message's bytes cross their links on `wire` (which must outlive
    /// the runs). Set before begin.
    void setWire(Wire* wire) { m_w.wire = wire; }
    /// The bytes of send `op` that `wire` started (`transit` as started) are through at `end`.
    /// A message alone on its links ends when the model says, and the engine's times are then
    /// exactly its own; the delay of sharing them (below a picosecond is rounding) is carried
    /// into the receive's end.
    void flowDone(std::uint32_t op, bool transit, double end);

    /// When each rank finishes: its processors' latest release, or its last op's end where that
    /// is later (a receive whose bytes the interface writes after the processor is free).
    std::vector<double> rankFinish(std::uint32_t ranks) const
    {
        std::vector<double> out(m_finish.begin(), m_finish.end());
        out.resize(ranks, 0.0);
        for (std::uint32_t r = 0; r < ranks; ++r)
            for (std::uint32_t c = 0; c < m_cpus; ++c)
                out[r] = std::max(out[r], m_nexto[std::size_t{r} * m_cpus + c]);
        return out;
    }
    /// Whether two events were taken from the queue at the same instant (their order then is
    /// the queue's insertion order).
    bool tied() const { return m_ties.tied; }
    /// Records, per receive op, the send op it matched (programs matched by queues only).
    void recordMatches(std::vector<std::uint32_t>* matched) { m_matched = matched; }
    const std::vector<MatchQueue>& postedReceives() const { return m_rq; }
    const std::vector<MatchQueue>& unexpectedMessages() const { return m_uq; }

private:
    /// Releases the ops of every host an event touched.
    void releaseChecked()
    {
        std::sort(m_check.begin(), m_check.end());
        m_check.erase(std::unique(m_check.begin(), m_check.end()), m_check.end());
        m_hosts.swap(m_check);
        m_check.clear();
        for (std::uint32_t host : m_hosts)
            release(host, 0, false);
        m_hosts.clear();
    }
    /// A delay of a picosecond or less (or early: rounding of the wire's clock) is none.
    static double delayOf(double end, double nominal) { return end - nominal > 1e-3 ? end - nominal : 0.0; }

    double& nexto(std::uint32_t h, std::uint32_t c) { return m_nexto[std::size_t{h} * m_cpus + c]; }
    double& nextgs(std::uint32_t h, std::uint32_t n) { return m_nextgs[std::size_t{h} * m_nics + n]; }
    /// The receive side's gap: its own, or, half-duplex, the port's one gap.
    double& nextgr(std::uint32_t h, std::uint32_t n)
    {
        return (m_p.halfDuplex ? m_nextgs : m_nextgr)[std::size_t{h} * m_nics + n];
    }

    void buildDependencies(const OpProgram& program)
    {
        const std::size_t n = program.ops.size();
        m_depcnt.assign(n, 0);
        m_after.assign(n + 1, 0);
        m_afterStart.assign(n + 1, 0);
        for (const ProgramDependency& d : program.dependencies) {
            if (d.op >= n || d.on >= n)
                throw Error("a dependency names op " + std::to_string(std::max(d.op, d.on)) + " of a program of " +
                            std::to_string(n) + " ops");
            ++m_depcnt[d.op];
            ++(d.onStart ? m_afterStart : m_after)[d.on + 1];
        }
        for (std::size_t i = 0; i < n; ++i) {
            m_after[i + 1] += m_after[i];
            m_afterStart[i + 1] += m_afterStart[i];
        }
        m_afterList.assign(m_after[n], 0);
        m_afterStartList.assign(m_afterStart[n], 0);
        std::vector<std::uint32_t> fill(m_after.begin(), m_after.end() - 1);
        std::vector<std::uint32_t> fillStart(m_afterStart.begin(), m_afterStart.end() - 1);
        for (const ProgramDependency& d : program.dependencies) {
            if (d.onStart)
                m_afterStartList[fillStart[d.on]++] = d.op;
            else
                m_afterList[fill[d.on]++] = d.op;
        }
    }

    void markStarted(std::uint32_t op, double t)
    {
        (*m_timing)[op].start = t;
        for (std::uint32_t i = m_afterStart[op]; i < m_afterStart[op + 1]; ++i)
            ready(m_afterStartList[i]);
    }
    void markDone(std::uint32_t op, double end)
    {
        (*m_timing)[op].end = end;
        (*m_done)[op] = 1;
        double& finish = m_finish[(*m_ops)[op].rank];
        finish = std::max(finish, end);
        for (std::uint32_t i = m_after[op]; i < m_after[op + 1]; ++i) {
            double& at = m_readyAt[m_afterList[i]];
            at = std::max(at, end);
            ready(m_afterList[i]);
        }
    }
    void ready(std::uint32_t op)
    {
        if (--m_depcnt[op] == 0)
            m_executable[(*m_ops)[op].rank].push_back(op);
    }

    /// Moves the ops of `host` that became executable into the queue, sends first, then
    /// receives, then calcs (LogGOPSim sorts them by type with std::sort; so does this, so equal
    /// types keep LogGOPSim's order).
    void release(std::uint32_t host, double at, bool initial)
    {
        std::vector<std::uint32_t>& free = m_executable[host];
        if (free.empty())
            return;
        m_scratch.swap(free);
        free.clear();
        std::sort(m_scratch.begin(), m_scratch.end(), [&](std::uint32_t a, std::uint32_t b) {
            return static_cast<int>(toKind((*m_ops)[a].kind)) < static_cast<int>(toKind((*m_ops)[b].kind));
        });
        for (std::uint32_t op : m_scratch) {
            const ProgramOp& p = (*m_ops)[op];
            Event e{.time = 0, .ts = m_ts++, .op = op, .kind = toKind(p.kind)};
            // (Not before what it waits for has ended: with receives that leave the processor
            // free early, that can be after the processor is; with LogGOPSim's rules it never is.)
            if (initial)
                e.time = at;
            else if (e.kind == Kind::Send)
                e.time = std::max({nexto(host, p.cpu), nextgs(host, p.nic), m_readyAt[op]});
            else
                e.time = std::max(nexto(host, p.cpu), m_readyAt[op]);
            // A receive of a paired program is posted at once: its event would come before any
            // message that could match it (a message is made later, at a time no earlier).
            if (m_paired && e.kind == Kind::Recv)
                step(e);
            else
                m_queue.push(e);
        }
        m_scratch.clear();
    }

    static Kind toKind(ProgramOp::Kind k)
    {
        return k == ProgramOp::Kind::Send ? Kind::Send : k == ProgramOp::Kind::Recv ? Kind::Recv : Kind::Calc;
    }

    void requeue(Event e, double t)
    {
        e.time = t;
        m_queue.push(e);
    }

    /// The rendezvous is over for the send `op` of `src` at `t`: it completes, and the sender's
    /// processor and port are held until then.
    void rendezvousDone(std::uint32_t src, std::uint32_t op, std::uint32_t proc, std::uint32_t nic, double t)
    {
        markDone(op, t);
        m_check.push_back(src);
        nexto(src, proc) = std::max(nexto(src, proc), t);
        nextgs(src, nic) = std::max(nextgs(src, nic), t);
    }

    /// Wire: the message of send `e.op` reached its receiver's port (charged already); its bytes
    /// go on the wire, and the receive ends when they are through (flowDone).
    void arriveOnWire(const Event& e, const ProgramOp& op, double inPlace)
    {
        const std::uint32_t i = e.op / 2;
        m_w.head[i] = 1;
        m_w.nominal[i] = inPlace;
        m_w.flowStart[i] = e.time;
        if (m_posted[i] && op.size > m_p.S)
            rendezvousDone(op.rank, e.op, op.cpu, op.nic, e.time);
        ++m_w.inFlight;
        m_w.wire->start(e.op, false, e.time);
    }
    /// Wire: receive `e.op` is posted before its bytes are in place.
    void postOnWire(const Event& e, const ProgramOp& op)
    {
        const std::uint32_t i = (e.op - 1) / 2;
        m_posted[i] = 1;
        m_w.postedAt[i] = e.time;
        if (m_w.head[i] && op.size > m_p.S)
            rendezvousDone(op.peer, e.op - 1, op.cpu, op.nic, e.time);
        if (m_w.head[i] || m_afterStart[e.op] != m_afterStart[e.op + 1])
            m_check.push_back(op.rank);
    }

    /// The message of send `e.op` reaches its receiver's port.
    void message(Event& e, const ProgramOp& op, double s1)
    {
        // The message of send `op` at its receiver; LogGOPSim charges the receiver's processor
        // index of the sender's processor.
        const std::uint32_t h = op.peer;
        const double free = std::max(nexto(h, op.cpu), nextgr(h, op.recvNic));
        if (free > e.time) {
            requeue(e, free);
            return;
        }
        nexto(h, op.cpu) = e.time + m_p.o + (m_p.receiveCopies ? s1 * m_p.G : 0.0);
        nextgr(h, op.recvNic) = e.time + m_p.g + s1 * m_p.G;
        const double inPlace = e.time + m_p.o + s1 * m_p.G;
        if (m_w.wire) {
            arriveOnWire(e, op, inPlace);
            return;
        }
        if (m_paired) {
            if (m_posted[e.op / 2]) {
                if (op.size > m_p.S)
                    rendezvousDone(op.rank, e.op, op.cpu, op.nic, e.time);
                markDone(e.op + 1, inPlace);
                m_check.push_back(h);
            } else {
                m_arrived[e.op / 2] = inPlace;
            }
            return;
        }
        Pending m;
        if (m_rq[h].take(op.rank, op.tag, m)) {
            if (op.size > m_p.S)
                rendezvousDone(op.rank, e.op, op.cpu, op.nic, e.time);
            markDone(m.op, inPlace);
            if (m_matched)
                (*m_matched)[m.op] = e.op;
            m_check.push_back(h);
        } else {
            m_uq[h].push(Pending{op.rank, op.tag, op.size, e.op, inPlace});
        }
    }

    void step(Event& e)
    {
        const ProgramOp& op = (*m_ops)[e.op];
        // (size − 1) bytes are charged G each; LogGOPSim's unsigned arithmetic makes that −1 for
        // an empty message (it is charged −G), and so does this, to agree with it.
        const double s1 = op.size > 0 ? static_cast<double>(op.size - 1) : -1.0;
        switch (e.kind) {
        case Kind::Calc: {
            const std::uint32_t h = op.rank;
            if (nexto(h, op.cpu) <= e.time) {
                nexto(h, op.cpu) = e.time + static_cast<double>(op.size);
                markStarted(e.op, e.time);
                markDone(e.op, nexto(h, op.cpu));
                m_check.push_back(h);
            } else {
                requeue(e, nexto(h, op.cpu));
            }
            return;
        }
        case Kind::Send: {
            const std::uint32_t h = op.rank;
            const double free = std::max(nexto(h, op.cpu), nextgs(h, op.nic));
            if (free > e.time) {
                requeue(e, free);
                return;
            }
            markStarted(e.op, e.time);
            m_check.push_back(h);
            nexto(h, op.cpu) = e.time + m_p.o;
            nextgs(h, op.nic) = e.time + m_p.g + s1 * m_p.G;
            if (m_w.wire && m_p.storeAndForward && op.hops > 1) // the hops before the last on the wire
                m_queue.push(
                    Event{.time = m_p.arrival(e.time, 0, op.hops), .ts = m_ts++, .op = e.op, .kind = Kind::Transit});
            else
                m_queue.push(
                    Event{.time = m_p.arrival(e.time, op.size, op.hops), .ts = m_ts++, .op = e.op, .kind = Kind::Msg});
            if (op.size <= m_p.S)
                markDone(e.op, nexto(h, op.cpu));
            return;
        }
        case Kind::Recv: {
            const std::uint32_t h = op.rank;
            markStarted(e.op, e.time);
            if (m_paired) {
                const std::uint32_t send = e.op - 1;
                if (m_w.wire && m_arrived[send / 2] < 0) {
                    postOnWire(e, op);
                    return;
                }
                if (m_arrived[send / 2] >= 0) {
                    if (op.size > m_p.S)
                        rendezvousDone(op.peer, send, op.cpu, op.nic, e.time);
                    markDone(e.op, std::max(e.time, m_arrived[send / 2]));
                    m_check.push_back(h);
                } else {
                    m_posted[send / 2] = 1;
                    // Only an op waiting for this receive to start has anything new to release.
                    if (m_afterStart[e.op] != m_afterStart[e.op + 1])
                        m_check.push_back(h);
                }
                return;
            }
            m_check.push_back(h);
            Pending m;
            if (m_uq[h].take(op.peer, op.tag, m)) {
                // The message is here and already charged; LogGOPSim lets the receive's size
                // decide whether the sender was waiting (and the receive's processor and port
                // index the sender's, as there).
                if (op.size > m_p.S)
                    rendezvousDone(m.src, m.op, op.cpu, op.nic, e.time);
                markDone(e.op, std::max(e.time, m.ready));
                if (m_matched)
                    (*m_matched)[e.op] = m.op;
            } else {
                m_rq[h].push(Pending{op.peer, op.tag, op.size, e.op, 0.0});
            }
            return;
        }
        case Kind::Transit:
            m_w.flowStart[e.op / 2] = e.time;
            ++m_w.inFlight;
            m_w.wire->start(e.op, true, e.time);
            return;
        case Kind::Msg:
            message(e, op, s1);
            return;
        }
    }

    Params m_p;
    std::uint32_t m_cpus, m_nics;
    std::vector<double> m_nexto, m_nextgs, m_nextgr;
    std::vector<MatchQueue> m_rq, m_uq;
    std::priority_queue<Event, std::vector<Event>, Later> m_queue;
    std::uint64_t m_ts = 0;
    /// Whether two events were taken at one instant (tied()), and the last event's time.
    struct Ties {
        bool tied = false;
        double lastPop = -1.0;
    } m_ties;
    const std::vector<ProgramOp>* m_ops = nullptr;
    std::vector<OpTiming>* m_timing = nullptr;
    std::vector<std::uint8_t>* m_done = nullptr;
    std::vector<std::uint32_t>* m_matched = nullptr;
    std::vector<std::uint32_t> m_depcnt, m_after, m_afterStart, m_afterList, m_afterStartList;
    std::vector<std::vector<std::uint32_t>> m_executable;
    std::vector<std::uint32_t> m_check;
    std::vector<std::uint32_t> m_scratch;
    std::vector<std::uint32_t> m_hosts;
    bool m_paired = false;              ///< send 2i pairs with receive 2i+1 (a schedule's program)
    std::vector<std::uint8_t> m_posted; ///< paired: transfer i's receive is posted
    std::vector<double> m_arrived;      ///< paired: when transfer i's message is in place (−1: not yet)
    /// What a wire needs kept per transfer (setWire; empty without one).
    struct OnWire {
        Wire* wire = nullptr;
        std::size_t inFlight = 0;
        std::vector<double> flowStart;  ///< when its bytes started on the wire
        std::vector<double> nominal;    ///< when its bytes would be in place alone
        std::vector<double> postedAt;   ///< when its receive was posted
        std::vector<std::uint8_t> head; ///< its message reached the receiver's port
    } m_w;
    std::vector<double> m_readyAt; ///< per op: the latest end of the ops it requires
    std::vector<double> m_finish;  ///< per rank: the latest end of its ops
};

inline void Engine::flowDone(std::uint32_t op, bool transit, double end)
{
    const std::uint32_t i = op / 2;
    --m_w.inFlight;
    const ProgramOp& p = (*m_ops)[op];
    if (transit) {
        const double nominal = m_w.flowStart[i] + (p.hops - 1) * static_cast<double>(p.size) * m_p.G;
        m_queue.push(Event{.time = nominal + delayOf(end, nominal), .ts = m_ts++, .op = op, .kind = Kind::Msg});
        return;
    }
    // (The wire carries the (M − 1) bytes the model charges.)
    const double wire = p.size > 0 ? static_cast<double>(p.size - 1) * m_p.G : 0.0;
    const double inPlace = m_w.nominal[i] + delayOf(end, m_w.flowStart[i] + wire);
    m_arrived[i] = inPlace;
    if (m_posted[i]) {
        markDone(op + 1, std::max(m_w.postedAt[i], inPlace));
        m_check.push_back(p.peer);
        releaseChecked();
    }
}

inline bool hasWildcards(const OpProgram& program)
{
    return std::any_of(program.ops.begin(), program.ops.end(), [](const ProgramOp& op) {
        return op.kind == ProgramOp::Kind::Recv && (op.peer == ProgramOp::kAny || op.tag == ProgramOp::kAny);
    });
}

inline std::uint32_t countOf(const OpProgram& program, std::uint32_t ProgramOp::*field)
{
    std::uint32_t most = 0;
    for (const ProgramOp& op : program.ops)
        most = std::max(most, op.*field);
    return most + 1;
}

inline std::uint32_t nicCount(const OpProgram& program)
{
    std::uint32_t most = 0;
    for (const ProgramOp& op : program.ops)
        most = std::max({most, op.nic, op.recvNic});
    return most + 1;
}

inline std::string opName(const OpProgram& program, std::uint32_t i)
{
    const ProgramOp& op = program.ops[i];
    std::string what =
        op.kind == ProgramOp::Kind::Send
            ? "send of " + std::to_string(op.size) + " B to rank " + std::to_string(op.peer)
        : op.kind == ProgramOp::Kind::Recv
            ? "receive of " + std::to_string(op.size) + " B from " +
                  (op.peer == ProgramOp::kAny ? std::string("any rank") : "rank " + std::to_string(op.peer))
            : "calc " + std::to_string(op.size);
    if (op.kind != ProgramOp::Kind::Calc)
        what += " tag " + (op.tag == ProgramOp::kAny ? std::string("any") : std::to_string(op.tag));
    std::string where = "rank " + std::to_string(op.rank);
    if (i < program.labels.size() && !program.labels[i].empty())
        where += " op " + program.labels[i];
    if (op.line > 0)
        where = "line " + std::to_string(op.line) + ", " + where;
    return where + ": " + what;
}

inline void finish(TimeResult& r, const Engine& engine, const OpProgram& program, const std::vector<std::uint8_t>& done)
{
    r.rankFinish = engine.rankFinish(program.ranks);
    r.total = 0;
    r.lastRank = 0;
    for (std::uint32_t i = 0; i < r.rankFinish.size(); ++i)
        if (r.rankFinish[i] > r.total) {
            r.total = r.rankFinish[i];
            r.lastRank = i;
        }
    constexpr std::size_t kListed = 20;
    std::size_t unfinished = 0;
    for (std::uint32_t i = 0; i < program.ops.size(); ++i)
        if (!done[i] && unfinished++ < kListed)
            r.unfinished.push_back(opName(program, i) + (program.ops[i].kind == ProgramOp::Kind::Recv
                                                             ? " was never matched or never posted"
                                                             : " never completed (it waits on an op that never did)"));
    if (unfinished > kListed)
        r.unfinished.push_back("… and " + std::to_string(unfinished - kListed) + " more ops that never completed");
    r.notes.push_back("contention between messages that share a link is not charged (each message has its links to "
                      "itself); a flow-level simulation charges it");
}

/// Throws Error (checkMemory) when running `program` would be over the memory limit.
void checkProgramMemory(const OpProgram& program);

} // namespace topocast::loggp
