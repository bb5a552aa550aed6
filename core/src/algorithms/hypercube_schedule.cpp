#include "topocast/algorithms/hypercube_schedule.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace topocast::hypercube {

namespace {

constexpr std::uint64_t kMaxMoves = std::uint64_t{1} << 25;

/// Collects block moves and combines those on one directed link in one cycle (§2).
class Accumulator {
public:
    void add(std::uint32_t cycle, NodeId from, NodeId to, std::uint32_t tag, const Rational& size, const Block& b)
    {
        const auto d = static_cast<std::uint64_t>(std::countr_zero(from ^ to));
        const std::uint64_t key = (std::uint64_t{cycle} << 26) | (std::uint64_t{from} << 5) | d;
        auto [it, inserted] = m_index.try_emplace(key, static_cast<std::uint32_t>(m_out.size()));
        if (inserted) {
            m_out.push_back(RawTransfer{cycle, from, to, tag, size, {b}});
        } else {
            RawTransfer& t = m_out[it->second];
            t.size += size;
            t.tag = std::min(t.tag, tag);
            t.blocks.push_back(b);
        }
        if (++m_moves > kMaxMoves)
            throw Error("schedule too large to enumerate (more than " + std::to_string(kMaxMoves) +
                        " block moves); use a smaller n or fewer packets (larger B)");
    }

    std::vector<RawTransfer> finish()
    {
        m_index.clear();
        for (auto& t : m_out)
            std::sort(t.blocks.begin(), t.blocks.end());
        std::sort(m_out.begin(), m_out.end(), [](const RawTransfer& a, const RawTransfer& b) {
            return std::tie(a.cycle, a.from, a.to) < std::tie(b.cycle, b.from, b.to);
        });
        return std::move(m_out);
    }

private:
    std::unordered_map<std::uint64_t, std::uint32_t> m_index;
    std::vector<RawTransfer> m_out;
    std::uint64_t m_moves = 0;
};

struct Packet {
    std::uint32_t part = 0;
    Rational size;
    std::uint32_t offset = 0; ///< added to the edge's base cycle
};

std::uint32_t u32(long long v)
{
    return static_cast<std::uint32_t>(v);
}

/// Throws Error unless the request names a served (algorithm, pattern, ports), valid cost
/// parameters, a node of the cube and a variant the algorithm has.
void checkRequest(const ScheduleRequest& rq)
{
    requireServed(rq.algorithm, rq.pattern, rq.ports);
    checkCostParams(rq.cost, rq.pattern);
    const int n = rq.cost.n;
    const std::uint32_t N = 1u << n;
    if (rq.source >= N)
        throw Error("source " + std::to_string(rq.source) + " is outside the " + std::to_string(n) + "-cube (0.." +
                    std::to_string(N - 1) + ")");
    const std::string& A = rq.algorithm;
    if (rq.variant == "streaming")
        throw Error("variant streaming is the source-side bound of §5.1.5 only; the paper gives no schedule for it "
                    "(use `topocast-cli compare`)");
    if (!rq.variant.empty() && !(A == "hp" && rq.pattern == Pattern::Broadcast && rq.variant == "nopipe") &&
        !(A == "sbt" && rq.pattern == Pattern::Scatter && (rq.variant == "postorder" || rq.variant == "subtree")))
        throw Error("unknown variant '" + rq.variant +
                    "'; variants: nopipe (hp broadcast), postorder or subtree (sbt one-port scatter)");
}

/// The spanning graph of a request and what the schedules read from it: tree levels and
/// parents, one-port labels (computed on first use), the sizes.
class GraphView {
public:
    explicit GraphView(const ScheduleRequest& request)
        : rq(request), g(buildGraph(graphFor(request.algorithm, request.ports), request.cost.n)), n(request.cost.n),
          N(1u << n), M(request.cost.M), B(request.cost.B), w(g.weight()),
          one(request.ports == Ports::One || request.ports == Ports::Half)
    {
    }

