// SubmeshOptimal (ours, not in Cang & Wu: their eye-based Algorithms 1–3 are not minimal; README, "Where the
// papers are wrong"): an exact dynamic program over the submesh-recursive schedules the papers' proofs range
// over, and the reconstruction of one source's schedule from its tables.

#include "cang_wu_internal.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <limits>
#include <mutex>

namespace topocast::cangwu_detail {

namespace {

int highBit(int p)
{
    return p == 0 ? -1 : std::bit_width(static_cast<unsigned>(p)) - 1;
}

/// Index of local position x in a box whose coordinates take `bits` bits each.
std::size_t boxIndex(const Point& x, int d, int bits)
{
    std::size_t idx = 0;
    for (int i = d - 1; i >= 0; --i)
        idx = (idx << bits) | static_cast<std::size_t>(x[static_cast<std::size_t>(i)]);
    return idx;
}

Point boxPoint(std::size_t idx, int d, int bits)
{
    Point x{};
    const std::size_t mask = (std::size_t{1} << bits) - 1;
    for (int i = 0; i < d; ++i)
        x[static_cast<std::size_t>(i)] = static_cast<int>((idx >> (bits * i)) & mask);
    return x;
}

/// Sorts the first d entries ascending (insertion sort; d ≤ 6).
void sortPrefix(Point& p, int d)
{
    for (int i = 1; i < d; ++i)
        for (int t = i; t > 0 && p[static_cast<std::size_t>(t - 1)] > p[static_cast<std::size_t>(t)]; --t)
            std::swap(p[static_cast<std::size_t>(t - 1)], p[static_cast<std::size_t>(t)]);
}

/// Walks the points of a sub-box of side h (coordinates 0..h−1 each) in index order, keeping the
/// local coordinates and the index of the point in the enclosing level-j box up to date.
class BoxWalker {
public:
    BoxWalker(int d, int j, std::size_t start) : m_d(d), m_j(j), m_h(1 << (j - 1)), m_index(start) {}

    const Point& local() const { return m_x; }
    std::size_t index() const { return m_index; }

    void next()
    {
        for (int i = 0; i < m_d; ++i) {
            int& x = m_x[static_cast<std::size_t>(i)];
            if (++x < m_h) {
                m_index += std::size_t{1} << (m_j * i);
                return;
            }
            x = 0;
            m_index -= static_cast<std::size_t>(m_h - 1) << (m_j * i);
        }
    }

private:
    int m_d, m_j, m_h;
    std::size_t m_index;
    Point m_x{};
};

/// L1 distance transform of `dt` restricted to the sub-box with origin `op` and side h of a
/// level-j box: dt(Q) := min_R (|Q − R|₁ + dt(R)) by forward/backward passes along each axis.
void distanceTransform(std::vector<std::uint32_t>& dt, int d, int j, const Point& op)
{
    const int h = 1 << (j - 1);
    const std::size_t sub = std::size_t{1} << ((j - 1) * d);
    std::size_t start = 0;
    for (int i = 0; i < d; ++i)
        start += static_cast<std::size_t>(op[static_cast<std::size_t>(i)]) << (j * i);
    for (int a = 0; a < d; ++a) {
        const std::size_t stride = std::size_t{1} << (j * a);
        BoxWalker w(d, j, start);
        for (std::size_t m = 0; m < sub; ++m, w.next()) {
            if (w.local()[static_cast<std::size_t>(a)] != 0)
                continue;
            const std::size_t base = w.index();
            for (int t = 1; t < h; ++t) {
                std::uint32_t& cur = dt[base + static_cast<std::size_t>(t) * stride];
                cur = std::min(cur, dt[base + static_cast<std::size_t>(t - 1) * stride] + 1);
            }
            for (int t = h - 2; t >= 0; --t) {
                std::uint32_t& cur = dt[base + static_cast<std::size_t>(t) * stride];
                cur = std::min(cur, dt[base + static_cast<std::size_t>(t + 1) * stride] + 1);
            }
        }
    }
}

std::shared_ptr<const OptimalTables> computeTables(int d, int k)
{
    auto tables = std::make_shared<OptimalTables>();
    tables->d = d;
    tables->k = k;
    tables->mtLow.resize(static_cast<std::size_t>(k) + 1);
    tables->c.resize(static_cast<std::size_t>(k) + 1);
    tables->dt.resize(static_cast<std::size_t>(k) + 1);
    tables->mtLow[1] = {static_cast<std::uint32_t>((1u << d) - 1)};
    const int boxes = 1 << d;
    for (int j = 2; j <= k; ++j) {
        const int h = 1 << (j - 1);
        const std::size_t total = std::size_t{1} << (j * d);
        const std::size_t sub = std::size_t{1} << ((j - 1) * d);
        // MT_{j−1} at every local position of a level-(j−1) box (index = the walker's order).
        std::vector<std::uint32_t> mtPrev(sub);
        for (std::size_t m = 0; m < sub; ++m)
            mtPrev[m] = tables->mt(j - 1, boxPoint(m, d, j - 1));
        std::vector<std::uint32_t> c(total, 0);
        std::vector<std::uint32_t> dt(total, 0);
        for (int p = boxes - 1; p >= 0; --p) {
            const int hb = highBit(p);
            Point op{};
            std::size_t start = 0;
            for (int i = 0; i < d; ++i)
                if ((p >> i) & 1) {
                    op[static_cast<std::size_t>(i)] = h;
                    start += static_cast<std::size_t>(h) << (j * i);
                }
            BoxWalker w(d, j, start);
            for (std::size_t m = 0; m < sub; ++m, w.next()) {
                const std::size_t qi = w.index();
                std::uint32_t val = mtPrev[m];
                // Child p + 2^b differs from p only in dimension b, where Q lies below h (bit b
                // of p is clear): the nearest point of the child box is Q with coordinate b = h.
                for (int b = hb + 1; b < d; ++b) {
                    const auto gap = static_cast<std::uint32_t>(h - w.local()[static_cast<std::size_t>(b)]);
                    val += gap + dt[qi + (static_cast<std::size_t>(gap) << (j * b))];
                }
                c[qi] = val;
                dt[qi] = val;
            }
            if (p != 0)
                distanceTransform(dt, d, j, op);
        }
        // MT_j on the low sub-box: min over the d! orders = min of C_0 over the coordinate
        // permutations of Q (the tables below are invariant under axis permutations).
        std::vector<std::uint32_t> low(sub, 0);
        for (std::size_t m = 0; m < sub; ++m) {
            const Point x = boxPoint(m, d, j - 1);
            Point sorted = x;
            sortPrefix(sorted, d);
            const std::size_t key = boxIndex(sorted, d, j - 1);
            if (key < m) {
                low[m] = low[key];
                continue;
            }
            std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
            Point perm = sorted;
            do {
                best = std::min(best, c[boxIndex(perm, d, j)]);
            } while (std::next_permutation(perm.begin(), perm.begin() + d));
            low[m] = best;
        }
        tables->mtLow[static_cast<std::size_t>(j)] = std::move(low);
        tables->c[static_cast<std::size_t>(j)] = std::move(c);
        tables->dt[static_cast<std::size_t>(j)] = std::move(dt);
    }
    return tables;
}

/// Rebuilds one source's schedule, level by level (spec §3.4, "Schedule reconstruction").
class Reconstruction {
public:
    Reconstruction(const OptimalTables& tables, std::vector<CangWuSend>& out)
        : m_t(tables), m_d(tables.d), m_canon(canonicalDimensionOrder(tables.d)), m_out(out)
    {
    }

