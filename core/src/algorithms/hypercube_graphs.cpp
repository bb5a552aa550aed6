#include "topocast/algorithms/hypercube_graphs.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace topocast::hypercube {
// ---- per-node rules ----------------------------------------------------------------------------

namespace {

/// i's neighbours across each of `dims`, in that order.
std::vector<NodeId> across(NodeId i, const std::vector<int>& dims)
{
    std::vector<NodeId> out;
    for (int m : dims)
        out.push_back(NodeId{i ^ (1u << m)});
    return out;
}

/// i's neighbours across the dimensions first, first + 1, …, last − 1 (none when first ≥ last).
std::vector<NodeId> across(NodeId i, int first, int last)
{
    std::vector<NodeId> out;
    for (int m = first; m < last; ++m)
        out.push_back(NodeId{i ^ (1u << m)});
    return out;
}

void checkNode(NodeId i, NodeId s, int n)
{
    if (n < 1 || n > kMaxDim)
        throw Error("hypercube dimension " + std::to_string(n) + " is outside 1.." + std::to_string(kMaxDim));
    if (i >> n || s >> n)
        throw Error("node " + std::to_string(i >> n ? i : s) + " is outside the " + std::to_string(n) + "-cube (0.." +
                    std::to_string((1u << n) - 1) + ")");
}

/// i relative to the source s, both checked to be nodes of the n-cube (the rules are written for
/// source 0).
std::uint32_t relative(NodeId i, NodeId s, int n)
{
    checkNode(i, s, n);
    return i ^ s;
}

std::uint32_t sbtParentRel(std::uint32_t c)
{
    return c ? c ^ (1u << (31 - std::countl_zero(c))) : kNoParent;
}

std::uint32_t rsbtParentRel(std::uint32_t c, int n, int j)
{
    return c ? c ^ (1u << scanK(c, j, n)) : kNoParent;
}

std::uint32_t ersbtParentRel(std::uint32_t c, int n, int j)
{
    if (c == 0)
        return kNoParent;
    if (!(c >> j & 1u))
        return c ^ (1u << j);
    return c ^ (1u << scanK(c, j, n));
}

int ersbtLabelRel(std::uint32_t c, int n, int j)
{
    if (!(c >> j & 1u))
        return j + n;
    const int k = scanK(c, j, n);
    return k >= j ? k : k + n;
}

std::uint32_t sbntParentRel(std::uint32_t c, int n)
{
    return c ? c ^ (1u << scanK(c, sbntBase(c, n), n)) : kNoParent;
}

std::uint32_t brgParentRel(std::uint32_t c, int n, int r)
{
    if (c == 0)
        return kNoParent;
    const std::uint32_t p = grayInverse(rotateRight(c, n, r));
    return rotateLeft(gray(p - 1), n, r);
}

template <class ParentFn> std::vector<NodeId> childrenByParent(NodeId i, int n, ParentFn parent)
{
    std::vector<NodeId> out;
    for (int d = 0; d < n; ++d) {
        const NodeId q{i ^ (1u << d)};
        if (parent(q) == i)
            out.push_back(q);
    }
    return out;
}

NodeId absolute(std::uint32_t rel, NodeId s)
{
    return NodeId{rel == kNoParent ? kNoParent : rel ^ s};
}

} // namespace

NodeId sbtParent(NodeId i, NodeId s, int n)
{
    return absolute(sbtParentRel(relative(i, s, n)), s);
}

std::vector<NodeId> sbtChildren(NodeId i, NodeId s, int n)
{
    const std::uint32_t c = relative(i, s, n);
    const int k = c ? 31 - std::countl_zero(c) : -1;
    return across(i, k + 1, n);
}

NodeId rsbtParent(NodeId i, NodeId s, int n, int j)
{
    return absolute(rsbtParentRel(relative(i, s, n), n, j), s);
}

std::vector<NodeId> rsbtChildren(NodeId i, NodeId s, int n, int j)
{
    const std::uint32_t c = relative(i, s, n);
    return c == 0 ? across(i, 0, n) : across(i, mset(scanK(c, j, n), j, n));
}

NodeId ersbtParent(NodeId i, NodeId s, int n, int j)
{
    return absolute(ersbtParentRel(relative(i, s, n), n, j), s);
}

