#pragma once

#include "topocast/analysis/metrics.h" // firstInformers(): the tree the Tree graph exports
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topocast {

/// The data formats `topocast-cli export` and the app's File ▸ Export write.
enum class ExportFormat : std::uint8_t {
    Json,        ///< the schedule document (writeScheduleJson)
    Csv,         ///< transfers, one row each (writeTransfersCsv)
    ChannelsCsv, ///< per-channel loads (writeChannelLoadCsv)
    Trace,       ///< Chrome / Perfetto trace JSON (writeChromeTrace)
    GraphML,     ///< topology or broadcast tree as GraphML (Boost.Graph write_graphml)
    Dot,         ///< topology or broadcast tree as Graphviz DOT (Boost.Graph write_graphviz_dp)
};

/// Which graph the GraphML and DOT writers describe.
enum class ExportGraph : std::uint8_t {
    Topology, ///< every node and every undirected link
    Tree,     ///< the schedule's spanning tree: who first informs whom (see firstInformers)
};

/// "json", "csv", "channels-csv", "trace", "graphml", "dot".
std::string toString(ExportFormat format);
/// Parses the names printed by toString(ExportFormat). Throws Error listing the accepted names.
ExportFormat parseExportFormat(std::string_view text);
/// "topology" or "tree".
std::string toString(ExportGraph graph);
/// Parses "topology" / "tree". Throws Error listing the accepted names.
ExportGraph parseExportGraph(std::string_view text);
/// The usual file extension for `format` without the dot ("json", "csv", "graphml", "dot").
std::string fileExtension(ExportFormat format);

/// A node as one CSV/graph field: "x;y;z" for a mesh or torus node (semicolons, so the field
/// needs no quoting), the decimal address for a hypercube node. O(d).
std::string nodeField(const Topology& topo, NodeId node);

/// Route of a transfer as one field: "order" (dimension-ordered with the schedule's order) or
/// "cyclic:<start dim><+|->" (e.g. "cyclic:1-").
std::string routeField(const RouteSpec& route);

/// Transfers as the CSV that readScheduleCsv (schedule_csv.h) reads back, the header its first
/// line (Python's csv module, pandas and spreadsheets read it with their defaults):
///   step,from,to,from_id,to_id,hops,route,payload,tag,size,blocks,topology,algorithm,mode,source,
///   pattern,ports,max_sends_per_step,step_contention,dimension_order,parts,participants
/// and one row per transfer in schedule order (by step); the settings (the columns from topology
/// on) are filled in the first row only, empty where one does not apply (a schedule without
/// transfers: one row of settings alone). from/to are nodeField() texts, from_id/to_id
/// the linear node ids, blocks the payload's blocks "origin:dest:part …" (dest * = every node;
/// empty: the source's message). Requires a finalized schedule. O(transfers · (d + blocks)).
void writeTransfersCsv(std::ostream& out, const Schedule& schedule);

/// How writeChannelLoadCsv lays out the per-step loads.
enum class ChannelCsvLayout : std::uint8_t {
    /// One row per used channel: from,to,from_id,to_id,dim,sign,total,step_1,…,step_S.
    Wide,
    /// One row per (step, used channel) with a non-zero load: step,from,to,from_id,to_id,dim,sign,load.
    Long,
};

/// Load of every directed channel that some transfer uses (a channel is used once per transfer
/// whose route crosses it). Rows are in channel-id order (tail node, then port). `dim` is the
/// 0-based dimension, `sign` +1/−1 the direction (hypercube: +1 when the channel sets the bit).
/// Channels no transfer uses are left out. Requires a finalized schedule.
/// O(total hops + used channels · steps) time for Wide, O(total hops) for Long.
void writeChannelLoadCsv(std::ostream& out, const Schedule& schedule, ChannelCsvLayout layout = ChannelCsvLayout::Wide);

/// Options of the Chrome trace.
struct TraceOptions {
    /// Length of one step in the trace's microseconds (the viewer shows 1 step = 1 ms by default).
    double stepMicros = 1000.0;
    /// When not empty: each step's own length in µs (index step − 1, one per step, each ≥ 0), e.g.
    /// the wormhole model's step times (cost_model.h) or measured medians; stepMicros is then unused.
    std::vector<double> stepTimes;
    /// Where stepTimes come from ("model", "measured"), written as the trace's otherData.step_times
    /// ("fixed" when stepTimes is empty).
    std::string timesFrom = "model";
};

/// The schedule as a Chrome trace-event JSON document ({"traceEvents": […], …}) that opens in
/// Perfetto (ui.perfetto.dev) and chrome://tracing. pid 1 is the schedule; every node that sends
/// or receives is one thread (tid = node id + 1, named by "thread_name" metadata, sorted by id);
/// tid 0 is a "steps" track with one slice per step (its label when the schedule has one).
/// Step s starts where step s − 1 ends and lasts stepMicros, or stepTimes[s − 1] when given.
/// otherData holds topocast's envelope (format "topocast-trace", version, topology, algorithm,
/// mode, source in node notation, step_times, time_unit "µs"); a slice's args name its transfer's
/// nodes in node notation (coordinate arrays; addresses on a hypercube). Each transfer gives a complete ("X") slice
/// "send → <to>" on the sender's track, a slice "recv ← <from>" on the receiver's track, and a
/// flow pair "s" (on the send slice) / "f" (on the receive slice, "bp":"e") with id = transfer
/// index + 1. Several slices of one node in one step are nested with a small inset so each flow
/// binds to its own slice. Requires a finalized schedule; throws Error unless stepMicros > 0 or
/// stepTimes holds one finite time ≥ 0 per step. O(transfers) time, streamed.
void writeChromeTrace(std::ostream& out, const Schedule& schedule, const TraceOptions& options = {});

/// The topology as GraphML (undirected; vertex keys "name" "(1,2,3)", "coords" "1;2;3", "id";
/// edge keys "dim" and "wrap" (1 for a torus wrap-around link)) via boost::write_graphml.
/// O(nodes + links). Throws Error for more than 2^20 nodes (a file nobody could open).
void writeTopologyGraphml(std::ostream& out, const Topology& topo);
/// The topology as an undirected DOT graph (node ids = linear node ids, "label" = node name;
/// edge "dim" and "wrap") via boost::write_graphviz_dp. Same limits as writeTopologyGraphml.
void writeTopologyDot(std::ostream& out, const Topology& topo);

/// The schedule's spanning tree (firstInformers) as directed GraphML: every node is a vertex
/// ("name", "coords", "id", "informed_step" (0 for the source, −1 if never reached), "source"
/// 1/0), one edge parent → child per reached node ("step", "hops", "tag"). Same limits.
void writeTreeGraphml(std::ostream& out, const Schedule& schedule);
/// The same tree as a DOT digraph (node ids = linear node ids).
void writeTreeDot(std::ostream& out, const Schedule& schedule);

/// One frame of an exported animation: the view at timeline position (step, fraction), as the
/// app's Timeline shows it (step s with its messages `fraction` of the way along their routes).
struct FrameTime {
    std::uint32_t step = 1;
    double fraction = 0.0;
    friend bool operator==(const FrameTime&, const FrameTime&) = default;
};

/// The deterministic clock of an animation export: steps first..last (1-based, inclusive), each
/// shown at fractions 0, 1/k, …, (k−1)/k (k = framesPerStep), then one frame (last, 1.0) with
/// the last step's messages delivered, repeated 1 + holdFrames times (a pause at the end for
/// slides). (last − first + 1)·k + 1 + holdFrames frames; no wall time involved.
/// Throws Error unless 1 ≤ first ≤ last ≤ stepCount, 1 ≤ framesPerStep ≤ 1000, holdFrames ≥ 0.
std::vector<FrameTime> animationFrames(std::uint32_t stepCount, std::uint32_t first, std::uint32_t last,
                                       int framesPerStep, int holdFrames = 0);

/// Parses a step range for `--steps`: "all", "5", "3-7", "3-" (to the end). Returns {first, last}.
/// Throws Error naming the text and the range 1..stepCount.
std::pair<std::uint32_t, std::uint32_t> parseStepRange(std::string_view text, std::uint32_t stepCount);

/// Writes `schedule` in `format` (graph formats: `graph` selects topology or tree) to `out`.
/// Json uses writeScheduleJson with computeMetrics. Throws Error as the writers do.
void writeExport(std::ostream& out, const Schedule& schedule, ExportFormat format,
                 ExportGraph graph = ExportGraph::Topology);

/// Convenience: writeExport into a string.
std::string exportToString(const Schedule& schedule, ExportFormat format, ExportGraph graph = ExportGraph::Topology);

/// Writes the export to `path` atomically (writeFileAtomic): on failure the existing file is
/// untouched and no temporary is left. Throws Error.
void exportToFile(const std::filesystem::path& path, const Schedule& schedule, ExportFormat format,
                  ExportGraph graph = ExportGraph::Topology);

} // namespace topocast
