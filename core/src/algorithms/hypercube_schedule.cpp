#include "topocast/algorithms/hypercube_schedule.h"

#include "topocast/error.h"

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

} // namespace

RawSchedule generateSchedule(const ScheduleRequest& rq)
{
    requireServed(rq.algorithm, rq.pattern, rq.ports);
    checkCostParams(rq.cost, rq.pattern);
    const int n = rq.cost.n;
    const std::uint32_t N = 1u << n;
    if (rq.source >= N)
        throw Error("source " + std::to_string(rq.source) + " is outside the " + std::to_string(n) + "-cube (0.." +
                    std::to_string(N - 1) + ")");
    const std::string& A = rq.algorithm;
    const Pattern pattern = rq.pattern;
    const Ports ports = rq.ports;
    const bool one = ports == Ports::One || ports == Ports::Half;
    if (rq.variant == "streaming")
        throw Error("variant streaming is the source-side bound of §5.1.5 only; the paper gives no schedule for it "
                    "(use `topocast-cli compare`)");
    if (!rq.variant.empty() && !(A == "hp" && pattern == Pattern::Broadcast && rq.variant == "nopipe") &&
        !(A == "sbt" && pattern == Pattern::Scatter && (rq.variant == "postorder" || rq.variant == "subtree")))
        throw Error("unknown variant '" + rq.variant +
                    "'; variants: nopipe (hp broadcast), postorder or subtree (sbt one-port scatter)");

    const SpanningGraph g = buildGraph(graphFor(A, ports), n);
    RawSchedule raw;
    raw.n = n;
    raw.source = rq.source;
    raw.pattern = pattern;
    raw.ports = ports;
    raw.graph = g.kind;
    const Rational M(rq.cost.M), B(rq.cost.B), w = g.weight();
    const int h = g.height;
    std::vector<std::vector<std::uint32_t>> labels;
    auto label = [&](int t, std::uint32_t c) {
        if (labels.empty())
            labels = oneportLabels(g);
        return labels[static_cast<std::size_t>(t)][c];
    };
    auto L = [&](int t, std::uint32_t c) { return g.level[static_cast<std::size_t>(t)][c]; };
    auto P = [&](int t, std::uint32_t c) { return g.parent[static_cast<std::size_t>(t)][c]; };
    auto offsetDim = [&](int t, std::uint32_t c) { return u32(((g.dimInto(t, c) - t) % n + n) % n); };

    std::vector<NodeId> sources;
    if (pattern == Pattern::Allgather || pattern == Pattern::Alltoall)
        for (NodeId s = 0; s < N; ++s)
            sources.push_back(s);
    else
        sources.push_back(rq.source);

    Accumulator acc;
    if (pattern == Pattern::Broadcast || pattern == Pattern::Allgather) {
        std::function<std::uint32_t(int, std::uint32_t)> base = [&](int t, std::uint32_t c) { return L(t, c) - 1; };
        std::vector<std::vector<Packet>> packets(static_cast<std::size_t>(g.trees));
        const long long Q = (M / B).ceil();
        auto pkt = [&](long long q) { return Rational(std::min(rq.cost.B, rq.cost.M - q * rq.cost.B)); };
        auto onePerTree = [&] {
            for (int t = 0; t < g.trees; ++t)
                packets[static_cast<std::size_t>(t)].push_back({u32(g.trees > 1 ? t : 0), M * w, 0});
        };
        auto pipelined = [&](long long every) {
            for (long long q = 0; q < Q; ++q)
                packets[0].push_back({u32(q), pkt(q), u32(every * q)});
        };
        if (pattern == Pattern::Allgather) {
            onePerTree();
            if (one)
                base = label;
            raw.discipline = one ? "label schedule (§6.2)" : "level by level, all nodes together (Thm. 6.2)";
        } else if (A == "hp") {
            if (ports == Ports::N) {
                onePerTree();
                raw.discipline = "n paths in lock-step, no pipelining (§4.2)";
            } else if (rq.variant == "nopipe") {
                onePerTree();
                raw.discipline = "whole message hop by hop (§4.1.1)";
            } else {
                pipelined(ports == Ports::SendRecv ? 1 : 2);
                raw.discipline = "pipelined along the path (§4.2)";
            }
        } else if (A == "sbt" || A == "tcbt") {
            if (ports == Ports::N) {
                pipelined(1);
                raw.discipline = "pipelined, one level per cycle (§4.2)";
            } else if (A == "sbt") {
                onePerTree();
                base = label;
                raw.discipline = "dimension t in cycle t, whole message (§4.2)";
            } else {
                pipelined(ports == Ports::SendRecv ? 2 : 3);
                base = label;
                raw.discipline = "two children one after the other, pipelined (§4.2)";
            }
        } else if (A == "nrsbt") {
            onePerTree();
            if (one)
                base = label;
            else
                base = offsetDim;
            raw.discipline = one ? "part j on SBT_j, dimension t mod n in cycle t (§4.2)"
                                 : "part j on SBT_j, dimension (j+i) mod n in cycle i (§4.2)";
        } else if (A == "nesbt") {
            if (one) {
                for (long long q = 0; q < Q; ++q)
                    packets[static_cast<std::size_t>(q % n)].push_back({u32(q), pkt(q), u32((q / n) * n)});
                base = label;
                raw.discipline =
                    ports == Ports::Half
                        ? "one-port label schedule (Thm. 4.1) with each cycle split into two half-duplex cycles [R]"
                        : "packet q on ERSBT_(q mod n), labels f(i,j) + round·n (Thm. 4.1)";
            } else {
                const long long rounds = (M / (Rational(n) * B)).ceil();
                for (long long r = 0; r < rounds; ++r)
                    for (int j = 0; j < n; ++j) {
                        const long long part = r * n + j;
                        const Rational size = std::max(Rational(0), std::min(B, M - Rational(part) * B));
                        if (size > Rational(0))
                            packets[static_cast<std::size_t>(j)].push_back({u32(part), size, u32(r)});
                    }
                raw.discipline = "one packet per ERSBT per round, one level per cycle (§4.2)";
            }
        }
        std::uint32_t maxPart = 0;
        for (NodeId s : sources)
            for (int t = 0; t < g.trees; ++t)
                for (const Packet& pk : packets[static_cast<std::size_t>(t)]) {
                    maxPart = std::max(maxPart, pk.part);
                    for (std::uint32_t c = 1; c < N; ++c)
                        acc.add(base(t, c) + pk.offset, P(t, c) ^ s, c ^ s, u32(t), pk.size,
                                Block{s, Block::kAll, pk.part});
                }
        raw.parts = maxPart + 1;
    } else {
        std::function<std::uint32_t(int, std::uint32_t, std::uint32_t)> F;
        auto labelF = [&](int t, std::uint32_t, std::uint32_t x) { return label(t, x); };
        auto levelF = [&](int t, std::uint32_t, std::uint32_t x) { return L(t, x) - 1; };
        auto reverseBfs = [&](int t, std::uint32_t y, std::uint32_t x) { return u32(h) - L(t, y) + L(t, x) - 1; };
        if (pattern == Pattern::Scatter) {
            if (ports == Ports::N) {
                F = A == "hp" ? std::function(levelF) : std::function(reverseBfs);
                raw.discipline =
                    A == "hp" ? "n paths in lock-step, no pipelining (§5.2)" : "reverse breadth-first (§2, Thm. 7.4)";
            } else if (A == "hp") {
                const std::uint32_t every = ports == Ports::SendRecv ? 1 : 2;
                F = [&, every](int t, std::uint32_t y, std::uint32_t x) {
                    return every * (N - 1 - L(t, y)) + L(t, x) - 1;
                };
                raw.discipline = "farthest node's message first, one hop per cycle (§5.2)";
            } else if (A == "sbt") {
                const bool postorder = rq.variant == "postorder" || (rq.variant.empty() && rq.cost.B <= rq.cost.M);
                if (postorder) {
                    F = [&](int t, std::uint32_t y, std::uint32_t x) { return (N - 1 - y) + L(t, x) - 1; };
                    raw.discipline = "postorder, source ports in Gray-code order (§5.2)";
                } else {
                    F = labelF;
                    raw.discipline = "cycle t: every holder sends its dimension-t child's subtree (§5.2)";
                }
            } else {
                F = labelF;
                raw.discipline = "label schedule: each edge carries its subtree's data in its label cycle (§5.2)";
            }
        } else { // all-to-all personalized
            if (ports == Ports::N && A == "nrsbt") {
                F = [&](int t, std::uint32_t, std::uint32_t x) { return offsetDim(t, x); };
                raw.discipline = "n exchange algorithms side by side (§7.2 alternative scheme)";
            } else if (ports == Ports::N) {
                F = levelF;
                raw.discipline = "postorder, all subtrees concurrently (Thm. 7.3)";
            } else {
                F = labelF;
                raw.discipline = "label schedule (§6.2, §7.1)";
            }
        }
        const Rational size = M * w;
        for (NodeId s : sources)
            for (int t = 0; t < g.trees; ++t) {
                const std::uint32_t part = u32(g.trees > 1 ? t : 0);
                for (std::uint32_t y = 1; y < N; ++y) {
                    const Block b{s, y ^ s, part};
                    for (std::uint32_t x = y; x != 0; x = P(t, x))
                        acc.add(F(t, y, x), P(t, x) ^ s, x ^ s, u32(t), size, b);
                }
            }
        raw.parts = u32(g.trees);
        if (g.trees == 1)
            raw.parts = 1;
    }
    raw.transfers = acc.finish();
    if (ports == Ports::Half) {
        // Split every one-port cycle: the end whose bit d is 0 sends first (half duplex holds).
        for (RawTransfer& t : raw.transfers) {
            const auto d = static_cast<std::uint32_t>(std::countr_zero(t.from ^ t.to));
            t.cycle = 2 * t.cycle + ((t.from >> d) & 1u);
        }
        std::sort(raw.transfers.begin(), raw.transfers.end(), [](const RawTransfer& a, const RawTransfer& b) {
            return std::tie(a.cycle, a.from, a.to) < std::tie(b.cycle, b.from, b.to);
        });
    }
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
    for (NodeId v = 0; v < N; ++v)
        for (NodeId o = 0; o < N; ++o) {
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
