#pragma once

#include "topocast/model/topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topocast {

/// How a transfer's route is chosen. Stored in every Transfer (4 bytes), expanded into channels
/// on demand, so a schedule of millions of transfers stays small.
enum class RouteKind : std::uint8_t {
    /// Dimension-ordered routing with the schedule's dimension order (Schedule::dimensionOrder).
    /// Mesh: unit hops toward the destination; torus: each dimension the shorter way round
    /// (ties: + direction); hypercube: e-cube in that order.
    DimensionOrder = 0,
    /// Cyclic dimension order (Tsay & Wang §2): start dimension `start`, one
    /// direction `sign` in every dimension, dimensions visited start, start+1, …, wrapping. On a
    /// torus a + route to a smaller coordinate wraps around the ring. Hypercube: sign is ignored
    /// (rotated e-cube).
    Cyclic = 1,
};

struct RouteSpec {
    RouteKind kind = RouteKind::DimensionOrder;
    std::uint8_t start = 0; ///< Cyclic: start dimension (0-based)
    std::int8_t sign = +1;  ///< Cyclic: +1 or −1
    std::uint8_t reserved = 0;

    static RouteSpec dimensionOrder() { return {}; }
    static RouteSpec cyclic(int startDim, int sign)
    {
        return {RouteKind::Cyclic, static_cast<std::uint8_t>(startDim), static_cast<std::int8_t>(sign < 0 ? -1 : 1), 0};
    }
    friend bool operator==(const RouteSpec&, const RouteSpec&) = default;
};

/// A dimension order: a permutation of 0..d−1 (XY = {0,1}, YX = {1,0}, XYZ = {0,1,2}).
using DimensionOrder = std::vector<int>;

/// The identity order 0..d−1.
DimensionOrder defaultOrder(int dims);
/// Parses "xy", "yx", "xyz", "zyx", … or "0,1,2". Throws Error unless it is a permutation of the
/// topology's dimensions (only for up to 6 dimensions by letter: x y z w v u).
DimensionOrder parseOrder(std::string_view text, int dims);
/// "XY", "XYZ", or "0,1,2,3" beyond six dimensions.
std::string orderName(const DimensionOrder& order);
/// Every permutation of 0..d−1 in lexicographic order (d ≤ 6: at most 720).
std::vector<DimensionOrder> allOrders(int dims);

/// Calls f(channel) for every directed channel of the route from `from` to `to`, in order.
/// `order` is used for RouteKind::DimensionOrder. No allocation. Returns the number of hops.
/// Throws Error for a route that cannot exist (a Cyclic route on a mesh that would leave it).
template <class F>
int forEachChannel(const Topology& topo, NodeId from, NodeId to, RouteSpec spec, const DimensionOrder& order, F&& f);

/// The route's channels as a vector (convenience over forEachChannel).
std::vector<ChannelId> expandRoute(const Topology& topo, NodeId from, NodeId to, RouteSpec spec,
                                   const DimensionOrder& order);

/// Number of hops of the route without expanding it. O(d).
int routeLength(const Topology& topo, NodeId from, NodeId to, RouteSpec spec, const DimensionOrder& order);

/// Nodes visited by the route, `from` first and `to` last (for drawing hop by hop).
std::vector<NodeId> routeNodes(const Topology& topo, NodeId from, NodeId to, RouteSpec spec,
                               const DimensionOrder& order);

// ---- implementation of the template ---------------------------------------------------------

namespace detail {
/// Hops and direction in `dim` for the route kind: sets count ≥ 0 and sign.
void routeLeg(const Topology& topo, NodeId cur, NodeId to, int dim, RouteSpec spec, int& count, int& sign);
[[noreturn]] void throwBadCyclicRoute(const Topology& topo, NodeId from, NodeId to, RouteSpec spec);
} // namespace detail

template <class F>
int forEachChannel(const Topology& topo, NodeId from, NodeId to, RouteSpec spec, const DimensionOrder& order, F&& f)
{
    const int d = topo.dims();
    int hops = 0;
    NodeId cur = from;
    for (int t = 0; t < d; ++t) {
        const int dim = spec.kind == RouteKind::Cyclic ? (spec.start + t) % d : order[static_cast<std::size_t>(t)];
        int count = 0;
        int sign = +1;
        detail::routeLeg(topo, cur, to, dim, spec, count, sign);
        if (count == 0)
            continue;
        if (topo.isHypercube()) {
            for (int h = 0; h < count; ++h) {
                NodeId next;
                topo.step(cur, dim, sign, next);
                f(topo.channel(cur, dim, sign));
                cur = next;
                ++hops;
            }
            continue;
        }
        // Along one dimension: the coordinate is read once and then followed (Topology::step
        // would divide at every hop).
        const int side = topo.side(dim);
        const std::uint32_t stride = topo.stride(dim);
        int x = topo.coord(cur, dim);
        for (int h = 0; h < count; ++h) {
            int nx = x + (sign < 0 ? -1 : 1);
            if (nx < 0 || nx >= side) {
                if (!topo.isTorus())
                    detail::throwBadCyclicRoute(topo, from, to, spec);
                nx = nx < 0 ? side - 1 : 0;
            }
            f(topo.channel(cur, dim, sign));
            cur = NodeId{cur - static_cast<std::uint32_t>(x) * stride + static_cast<std::uint32_t>(nx) * stride};

            x = nx;
            ++hops;
        }
    }
    return hops;
}

} // namespace topocast
