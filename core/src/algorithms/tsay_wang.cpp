// Tsay & Wang's all-port wormhole broadcast on the d-dimensional torus (§3–§7), with the choices the
// paper leaves open made concrete by us: offsets and ownership (Lemma 2's gaps), phase 1 (§4), phases
// 2..d−1 (§5), the final phase (§6), odd n (§7, only sketched there), even n (§7's extra phase congests as
// printed, so ours is corrected; README, "Where the papers are wrong"), and the DirectFinal variant (ours,
// not in the paper). The schedule is built from the origin in coordinates of the sub-torus Z_{n'}^d and
// translated to the source when node ids are formed.
#include "topocast/algorithms/tsay_wang.h"

#include "topocast/algorithms/figures.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace topocast {

namespace {

constexpr int kMaxDims = Topology::kMaxMeshDims;
using Point = std::array<int, kMaxDims>;

long long modPos(long long x, long long m)
{
    x %= m;
    return x < 0 ? x + m : x;
}

/// One entry of own[k] (§3.1): source offset a informs new offset o with signed index e.
struct Ownership {
    int a = 0;
    int o = 0;
    int e = 0;
};

/// own[k−1] for k = 1..r (§3.1): R_k = {⌊c·n'/q^k⌋}, new offsets of each gap split between the
/// gap's two ends, the lower end taking the first ⌈m/2⌉ with e = +1, +2, …, the upper end the
/// rest with e = −1, −2, … counted from its side. O(r·n').
std::vector<std::vector<Ownership>> ownershipLists(int nPrime, int d, std::uint32_t r)
{
    const long long q = 2LL * d + 1;
    std::vector<std::vector<char>> inR(r + 1, std::vector<char>(static_cast<std::size_t>(nPrime), 0));
    long long qk = 1;
    for (std::uint32_t k = 0; k <= r; ++k) {
        auto& row = inR[k];
        if (qk >= nPrime) {
            std::fill(row.begin(), row.end(), 1);
        } else {
            for (long long c = 0; c < qk; ++c)
                row[static_cast<std::size_t>(c * nPrime / qk)] = 1;
        }
        if (qk < nPrime)
            qk *= q;
    }
    std::vector<std::vector<Ownership>> own(r);
    for (std::uint32_t k = 1; k <= r; ++k) {
        std::vector<int> sources;
        for (int o = 0; o < nPrime; ++o)
            if (inR[k - 1][static_cast<std::size_t>(o)])
                sources.push_back(o);
        for (std::size_t idx = 0; idx < sources.size(); ++idx) {
            const int a = sources[idx];
            const int b = sources[(idx + 1) % sources.size()];
            int gap = static_cast<int>(modPos(b - a, nPrime));
            if (gap == 0)
                gap = nPrime; // a single source: the gap is the whole ring
            std::vector<int> fresh;
            for (int t = 1; t < gap; ++t) {
                const int o = static_cast<int>((a + t) % nPrime);
                if (inR[k][static_cast<std::size_t>(o)])
                    fresh.push_back(o);
            }
            const int m = static_cast<int>(fresh.size());
            assert(m <= 2 * d);
            const int u = (m + 1) / 2;
            for (int i = 0; i < u; ++i)
                own[k - 1].push_back({a, fresh[static_cast<std::size_t>(i)], i + 1});
            for (int i = 0; i < m - u; ++i)
                own[k - 1].push_back({b, fresh[static_cast<std::size_t>(m - 1 - i)], -(i + 1)});
        }
    }
    return own;
}

/// Advances `x[from..to)` as an odometer over Z_m; returns false after the last value.
bool nextTuple(Point& x, int from, int to, int m)
{
    for (int i = from; i < to; ++i) {
        if (++x[static_cast<std::size_t>(i)] < m)
            return true;
        x[static_cast<std::size_t>(i)] = 0;
    }
    return false;
}

/// Powers of 2 and of 2^{−1} = (n'+1)/2 modulo the odd n'.
struct PowersOfTwo {
    std::vector<long long> pow2, inv2;
    PowersOfTwo(int nPrime, int count)
    {
        pow2.assign(static_cast<std::size_t>(count), 1);
        inv2.assign(static_cast<std::size_t>(count), 1);
        const long long half = (nPrime + 1) / 2;
        for (std::size_t i = 1; i < pow2.size(); ++i) {
            pow2[i] = pow2[i - 1] * 2 % nPrime;
            inv2[i] = inv2[i - 1] * half % nPrime;
        }
    }
};

/// x_1 of the base of B_h whose tail is τ (§3.3 closed form):
/// x_1 ≡ 2^{h−2}·τ_{h−1} − Σ_{m=1}^{h−2} 2^{m−1}·τ_m (mod n'). `tail[m−1]` = τ_m.
long long baseX0(const PowersOfTwo& p2, int h, const int* tail, int nPrime)
{
    long long x0 = p2.pow2[static_cast<std::size_t>(h - 2)] * tail[h - 2];
    for (int m = 1; m <= h - 2; ++m)
        x0 -= p2.pow2[static_cast<std::size_t>(m - 1)] * tail[m - 1];
    return modPos(x0, nPrime);
}

/// Builds the transfers of one schedule, from the origin, and translates them to the source.
class TsayWangBuilder {
public:
    TsayWangBuilder(Schedule& schedule, int d, int n, TsayWangVariant variant)
        : m_schedule(schedule), m_topo(schedule.topology()), m_d(d), m_n(n), m_nPrime(n % 2 != 0 ? n : n - 1),
          m_variant(variant), m_r(ceilLogInt(2LL * d + 1, m_nPrime)), m_p2(m_nPrime, d + 1)
    {
        for (int i = 0; i < d; ++i)
            m_source[static_cast<std::size_t>(i)] = m_topo.coord(schedule.source(), i);
        m_own = ownershipLists(m_nPrime, d, m_r);
    }

