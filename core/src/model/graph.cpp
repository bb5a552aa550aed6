#include "topocast/model/graph.h"

#include "topocast/model/limits.h"

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/visitors.hpp>

#include <limits>
#include <optional>

namespace topocast {

namespace {

/// Boost.Graph's vertex numbers: plain integers inside this file, NodeId at its interface.
using Vertex = std::uint32_t;
using CsrGraph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                    boost::no_property, Vertex, std::uint64_t>;

/// A writable property map that stores the vertex numbers Boost.Graph records as NodeIds.
struct NodeIdWriter {
    using key_type = Vertex;
    using value_type = Vertex;
    using reference = Vertex;
    using category = boost::writable_property_map_tag;
    NodeId* out;
    friend void put(const NodeIdWriter& m, Vertex key, Vertex value) { m.out[key] = NodeId{value}; }
};

/// The topology as a CSR graph: one directed edge per channel, neighbours in port order.
CsrGraph toGraph(const Topology& topo)
{
    // Edge list (8 B) and CSR targets (4 B) per channel, offsets (8 B) plus the searches' per-node
    // arrays (parent, level, colour, queue: 16 B) per node.
    checkMemory("the Boost.Graph view of the " + topo.displayName(),
                saturatingAdd(saturatingMul(topo.channelCount(), 12), saturatingMul(topo.nodeCount(), 24)),
                std::to_string(topo.channelCount()) + " channels × 12 B + " + std::to_string(topo.nodeCount()) +
                    " nodes × 24 B");
    std::vector<std::pair<Vertex, Vertex>> edges;
    edges.reserve(static_cast<std::size_t>(topo.channelCount()));
    for (NodeId v : nodes(topo))
        topo.forEachNeighbour(v, [&](NodeId w, Port) { edges.emplace_back(v.value(), w.value()); });
    return CsrGraph(boost::edges_are_sorted, edges.begin(), edges.end(), topo.nodeCount());
}

/// Graphs of at most this many channels (12 B each: 12 MiB) are kept per thread for the next
/// search on the same topology (a source map runs one search per source on each worker).
constexpr std::uint64_t kCachedChannels = std::uint64_t{1} << 20;

/// The CSR graph of `topo`: built, or the calling thread's copy from its previous call on the same
/// topology (small graphs only).
const CsrGraph& graphOf(const Topology& topo)
{
    thread_local std::optional<Topology> cachedTopo;
    thread_local CsrGraph cached;
    if (cachedTopo && *cachedTopo == topo)
        return cached;
    cachedTopo.reset();
    cached = toGraph(topo);
    if (topo.channelCount() <= kCachedChannels)
        cachedTopo = topo;
    return cached;
}

} // namespace

std::vector<std::uint32_t> bfsLevels(const Topology& topo, NodeId source)
{
    const CsrGraph& g = graphOf(topo);
    std::vector<std::uint32_t> level(topo.nodeCount(), 0);
    boost::breadth_first_search(
        g, source.value(),
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(level.data(), boost::on_tree_edge()))));
    return level;
}

std::vector<NodeId> bfsTree(const Topology& topo, NodeId source, std::vector<std::uint32_t>* levels)
{
    const CsrGraph& g = graphOf(topo);
    std::vector<NodeId> parent(topo.nodeCount());
    parent[source] = source;
    std::vector<std::uint32_t> scratch;
    std::vector<std::uint32_t>& level = levels ? *levels : scratch;
    level.assign(topo.nodeCount(), 0);
    boost::breadth_first_search(g, source.value(),
                                boost::visitor(boost::make_bfs_visitor(std::make_pair(
                                    boost::record_predecessors(NodeIdWriter{parent.data()}, boost::on_tree_edge()),
                                    boost::record_distances(level.data(), boost::on_tree_edge())))));
    return parent;
}

std::vector<std::uint32_t> dijkstraDistances(const Topology& topo, NodeId source)
{
    const CsrGraph g = toGraph(topo);
    std::vector<std::uint32_t> dist(topo.nodeCount(), std::numeric_limits<std::uint32_t>::max());
    auto distMap = boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g));
    boost::dijkstra_shortest_paths(
        g, source.value(),
        boost::distance_map(distMap).weight_map(
            boost::make_constant_property<boost::graph_traits<CsrGraph>::edge_descriptor>(std::uint32_t{1})));
    return dist;
}

int connectedComponentCount(const Topology& topo)
{
    // connected_components wants an undirected graph; every channel has its reverse, so the
    // directed CSR graph's strong components equal the undirected components. Use BFS counting.
    const CsrGraph g = toGraph(topo);
    std::vector<boost::default_color_type> color(topo.nodeCount(), boost::white_color);
    auto colorMap = boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, g));
    int components = 0;
    for (NodeId v : nodes(topo)) {
        if (color[v] != boost::white_color)
            continue;
        ++components;
        boost::breadth_first_visit(g, v.value(), boost::color_map(colorMap));
    }
    return components;
}

} // namespace topocast
