#include "topocast/algorithms/cang_wu.h"

#include "cang_wu_internal.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace topocast {

using cangwu_detail::childBoxOrigin;
using cangwu_detail::decode;
using cangwu_detail::encode;
using cangwu_detail::Point;

namespace cangwu_detail {

void checkShape(int d, int k)
{
    if (d < 1 || d > 6)
        throw Error("cang-wu handles d = 1..6 dimensions; got d = " + std::to_string(d));
    if (k < 1)
        throw Error("cang-wu needs a side 2^k with k ≥ 1; got k = " + std::to_string(k));
    if (d * k > 24)
        throw Error("cang-wu handles at most 2^24 nodes; got 2^" + std::to_string(d * k) +
                    " (d = " + std::to_string(d) + ", k = " + std::to_string(k) + ")");
}

void checkSource(int d, int k, NodeId source)
{
    checkShape(d, k);
    const std::uint64_t n = std::uint64_t{1} << (d * k);
    if (source >= n)
        throw Error("source " + std::to_string(source) + " is outside the mesh (0.." + std::to_string(n - 1) + ")");
}

} // namespace cangwu_detail

namespace {

std::int64_t minusOnePow(int k)
{
    return (k % 2 == 0) ? 1 : -1;
}

/// Per-dimension quantities of spec §3.1 for the source's level-j box (j ≥ 2), reflected frame.
struct LevelFrame {
    Point u{}, m{}, g{}, pref{};
};

LevelFrame levelFrame(int d, int j, const Point& rp)
{
    LevelFrame f;
    const int lo = static_cast<int>(eyeLo(j));
    const int A = static_cast<int>(eyeSide(j - 1));
    for (int i = 0; i < d; ++i) {
        const auto s = static_cast<std::size_t>(i);
        const int u = lo - rp[s];
        const int m = std::min(std::abs(u), std::abs(u - A));
        f.u[s] = u;
        f.m[s] = m;
        f.g[s] = std::abs(u) - m;
        const bool outer = 2 * u > A;
        f.pref[s] = static_cast<int>(outer ? eyeLo(j - 1) : eyeHi(j - 1));
    }
    return f;
}

/// The mode's dimension order for a level with gains g (Paper: canonical; EyeBest: g
/// descending, ties in canonical order).
using Order = std::array<int, 6>;

Order levelOrder(int d, CangWuMode mode, const Point& g, const Order& canon)
{
    Order order = canon;
    if (mode == CangWuMode::EyeBest) // stable insertion sort by g descending
        for (int i = 1; i < d; ++i)
            for (int t = i; t > 0 && g[static_cast<std::size_t>(order[static_cast<std::size_t>(t - 1)])] <
                                         g[static_cast<std::size_t>(order[static_cast<std::size_t>(t)])];
                 --t)
                std::swap(order[static_cast<std::size_t>(t - 1)], order[static_cast<std::size_t>(t)]);
    return order;
}

/// The eye-mode generator of spec §3.5.
class EyeGenerator {
public:
    EyeGenerator(int d, int k, CangWuMode mode, std::vector<CangWuSend>& out) : m_d(d), m_k(k), m_mode(mode), m_out(out)
    {
        const std::vector<int> canon = canonicalDimensionOrder(d);
        std::copy(canon.begin(), canon.end(), m_canon.begin());
    }