    void run(int j, const Point& o, const Point& s, std::uint32_t t0)
    {
        const int d = m_d;
        const int side = 1 << j;
        const int h = side / 2;
        Point b{}, rp{};
        for (int i = 0; i < d; ++i) {
            const auto z = static_cast<std::size_t>(i);
            const int r = s[z] - o[z];
            b[z] = r >= h ? 1 : 0;
            rp[z] = b[z] ? side - 1 - r : r;
        }
        const int boxes = 1 << d;
        std::array<Point, 64> nodes{};
        // perm[q] = the real (reflected-frame) dimension that plays identity dimension q.
        std::array<int, 6> perm{0, 1, 2, 3, 4, 5};
        if (j == 1) {
            // Unit box: step q crosses dimension canon[q] (the cost is 2^d − 1 in any order).
            for (int q = 0; q < d; ++q)
                perm[static_cast<std::size_t>(q)] = m_canon[static_cast<std::size_t>(q)];
            nodes[0] = Point{};
            for (int q = 0; q < d; ++q)
                nodes[0][static_cast<std::size_t>(q)] = rp[static_cast<std::size_t>(perm[static_cast<std::size_t>(q)])];
            for (int p = 0; p < boxes; ++p)
                for (int q = highBit(p) + 1; q < d; ++q) {
                    Point r = nodes[static_cast<std::size_t>(p)];
                    r[static_cast<std::size_t>(q)] = 1;
                    nodes[static_cast<std::size_t>(p | (1 << q))] = r;
                    emit(t0 + static_cast<std::uint32_t>(q) + 1, nodes[static_cast<std::size_t>(p)], r, o, b, perm, j);
                }
            return;
        }
        const std::vector<std::uint32_t>& c = m_t.c[static_cast<std::size_t>(j)];
        const std::vector<std::uint32_t>& dt = m_t.dt[static_cast<std::size_t>(j)];
        const std::uint32_t target = m_t.mt(j, rp);
        bool found = false;
        do {
            Point y{};
            for (int q = 0; q < d; ++q)
                y[static_cast<std::size_t>(q)] = rp[static_cast<std::size_t>(perm[static_cast<std::size_t>(q)])];
            if (c[boxIndex(y, d, j)] == target) {
                nodes[0] = y;
                found = true;
                break;
            }
        } while (std::next_permutation(perm.begin(), perm.begin() + d));
        assert(found);
        (void)found;
        for (int p = 0; p < boxes; ++p) {
            const Point& from = nodes[static_cast<std::size_t>(p)];
            for (int q = highBit(p) + 1; q < d; ++q) {
                const int child = p | (1 << q);
                Point oc{};
                for (int i = 0; i < d; ++i)
                    oc[static_cast<std::size_t>(i)] = ((child >> i) & 1) ? h : 0;
                // min over R in the child box of |from − R|₁ + C(R): enter the box at the
                // nearest point (coordinate q := h) and follow the distance transform downhill
                // until it meets C (spec §3.4: dist₁(Q, box) + DT(clamp(Q, box))).
                Point bestR = from;
                bestR[static_cast<std::size_t>(q)] = h;
                std::size_t at = boxIndex(bestR, d, j);
                while (dt[at] != c[at]) {
                    bool moved = false;
                    for (int i = 0; i < d && !moved; ++i) {
                        const auto z = static_cast<std::size_t>(i);
                        const std::size_t stride = std::size_t{1} << (j * i);
                        for (int sign : {-1, +1}) {
                            const int v = bestR[z] + sign;
                            if (v < oc[z] || v >= oc[z] + h)
                                continue;
                            const std::size_t next = sign < 0 ? at - stride : at + stride;
                            if (dt[next] + 1 == dt[at]) {
                                bestR[z] = v;
                                at = next;
                                moved = true;
                                break;
                            }
                        }
                    }
                    assert(moved);
                    if (!moved)
                        break;
                }
                nodes[static_cast<std::size_t>(child)] = bestR;
                emit(t0 + static_cast<std::uint32_t>(q) + 1, from, bestR, o, b, perm, j);
            }
        }
        for (int p = 0; p < boxes; ++p) {
            const Point g = toGlobal(nodes[static_cast<std::size_t>(p)], o, b, perm, j);
            run(j - 1, childBoxOrigin(o, g, h, d), g, t0 + static_cast<std::uint32_t>(d));
        }
    }

private:
    Point toGlobal(const Point& y, const Point& o, const Point& b, const std::array<int, 6>& perm, int j) const
    {
        const int side = 1 << j;
        Point x{};
        for (int q = 0; q < m_d; ++q)
            x[static_cast<std::size_t>(perm[static_cast<std::size_t>(q)])] = y[static_cast<std::size_t>(q)];
        Point g{};
        for (int i = 0; i < m_d; ++i) {
            const auto z = static_cast<std::size_t>(i);
            g[z] = o[z] + (b[z] ? side - 1 - x[z] : x[z]);
        }
        return g;
    }

