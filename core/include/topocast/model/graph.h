#pragma once

#include "topocast/model/topology.h"

#include <cstdint>
#include <vector>

namespace topocast {

/// Breadth-first levels from `source` computed by Boost.Graph's breadth_first_search over a
/// compressed-sparse-row view of the topology. Entry v is the hop distance of v.
/// O(nodes + channels) time and memory.
std::vector<std::uint32_t> bfsLevels(const Topology& topo, NodeId source);

/// Parent of every node in Boost.Graph's BFS tree from `source` (parent[source] == source).
/// Neighbours are visited in port order, so the tree is deterministic. If `levels` is given it
/// receives the hop distance of every node from the same search.
std::vector<NodeId> bfsTree(const Topology& topo, NodeId source, std::vector<std::uint32_t>* levels = nullptr);

/// Unweighted shortest-path lengths from `source` by Boost.Graph's dijkstra_shortest_paths
/// (used to cross-check Topology::distance in tests).
std::vector<std::uint32_t> dijkstraDistances(const Topology& topo, NodeId source);

/// Number of connected components (Boost.Graph connected_components); 1 for every valid topology.
int connectedComponentCount(const Topology& topo);

} // namespace topocast
