#pragma once

#include "topocast/analysis/metrics.h"
#include "topocast/model/schedule.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iosfwd>
#include <string>

namespace topocast {

/// The versioned schedule document ("format": "topocast-schedule", "version": 1; schema in
/// resources/schema/topocast-schedule.schema.json): topology, algorithm, mode, source, pattern,
/// port model, dimension order, steps, tcd, contention, max_link_load, metrics, info, and the
/// transfers (step 1-based, from/to as coordinate arrays — integer addresses on a hypercube —
/// hops, and route/payload/tag/size where they are not the defaults).
nlohmann::ordered_json toJson(const Schedule& schedule, const Metrics& metrics);

/// Writes the same document as toJson(), streaming the transfers one per line, so schedules of
/// millions of transfers need no document tree in memory.
void writeScheduleJson(std::ostream& out, const Schedule& schedule, const Metrics& metrics);

/// A node as JSON: coordinate array (mesh/torus) or integer address (hypercube).
nlohmann::ordered_json nodeToJson(const Topology& topo, NodeId node);
/// Reads a node written by nodeToJson; Error names `path` and the allowed ranges.
NodeId nodeFromJson(const Topology& topo, const nlohmann::json& value, const std::string& path);

/// Reads a schedule document. Throws Error naming the JSON path of the first problem
/// ("transfers[12].to: coordinate 9 out of range 0..7").
Schedule scheduleFromJson(const nlohmann::json& doc);

/// Parses JSON text; throws Error with line and column on malformed or truncated input.
/// `what` names the source in messages (a file name).
nlohmann::json parseJsonText(std::string_view text, const std::string& what);

/// Reads a whole file (Error if it cannot be read) and parses it.
nlohmann::json readJsonFile(const std::filesystem::path& path);

} // namespace topocast
