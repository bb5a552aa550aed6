#pragma once

// Per-node values printed as matrices in the papers' layout (tcd-map, source map).

#include "topocast/model/topology.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace topocast::cli {

/// Prints cells[v] (one string per node, node-id order) as right-aligned matrices: d = 1 one row
/// (columns = x); d = 2 rows = y, columns = x; d = 3 one plane per y (rows = z, columns = x, the
/// papers' Fig. 5 layout); d ≥ 4 one plane per combination of coordinates 2..d−1. Meshes and tori.
void printNodeMatrices(std::ostream& out, const Topology& topo, const std::vector<std::string>& cells);

} // namespace topocast::cli