    std::uint32_t level(int t, std::uint32_t c) const { return g.level[static_cast<std::size_t>(t)][c]; }
    std::uint32_t parent(int t, std::uint32_t c) const { return g.parent[static_cast<std::size_t>(t)][c]; }
    std::uint32_t label(int t, std::uint32_t c) const
    {
        if (m_labels.empty())
            m_labels = oneportLabels(g);
        return m_labels[static_cast<std::size_t>(t)][c];
    }
    /// (dimension into c − t) mod n: the cycle of c's edge when tree t starts on dimension t.
    std::uint32_t offsetDim(int t, std::uint32_t c) const { return u32(((g.dimInto(t, c) - t) % n + n) % n); }
    /// Every node for the all-to-all patterns, else the request's source.
    std::vector<NodeId> sources() const
    {
        std::vector<NodeId> s;
        if (rq.pattern == Pattern::Allgather || rq.pattern == Pattern::Alltoall)
            for (NodeId v{}; v < N; ++v)
                s.push_back(v);
        else
            s.push_back(rq.source);
        return s;
    }

    const ScheduleRequest& rq;
    const SpanningGraph g;
    const int n;
    const std::uint32_t N;
    const Rational M, B, w;
    const bool one; ///< one-port or half duplex: the label schedules

private:
    mutable std::vector<std::vector<std::uint32_t>> m_labels;
};

// ---- broadcast and all-to-all broadcast: every node receives copies of whole packets ---------

/// Which packets go down which tree, and the cycle of tree t's edge into c for a packet at
/// offset 0.
struct CopyPlan {
    std::vector<std::vector<Packet>> packets; ///< per tree
    std::function<std::uint32_t(int, std::uint32_t)> base;
    std::string discipline;
};

CopyPlan planCopies(const GraphView& v)
{
    const ScheduleRequest& rq = v.rq;
    const std::string& A = rq.algorithm;
    const Ports ports = rq.ports;
    const int n = v.n;
    CopyPlan plan;
    plan.packets.resize(static_cast<std::size_t>(v.g.trees));
    plan.base = [&v](int t, std::uint32_t c) { return v.level(t, c) - 1; };
    const auto label = [&v](int t, std::uint32_t c) { return v.label(t, c); };
    const long long Q = (v.M / v.B).ceil();
    auto pkt = [&](long long q) { return Rational(std::min(rq.cost.B, rq.cost.M - q * rq.cost.B)); };
    auto onePerTree = [&] {
        for (int t = 0; t < v.g.trees; ++t)
            plan.packets[static_cast<std::size_t>(t)].push_back({u32(v.g.trees > 1 ? t : 0), v.M * v.w, 0});
    };
    auto pipelined = [&](long long every) {
        for (long long q = 0; q < Q; ++q)
            plan.packets[0].push_back({u32(q), pkt(q), u32(every * q)});
    };
    if (rq.pattern == Pattern::Allgather) {
        onePerTree();
        if (v.one)
            plan.base = label;
        plan.discipline = v.one ? "label schedule (§6.2)" : "level by level, all nodes together (Thm. 6.2)";
    } else if (A == "hp") {
        if (ports == Ports::N) {
            onePerTree();
            plan.discipline = "n paths in lock-step, no pipelining (§4.2)";
        } else if (rq.variant == "nopipe") {
            onePerTree();
            plan.discipline = "whole message hop by hop (§4.1.1)";
        } else {
            pipelined(ports == Ports::SendRecv ? 1 : 2);
            plan.discipline = "pipelined along the path (§4.2)";
        }
    } else if (A == "sbt" || A == "tcbt") {
        if (ports == Ports::N) {
            pipelined(1);
            plan.discipline = "pipelined, one level per cycle (§4.2)";
        } else if (A == "sbt") {
            onePerTree();
            plan.base = label;
            plan.discipline = "dimension t in cycle t, whole message (§4.2)";
        } else {
            pipelined(ports == Ports::SendRecv ? 2 : 3);
            plan.base = label;
            plan.discipline = "two children one after the other, pipelined (§4.2)";
        }
    } else if (A == "nrsbt") {
        onePerTree();
        if (v.one)
            plan.base = label;
        else
            plan.base = [&v](int t, std::uint32_t c) { return v.offsetDim(t, c); };
        plan.discipline = v.one ? "part j on SBT_j, dimension t mod n in cycle t (§4.2)"
                                : "part j on SBT_j, dimension (j+i) mod n in cycle i (§4.2)";
    } else if (A == "nesbt") {
        if (v.one) {
            for (long long q = 0; q < Q; ++q)
                plan.packets[static_cast<std::size_t>(q % n)].push_back({u32(q), pkt(q), u32((q / n) * n)});
            plan.base = label;
            plan.discipline =
                ports == Ports::Half
                    ? "one-port label schedule (Thm. 4.1) with each cycle split into two half-duplex cycles [R]"
                    : "packet q on ERSBT_(q mod n), labels f(i,j) + round·n (Thm. 4.1)";
        } else {
            const long long rounds = (v.M / (Rational(n) * v.B)).ceil();
            for (long long r = 0; r < rounds; ++r)
                for (int j = 0; j < n; ++j) {
                    const long long part = r * n + j;
                    const Rational size = std::max(Rational(0), std::min(v.B, v.M - Rational(part) * v.B));
                    if (size > Rational(0))
                        plan.packets[static_cast<std::size_t>(j)].push_back({u32(part), size, u32(r)});
                }
            plan.discipline = "one packet per ERSBT per round, one level per cycle (§4.2)";
        }
    }
    return plan;
}

/// Every packet of every source down every edge of its tree. Returns the number of parts.
std::uint32_t addCopies(const GraphView& v, const CopyPlan& plan, Accumulator& acc)
{
    std::uint32_t maxPart = 0;
    for (NodeId s : v.sources())
        for (int t = 0; t < v.g.trees; ++t)
            for (const Packet& pk : plan.packets[static_cast<std::size_t>(t)]) {
                maxPart = std::max(maxPart, pk.part);
                for (std::uint32_t c = 1; c < v.N; ++c)
                    acc.add(plan.base(t, c) + pk.offset, NodeId{v.parent(t, c) ^ s}, NodeId{c ^ s}, u32(t), pk.size,
                            Block{s, Block::kAll, pk.part});
            }
    return maxPart + 1;
}

// ---- personalized patterns: the block for y travels from the source down to y ---------------

/// The cycle in which tree t's edge into x carries the block for y.
using HopCycle = std::function<std::uint32_t(int t, std::uint32_t y, std::uint32_t x)>;

struct RoutePlan {
    HopCycle cycle;
    std::string discipline;
};

RoutePlan planScatter(const GraphView& v)
{
    const ScheduleRequest& rq = v.rq;
    const std::string& A = rq.algorithm;
    const std::uint32_t N = v.N;
    const HopCycle labelF = [&v](int t, std::uint32_t, std::uint32_t x) { return v.label(t, x); };
    if (rq.ports == Ports::N) {
        if (A == "hp")
            return {[&v](int t, std::uint32_t, std::uint32_t x) { return v.level(t, x) - 1; },
                    "n paths in lock-step, no pipelining (§5.2)"};
        const auto h = u32(v.g.height);
        return {[&v, h](int t, std::uint32_t y, std::uint32_t x) { return h - v.level(t, y) + v.level(t, x) - 1; },
                "reverse breadth-first (§2, Thm. 7.4)"};
    }
    if (A == "hp") {
        const std::uint32_t every = rq.ports == Ports::SendRecv ? 1 : 2;
        return {[&v, every, N](int t, std::uint32_t y, std::uint32_t x) {
                    return every * (N - 1 - v.level(t, y)) + v.level(t, x) - 1;
                },
                "farthest node's message first, one hop per cycle (§5.2)"};
    }
    if (A == "sbt") {
        const bool postorder = rq.variant == "postorder" || (rq.variant.empty() && rq.cost.B <= rq.cost.M);
        if (postorder)
            return {[&v, N](int t, std::uint32_t y, std::uint32_t x) { return (N - 1 - y) + v.level(t, x) - 1; },
                    "postorder, source ports in Gray-code order (§5.2)"};
        return {labelF, "cycle t: every holder sends its dimension-t child's subtree (§5.2)"};
    }
    return {labelF, "label schedule: each edge carries its subtree's data in its label cycle (§5.2)"};
}

RoutePlan planAlltoall(const GraphView& v)
{
    if (v.rq.ports == Ports::N && v.rq.algorithm == "nrsbt")
        return {[&v](int t, std::uint32_t, std::uint32_t x) { return v.offsetDim(t, x); },
                "n exchange algorithms side by side (§7.2 alternative scheme)"};
    if (v.rq.ports == Ports::N)
        return {[&v](int t, std::uint32_t, std::uint32_t x) { return v.level(t, x) - 1; },
                "postorder, all subtrees concurrently (Thm. 7.3)"};
    return {[&v](int t, std::uint32_t, std::uint32_t x) { return v.label(t, x); }, "label schedule (§6.2, §7.1)"};
}

/// Every source's block for every y along tree t's path to y. Returns the number of parts.
std::uint32_t addRoutes(const GraphView& v, const RoutePlan& plan, Accumulator& acc)
{
    const Rational size = v.M * v.w;
    for (NodeId s : v.sources())
        for (int t = 0; t < v.g.trees; ++t) {
            const std::uint32_t part = u32(v.g.trees > 1 ? t : 0);
            for (std::uint32_t y = 1; y < v.N; ++y) {
                const Block b{s, y ^ s, part};
                for (std::uint32_t x = y; x != 0; x = v.parent(t, x))
                    acc.add(plan.cycle(t, y, x), NodeId{v.parent(t, x) ^ s}, NodeId{x ^ s}, u32(t), size, b);
            }
        }
    return v.g.trees == 1 ? 1 : u32(v.g.trees);
}

/// Half duplex: every one-port cycle becomes two, the end whose bit d is 0 sending first.
void splitHalfDuplex(std::vector<RawTransfer>& transfers)
{
    for (RawTransfer& t : transfers) {
        const auto d = static_cast<std::uint32_t>(std::countr_zero(t.from ^ t.to));
        t.cycle = 2 * t.cycle + ((t.from >> d) & 1u);
    }
    std::sort(transfers.begin(), transfers.end(), [](const RawTransfer& a, const RawTransfer& b) {
        return std::tie(a.cycle, a.from, a.to) < std::tie(b.cycle, b.from, b.to);
    });
}

} // namespace