    void run(int j, Point o, Point s, std::uint32_t t0)
    {
        if (j == 0)
            return;
        const int d = m_d;
        const int h = 1 << (j - 1);
        const int side = 1 << j;
        Point b{}, rp{};
        for (int i = 0; i < d; ++i) {
            const auto x = static_cast<std::size_t>(i);
            const int r = s[x] - o[x];
            b[x] = r >= h ? 1 : 0;
            rp[x] = b[x] ? side - 1 - r : r;
        }
        Order order = m_canon;
        LevelFrame frame;
        if (j >= 2) {
            frame = levelFrame(d, j, rp);
            order = levelOrder(d, m_mode, frame.g, m_canon);
        }
        const int hiJ = static_cast<int>(eyeHi(j));
        const int hiJm1 = j >= 2 ? static_cast<int>(eyeHi(j - 1)) : 0;
        auto back = [&](const Point& x) {
            Point g{};
            for (int i = 0; i < d; ++i) {
                const auto z = static_cast<std::size_t>(i);
                g[z] = o[z] + (b[z] ? side - 1 - x[z] : x[z]);
            }
            return g;
        };
        const int count = 1 << d;
        std::array<Point, 64> P; // P[m] is written before it is read
        P[0] = rp;
        for (int q = 1; q <= d; ++q) {
            const int half = 1 << (q - 1);
            const auto dimQ = static_cast<std::size_t>(order[static_cast<std::size_t>(q - 1)]);
            for (int idx = 0; idx < half; ++idx) {
                Point T = P[static_cast<std::size_t>(idx)];
                T[dimQ] = hiJ;
                if (idx == 0 && j >= 2) {
                    for (int l = 1; l <= d; ++l) {
                        const auto dimL = static_cast<std::size_t>(order[static_cast<std::size_t>(l - 1)]);
                        if (l < q)
                            T[dimL] = frame.pref[dimL];
                        else if (l > q)
                            T[dimL] = hiJm1;
                    }
                }
                P[static_cast<std::size_t>(idx + half)] = T;
                m_out.push_back({StepNo{t0 + static_cast<std::uint32_t>(q)},
                                 encodeGlobal(back(P[static_cast<std::size_t>(idx)])), encodeGlobal(back(T)),
                                 static_cast<std::uint32_t>(j)});
            }
        }
        for (int m = 0; m < count; ++m) {
            const Point g = back(P[static_cast<std::size_t>(m)]);
            run(j - 1, childBoxOrigin(o, g, h, d), g, t0 + static_cast<std::uint32_t>(d));
        }
    }

private:
    NodeId encodeGlobal(const Point& p) const { return encode(p, m_d, m_k); }

    int m_d;
    int m_k;
    CangWuMode m_mode;
    Order m_canon{};
    std::vector<CangWuSend>& m_out;
};

std::vector<CangWuSend> eyeSends(int d, int k, NodeId source, CangWuMode mode)
{
    std::vector<CangWuSend> out;
    out.reserve((std::size_t{1} << (d * k)) - 1);
    EyeGenerator gen(d, k, mode, out);
    gen.run(k, Point{}, decode(source, d, k), 0);
    return out;
}

std::int64_t levelExcessAt(int d, int j, const Point& s, CangWuMode mode, const std::vector<int>& canon)
{
    const int side = 1 << j;
    const int h = side / 2;
    Point rp{};
    for (int i = 0; i < d; ++i) {
        const auto x = static_cast<std::size_t>(i);
        const int r = s[x] & (side - 1);
        rp[x] = r >= h ? side - 1 - r : r;
    }
    const LevelFrame f = levelFrame(d, j, rp);
    std::int64_t excess = 0;
    for (int i = 0; i < d; ++i) {
        const auto x = static_cast<std::size_t>(i);
        excess += f.u[x] + (d - 1) * f.m[x];
    }
    // Σ_q (q−1)·g_{π_q}: canonical order (paper) or g descending (eye-best; by the
    // rearrangement inequality the tie order does not change the sum).
    Point g{};
    for (int q = 0; q < d; ++q)
        g[static_cast<std::size_t>(q)] = f.g[static_cast<std::size_t>(canon[static_cast<std::size_t>(q)])];
    if (mode == CangWuMode::EyeBest)
        for (int i = 1; i < d; ++i)
            for (int t = i; t > 0 && g[static_cast<std::size_t>(t - 1)] < g[static_cast<std::size_t>(t)]; --t)
                std::swap(g[static_cast<std::size_t>(t - 1)], g[static_cast<std::size_t>(t)]);
    for (int q = 1; q < d; ++q)
        excess += q * g[static_cast<std::size_t>(q)];
    return excess;
}

void checkFits(int d, int k)
{
    if (d < 1 || d > 6)
        throw Error("cang-wu handles d = 1..6 dimensions; got d = " + std::to_string(d));
    if (k < 1 || d * (k + 1) > 60)
        throw Error("closed forms need k ≥ 1 and d·(k+1) ≤ 60 (64-bit results); got d = " + std::to_string(d) +
                    ", k = " + std::to_string(k));
}

__extension__ using Int128 = __int128;

} // namespace

std::string toString(CangWuMode mode)
{
    switch (mode) {
    case CangWuMode::Optimal:
        return "optimal";
    case CangWuMode::EyeBest:
        return "eye-best";
    case CangWuMode::Paper:
        return "paper";
    }
    return "optimal";
}

