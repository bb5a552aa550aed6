#pragma once

#include "topocast/params.h"
#include "topocast/schedule.h"
#include "topocast/topology.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace topocast {

/// One schedule generator as the front ends see it.
struct AlgorithmInfo {
    std::string name;         ///< "cang-wu", "binomial", …
    std::string summary;      ///< one line for `topocast-cli algorithms` and the app's tooltip
    std::string topologies;   ///< which topologies it accepts, in words
    std::vector<std::string> modes;     ///< accepted values of the "mode" parameter (first = default)
    std::vector<std::string> patterns;  ///< accepted values of "pattern" (first = default)
    /// Empty if the algorithm applies to `topo`; otherwise the reason it does not, e.g.
    /// "cang-wu needs a 2^k × … × 2^k mesh or torus; got 6×6".
    std::function<std::optional<std::string>(const Topology& topo)> whyNot;
    /// Builds the schedule. Throws Error on bad parameters or a source out of range.
    std::function<Schedule(const Topology& topo, NodeId source, const Params& params)> build;
    /// Optional: a cheap per-source figure for "TCD map" views (TCD from every source), or empty.
    std::function<std::vector<std::uint64_t>(const Topology& topo, const Params& params)> tcdMap;
};

/// Every algorithm topocast knows, in display order.
const std::vector<AlgorithmInfo>& algorithms();
/// The algorithm called `name`. Throws Error listing the known names.
const AlgorithmInfo& findAlgorithm(std::string_view name);
/// The paper an algorithm comes from, as a handout's title page cites it ("S. Cang and J. Wu,
/// …, IPPS/SPDP 1998"), or what a baseline is; empty for an unknown name. O(1).
std::string algorithmReference(std::string_view name);
/// Builds a schedule after checking that the algorithm applies (Error with its reason if not).
Schedule buildSchedule(std::string_view algorithm, const Topology& topo, NodeId source, const Params& params);

} // namespace topocast