RawSchedule generateSchedule(const ScheduleRequest& rq)
{
    checkRequest(rq);
    const GraphView v(rq);
    RawSchedule raw;
    raw.n = v.n;
    raw.source = rq.source;
    raw.pattern = rq.pattern;
    raw.ports = rq.ports;
    raw.graph = v.g.kind;
    Accumulator acc;
    if (rq.pattern == Pattern::Broadcast || rq.pattern == Pattern::Allgather) {
        const CopyPlan plan = planCopies(v);
        raw.discipline = plan.discipline;
        raw.parts = addCopies(v, plan, acc);
    } else {
        const RoutePlan plan = rq.pattern == Pattern::Scatter ? planScatter(v) : planAlltoall(v);
        raw.discipline = plan.discipline;
        raw.parts = addRoutes(v, plan, acc);
    }
    raw.transfers = acc.finish();
    if (rq.ports == Ports::Half)
        splitHalfDuplex(raw.transfers);
    raw.cycles = raw.transfers.empty() ? 0 : raw.transfers.back().cycle + 1;
    return raw;
}

CountedCost countCost(const RawSchedule& s, long long packet)
{
    CountedCost c;
    c.cycles = s.cycles;
    c.perCycle.assign(s.cycles, Rational(0));
    for (const RawTransfer& t : s.transfers)
        c.perCycle[t.cycle] = std::max(c.perCycle[t.cycle], t.size);
    for (const Rational& d : c.perCycle) {
        c.startups += Rational((d / Rational(packet)).ceil());
        c.transfer += d;
    }
    return c;
}