CangWuMode parseCangWuMode(std::string_view text)
{
    if (text == "optimal" || text == "submesh-optimal" || text == "SubmeshOptimal")
        return CangWuMode::Optimal;
    if (text == "eye-best" || text == "eye-best-order" || text == "EyeBestOrder")
        return CangWuMode::EyeBest;
    if (text == "paper" || text == "paper-literal" || text == "PaperLiteral")
        return CangWuMode::Paper;
    throw Error("cang-wu mode '" + std::string(text) + "' is unknown; allowed modes: optimal, eye-best, paper");
}

std::vector<CangWuSend> cangWuSends(int d, int k, NodeId source, CangWuMode mode)
{
    cangwu_detail::checkSource(d, k, source);
    if (mode == CangWuMode::Optimal) {
        std::vector<CangWuSend> out;
        out.reserve((std::size_t{1} << (d * k)) - 1);
        cangwu_detail::optimalSends(*cangwu_detail::optimalTables(d, k), source, out);
        return out;
    }
    return eyeSends(d, k, source, mode);
}

std::vector<CangWuSend> cangWuTorusSends(int d, int k, NodeId source)
{
    cangwu_detail::checkSource(d, k, source);
    if (k < 2)
        throw Error("cang-wu on a torus needs side 2^k ≥ 4; got side " + std::to_string(1 << k));
    Point eye{};
    for (int i = 0; i < d; ++i)
        eye[static_cast<std::size_t>(i)] = static_cast<int>(eyeLo(k));
    std::vector<CangWuSend> sends = eyeSends(d, k, encode(eye, d, k), CangWuMode::Paper);
    const Point s = decode(source, d, k);
    const int n = 1 << k;
    Point shift{};
    for (int i = 0; i < d; ++i) {
        const auto x = static_cast<std::size_t>(i);
        shift[x] = ((s[x] - eye[x]) % n + n) % n;
    }
    auto move = [&](NodeId id) {
        Point p = decode(id, d, k);
        for (int i = 0; i < d; ++i) {
            const auto x = static_cast<std::size_t>(i);
            p[x] = (p[x] + shift[x]) & (n - 1);
        }
        return encode(p, d, k);
    };
    for (CangWuSend& t : sends) {
        t.from = move(t.from);
        t.to = move(t.to);
    }
    return sends;
}

std::int64_t cangWuLevelExcess(int d, int k, NodeId source, int j, CangWuMode mode)
{
    cangwu_detail::checkSource(d, k, source);
    if (mode == CangWuMode::Optimal)
        throw Error("the level excess f_j (Lemma 2) is defined for the eye modes 'eye-best' and 'paper' only");
    if (j < 2 || j > k)
        throw Error("level j = " + std::to_string(j) + " is out of range; allowed 2.." + std::to_string(k));
    return levelExcessAt(d, j, decode(source, d, k), mode, canonicalDimensionOrder(d));
}

std::uint64_t cangWuTcd(int d, int k, NodeId source, CangWuMode mode)
{
    cangwu_detail::checkSource(d, k, source);
    if (mode == CangWuMode::Optimal) {
        const auto tables = cangwu_detail::optimalTables(d, k);
        return tables->mt(k, decode(source, d, k));
    }
    const std::vector<int> canon = canonicalDimensionOrder(d);
    const Point s = decode(source, d, k);
    std::int64_t total = static_cast<std::int64_t>(cangWuOptimum(d, k));
    for (int j = 2; j <= k; ++j)
        total += levelExcessAt(d, j, s, mode, canon);
    return static_cast<std::uint64_t>(total);
}

