#pragma once
// The source map as topocast-cli and topocast-mpi print it, so that both write the same bytes.

#include "topocast/analysis/source_map.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/network.h"

#include <iosfwd>
#include <string>

namespace topocast::cli {

/// How a time source map was timed on a network model (`source-map --model`), for its document and
/// its text; without it "time" is the algorithm's own figure.
struct SourceMapTiming {
    std::string model;    ///< "loggp" or "simgrid"
    NetworkModel network; ///< the model every schedule was timed on
    std::string engine;   ///< what timed them, for people
};

/// The unit of a metric's values as printed: "hops", "steps", "transfers", "channel uses", and
/// for time "µs" (`seconds`: the algorithm's time is in seconds) or "model units".
std::string sourceMapUnit(SourceMapMetric metric, bool seconds);

/// True when `metric` of `algorithm` is a time in seconds (printed in µs).
bool sourceMapInSeconds(const Scenario& scenario, SourceMapMetric metric);

/// The `source-map --json` document of `source-map` (scenario's algorithm on its topology), as one
/// line without the newline: the envelope, "algorithm", "mode" (when given), "metric", "unit",
/// "values" (node-id order, null where there is no schedule), "min", "argmin" (nodes), "max".
/// `timing`: the time was taken on a network model ("model", "network", "time_model" its engine).
std::string sourceMapJson(const Scenario& scenario, const SourceMap& sourceMap,
                          const SourceMapTiming* timing = nullptr);

/// The source map as text: a title, the values as matrices (a list on a hypercube), min, max,
/// the sources at the minimum and how the values were found.
void writeSourceMapText(std::ostream& out, const Scenario& scenario, const SourceMap& sourceMap,
                        const SourceMapTiming* timing = nullptr);

/// The topocast-mpi command that computes the same source map on `ranks` ranks, with the
/// scenario's topology, algorithm, source-free parameters and metric written out, e.g.
/// "mpirun -np 8 topocast-mpi source-map --topology mesh:32x32x32 --algorithm binomial --metric tcd
/// --json --out source-map.json".
std::string mpiSourceMapCommand(const Scenario& scenario, SourceMapMetric metric, double ranks);

} // namespace topocast::cli
