#pragma once

// The hypercube spanning-graph algorithms (Johnsson & Ho) as registry entries: "hp", "sbt",
// "tcbt", "nrsbt", "nesbt", "sbnt", "sbntc". Params: "pattern", "message" (M), "packet" (B),
// "ports" (one|send-recv|half|n), "tau", "tc", "variant".

#include "topocast/algorithms/hypercube_schedule.h"
#include "topocast/algorithms/param_spec.h"
#include "topocast/model/params.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <optional>
#include <string>
#include <string_view>

namespace topocast {

/// Empty if `algorithm` applies to `topo` (a hypercube of dimension 1..20; 2..20 for tcbt),
/// else the reason ("sbt needs a hypercube; got 8×8 mesh").
std::optional<std::string> hypercubeWhyNot(std::string_view algorithm, const Topology& topo);

/// The parameters of `algorithm` besides its pattern, declared once (the registry lists them;
/// hypercubeRequest reads them): message M, packet B, ports, tau, tc, and variant where the
/// algorithm has one (hp: nopipe; sbt: postorder, subtree).
std::vector<ParamSpec> hypercubeParamSpecs(std::string_view algorithm);

/// The request from the parameters as parsed (defaults: the algorithm's first pattern, M = 1,
/// B = M, ports one, τ = t_c = 1). Throws Error for a combination the declarations cannot check
/// (a pattern the ports do not serve, B > M).
hypercube::ScheduleRequest hypercubeRequest(std::string_view algorithm, const Topology& topo, NodeId source,
                                            const ParamValues& params);

/// Converts a generated schedule: step = cycle + 1, size = elements, tag = tree/part, payload = the
/// blocks carried; info gets the closed form (startups, transfer, time), lower_bound, cycles,
/// packet_opt, the counted figures and, for trees, subtree_sizes and level_sizes.
Schedule hypercubeSchedule(const hypercube::RawSchedule& raw, const hypercube::ScheduleRequest& request,
                           const Topology& topo);

/// The member trees (paths for BRG/nRBRG) of the spanning graph a hypercube schedule was made
/// from, per member as absolute edges parent → child: n members for nRSBT, nESBT, SBnTc and
/// nRBRG, one for SBT, TCBT, SBnT and BRG. Read from the schedule's info "graph" (as
/// hypercubeSchedule() writes it) and its source. Empty when the schedule is not on a hypercube,
/// names no known graph, or members × (N − 1) would exceed `maxEdges`. O(trees · N · n).
std::vector<std::vector<hypercube::TreeEdge>> scheduleTrees(const Schedule& schedule, std::size_t maxEdges = 1u << 20);

/// Builds the schedule of a registry entry. Throws Error on bad parameters.
/// O(block moves · log) time and memory.
Schedule buildHypercube(std::string_view algorithm, const Topology& topo, NodeId source, const ParamValues& params);

} // namespace topocast