    void build()
    {
        phaseOne();
        for (int h = 2; h <= m_d - 1; ++h)
            middlePhase(h);
        if (m_variant == TsayWangVariant::DirectFinal)
            finalPhaseDirect();
        else
            finalPhasePaper();
        if (m_n % 2 == 0)
            extraPhase();
    }

    std::vector<std::string> labels;

private:
    void label(std::uint32_t step, const std::string& text)
    {
        if (labels.size() < step)
            labels.resize(step);
        labels[step - 1] = text;
    }

    NodeId nodeOf(const Point& x) const
    {
        std::uint32_t id = 0;
        for (int i = 0; i < m_d; ++i) {
            int c = x[static_cast<std::size_t>(i)] + m_source[static_cast<std::size_t>(i)];
            if (c >= m_n)
                c -= m_n;
            id += static_cast<std::uint32_t>(c) * m_topo.stride(i);
        }
        return NodeId{id};
    }

    /// A transfer with route (start dimension `dim1` counted 1..d as in the spec, `sign`).
    void emit(const Point& from, const Point& to, StepNo step, int dim1, int sign, std::uint32_t tag)

    {
        m_schedule.add(nodeOf(from), nodeOf(to), step, RouteSpec::cyclic(dim1 - 1, sign), 0, tag);
    }

    // §3.2: the main diagonal.
    void phaseOne()
    {
        for (std::uint32_t k = 1; k <= m_r; ++k) {
            const StepNo step{k};
            label(step, "1." + std::to_string(k));
            for (const Ownership& w : m_own[k - 1]) {
                Point from{}, to{};
                for (int i = 0; i < m_d; ++i) {
                    from[static_cast<std::size_t>(i)] = w.a;
                    to[static_cast<std::size_t>(i)] = w.o;
                }
                emit(from, to, step, std::abs(w.e), w.e > 0 ? +1 : -1, 1);
            }
        }
    }