    void emit(std::uint32_t step, const Point& from, const Point& to, const Point& o, const Point& b,
              const std::array<int, 6>& perm, int j)
    {
        m_out.push_back({StepNo{step}, encode(toGlobal(from, o, b, perm, j), m_d, m_t.k),
                         encode(toGlobal(to, o, b, perm, j), m_d, m_t.k), static_cast<std::uint32_t>(j)});
    }

    const OptimalTables& m_t;
    int m_d;
    std::vector<int> m_canon;
    std::vector<CangWuSend>& m_out;
};

} // namespace

std::uint32_t OptimalTables::mt(int j, const Point& x) const
{
    const int side = 1 << j;
    const int h = side / 2;
    Point r{};
    for (int i = 0; i < d; ++i) {
        const auto z = static_cast<std::size_t>(i);
        const int v = x[z] & (side - 1);
        r[z] = v >= h ? side - 1 - v : v;
    }
    return mtLow[static_cast<std::size_t>(j)][boxIndex(r, d, j - 1)];
}

namespace {

struct TableCache {
    std::mutex mutex;
    std::vector<std::shared_ptr<const OptimalTables>> entries; // most recent last
};

TableCache& tableCache()
{
    static TableCache cache;
    return cache;
}

} // namespace

std::shared_ptr<const OptimalTables> optimalTables(int d, int k)
{
    checkShape(d, k);
    TableCache& tc = tableCache();
    std::lock_guard lock(tc.mutex);
    auto& cache = tc.entries;
    for (auto it = cache.begin(); it != cache.end(); ++it)
        if ((*it)->d == d && (*it)->k == k) {
            auto hit = *it;
            cache.erase(it);
            cache.push_back(hit);
            return hit;
        }
    auto tables = computeTables(d, k);
    cache.push_back(tables);
    if (cache.size() > 4)
        cache.erase(cache.begin());
    return tables;
}

void optimalSends(const OptimalTables& tables, NodeId source, std::vector<CangWuSend>& out)
{
    Reconstruction rec(tables, out);
    rec.run(tables.k, Point{}, decode(source, tables.d, tables.k), 0);
}

} // namespace topocast::cangwu_detail

namespace topocast {

void cangWuReleaseTables()
{
    auto& tc = cangwu_detail::tableCache();
    std::lock_guard lock(tc.mutex);
    tc.entries.clear();
}

} // namespace topocast