std::vector<NodeId> ersbtChildren(NodeId i, NodeId s, int n, int j)
{
    const std::uint32_t c = relative(i, s, n);
    if (c == 0)
        return {NodeId{i ^ (1u << j)}};
    if (!(c >> j & 1u))
        return {};
    const int k = scanK(c, j, n);
    std::vector<NodeId> out = across(i, mset(k, j, n));
    if (k != j)
        out.push_back(NodeId{i ^ (1u << j)});
    return out;
}

int ersbtLabel(NodeId i, NodeId s, int n, int j)
{
    checkNode(i, s, n);
    if (i == s)
        throw Error("the source has no incoming edge, so no ERSBT label");
    return ersbtLabelRel(i ^ s, n, j);
}

int ersbtLevel(NodeId i, NodeId s, int n, int j)
{
    const std::uint32_t c = relative(i, s, n);
    if (c == 0)
        return 0;
    return std::popcount(c) + ((c >> j & 1u) ? 0 : 2);
}

NodeId sbntParent(NodeId i, NodeId s, int n)
{
    return absolute(sbntParentRel(relative(i, s, n), n), s);
}

std::vector<NodeId> sbntChildren(NodeId i, NodeId s, int n)
{
    checkNode(i, s, n);
    return childrenByParent(i, n, [&](NodeId q) { return absolute(sbntParentRel(q ^ s, n), s); });
}

std::vector<std::pair<NodeId, Rational>> sbntcParents(NodeId i, NodeId s, int n)
{
    const std::uint32_t c = relative(i, s, n);
    std::vector<std::pair<NodeId, Rational>> out;
    if (c == 0)
        return out;
    const int p = period(c, n);
    for (int j : minimalRotations(c, n))
        out.emplace_back((c ^ (1u << scanK(c, j, n))) ^ s, Rational(p, n));
    return out;
}

std::uint32_t brgPosition(NodeId i, NodeId s, int n, int r)
{
    checkNode(i, s, n);
    return grayInverse(rotateRight(i ^ s, n, r));
}

NodeId brgNode(std::uint32_t p, NodeId s, int n, int r)
{
    checkNode(NodeId{0}, s, n);
    if (p >> n)
        throw Error("path position " + std::to_string(p) + " is outside 0.." + std::to_string((1u << n) - 1));
    return NodeId{rotateLeft(gray(p), n, r) ^ s};
}

std::vector<std::uint32_t> tcbtParentTable(int n)
{
    if (n < 1 || n > kMaxDim)
        throw Error("tcbt needs a hypercube dimension 1.." + std::to_string(kMaxDim) + "; got " + std::to_string(n));
    if (n == 1)
        return {kNoParent, 0};
    std::vector<std::uint32_t> P = {kNoParent, 0, 0, 1};
    int i = 0, k = 1, j = 1;
    for (int m = 2; m <= n - 1; ++m) {
        std::vector<int> perm(static_cast<std::size_t>(m));
        std::iota(perm.begin(), perm.end(), 0);
        perm[static_cast<std::size_t>(i)] = j;
        perm[static_cast<std::size_t>(k)] = i;
        if (j != k)
            perm[static_cast<std::size_t>(j)] = k;
        auto pi = [&](std::uint32_t v) {
            std::uint32_t out = 0;
            for (int d = 0; d < m; ++d)
                if (v >> d & 1u)
                    out |= 1u << perm[static_cast<std::size_t>(d)];
            return out;
        };
        const std::uint32_t ei = 1u << i, em = 1u << m;
        auto A = [&](std::uint32_t v) { return v ^ ei; };
        auto Bc = [&](std::uint32_t v) { return pi(v) | em; };
        const std::uint32_t La = 1u << k, Ra = ei | (1u << j), y1 = ei, y2 = (1u << j) | em;
        std::vector<std::uint32_t> Pn(std::size_t{1} << (m + 1), kNoParent);
        Pn[em] = 0;
        Pn[y1] = 0;
        Pn[y2] = em;
        for (std::uint32_t v = 0; v < (1u << m); ++v) {
            if (v == 0 || v == ei)
                continue;
            if (v == La) {
                Pn[A(v)] = y1;
                Pn[Bc(v)] = y1;
            } else if (v == Ra) {
                Pn[A(v)] = y2;
                Pn[Bc(v)] = y2;
            } else {
                Pn[A(v)] = A(P[v]);
                Pn[Bc(v)] = Bc(P[v]);
            }
        }
        P = std::move(Pn);
        k = i;
        i = m;
    }
    return P;
}

// ---- whole graphs ------------------------------------------------------------------------------

