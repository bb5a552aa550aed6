#pragma once

#include "topocast/model/ids.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// Coordinates of a node, one entry per dimension (hypercube: one bit per dimension).
using Coord = std::vector<int>;

enum class TopologyKind : std::uint8_t { Mesh, Torus, Hypercube };

/// One outgoing port of a node: the dimension it moves in and the direction (+1/−1).
/// For a hypercube the direction is the one that flips the bit.
struct Port {
    int dim = 0;
    int sign = +1;
    friend bool operator==(const Port&, const Port&) = default;
};

/// A d-dimensional mesh (d = 1..6, sides ≥ 1), torus (d = 1..6, sides ≥ 3) or hypercube
/// (n = 1..24). A value type: cheap to copy (a few small vectors).
class Topology {
public:
    static constexpr int kMaxMeshDims = 6;
    static constexpr int kMaxHypercubeDims = 24;
    static constexpr std::uint64_t kMaxNodes = std::uint64_t{1} << 24;

    /// A mesh with the given side lengths. Throws Error on 0 or > 6 dimensions, a side < 1, or
    /// more than kMaxNodes nodes (checked before anything is allocated).
    static Topology mesh(std::vector<int> sides);
    /// A torus with the given side lengths. Sides must be ≥ 3 (smaller rings have no distinct
    /// wrap-around channel). Same limits as mesh().
    static Topology torus(std::vector<int> sides);
    /// A hypercube of dimension n = 1..24.
    static Topology hypercube(int n);
    /// Parses "mesh:8x8", "mesh:4x4x4", "torus:7x7", "hypercube:6" (also "cube:6").
    /// Throws Error naming the problem and the accepted forms.
    static Topology parse(std::string_view text);

    /// The canonical text form, e.g. "mesh:8x8x8"; parse(spec()) == *this.
    std::string spec() const;
    /// A human-readable name, e.g. "8×8×8 mesh", "6-cube".
    /// "4×4 mesh", "8×8×8 torus", "6-cube"; one dimension: "8-node line", "8-node ring".
    std::string displayName() const;

    TopologyKind kind() const { return m_kind; }
    bool isMesh() const { return m_kind == TopologyKind::Mesh; }
    bool isTorus() const { return m_kind == TopologyKind::Torus; }
    bool isHypercube() const { return m_kind == TopologyKind::Hypercube; }

    /// Number of dimensions (hypercube: n).
    int dims() const { return static_cast<int>(m_sides.size()); }
    /// Side lengths (hypercube: n sides of 2).
    const std::vector<int>& sides() const { return m_sides; }
    int side(int dim) const { return m_sides[static_cast<std::size_t>(dim)]; }
    /// True when every side has the same length.
    bool isCubic() const;
    std::uint32_t nodeCount() const { return m_nodeCount; }

    /// Coordinate of `node` in dimension `dim`. O(1).
    int coord(NodeId node, int dim) const;
    /// All coordinates of `node`. O(d).
    Coord coords(NodeId node) const;
    /// The node at `c`. Throws Error if c has the wrong number of entries or is out of range.
    NodeId id(const Coord& c) const;
    /// Like id() but without checks (coordinates must be valid).
    NodeId idUnchecked(const Coord& c) const;
    /// Stride of dimension `dim` in node ids (hypercube: 1 << dim).
    std::uint32_t stride(int dim) const { return m_strides[static_cast<std::size_t>(dim)]; }

    /// Ports per node in channel numbering: 2d for mesh/torus (dim·2 + (sign < 0)), n for a
    /// hypercube (the dimension).
    int portsPerNode() const { return isHypercube() ? dims() : 2 * dims(); }
    /// The port index for a move in `dim` with `sign`.
    int portIndex(int dim, int sign) const { return isHypercube() ? dim : 2 * dim + (sign < 0 ? 1 : 0); }
    Port portAt(int index) const;
    /// Number of channel slots (nodeCount × portsPerNode); boundary slots of a mesh are unused.
    std::uint64_t channelSlots() const
    {
        return std::uint64_t{m_nodeCount} * static_cast<std::uint64_t>(portsPerNode());
    }
    /// Number of real directed channels (2 × undirected links).
    std::uint64_t channelCount() const;