std::vector<std::uint64_t> cangWuTcdSourceMap(int d, int k, CangWuMode mode)
{
    cangwu_detail::checkShape(d, k);
    const std::size_t n = std::size_t{1} << (d * k);
    std::vector<std::uint64_t> map(n);
    if (mode == CangWuMode::Optimal) {
        const auto tables = cangwu_detail::optimalTables(d, k);
        for (std::size_t id = 0; id < n; ++id)
            map[id] = tables->mt(k, decode(static_cast<NodeId>(id), d, k));
        return map;
    }
    // Lemma 2: D(S) = OD_k + Σ_j f_j(S), where f_j depends only on S's position inside its
    // level-j box. Accumulate level by level: sum_j(x) = f_j(x) + sum_{j−1}(x mod 2^{j−1}) over
    // one level-j box, so the whole map costs O(N·d) after O(N·d) evaluations of f.
    const std::vector<int> canon = canonicalDimensionOrder(d);
    std::vector<std::int64_t> prev{0}; // level 1: f_1 ≡ 0, one box of 2^d positions all 0
    prev.assign(std::size_t{1} << d, 0);
    for (int j = 2; j <= k; ++j) {
        const int side = 1 << j;
        const int h = side / 2;
        const std::size_t boxSize = std::size_t{1} << (d * j);
        // f_j on the low sub-box (the rest follows by reflection).
        const std::size_t lowSize = std::size_t{1} << (d * (j - 1));
        std::vector<std::int64_t> lowExcess(lowSize);
        for (std::size_t local = 0; local < lowSize; ++local)
            lowExcess[local] = levelExcessAt(d, j, decode(static_cast<NodeId>(local), d, j - 1), mode, canon);
        std::vector<std::int64_t> cur(boxSize);
        for (std::size_t local = 0; local < boxSize; ++local) {
            std::size_t low = 0, below = 0;
            for (int i = d - 1; i >= 0; --i) {
                const int x = static_cast<int>((local >> (j * i)) & static_cast<std::size_t>(side - 1));
                const int r = x >= h ? side - 1 - x : x;
                low = (low << (j - 1)) | static_cast<std::size_t>(r);
                below = (below << (j - 1)) | static_cast<std::size_t>(x & (h - 1));
            }
            cur[local] = lowExcess[low] + prev[below];
        }
        prev = std::move(cur);
    }
    const std::int64_t od = static_cast<std::int64_t>(cangWuOptimum(d, k));
    for (std::size_t id = 0; id < n; ++id)
        map[id] = static_cast<std::uint64_t>(od + prev[id]);
    return map;
}

std::uint64_t cangWuOptimum(int d, int k)
{
    checkFits(d, k);
    const std::uint64_t p = std::uint64_t{1} << d;
    std::uint64_t od = p - 1;
    for (int j = 2; j <= k; ++j)
        od = (p - 1) * static_cast<std::uint64_t>(eyeSide(j)) + p * od;
    return od;
}

std::uint64_t cangWuOptimumClosedForm(int d, int k)
{
    checkFits(d, k);
    const Int128 sgn = minusOnePow(k);
    if (d == 1)
        return static_cast<std::uint64_t>(((3 * k + 1) * (Int128{1} << k) - sgn) / 9);
    const Int128 p = Int128{1} << d;
    const Int128 num =
        (p - 1) * (3 * (Int128{1} << (d * (k + 1) - 1)) - sgn * (p / 2 - 1) - (Int128{1} << k) * (p + 1));
    const Int128 den = 3 * (p + 1) * (p / 2 - 1);
    return static_cast<std::uint64_t>(num / den);
}

std::uint64_t cangWuOptimumPaperForm(int d, int k)
{
    checkFits(d, k);
    const Int128 sgn = minusOnePow(k);
    if (d == 2)
        return static_cast<std::uint64_t>((3 * (Int128{1} << (2 * k + 1)) - sgn) / 5 - (Int128{1} << k));
    if (d == 3)
        return static_cast<std::uint64_t>(7 * ((Int128{1} << (3 * k + 2)) - sgn - 3 * (Int128{1} << k)) / 27);
    throw Error("the papers' closed forms are for d = 2 (eq. 3) and d = 3 (eq. 13); got d = " + std::to_string(d));
}

std::uint64_t cangWuCornerTcd(int d, int k)
{
    checkFits(d, k);
    const std::int64_t p = std::int64_t{1} << d;
    std::int64_t md = p - 1;
    for (int j = 2; j <= k; ++j) {
        const std::int64_t bracket = d * d * ((std::int64_t{1} << (j - 1)) - 1) + d * eyeSide(j - 1);
        md = (p - 1) * eyeSide(j) + bracket / 2 + md + (p - 1) * static_cast<std::int64_t>(cangWuOptimum(d, j - 1));
    }
    return static_cast<std::uint64_t>(md);
}

std::uint64_t cangWuCornerTcd2d(int k, bool closedForm)
{
    checkFits(2, k);
    if (closedForm) {
        const Int128 v =
            18 * (Int128{1} << (2 * k + 1)) + 10 * (Int128{1} << (k + 2)) - 60 * Int128{k} - minusOnePow(k) - 75;
        return static_cast<std::uint64_t>(v / 30);
    }
    std::int64_t md = 3;
    for (int j = 2; j <= k; ++j)
        md = 5 * (std::int64_t{1} << (j - 1)) - 2 - 2 * eyeSide(j - 1) + md +
             3 * static_cast<std::int64_t>(cangWuOptimum(2, j - 1));
    return static_cast<std::uint64_t>(md);
}

} // namespace topocast