std::string graphName(GraphKind kind)
{
    switch (kind) {
    case GraphKind::Brg:
        return "BRG";
    case GraphKind::Nrbrg:
        return "nRBRG";
    case GraphKind::Sbt:
        return "SBT";
    case GraphKind::Tcbt:
        return "TCBT";
    case GraphKind::Nrsbt:
        return "nRSBT";
    case GraphKind::Nesbt:
        return "nESBT";
    case GraphKind::Sbnt:
        return "SBnT";
    case GraphKind::Sbntc:
        return "SBnTc";
    }
    return "?";
}

std::optional<GraphKind> parseGraphName(std::string_view name)
{
    for (GraphKind k : {GraphKind::Brg, GraphKind::Nrbrg, GraphKind::Sbt, GraphKind::Tcbt, GraphKind::Nrsbt,
                        GraphKind::Nesbt, GraphKind::Sbnt, GraphKind::Sbntc})
        if (graphName(k) == name)
            return k;
    return std::nullopt;
}

std::vector<std::vector<TreeEdge>> treeEdges(const SpanningGraph& g, NodeId s)
{
    std::vector<std::vector<TreeEdge>> out(static_cast<std::size_t>(g.trees));
    const std::uint32_t N = g.nodeCount();
    for (std::size_t t = 0; t < out.size(); ++t) {
        out[t].reserve(N - 1);
        for (std::uint32_t c = 1; c < N; ++c)
            out[t].push_back({NodeId{g.parent[t][c] ^ s}, NodeId{c ^ s}});
    }
    return out;
}

int SpanningGraph::dimInto(int t, std::uint32_t c) const
{
    return std::countr_zero(c ^ parent[static_cast<std::size_t>(t)][c]);
}

namespace {

/// Levels from a parent array (root 0) without recursion. O(N) amortized.
std::vector<std::uint32_t> levelsOf(const std::vector<std::uint32_t>& parent)
{
    const std::size_t N = parent.size();
    constexpr std::uint32_t kUnknown = 0xFFFFFFFFu;
    std::vector<std::uint32_t> level(N, kUnknown);
    level[0] = 0;
    std::vector<std::uint32_t> stack;
    for (std::uint32_t c = 1; c < N; ++c) {
        std::uint32_t x = c;
        while (level[x] == kUnknown) {
            stack.push_back(x);
            x = parent[x];
            if (x == kNoParent || stack.size() > N)
                throw Error("internal: spanning graph member is not a tree rooted at the source");
        }
        std::uint32_t l = level[x];
        while (!stack.empty()) {
            level[stack.back()] = ++l;
            stack.pop_back();
        }
    }
    return level;
}

} // namespace

SpanningGraph buildGraph(GraphKind kind, int n)
{
    if (n < 1 || n > kMaxDim)
        throw Error(graphName(kind) + " needs a hypercube dimension 1.." + std::to_string(kMaxDim) + "; got " +
                    std::to_string(n));
    if (kind == GraphKind::Tcbt && n < 2)
        throw Error("TCBT needs a hypercube dimension ≥ 2 (a two-rooted tree has ≥ 4 nodes); got " + std::to_string(n));
    SpanningGraph g;
    g.kind = kind;
    g.n = n;
    const std::uint32_t N = 1u << n;
    const bool multi =
        kind == GraphKind::Nrbrg || kind == GraphKind::Nrsbt || kind == GraphKind::Nesbt || kind == GraphKind::Sbntc;
    g.trees = multi ? n : 1;
    g.parent.assign(static_cast<std::size_t>(g.trees), std::vector<std::uint32_t>(N, kNoParent));
    g.level.assign(static_cast<std::size_t>(g.trees), std::vector<std::uint32_t>(N, 0));
    std::vector<std::uint32_t> tcbt;
    if (kind == GraphKind::Tcbt)
        tcbt = tcbtParentTable(n);
    std::vector<int> base; // SBnT(c): base of every node, computed once
    if (kind == GraphKind::Sbnt || kind == GraphKind::Sbntc) {
        base.resize(N);
        for (std::uint32_t c = 1; c < N; ++c)
            base[c] = sbntBase(c, n);
    }
    for (int t = 0; t < g.trees; ++t) {
        auto& P = g.parent[static_cast<std::size_t>(t)];
        auto& L = g.level[static_cast<std::size_t>(t)];
        for (std::uint32_t c = 1; c < N; ++c) {
            switch (kind) {
            case GraphKind::Brg:
            case GraphKind::Nrbrg:
                P[c] = brgParentRel(c, n, t);
                L[c] = grayInverse(rotateRight(c, n, t));
                break;
            case GraphKind::Sbt:
                P[c] = sbtParentRel(c);
                L[c] = static_cast<std::uint32_t>(std::popcount(c));
                break;
            case GraphKind::Tcbt:
                P[c] = tcbt[c];
                break;
            case GraphKind::Nrsbt:
                P[c] = rsbtParentRel(c, n, t);
                L[c] = static_cast<std::uint32_t>(std::popcount(c));
                break;
            case GraphKind::Nesbt:
                P[c] = ersbtParentRel(c, n, t);
                L[c] = static_cast<std::uint32_t>(std::popcount(c) + ((c >> t & 1u) ? 0 : 2));
                break;
            case GraphKind::Sbnt:
                P[c] = c ^ (1u << scanK(c, base[c], n));
                L[c] = static_cast<std::uint32_t>(std::popcount(c));
                break;
            case GraphKind::Sbntc: {
                // Non-cyclic nodes (the vast majority) have one minimal rotation: base_r = base.
                const bool cyclic = period(c, n) < n;
                const int j = cyclic ? sbntcBase(c, t, n) : base[c];
                P[c] = c ^ (1u << scanK(c, j, n));
                L[c] = static_cast<std::uint32_t>(std::popcount(c));
                break;
            }
            }
        }
        if (kind == GraphKind::Tcbt)
            L = levelsOf(P);
        for (std::uint32_t c = 1; c < N; ++c)
            g.height = std::max(g.height, static_cast<int>(L[c]));
    }
    return g;
}

