#pragma once

// The algorithms' figures as the schedule file's top-level keys ("info"): the keys and order
// files have always had. Written here and nowhere else; read back as Schedule::fileInfo.

#include "topocast/algorithms/figures.h"

#include <nlohmann/json.hpp>

namespace topocast {

/// The figures as the schedule file's top-level keys.
nlohmann::ordered_json infoJson(const AlgorithmFigures& figures);

/// The algorithm keys a schedule file gets: infoJson(*s.figures) for a schedule an algorithm built,
/// else the keys a file held (Schedule::fileInfo), else an empty object.
nlohmann::ordered_json scheduleInfo(const Schedule& s);

/// The divisible-load model as JSON (parameters, shares, times, speedups, the timeline); non-finite
/// values as null.
nlohmann::ordered_json divisibleLoadJson(const DivisibleLoadModel& model);

/// Where a SCATTER(p) put its layers, and its routes' contention, as the files write them.
nlohmann::ordered_json scatterPlacementJson(const ScatterPlacementFigures& placement);
nlohmann::ordered_json scatterRoutesJson(const ScatterRouteFigures& routes);

} // namespace topocast
