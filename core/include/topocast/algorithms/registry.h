#pragma once

#include "topocast/algorithms/param_spec.h"
#include "topocast/model/params.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace topocast {

/// One schedule generator as the front ends see it.
struct AlgorithmInfo {
    std::string name;                  ///< "cang-wu", "binomial", …
    std::string summary;               ///< one line for `topocast-cli algorithms` and the app's tooltip
    std::string topologies;            ///< which topologies it accepts, in words
    std::vector<std::string> modes;    ///< accepted values of the "mode" parameter (first = default)
    std::vector<std::string> patterns; ///< accepted values of "pattern" (first = default)
    /// Empty if the algorithm applies to `topo`; otherwise the reason it does not, e.g.
    /// "cang-wu needs a 2^k × … × 2^k mesh or torus; got 6×6".
    std::function<std::optional<std::string>(const Topology& topo)> whyNot;
    /// Builds the schedule from its parameters as buildSchedule parsed them once (parseParams over
    /// `params`: typed, defaults filled). Throws Error on a source out of range or a value the
    /// declarations cannot check (a layer count that does not fit the network).
    std::function<Schedule(const Topology& topo, NodeId source, const ParamValues& params)> build;
    /// Optional: a cheap per-source figure for TCD source maps (TCD from every source), or empty.
    std::function<std::vector<std::uint64_t>(const Topology& topo, const Params& params)> tcdSourceMap;
    /// Optional: the algorithm's own cost figure of one of its schedules (the source map metric
    /// "time"), and what it is in words. Empty: the source map uses the wormhole model of
    /// cost_model.h with its defaults (wormholeTime).
    std::function<double(const Schedule& schedule)> time;
    std::string timeFigure;
    std::string timeUnit; ///< "s", or empty for model units (the hypercube's τ and t_c)
    /// Optional: true when, on `topo`, the schedule from any source is the one from node 0 moved
    /// by an automorphism of the network (a torus translation, a hypercube XOR), so every metric
    /// is the same from every source and a source map needs one schedule.
    std::function<bool(const Topology& topo)> sameFromEverySource;
    /// True when the schedule exists from some sources only (divisible-load: the layers must fit
    /// around the source); a source map leaves the other sources without a value.
    bool someSourcesOnly = false;
    /// Every parameter it takes, declared once: its mode and pattern (from `modes`, `patterns`),
    /// its own, and the dimension order of its routes. The CLI's options, the scenario check
    /// (checkParams in buildSchedule) and the app's panel are built from this list.
    std::vector<ParamSpec> params;
};

/// Every algorithm topocast knows, in display order.
const std::vector<AlgorithmInfo>& algorithms();
/// The algorithm called `name`. Throws Error listing the known names.
const AlgorithmInfo& findAlgorithm(std::string_view name);
/// The pattern a request builds: the one given (params "pattern"), else the algorithm's first
/// (its default), else "broadcast" (the algorithms that build nothing else). Checks nothing: an
/// unknown algorithm gives the pattern given, or "" (buildSchedule names what is allowed). O(A).
std::string requestedPattern(std::string_view algorithm, const Params& params);
/// The paper an algorithm comes from, as a handout's title page cites it ("S. Cang and J. Wu,
/// …, IPPS/SPDP 1998"), or what a baseline is; empty for an unknown name. O(1).
std::string algorithmReference(std::string_view name);
/// Every parameter key any algorithm takes, once each, in registry order, with the declaration
/// that first names it (for the CLI's options).
std::vector<const ParamSpec*> allParamSpecs();
/// The algorithms that build `pattern` on `topo` (those without a pattern parameter build
/// broadcasts), in registry order: what an imported schedule is compared with. O(algorithms).
std::vector<std::string> algorithmsFor(const Topology& topo, Pattern pattern);
/// The parameters of `algorithm` the app's panel edits as fields: all but mode and pattern (which
/// have their own choosers) and the dimension order.
std::vector<ParamSpec> panelParamSpecs(const AlgorithmInfo& algorithm);
/// Builds a schedule after checking that the algorithm applies (Error with its reason if not) and
/// that every parameter given is one it declares, with an allowed value (checkParams).
Schedule buildSchedule(std::string_view algorithm, const Topology& topo, NodeId source, const Params& params);

} // namespace topocast