ChildLists childLists(const SpanningGraph& g, int tree)
{
    const auto& P = g.parent[static_cast<std::size_t>(tree)];
    const std::uint32_t N = g.nodeCount();
    ChildLists out;
    out.offset.assign(N + 1, 0);
    for (std::uint32_t c = 1; c < N; ++c)
        ++out.offset[P[c] + 1];
    for (std::uint32_t c = 0; c < N; ++c)
        out.offset[c + 1] += out.offset[c];
    out.child.resize(N - 1);
    std::vector<std::uint32_t> fill(out.offset.begin(), out.offset.end() - 1);
    for (std::uint32_t c = 1; c < N; ++c) // ascending c → each list ascending
        out.child[fill[P[c]]++] = c;
    return out;
}

std::vector<std::vector<std::uint32_t>> oneportLabels(const SpanningGraph& g)
{
    const int n = g.n;
    const std::uint32_t N = g.nodeCount();
    std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(g.trees), std::vector<std::uint32_t>(N, 0));
    for (int t = 0; t < g.trees; ++t) {
        auto& lab = out[static_cast<std::size_t>(t)];
        const auto& L = g.level[static_cast<std::size_t>(t)];
        if (g.kind == GraphKind::Tcbt) {
            const ChildLists ch = childLists(g, t);
            // r2 is the root child with exactly one child (§3.3); La is the other one.
            const auto [rb, re] = ch.of(0);
            const std::uint32_t a = rb[0], b2 = rb[1];
            const auto [ab, ae] = ch.of(a);
            const bool aIsR2 = (ae - ab) == 1;
            (void)re;
            lab[a] = aIsR2 ? 0 : 1;
            lab[b2] = aIsR2 ? 1 : 0;
            // breadth-first by level: children of x get lab[x]+1, lab[x]+2 (ascending address)
            std::vector<std::uint32_t> queue = {rb[0], rb[1]};
            for (std::size_t h = 0; h < queue.size(); ++h) {
                const std::uint32_t x = queue[h];
                const auto [b, e] = ch.of(x);
                std::uint32_t off = 1;
                for (const std::uint32_t* q = b; q != e; ++q, ++off) {
                    lab[*q] = lab[x] + off;
                    queue.push_back(*q);
                }
            }
            continue;
        }
        for (std::uint32_t c = 1; c < N; ++c) {
            const int d = g.dimInto(t, c);
            auto offset = [&](int j) { return static_cast<std::uint32_t>(j + ((d - j) % n + n) % n); };
            switch (g.kind) {
            case GraphKind::Brg:
            case GraphKind::Nrbrg:
                lab[c] = L[c] - 1;
                break;
            case GraphKind::Sbt:
                lab[c] = static_cast<std::uint32_t>(d);
                break;
            case GraphKind::Nrsbt:
                lab[c] = offset(t);
                break;
            case GraphKind::Nesbt:
                lab[c] = static_cast<std::uint32_t>(ersbtLabel(NodeId{c}, NodeId{0}, n, t));
                break;
            case GraphKind::Sbnt:
                lab[c] = offset(sbntBase(c, n));
                break;
            case GraphKind::Sbntc:
                lab[c] = offset(period(c, n) < n ? sbntcBase(c, t, n) : sbntBase(c, n));
                break;
            case GraphKind::Tcbt:
                break;
            }
        }
    }
    return out;
}