    /// C_β(o) for the base with x0 and tail (§3.3); D = d − h + 1.
    Point column(int D, int h, long long x0, const int* tail, int o) const
    {
        Point x{};
        for (int i = 0; i < D - 1; ++i)
            x[static_cast<std::size_t>(i)] = static_cast<int>(modPos(x0 + o, m_nPrime));
        x[static_cast<std::size_t>(D - 1)] = static_cast<int>(modPos(x0 - o, m_nPrime));
        for (int m = 1; m <= h - 1; ++m)
            x[static_cast<std::size_t>(D + m - 1)] = tail[m - 1];
        return x;
    }

    /// Lemma 7 made explicit (§3.3): the tail entry τ_j of the unique base of B_h with x_1 = x0
    /// and the other tail entries as in `tail`.
    int solveTail(int h, int j, long long x0, const int* tail) const
    {
        const auto& pow2 = m_p2.pow2;
        const auto& inv2 = m_p2.inv2;
        if (j == h - 1) {
            long long s = x0;
            for (int m = 1; m <= h - 2; ++m)
                s += pow2[static_cast<std::size_t>(m - 1)] * tail[m - 1];
            return static_cast<int>(modPos(modPos(s, m_nPrime) * inv2[static_cast<std::size_t>(h - 2)], m_nPrime));
        }
        long long s = pow2[static_cast<std::size_t>(h - 2)] * tail[h - 2] - x0;
        for (int m = 1; m <= h - 2; ++m)
            if (m != j)
                s -= pow2[static_cast<std::size_t>(m - 1)] * tail[m - 1];
        return static_cast<int>(modPos(modPos(s, m_nPrime) * inv2[static_cast<std::size_t>(j - 1)], m_nPrime));
    }

    // §3.3–3.4: phase h informs one diagonal in every (d−h+1)-dimensional sub-torus.
    void middlePhase(int h)
    {
        const int D = m_d - h + 1;
        for (std::uint32_t k = 1; k <= m_r; ++k) {
            const StepNo step{static_cast<std::uint32_t>(h - 1) * m_r + k};
            label(step, std::to_string(h) + "." + std::to_string(k));
            Point tailStore{};
            int* tail = tailStore.data();
            do {
                const long long x0 = baseX0(m_p2, h, tail, m_nPrime);
                for (const Ownership& w : m_own[k - 1]) {
                    const int sign = w.e > 0 ? +1 : -1;
                    const int ae = std::abs(w.e);
                    const Point from = column(D, h, x0, tail, w.a);
                    if (ae <= D) {
                        emit(from, column(D, h, x0, tail, w.o), step, ae, sign, static_cast<std::uint32_t>(h));
                        continue;
                    }
                    const int j = ae - D;
                    const long long x0Other = modPos(x0 + w.a - w.o, m_nPrime);
                    Point otherTail = tailStore;
                    otherTail[static_cast<std::size_t>(j - 1)] = solveTail(h, j, x0Other, tail);
                    assert(baseX0(m_p2, h, otherTail.data(), m_nPrime) == x0Other);
                    emit(from, column(D, h, x0Other, otherTail.data(), w.o), step, D + j, sign,
                         static_cast<std::uint32_t>(h));
                }
            } while (nextTuple(tailStore, 0, h - 1, m_nPrime));
        }
    }

    /// x_1 of the node of B_d in the column (x_2..x_d) (§3.5).
    long long finalBaseX1(const Point& x) const
    {
        long long x1 = m_p2.pow2[static_cast<std::size_t>(m_d - 2)] * x[static_cast<std::size_t>(m_d - 1)];
        for (int i = 2; i <= m_d - 1; ++i)
            x1 -= m_p2.pow2[static_cast<std::size_t>(i - 2)] * x[static_cast<std::size_t>(i - 1)];
        return modPos(x1, m_nPrime);
    }

