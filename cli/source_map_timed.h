#pragma once
// `source-map --metric time --model loggp|simgrid`: every source's schedule timed on a network
// model, by the time engine (loggp: hops, overlap and ports charged, contention not) or simulated
// with contention charged (simgrid: core simulateSchedule), estimated and refused past a limit
// before it starts.

#include "commands.h"
#include "source_map_document.h"

#include "topocast/analysis/source_map.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/network.h"

#include <string>

namespace topocast::cli {

/// The source map (values in seconds; NaN where the algorithm has no schedule from a source).
/// Refuses (Error) past `maxSeconds` (0: no limit) with the estimate; progress on `io.err` for
/// long runs. Throws Error for an unknown model, and where this build cannot simulate.
SourceMap timedSourceMap(const Scenario& scenario, const SourceMapTiming& timing, double maxSeconds, Io& io);

/// "loggp" or "simgrid" with `network`, its engine named. Throws Error for another model.
SourceMapTiming sourceMapTiming(const std::string& model, const NetworkModel& network);

} // namespace topocast::cli