std::vector<std::string> verifySchedule(const RawSchedule& s, std::size_t limit)
{
    std::vector<std::string> out;
    auto fail = [&](const std::string& msg) {
        if (out.size() < limit)
            out.push_back(msg);
    };
    const std::uint32_t N = 1u << s.n;
    auto key = [](const Block& b) {
        const std::uint64_t dest = b.dest == Block::kAll ? 0x1FFFFFu : b.dest;
        return (std::uint64_t{b.origin} << 43) | (dest << 22) | b.part;
    };
    std::vector<std::unordered_set<std::uint64_t>> held(N);
    auto holds = [&](NodeId v, const Block& b) { return b.origin == v || held[v].count(key(b)) != 0; };
    std::vector<std::uint32_t> partner(N), sends(N), recvs(N), stamp(N, ~0u);
    std::unordered_set<std::uint64_t> links;
    std::size_t i = 0;
    while (i < s.transfers.size()) {
        const std::uint32_t cycle = s.transfers[i].cycle;
        std::size_t j = i;
        while (j < s.transfers.size() && s.transfers[j].cycle == cycle)
            ++j;
        links.clear();
        auto touch = [&](NodeId v) {
            if (stamp[v] != cycle) {
                stamp[v] = cycle;
                partner[v] = ~0u;
                sends[v] = recvs[v] = 0;
            }
        };
        for (std::size_t k = i; k < j; ++k) {
            const RawTransfer& t = s.transfers[k];
            const std::string where =
                "cycle " + std::to_string(cycle) + ": " + std::to_string(t.from) + "→" + std::to_string(t.to);
            if (t.from >= N || t.to >= N || std::popcount(t.from ^ t.to) != 1) {
                fail(where + " is not a cube edge");
                continue;
            }
            if (!links.insert((std::uint64_t{t.from} << 32) | t.to).second)
                fail(where + " carries two separate messages in one cycle");
            touch(t.from);
            touch(t.to);
            ++sends[t.from];
            ++recvs[t.to];
            for (NodeId v : {t.from, t.to}) {
                const NodeId other = v == t.from ? t.to : t.from;
                if (s.ports == Ports::One && partner[v] != ~0u && partner[v] != other)
                    fail(where + ": node " + std::to_string(v) + " talks to two neighbours (one-port)");
                partner[v] = other;
            }
            if (s.ports == Ports::SendRecv && (sends[t.from] > 1 || recvs[t.to] > 1))
                fail(where + ": more than one send or receive (one send + one receive)");
            if (s.ports == Ports::Half && (sends[t.from] + recvs[t.from] > 1 || sends[t.to] + recvs[t.to] > 1))
                fail(where + ": a node both sends and receives (half duplex)");
            for (const Block& b : t.blocks)
                if (!holds(t.from, b))
                    fail(where + " sends block (" + std::to_string(b.origin) + "," +
                         (b.dest == Block::kAll ? std::string("all") : std::to_string(b.dest)) + "," +
                         std::to_string(b.part) + ") it does not hold");
        }
        for (std::size_t k = i; k < j; ++k) {
            const RawTransfer& t = s.transfers[k];
            if (t.to >= N)
                continue;
            for (const Block& b : t.blocks) {
                if (b.origin == t.to || !held[t.to].insert(key(b)).second)
                    fail("cycle " + std::to_string(cycle) + ": node " + std::to_string(t.to) +
                         " receives a block it already holds");
            }
        }
        i = j;
    }
    // Final holdings.
    const bool allSources = s.pattern == Pattern::Allgather || s.pattern == Pattern::Alltoall;
    const bool personalized = s.pattern == Pattern::Scatter || s.pattern == Pattern::Alltoall;
    for (NodeId v{}; v < N; ++v)
        for (NodeId o{}; o < N; ++o) {
            if (o == v || (!allSources && o != s.source))
                continue;
            for (std::uint32_t p = 0; p < s.parts; ++p) {
                const Block b{o, personalized ? v : Block::kAll, p};
                if (!held[v].count(key(b)))
                    fail("node " + std::to_string(v) + " never receives part " + std::to_string(p) + " of " +
                         std::to_string(o) + "'s message");
            }
        }
    return out;
}

} // namespace topocast::hypercube
