#pragma once

// A topology and the links of a network model as a SimGrid platform (XML, DTD 4.1), for
// `smpirun -platform T.xml -hostfile T.hosts` to run an MPI program — topocast-mpi, or SMPI's own
// collectives — on the simulated machine. Host `node-i` is topocast's node i (coordinates with
// the first dimension varying fastest, as SimGrid's torus numbers them), so rank i of a hostfile
// in that order runs on node i.
//
// A torus is SimGrid's own TORUS cluster (any size: SimGrid routes it, one dimension after the
// other, the shorter way round, as topocast's dimension order does; two links per channel, one
// per direction). A mesh or a hypercube has no cluster of its own in SimGrid: its links are
// listed, one per directed channel, and every route between two hosts with them (dimension
// order, e-cube), so those platforms are held to kPlatformListedNodes nodes.
//
// What a platform can say of the network model: each link's bandwidth and its latency (the
// model's latency per hop). The latency once per message (L), the overheads and gaps are the MPI
// library's (SMPI's own model: smpi/os, smpi/or, smpi/ois, its latency and bandwidth factors);
// the file says so in a comment.

#include "topocast/model/network.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <string>

namespace topocast {

/// Most nodes of a platform whose routes are listed (meshes, hypercubes): N·(N − 1) routes.
inline constexpr std::uint32_t kPlatformListedNodes = 256;

struct SimgridPlatform {
    std::string xml;   ///< the platform
    std::string hosts; ///< the hostfile: node-0 … node-(N−1), one a line (rank i on node i)
};

/// The platform of `topo` with `network`'s links. Throws Error naming the limit and what to use
/// instead for a mesh or hypercube of more than kPlatformListedNodes nodes. O(N) for a torus,
/// O(N² · diameter) otherwise.
SimgridPlatform simgridPlatform(const Topology& topo, const NetworkModel& network);

} // namespace topocast
