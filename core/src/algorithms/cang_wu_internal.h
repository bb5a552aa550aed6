#pragma once

// Shared internals of the Cang-Wu generators (not installed; core/src only).

#include "topocast/algorithms/cang_wu.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace topocast::cangwu_detail {

using Point = std::array<int, 6>;

/// Checks 1 ≤ d ≤ 6, k ≥ 1, d·k ≤ 24 and throws Error naming the bad value otherwise.
void checkShape(int d, int k);
/// Checks the shape and that source < 2^{dk}.
void checkSource(int d, int k, NodeId source);

inline Point decode(NodeId id, int d, int k)
{
    Point p{};
    const std::uint32_t mask = (std::uint32_t{1} << k) - 1;
    for (int i = 0; i < d; ++i)
        p[static_cast<std::size_t>(i)] = static_cast<int>((id >> (k * i)) & mask);
    return p;
}

inline NodeId encode(const Point& p, int d, int k)
{
    std::uint32_t id = 0;
    for (int i = d - 1; i >= 0; --i)
        id = (id << k) | static_cast<std::uint32_t>(p[static_cast<std::size_t>(i)]);
    return NodeId{id};
}

/// The origin of the level-(j−1) box that holds `g` inside the box at origin `o` whose half side
/// is `h` (each coordinate in the lower or the upper half).
inline Point childBoxOrigin(const Point& o, const Point& g, int h, int d)
{
    Point child{};
    for (int i = 0; i < d; ++i) {
        const auto z = static_cast<std::size_t>(i);
        child[z] = o[z] + (g[z] - o[z] >= h ? h : 0);
    }
    return child;
}

/// The SubmeshOptimal tables of spec §3.4 for one (d, k), computed with the identity dimension
/// order (the other orders follow by permuting coordinates, since every MT is invariant under
/// axis permutations).
struct OptimalTables {
    int d = 0;
    int k = 0;
    /// mtLow[j]: MT_j at every position of the low sub-box of a level-j box (index
    /// Σ x_i << ((j−1)·i)), j = 1..k (entry 0 unused).
    std::vector<std::vector<std::uint32_t>> mtLow;
    /// c[j]: C_p(Q) (identity order) at every position Q of a level-j box (index Σ x_i << (j·i)),
    /// where p is the sub-box holding Q; j = 2..k.
    std::vector<std::vector<std::uint32_t>> c;
    /// dt[j]: the L1 distance transform of c[j] within each sub-box p ≠ 0 (= c[j] in sub-box 0):
    /// dt(Q) = min over R in Q's sub-box of |Q − R|₁ + C(R). Used to find receivers quickly.
    std::vector<std::vector<std::uint32_t>> dt;

    /// MT_j at local position `x` (0 ≤ x_i < 2^j) of a level-j box.
    std::uint32_t mt(int j, const Point& x) const;
};

/// The tables for (d, k), computed on first use and cached (a few shapes, thread-safe).
std::shared_ptr<const OptimalTables> optimalTables(int d, int k);

/// Appends the SubmeshOptimal sends from `source` to `out`.
void optimalSends(const OptimalTables& tables, NodeId source, std::vector<CangWuSend>& out);

} // namespace topocast::cangwu_detail