    /// The neighbour one hop from `node` in `dim` and direction `sign`, or false if there is none
    /// (mesh boundary). Hypercube: flips bit dim whatever the sign.
    bool step(NodeId node, int dim, int sign, NodeId& out) const;
    /// The directed channel leaving `node` in `dim`/`sign`. The channel must exist.
    ChannelId channel(NodeId node, int dim, int sign) const
    {
        return ChannelId{std::uint64_t{node} * static_cast<std::uint64_t>(portsPerNode()) +
                         static_cast<std::uint64_t>(portIndex(dim, sign))};
    }
    NodeId channelTail(ChannelId ch) const { return NodeId{ch / static_cast<std::uint64_t>(portsPerNode())}; }
    Port channelPort(ChannelId ch) const
    {
        return portAt(static_cast<int>(ch % static_cast<std::uint64_t>(portsPerNode())));
    }
    NodeId channelHead(ChannelId ch) const;
    /// "(1,2)→(2,2)" or "5→7" for a hypercube.
    std::string channelName(ChannelId ch) const;
    /// The directed channel from `a` to its neighbour `b`, or nullopt when b is not one hop from
    /// a (or a == b). O(ports per node).
    std::optional<ChannelId> channelBetween(NodeId a, NodeId b) const;
    /// True when `ch` is a torus wrap-around channel: the + channel leaving coordinate side−1 of
    /// its dimension for 0, or the − channel leaving 0 for side−1. Always false on a mesh (those
    /// slots hold no channel) and on a hypercube. The one wrap rule of topocast: the GraphML/DOT
    /// export's "wrap" and the app's arcs both ask here. O(1).
    bool isWrapChannel(ChannelId ch) const;

    /// Neighbours of `node` in port order.
    std::vector<NodeId> neighbours(NodeId node) const;
    /// Calls f(neighbour, port) for every neighbour. No allocation.
    template <class F> void forEachNeighbour(NodeId node, F&& f) const
    {
        const int ports = portsPerNode();
        for (int p = 0; p < ports; ++p) {
            const Port port = portAt(p);
            NodeId next;
            if (step(node, port.dim, port.sign, next))
                f(next, port);
        }
    }

    /// Shortest-path distance: Manhattan (mesh), with wrap-around (torus), Hamming (hypercube).
    int distance(NodeId a, NodeId b) const;
    /// Signed shortest displacement a→b in `dim` (torus: the shorter way round, ties +).
    int displacement(NodeId a, NodeId b, int dim) const;

    /// "(1,2,3)" for a mesh/torus node; for a hypercube node its binary address with the highest
    /// dimension first ("0101" in a 4-cube), as the app labels it. parseNode() reads both back.
    std::string nodeName(NodeId node) const;
    /// Parses "1,2,3" (or "(1,2,3)"); for a hypercube an integer address, a bit string written
    /// "0b0101", or exactly dims() binary digits ("0101", nodeName()'s form). Throws Error naming the expected number
    /// of coordinates and ranges.
    NodeId parseNode(std::string_view text) const;

    friend bool operator==(const Topology& a, const Topology& b)
    {
        return a.m_kind == b.m_kind && a.m_sides == b.m_sides;
    }

private:
    Topology(TopologyKind kind, std::vector<int> sides);

    TopologyKind m_kind = TopologyKind::Mesh;
    std::vector<int> m_sides;
    std::vector<std::uint32_t> m_strides;
    std::uint32_t m_nodeCount = 1;
};

/// Every node id of `topo`, 0 … nodeCount−1, as a range: `for (NodeId v : nodes(topo))`.
inline IdRange<NodeId> nodes(const Topology& topo)
{
    return {NodeId{0}, NodeId{topo.nodeCount()}};
}

} // namespace topocast