    // §3.5: step d.0 (d ≥ 3), then r steps that fill every column.
    void finalPhasePaper()
    {
        const std::uint32_t base = static_cast<std::uint32_t>(m_d - 1) * m_r;
        const auto tag = static_cast<std::uint32_t>(m_d);
        std::uint32_t offset = 0;
        if (m_d >= 3) {
            offset = 1;
            label(base + 1, std::to_string(m_d) + ".0");
            Point x{};
            do {
                long long sum = 0;
                for (int i = 1; i < m_d; ++i)
                    sum += x[static_cast<std::size_t>(i)];
                Point from = x;
                from[0] = static_cast<int>(finalBaseX1(x));
                const long long phi = modPos(from[0] - sum, m_nPrime);
                if (phi == 0)
                    continue;
                Point to = x;
                to[0] = static_cast<int>(modPos(sum, m_nPrime));
                emit(from, to, StepNo{base + 1}, 1, +1, tag);
            } while (nextTuple(x, 1, m_d, m_nPrime));
        }
        for (std::uint32_t k = 1; k <= m_r; ++k) {
            const StepNo step{base + offset + k};
            label(step, std::to_string(m_d) + "." + std::to_string(k));
            Point x{};
            do {
                long long sum = 0;
                for (int i = 1; i < m_d; ++i)
                    sum += x[static_cast<std::size_t>(i)];
                for (const Ownership& w : m_own[k - 1]) {
                    Point from = x;
                    from[0] = static_cast<int>(modPos(sum + w.a, m_nPrime));
                    Point to = from;
                    const int ae = std::abs(w.e);
                    int sign = w.e > 0 ? +1 : -1;
                    if (ae == 1) {
                        to[0] = static_cast<int>(modPos(sum + w.o, m_nPrime));
                    } else {
                        auto& c = to[static_cast<std::size_t>(ae - 1)];
                        c = static_cast<int>(modPos(c - (w.o - w.a), m_nPrime));
                        sign = -sign;
                    }
                    if (to[0] == finalBaseX1(to))
                        continue; // informed in phase d−1 already (§3.5, gap G5)
                    emit(from, to, step, ae, sign, tag);
                }
            } while (nextTuple(x, 1, m_d, m_nPrime));
        }
    }

    // §3.8: fill the columns straight from B_d when n' = q^r.
    void finalPhaseDirect()
    {
        const std::uint32_t base = static_cast<std::uint32_t>(m_d - 1) * m_r;
        const auto tag = static_cast<std::uint32_t>(m_d);
        const int q = 2 * m_d + 1;
        // α_i (i = 2..d) of B_d: x_1 = Σ α_i x_i; α_i = −2^{i−2} (i < d), α_d = 2^{d−2}.
        std::vector<long long> alpha(static_cast<std::size_t>(m_d + 1), 0);
        for (int i = 2; i <= m_d; ++i) {
            const long long p = 1LL << (i - 2);
            alpha[static_cast<std::size_t>(i)] = i < m_d ? -p : p;
        }
        // t for ε = ±i (i ≥ 2): centred(−ε·α_i^{−1} mod q) ∈ [−d, d].
        std::vector<int> tPlus(static_cast<std::size_t>(m_d + 1), 0);
        for (int i = 2; i <= m_d; ++i) {
            const long long a = modPos(alpha[static_cast<std::size_t>(i)], q);
            long long inv = 1;
            while (a * inv % q != 1)
                ++inv;
            long long v = modPos(-static_cast<long long>(i) * inv, q);
            if (v > m_d)
                v -= q;
            tPlus[static_cast<std::size_t>(i)] = static_cast<int>(v); // ε = −i gives −v
        }
        long long qk = 1;
        for (std::uint32_t k = 1; k <= m_r; ++k) {
            qk *= q;
            const StepNo step{base + k};
            label(step, std::to_string(m_d) + "." + std::to_string(k));
            const long long lk = m_nPrime / qk;
            const long long spacing = q * lk;
            Point x{};
            do {
                long long b = 0;
                for (int i = 2; i <= m_d; ++i)
                    b += alpha[static_cast<std::size_t>(i)] * x[static_cast<std::size_t>(i - 1)];
                for (long long m = 0; m * spacing < m_nPrime; ++m) {
                    Point from = x;
                    from[0] = static_cast<int>(modPos(b + m * spacing, m_nPrime));
                    for (int eps = -m_d; eps <= m_d; ++eps) {
                        if (eps == 0)
                            continue;
                        const int i = std::abs(eps);
                        const int t = i == 1 ? eps
                                             : (eps > 0 ? tPlus[static_cast<std::size_t>(i)]
                                                        : -tPlus[static_cast<std::size_t>(i)]);
                        Point to = from;
                        auto& c = to[static_cast<std::size_t>(i - 1)];
                        c = static_cast<int>(modPos(c + t * lk, m_nPrime));
                        emit(from, to, step, i, t > 0 ? +1 : -1, tag);
                    }
                }
            } while (nextTuple(x, 1, m_d, m_nPrime));
        }
    }

