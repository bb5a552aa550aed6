#pragma once

// The sweep (analysis/sweep.h) as a log-log chart in SVG: one line per algorithm (time, or
// nccl-tests' bus bandwidth, against the message size), the bound dashed, the winner of each size
// marked, a legend that names every line, and a title that says the pattern, the network, the
// model and the unit. Readable from the back of a room: 18 px text on a 1200 × 760 canvas.

#include "topocast/analysis/sweep.h"

#include <cstddef>
#include <iosfwd>
#include <string>

namespace topocast {

enum class SweepMetric { Time, BusBandwidth };

/// The colour ("#0072B2") and dash pattern (SVG's "10 4", empty: solid) of the i-th algorithm's
/// line, in the chart and wherever else the sweep is drawn (the app's Time vs size dock), so
/// a line has one look everywhere: Okabe & Ito's colours, which colour-blind readers tell apart.
const char* sweepLineColour(std::size_t i);
const char* sweepLineDash(std::size_t i);

/// Writes `table` as a standalone SVG document. O(algorithms · sizes).
void writeSweepSvg(std::ostream& out, const SweepTable& table, SweepMetric metric = SweepMetric::Time);

} // namespace topocast
