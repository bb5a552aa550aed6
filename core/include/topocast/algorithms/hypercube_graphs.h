#pragma once

// Spanning graphs of the n-cube (Johnsson & Ho §2–§3): bit utilities, the per-node rules of
// every graph, the graphs built for all nodes, and their per-dimension counters (Table 1).
// Everything is written for relative addresses c = i ⊕ s (source 0); translate by XOR with s.

#include "topocast/model/topology.h"

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topocast::hypercube {

/// Largest dimension the graphs are built for (2^20 nodes; spec §11).
constexpr int kMaxDim = 20;
/// Parent of a root.
constexpr std::uint32_t kNoParent = 0xFFFFFFFFu;

/// An exact fraction num/den (den > 0, lowest terms). Used for weights and closed-form costs.
struct Rational {
    long long num = 0;
    long long den = 1;

    Rational() = default;
    Rational(long long n) : num(n) {} // NOLINT: implicit on purpose (integers are rationals)
    Rational(long long n, long long d);

    double value() const { return static_cast<double>(num) / static_cast<double>(den); }
    /// Smallest integer ≥ this.
    long long ceil() const;
    /// Largest integer ≤ this.
    long long floor() const;
    std::string str() const; ///< "15/4" or "8"

    friend Rational operator+(Rational a, Rational b);
    friend Rational operator-(Rational a, Rational b);
    friend Rational operator*(Rational a, Rational b);
    friend Rational operator/(Rational a, Rational b);
    Rational& operator+=(Rational b) { return *this = *this + b; }
    friend bool operator==(const Rational& a, const Rational& b) { return a.num == b.num && a.den == b.den; }
    friend std::strong_ordering operator<=>(const Rational& a, const Rational& b);
};

// ---- bit utilities (§1.1, §1.2, §3.1, §3.6) ------------------------------------------------

inline std::uint32_t lowMask(int n)
{
    return n >= 32 ? ~0u : ((1u << n) - 1u);
}
/// R^times(x) on n-bit words (rotate right: bit m → m−1, bit 0 → n−1). O(1).
std::uint32_t rotateRight(std::uint32_t x, int n, int times = 1);
/// L^times(x) = R^−times(x). O(1).
std::uint32_t rotateLeft(std::uint32_t x, int n, int times = 1);
/// Period P(x): least j > 0 with R^j(x) = x (divides n). O(n).
int period(std::uint32_t x, int n);
/// k_j(c) of §1.2: first 1-bit scanning j−1, j−2, …, 0, n−1, …, j; −1 for c = 0. O(n).
int scanK(std::uint32_t c, int j, int n);
/// Mset(k, j) of §1.2: positions k+1, …, j−1 cyclically (n−1 of them when k = j).
std::vector<int> mset(int k, int j, int n);
/// Binary-reflected Gray code G(p) = p ⊕ (p >> 1) and its inverse (prefix XOR).
inline std::uint32_t gray(std::uint32_t p)
{
    return p ^ (p >> 1);
}
std::uint32_t grayInverse(std::uint32_t g);
/// Dimension flipped by the Gray-code step p → p+1: number of trailing 1-bits of p.
int grayStepDim(std::uint32_t p);
/// J(c) of §3.6: the rotation counts u with R^u(c) minimal, ascending. Needs c ≠ 0. O(n).
std::vector<int> minimalRotations(std::uint32_t c, int n);
/// base(c) = min J(c) (§3.6). Needs c ≠ 0.
int sbntBase(std::uint32_t c, int n);
/// base_r(c) of SBnTc (§3.6, §10 item 2): the j ∈ J(c) with the smallest (j + r) mod n.
int sbntcBase(std::uint32_t c, int r, int n);

// ---- per-node rules (absolute addresses; i = node, s = source) --------------------------------
// Each returns kNoParent for the source. Preconditions: 1 ≤ n ≤ 20, i and s < 2^n. O(n).

NodeId sbtParent(NodeId i, NodeId s, int n);
/// Children ascending by dimension.
std::vector<NodeId> sbtChildren(NodeId i, NodeId s, int n);
/// SBT_j of §3.2 (rotated SBT): parent = flip k_j(c).
NodeId rsbtParent(NodeId i, NodeId s, int n, int j);
std::vector<NodeId> rsbtChildren(NodeId i, NodeId s, int n, int j);
/// ERSBT_j of §3.5.
NodeId ersbtParent(NodeId i, NodeId s, int n, int j);
std::vector<NodeId> ersbtChildren(NodeId i, NodeId s, int n, int j);
/// One-port label f(i, j) of the edge into i in ERSBT_j (Thm. 4.1). i ≠ s.
int ersbtLabel(NodeId i, NodeId s, int n, int j);
/// Level of i in ERSBT_j: |c| if bit j of c is 1, else |c| + 2 (0 for the source).
int ersbtLevel(NodeId i, NodeId s, int n, int j);
/// Single-path SBnT (§3.6).
NodeId sbntParent(NodeId i, NodeId s, int n);
std::vector<NodeId> sbntChildren(NodeId i, NodeId s, int n);
/// SBnTc: the parents of i with their weights (n/P(c) parents of weight P(c)/n for cyclic c).
std::vector<std::pair<NodeId, Rational>> sbntcParents(NodeId i, NodeId s, int n);
/// Position of i on the BRG path from s (rotation r for nRBRG path r).
std::uint32_t brgPosition(NodeId i, NodeId s, int n, int r = 0);
/// Node at position p of BRG path r from s.
NodeId brgNode(std::uint32_t p, NodeId s, int n, int r = 0);
/// TCBT parent table for source 0 by the construction of §3.3 (entry 0 = kNoParent). O(2^n).
std::vector<std::uint32_t> tcbtParentTable(int n);

// ---- whole graphs ------------------------------------------------------------------------------

enum class GraphKind : std::uint8_t { Brg, Nrbrg, Sbt, Tcbt, Nrsbt, Nesbt, Sbnt, Sbntc };

/// "BRG", "nRBRG", "SBT", "TCBT", "nRSBT", "nESBT", "SBnT", "SBnTc".
std::string graphName(GraphKind kind);
/// The kind named `name` exactly as graphName() writes it; nullopt otherwise.
std::optional<GraphKind> parseGraphName(std::string_view name);

/// A spanning graph for source 0: `trees` member trees of weight 1/trees each.
struct SpanningGraph {
    GraphKind kind = GraphKind::Sbt;
    int n = 1;
    int trees = 1;
    /// parent[t][c]: relative parent of c in member t (kNoParent for c = 0).
    std::vector<std::vector<std::uint32_t>> parent;
    /// level[t][c]: edges from the root.
    std::vector<std::vector<std::uint32_t>> level;
    int height = 0;

    std::uint32_t nodeCount() const { return 1u << n; }
    Rational weight() const { return Rational(1, trees); }
    /// Dimension of the edge into c in member t (c ≠ 0).
    int dimInto(int t, std::uint32_t c) const;
};

/// Builds the graph for source 0. Throws Error for n outside 1..20 (2..20 for TCBT).
/// O(trees · 2^n · n) time, O(trees · 2^n) memory.
SpanningGraph buildGraph(GraphKind kind, int n);

/// Children lists of one member in CSR form (children ascending by address).
struct ChildLists {
    std::vector<std::uint32_t> offset; ///< size N+1
    std::vector<std::uint32_t> child;
    std::pair<const std::uint32_t*, const std::uint32_t*> of(std::uint32_t c) const
    {
        return {child.data() + offset[c], child.data() + offset[c + 1]};
    }
};
ChildLists childLists(const SpanningGraph& g, int tree);

/// A directed tree edge between absolute addresses.
struct TreeEdge {
    NodeId parent{};
    NodeId child{};
    friend bool operator==(const TreeEdge&, const TreeEdge&) = default;
};
/// The members of `g` translated to source `s` (XOR): edges[t] = the N−1 edges parent → child of
/// member t, in order of the relative address child ⊕ s. O(trees · N).
std::vector<std::vector<TreeEdge>> treeEdges(const SpanningGraph& g, NodeId s);

/// One-port label (= cycle) of the edge into every node of every member (§2 label schedules,
/// §6.2): BRG/nRBRG path index − 1; SBT the dimension; nRSBT tree j: j + ((d−j) mod n); nESBT
/// f(i, j) of Thm. 4.1; SBnT(c): j + ((d−j) mod n) with j the node's subtree (base); TCBT the
/// one-packet one-port broadcast cycle of §4.2 (r2: 0, La: 1, children of x: +1, +2 ascending).
/// Entry [t][0] is unused. O(trees·N·n).
std::vector<std::vector<std::uint32_t>> oneportLabels(const SpanningGraph& g);

/// Subtree sizes of one member (size[c] = nodes below and including c). O(N log) via levels.
std::vector<std::uint32_t> subtreeSizes(const SpanningGraph& g, int tree);

/// The per-dimension counters of §1.3 / Table 1, summed over the members (divide by `trees`
/// for the weighted values: ew = e/trees, …). Tables are indexed [l][d], l = 0..height−1.
struct Counters {
    int n = 1;
    int height = 0;
    int trees = 1;
    std::vector<std::uint64_t> unionEdges; ///< E_d: distinct directed edges of the union per dimension
    std::vector<std::uint64_t> edges;      ///< Σ over members of edges in dimension d (Ew_d·trees)
    std::vector<std::vector<std::uint64_t>> e, s, r;
    std::vector<std::uint64_t> levelSizes;   ///< Σ over members of nodes per level, l = 0..height
    std::vector<std::uint64_t> rootSubtrees; ///< Σ over members of the root's subtree size via dim d

    Rational weighted(std::uint64_t count) const { return Rational(static_cast<long long>(count), trees); }
    /// max_d of a table row, weighted.
    Rational maxOverDims(const std::vector<std::vector<std::uint64_t>>& table, int l) const;
};

/// Computes every counter. O(trees · Σ depth) time (≈ trees·n·N/2; paths: N²/2, so BRG/nRBRG are
/// refused above n = 14 with Error).
Counters computeCounters(const SpanningGraph& g);

} // namespace topocast::hypercube
