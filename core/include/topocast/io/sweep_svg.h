#pragma once

// The sweep (analysis/sweep.h) as a log-log chart in SVG: one line per algorithm (time, or
// nccl-tests' bus bandwidth, against the message size), the bound dashed, the winner of each size
// marked, a legend that names every line, and a title that says the pattern, the network, the
// model and the unit. Readable from the back of a room: 18 px text on a 1200 × 760 canvas.

#include "topocast/analysis/sweep.h"

#include <iosfwd>
#include <string>

namespace topocast {

enum class SweepMetric { Time, BusBandwidth };

/// Writes `table` as a standalone SVG document. O(algorithms · sizes).
void writeSweepSvg(std::ostream& out, const SweepTable& table, SweepMetric metric = SweepMetric::Time);

} // namespace topocast