    // §3.7: levels |{i : x_i = n−1}| = 1..d, two per step.
    void extraPhase()
    {
        const std::uint32_t base = tsayWangSteps(m_d, m_n, m_variant) - static_cast<std::uint32_t>((m_d + 1) / 2);
        const auto tag = static_cast<std::uint32_t>(m_d + 1);
        for (int t = 1; t <= (m_d + 1) / 2; ++t)
            label(base + static_cast<std::uint32_t>(t), "E." + std::to_string(t));
        const int top = m_n - 1;
        Point x{};
        do {
            int level = 0, f = -1, g = -1;
            long long c = 0;
            for (int i = 0; i < m_d; ++i) {
                if (x[static_cast<std::size_t>(i)] == top) {
                    ++level;
                    if (f < 0)
                        f = i;
                    g = i;
                } else {
                    c += x[static_cast<std::size_t>(i)];
                }
            }
            if (level == 0)
                continue;
            const StepNo step{base + static_cast<std::uint32_t>((level + 1) / 2)};
            Point from = x;
            if (level % 2 != 0) {
                from[static_cast<std::size_t>(f)] = m_n - 2;
                emit(from, x, step, f + 1, +1, tag);
                continue;
            }
            // ρ = position of g in the sorted list of the non-top dimensions plus g.
            int rho = 0;
            for (int i = 0; i < g; ++i)
                if (x[static_cast<std::size_t>(i)] != top)
                    ++rho;
            const long long v = modPos(rho - c, m_n - 1);
            from[static_cast<std::size_t>(g)] = static_cast<int>(v);
            from[static_cast<std::size_t>(f)] = 0;
            emit(from, x, step, f + 1, -1, tag);
        } while (nextTuple(x, 0, m_d, m_n));
    }

    Schedule& m_schedule;
    const Topology& m_topo;
    int m_d, m_n, m_nPrime;
    TsayWangVariant m_variant;
    std::uint32_t m_r;
    PowersOfTwo m_p2;
    Point m_source{};
    std::vector<std::vector<Ownership>> m_own;
};

std::string torusName(const Topology& topo)
{
    return topo.displayName();
}

} // namespace

bool tsayWangInBase(int h, int nPrime, const Coord& x)
{
    const int d = static_cast<int>(x.size());
    if (d < 2 || h < 2 || h > d)
        throw Error("tsayWangInBase needs 2 ≤ h ≤ d; got h = " + std::to_string(h) + ", d = " + std::to_string(d));
    if (nPrime < 3 || nPrime % 2 == 0)
        throw Error("tsayWangInBase needs an odd n' ≥ 3; got " + std::to_string(nPrime));
    const int D = d - h + 1;
    for (int i = 1; i < D; ++i)
        if (x[static_cast<std::size_t>(i)] != x[0])
            return false;
    const PowersOfTwo p2(nPrime, d + 1);
    std::vector<int> tail(x.begin() + D, x.end());
    return baseX0(p2, h, tail.data(), nPrime) == modPos(x[0], nPrime);
}