std::vector<std::uint32_t> subtreeSizes(const SpanningGraph& g, int tree)
{
    const auto& P = g.parent[static_cast<std::size_t>(tree)];
    const auto& L = g.level[static_cast<std::size_t>(tree)];
    const std::uint32_t N = g.nodeCount();
    // Bucket nodes by level, then accumulate from the deepest level up.
    std::vector<std::uint32_t> start(static_cast<std::size_t>(g.height) + 2, 0);
    for (std::uint32_t c = 0; c < N; ++c)
        ++start[L[c] + 1];
    for (std::size_t l = 1; l < start.size(); ++l)
        start[l] += start[l - 1];
    std::vector<std::uint32_t> order(N);
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t c = 0; c < N; ++c)
        order[fill[L[c]]++] = c;
    std::vector<std::uint32_t> size(N, 1);
    for (std::uint32_t idx = N; idx-- > 1;) {
        const std::uint32_t c = order[idx];
        size[P[c]] += size[c];
    }
    return size;
}

Rational Counters::maxOverDims(const std::vector<std::vector<std::uint64_t>>& table, int l) const
{
    std::uint64_t best = 0;
    for (std::uint64_t v : table[static_cast<std::size_t>(l)])
        best = std::max(best, v);
    return weighted(best);
}

Counters computeCounters(const SpanningGraph& g)
{
    const int n = g.n;
    if ((g.kind == GraphKind::Brg || g.kind == GraphKind::Nrbrg) && n > 14)
        throw Error("counters of a Hamiltonian path need n ≤ 14 (its r table has 2^n rows); got " + std::to_string(n));
    const std::uint32_t N = g.nodeCount();
    Counters k;
    k.n = n;
    k.height = g.height;
    k.trees = g.trees;
    const auto H = static_cast<std::size_t>(g.height);
    const auto D = static_cast<std::size_t>(n);
    k.unionEdges.assign(D, 0);
    k.edges.assign(D, 0);
    k.e.assign(H, std::vector<std::uint64_t>(D, 0));
    k.s = k.e;
    k.r = k.e;
    k.levelSizes.assign(H + 1, 0);
    k.rootSubtrees.assign(D, 0);
    std::vector<std::uint64_t> seen; // bitset over directed edges (c, d)
    if (g.trees > 1)
        seen.assign((std::size_t{N} * D + 63) / 64, 0);
    for (int t = 0; t < g.trees; ++t) {
        const auto& P = g.parent[static_cast<std::size_t>(t)];
        const auto& L = g.level[static_cast<std::size_t>(t)];
        const std::vector<std::uint32_t> size = subtreeSizes(g, t);
        ++k.levelSizes[0];
        for (std::uint32_t c = 1; c < N; ++c) {
            const auto d = static_cast<std::size_t>(std::countr_zero(c ^ P[c]));
            const std::size_t lp = L[P[c]];
            ++k.edges[d];
            ++k.e[lp][d];
            k.s[lp][d] += size[c];
            ++k.levelSizes[L[c]];
            if (P[c] == 0)
                k.rootSubtrees[d] += size[c];
            if (g.trees > 1) {
                // directed edge P[c] → c: key (tail, dim)
                const std::size_t key = std::size_t{P[c]} * D + d;
                if (!(seen[key / 64] >> (key % 64) & 1u)) {
                    seen[key / 64] |= std::uint64_t{1} << (key % 64);
                    ++k.unionEdges[d];
                }
            } else {
                ++k.unionEdges[d];
            }
            // r: every ancestor edge (into x) at distance l above c counts c.
            std::uint32_t x = c;
            std::size_t dist = 0;
            while (x != 0) {
                const auto dx = static_cast<std::size_t>(std::countr_zero(x ^ P[x]));
                ++k.r[dist][dx];
                x = P[x];
                ++dist;
            }
        }
    }
    return k;
}

} // namespace topocast::hypercube