Schedule tsayWangBroadcast(const Topology& topo, NodeId source, TsayWangVariant variant)
{
    const std::string supported =
        "tsay-wang supports d-dimensional n×…×n tori with d ≥ 2, n ≥ 3, and n ≥ d when n is even";
    if (!topo.isTorus())
        throw Error(supported + "; got " + torusName(topo));
    if (!topo.isCubic())
        throw Error(supported + " (all sides equal); got " + torusName(topo));
    const int d = topo.dims();
    const int n = topo.side(0);
    if (auto why = tsayWangUnsupported(d, n, variant))
        throw Error(*why);
    if (source >= topo.nodeCount())
        throw Error("source " + std::to_string(source) + " is outside the " + topo.displayName() + " (0.." +
                    std::to_string(topo.nodeCount() - 1) + ")");

    Schedule schedule(topo, source, Pattern::Broadcast, PortModel::AllPort);
    schedule.algorithm = "tsay-wang";
    schedule.mode = toString(variant);
    schedule.reserve(topo.nodeCount() - 1);
    TsayWangBuilder builder(schedule, d, n, variant);
    builder.build();
    schedule.stepLabels = std::move(builder.labels);

    const TorusBroadcastBounds b = torusBroadcastBounds(d, n);
    schedule.figures = std::make_shared<const AlgorithmFigures>(AlgorithmFigures{
        TsayWangFigures{toString(variant), b.nPrime, b.r, b.lowerBound, b.paperBound, tsayWangSteps(d, n, variant)}});
    schedule.finalize();
    return schedule;
}

std::vector<std::string> cyclicRouteViolations(const Schedule& schedule, std::size_t maxViolations)
{
    std::vector<std::string> out;
    std::size_t count = 0;
    const Topology& topo = schedule.topology();
    const auto& transfers = schedule.transfers();
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const Transfer& t = transfers[i];
        std::string problem;
        if (t.route.kind != RouteKind::Cyclic) {
            problem = "is not a cyclic-dimension-order route";
        } else if (t.route.start >= topo.dims()) {
            problem = "starts in dimension " + std::to_string(t.route.start + 1) + " of a " +
                      std::to_string(topo.dims()) + "-dimensional torus";
        } else if (topo.coord(t.from, t.route.start) == topo.coord(t.to, t.route.start)) {
            problem = "starts in dimension " + std::to_string(t.route.start + 1) +
                      ", where sender and receiver agree (the start must be in Δ, the dimensions where they differ)";
        }
        if (problem.empty())
            continue;
        if (++count <= maxViolations)
            out.push_back("transfer " + std::to_string(i) + " (step " + std::to_string(t.step) + ", " +
                          topo.nodeName(t.from) + "→" + topo.nodeName(t.to) + ") " + problem);
    }
    if (count > maxViolations)
        out.push_back("… and " + std::to_string(count - maxViolations) + " more route violations");
    return out;
}

std::vector<std::string> tsayWangStepViolations(const Schedule& schedule, TsayWangVariant variant)
{
    std::vector<std::string> out;
    const Topology& topo = schedule.topology();
    if (!topo.isTorus() || !topo.isCubic()) {
        out.push_back("not an n×…×n torus: " + topo.displayName());
        return out;
    }
    const int d = topo.dims();
    const int n = topo.side(0);
    if (auto why = tsayWangUnsupported(d, n, variant)) {
        out.push_back(*why);
        return out;
    }
    const std::uint32_t steps = schedule.stepCount();
    const std::uint32_t expected = tsayWangSteps(d, n, variant);
    const std::uint32_t lb = allPortLowerBound(d, n);
    const std::uint32_t paper = tsayWangPaperBound(d, n);
    if (steps != expected)
        out.push_back("the schedule has " + std::to_string(steps) + " steps; the construction (Tsay & Wang §3) gives " +
                      std::to_string(expected));
    if (steps < lb)
        out.push_back(std::to_string(steps) + " steps is below the lower bound " + std::to_string(lb) +
                      " (Tsay & Wang §2)");
    if (steps > paper)
        out.push_back(std::to_string(steps) + " steps exceeds the paper's bound " + std::to_string(paper) +
                      " (Tsay & Wang §2)");
    std::vector<std::uint64_t> perStep(steps + 1, 0);
    for (const Transfer& t : schedule.transfers())
        if (t.step >= 1 && t.step <= steps)
            ++perStep[t.step];
    for (std::uint32_t s = 1; s <= steps; ++s)
        if (perStep[s] == 0)
            out.push_back("step " + std::to_string(s) + " has no transfers");
    return out;
}

} // namespace topocast
