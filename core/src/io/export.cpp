#include "topocast/io/export.h"

#include "export_detail.h"

#include "topocast/analysis/metrics.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/model/routing.h"

// GCC 12 reports a false -Wmaybe-uninitialized inside adjacency_list's edge iterator (a
// boost::optional member); silence it for the Boost headers only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <boost/property_map/property_map.hpp>
#pragma GCC diagnostic pop

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <ostream>
#include <sstream>
#include <system_error>
#include <tuple>
#include <unordered_map>

namespace topocast {

using detail::quoted;
using detail::requireFinalized;

namespace {

constexpr std::array<std::pair<ExportFormat, const char*>, 6> kFormatNames{{
    {ExportFormat::Json, "json"},
    {ExportFormat::Csv, "csv"},
    {ExportFormat::ChannelsCsv, "channels-csv"},
    {ExportFormat::Trace, "trace"},
    {ExportFormat::GraphML, "graphml"},
    {ExportFormat::Dot, "dot"},
}};

/// Graph exports hold every node and link in memory (Boost adjacency_list) and in the file.
constexpr std::uint32_t kMaxGraphNodes = std::uint32_t{1} << 20;

/// Dense per-step channel tables beyond this many cells would be mostly zeros: ask for Long.
constexpr std::uint64_t kMaxWideCells = std::uint64_t{1} << 28;

void checkGraphSize(const Topology& topo)
{
    if (topo.nodeCount() > kMaxGraphNodes)
        throw Error("graph export of the " + topo.displayName() + " would hold " + std::to_string(topo.nodeCount()) +
                    " nodes; the limit is " + std::to_string(kMaxGraphNodes));
}

/// Direction of a channel for the CSV: the port's sign; on a hypercube +1 when it sets the bit.
int channelSign(const Topology& topo, ChannelId ch)
{
    const Port port = topo.channelPort(ch);
    if (topo.isHypercube())
        return topo.coord(topo.channelTail(ch), port.dim) == 0 ? +1 : -1;
    return port.sign;
}

// ---- graphs ---------------------------------------------------------------------------------

struct GraphVertex {
    std::string name;   // "(1,2,3)"
    std::string coords; // "1;2;3"
    long id = 0;
    int informedStep = 0;
    int source = 0;
};

struct TopologyEdge {
    int dim = 0;
    int wrap = 0;
};

struct TreeEdge {
    int step = 0;
    int hops = 0;
    long tag = 0;
};

using TopologyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, GraphVertex, TopologyEdge>;
using TreeGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, GraphVertex, TreeEdge>;

void fillVertices(const Topology& topo, auto& g)
{
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        GraphVertex& gv = g[v];
        gv.name = topo.nodeName(v);
        gv.coords = nodeField(topo, v);
        gv.id = static_cast<long>(v);
    }
}

TopologyGraph topologyGraph(const Topology& topo)
{
    checkGraphSize(topo);
    TopologyGraph g(topo.nodeCount());
    fillVertices(topo, g);
    // Each undirected link once: from the + port (hypercube: from the node whose bit is 0).
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        topo.forEachNeighbour(v, [&](NodeId w, Port port) {
            const bool forward = topo.isHypercube() ? topo.coord(v, port.dim) == 0 : port.sign > 0;
            if (!forward)
                return;
            const bool wrap = topo.isWrapChannel(topo.channel(v, port.dim, port.sign));
            boost::add_edge(v, w, TopologyEdge{port.dim, wrap ? 1 : 0}, g);
        });
    }
    return g;
}

TreeGraph treeGraph(const Schedule& schedule)
{
    const Topology& topo = schedule.topology();
    checkGraphSize(topo);
    const std::vector<std::size_t> first = firstInformers(schedule);
    TreeGraph g(topo.nodeCount());
    fillVertices(topo, g);
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        GraphVertex& gv = g[v];
        if (first[v] == kNoTransfer) {
            const bool isSource = v == schedule.source();
            gv.source = isSource ? 1 : 0;
            gv.informedStep = isSource ? 0 : -1;
            continue;
        }
        const Transfer& t = schedule.transfers()[first[v]];
        gv.informedStep = static_cast<int>(t.step);
        boost::add_edge(t.from, v, TreeEdge{static_cast<int>(t.step), schedule.hops(t), static_cast<long>(t.tag)}, g);
    }
    return g;
}

template <class Graph> void addVertexProperties(boost::dynamic_properties& dp, Graph& g, bool tree)
{
    dp.property("name", boost::get(&GraphVertex::name, g));
    dp.property("coords", boost::get(&GraphVertex::coords, g));
    dp.property("id", boost::get(&GraphVertex::id, g));
    if (tree) {
        dp.property("informed_step", boost::get(&GraphVertex::informedStep, g));
        dp.property("source", boost::get(&GraphVertex::source, g));
    }
}

void addEdgeProperties(boost::dynamic_properties& dp, TopologyGraph& g)
{
    dp.property("dim", boost::get(&TopologyEdge::dim, g));
    dp.property("wrap", boost::get(&TopologyEdge::wrap, g));
}

void addEdgeProperties(boost::dynamic_properties& dp, TreeGraph& g)
{
    dp.property("step", boost::get(&TreeEdge::step, g));
    dp.property("hops", boost::get(&TreeEdge::hops, g));
    dp.property("tag", boost::get(&TreeEdge::tag, g));
}

template <class Graph> void writeGraphml(std::ostream& out, Graph& g, bool tree, std::string description)
{
    boost::dynamic_properties dp;
    addVertexProperties(dp, g, tree);
    addEdgeProperties(dp, g);
    dp.property("description", boost::ref_property_map<Graph*, std::string>(description));
    boost::write_graphml(out, g, dp, true);
}

template <class Graph> void writeDot(std::ostream& out, Graph& g, bool tree)
{
    // DOT node ids are the linear node ids; "label" shows the node name in Graphviz.
    boost::dynamic_properties dp;
    dp.property("node_id", boost::get(&GraphVertex::id, g));
    dp.property("label", boost::get(&GraphVertex::name, g));
    dp.property("coords", boost::get(&GraphVertex::coords, g));
    if (tree) {
        dp.property("informed_step", boost::get(&GraphVertex::informedStep, g));
        dp.property("source", boost::get(&GraphVertex::source, g));
    }
    addEdgeProperties(dp, g);
    boost::write_graphviz_dp(out, g, dp, "node_id");
}

std::string graphDescription(const Schedule& schedule)
{
    std::string d = "broadcast tree (first informer of each node) of " + schedule.algorithm;
    if (!schedule.mode.empty())
        d += " (" + schedule.mode + ")";
    d += " " + toString(schedule.pattern()) + " from " + schedule.topology().nodeName(schedule.source()) + " on " +
         schedule.topology().spec();
    return d;
}

} // namespace

std::string toString(ExportFormat format)
{
    for (const auto& [f, name] : kFormatNames)
        if (f == format)
            return name;
    return "json";
}

ExportFormat parseExportFormat(std::string_view text)
{
    for (const auto& [f, name] : kFormatNames)
        if (text == name)
            return f;
    std::string allowed;
    for (const auto& entry : kFormatNames)
        allowed += (allowed.empty() ? "" : ", ") + std::string(entry.second);
    throw Error("unknown export format '" + std::string(text) + "'; use one of " + allowed);
}

std::string toString(ExportGraph graph)
{
    return graph == ExportGraph::Tree ? "tree" : "topology";
}

ExportGraph parseExportGraph(std::string_view text)
{
    if (text == "topology")
        return ExportGraph::Topology;
    if (text == "tree")
        return ExportGraph::Tree;
    throw Error("unknown graph '" + std::string(text) + "'; use topology or tree");
}

std::string fileExtension(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Csv:
    case ExportFormat::ChannelsCsv:
        return "csv";
    case ExportFormat::GraphML:
        return "graphml";
    case ExportFormat::Dot:
        return "dot";
    case ExportFormat::Json:
    case ExportFormat::Trace:
        break;
    }
    return "json";
}

std::string nodeField(const Topology& topo, NodeId node)
{
    if (topo.isHypercube())
        return std::to_string(node);
    std::string s;
    for (int d = 0; d < topo.dims(); ++d) {
        if (d)
            s += ';';
        s += std::to_string(topo.coord(node, d));
    }
    return s;
}

std::string routeField(const RouteSpec& route)
{
    if (route.kind == RouteKind::DimensionOrder)
        return "order";
    return "cyclic:" + std::to_string(route.start) + (route.sign < 0 ? "-" : "+");
}

/// The blocks of a payload as the CSV reader takes them: "origin:dest:part …", dest * = every
/// node; empty for payload 0 (the source's whole message).
static std::string blocksField(const Schedule& schedule, std::uint32_t payload)
{
    if (payload == 0)
        return {};
    std::string text;
    for (const Block& b : schedule.payload(payload)) {
        if (!text.empty())
            text += ' ';
        text += (b.origin == Block::kAll ? std::string("*") : std::to_string(b.origin)) + ':' +
                (b.dest == Block::kAll ? std::string("*") : std::to_string(b.dest)) + ':' + std::to_string(b.part);
    }
    return text;
}

/// `text` as one CSV field: quoted where it holds a comma, a quote or a line break (RFC 4180).
static std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + '"';
}

/// The settings the CSV reader takes back (schedule_csv.h), as the columns after the transfer's:
/// their names for the header, their values for the first row (nodes as the rows write them,
/// nodeField, so a file names every node one way). Empty where a setting does not apply.
static std::vector<std::pair<std::string, std::string>> csvSettings(const Schedule& schedule)
{
    const Topology& topo = schedule.topology();
    std::string participants;
    for (NodeId v : schedule.participants)
        participants += (participants.empty() ? "" : " ") + nodeField(topo, v);
    return {{"topology", topo.spec()},
            {"algorithm", schedule.algorithm},
            {"mode", schedule.mode},
            {"source", nodeField(topo, schedule.source())},
            {"pattern", toString(schedule.pattern())},
            {"ports", toString(schedule.portModel())},
            {"max_sends_per_step",
             schedule.portModel() == PortModel::MultiPort ? std::to_string(schedule.maxSendsPerStep) : std::string()},
            {"step_contention", schedule.contentionFree ? "forbidden" : "allowed"},
            {"dimension_order", orderName(schedule.dimensionOrder)},
            {"parts", std::to_string(schedule.parts)},
            {"participants", participants}};
}

void writeTransfersCsv(std::ostream& out, const Schedule& schedule)
{
    requireFinalized(schedule, "CSV export");
    const Topology& topo = schedule.topology();
    // The header first (any CSV reader's defaults take it so), the settings in columns of their
    // own after the transfer's, filled in the first row.
    const auto settings = csvSettings(schedule);
    out << "step,from,to,from_id,to_id,hops,route,payload,tag,size,blocks";
    for (const auto& [key, value] : settings)
        out << ',' << key;
    out << '\n';
    std::string first;
    for (const auto& [key, value] : settings)
        first += ',' + csvField(value);
    std::string empty(settings.size(), ',');
    bool firstRow = true;
    for (const Transfer& t : schedule.transfers()) {
        out << t.step << ',' << nodeField(topo, t.from) << ',' << nodeField(topo, t.to) << ',' << t.from << ',' << t.to
            << ',' << schedule.hops(t) << ',' << routeField(t.route) << ',' << t.payload << ',' << t.tag << ','
            << fmt::to_string(t.size) << ',' << blocksField(schedule, t.payload) << (firstRow ? first : empty) << '\n';
        firstRow = false;
    }
    if (firstRow) // no transfers: one row of settings alone
        out << ",,,,,,,,,," << first << '\n';
}

void writeChannelLoadCsv(std::ostream& out, const Schedule& schedule, ChannelCsvLayout layout)
{
    requireFinalized(schedule, "channel CSV export");
    const Topology& topo = schedule.topology();
    const std::uint32_t steps = schedule.stepCount();
    const DimensionOrder& order = schedule.dimensionOrder;
    auto channelFields = [&](ChannelId ch) {
        const NodeId tail = topo.channelTail(ch);
        const NodeId head = topo.channelHead(ch);
        return nodeField(topo, tail) + ',' + nodeField(topo, head) + ',' + std::to_string(tail) + ',' +
               std::to_string(head) + ',' + std::to_string(topo.channelPort(ch).dim) + ',' +
               (channelSign(topo, ch) > 0 ? "1" : "-1");
    };

    if (layout == ChannelCsvLayout::Long) {
        out << "step,from,to,from_id,to_id,dim,sign,load\n";
        std::unordered_map<ChannelId, std::uint32_t> load;
        std::vector<std::pair<ChannelId, std::uint32_t>> rows;
        for (StepNo step{1}; step <= steps; ++step) {
            load.clear();
            for (const Transfer& t : schedule.stepTransfers(step))
                forEachChannel(topo, t.from, t.to, t.route, order, [&](ChannelId c) { ++load[c]; });
            rows.assign(load.begin(), load.end());
            std::sort(rows.begin(), rows.end());
            for (const auto& [ch, n] : rows)
                out << step << ',' << channelFields(ch) << ',' << n << '\n';
        }
        return;
    }

    // Wide: first the set of used channels (sorted), then a dense used × steps table.
    std::vector<ChannelId> used;
    for (const Transfer& t : schedule.transfers())
        forEachChannel(topo, t.from, t.to, t.route, order, [&](ChannelId c) { used.push_back(c); });
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    const std::uint64_t cells = std::uint64_t{used.size()} * steps;
    if (cells > kMaxWideCells)
        throw Error("the per-step channel table would have " + std::to_string(used.size()) + " channels × " +
                    std::to_string(steps) + " steps; use the long layout (one row per step and channel)");
    std::vector<std::uint32_t> table(static_cast<std::size_t>(cells), 0);
    auto rowOf = [&](ChannelId c) {
        return static_cast<std::size_t>(std::lower_bound(used.begin(), used.end(), c) - used.begin());
    };
    for (const Transfer& t : schedule.transfers())
        forEachChannel(topo, t.from, t.to, t.route, order,
                       [&](ChannelId c) { ++table[rowOf(c) * steps + (t.step - 1)]; });

    out << "from,to,from_id,to_id,dim,sign,total";
    for (std::uint32_t s = 1; s <= steps; ++s)
        out << ",step_" << s;
    out << '\n';
    for (std::size_t r = 0; r < used.size(); ++r) {
        const std::uint32_t* row = table.data() + r * steps;
        std::uint64_t total = 0;
        for (std::uint32_t s = 0; s < steps; ++s)
            total += row[s];
        out << channelFields(used[r]) << ',' << total;
        for (std::uint32_t s = 0; s < steps; ++s)
            out << ',' << row[s];
        out << '\n';
    }
}

void writeTopologyGraphml(std::ostream& out, const Topology& topo)
{
    TopologyGraph g = topologyGraph(topo);
    writeGraphml(out, g, false, "topology " + topo.spec());
}

void writeTopologyDot(std::ostream& out, const Topology& topo)
{
    TopologyGraph g = topologyGraph(topo);
    writeDot(out, g, false);
}

void writeTreeGraphml(std::ostream& out, const Schedule& schedule)
{
    TreeGraph g = treeGraph(schedule);
    writeGraphml(out, g, true, graphDescription(schedule));
}

void writeTreeDot(std::ostream& out, const Schedule& schedule)
{
    TreeGraph g = treeGraph(schedule);
    writeDot(out, g, true);
}

std::vector<FrameTime> animationFrames(std::uint32_t stepCount, std::uint32_t first, std::uint32_t last,
                                       int framesPerStep, int holdFrames)
{
    if (first < 1 || first > last || last > stepCount)
        throw Error("animation steps " + std::to_string(first) + "–" + std::to_string(last) +
                    " are not a range within the schedule's steps 1.." + std::to_string(stepCount));
    if (framesPerStep < 1 || framesPerStep > 1000)
        throw Error("frames per step " + std::to_string(framesPerStep) + " is out of range 1..1000");
    if (holdFrames < 0)
        throw Error("hold frames " + std::to_string(holdFrames) + " must be ≥ 0");
    std::vector<FrameTime> frames;
    frames.reserve(static_cast<std::size_t>(last - first + 1) * static_cast<std::size_t>(framesPerStep) + 1 +
                   static_cast<std::size_t>(holdFrames));
    for (std::uint32_t step = first; step <= last; ++step)
        for (int j = 0; j < framesPerStep; ++j)
            frames.push_back({step, static_cast<double>(j) / framesPerStep});
    frames.insert(frames.end(), static_cast<std::size_t>(holdFrames) + 1, FrameTime{last, 1.0});
    return frames;
}

std::pair<std::uint32_t, std::uint32_t> parseStepRange(std::string_view text, std::uint32_t stepCount)
{
    auto bad = [&]() -> Error {
        return Error("step range '" + std::string(text) + "' is not all, N, A-B or A- within 1.." +
                     std::to_string(stepCount));
    };
    if (stepCount == 0)
        throw Error("the schedule has no steps to show");
    if (text == "all" || text.empty())
        return {1, stepCount};
    auto number = [&](std::string_view t) {
        std::uint32_t v = 0;
        const auto res = std::from_chars(t.data(), t.data() + t.size(), v);
        if (t.empty() || res.ec != std::errc{} || res.ptr != t.data() + t.size())
            throw bad();
        return v;
    };
    const auto dash = text.find('-');
    std::uint32_t a = 0, b = 0;
    if (dash == std::string_view::npos) {
        a = b = number(text);
    } else {
        a = number(text.substr(0, dash));
        b = dash + 1 == text.size() ? stepCount : number(text.substr(dash + 1));
    }
    if (a < 1 || a > b || b > stepCount)
        throw bad();
    return {a, b};
}

void writeExport(std::ostream& out, const Schedule& schedule, ExportFormat format, ExportGraph graph)
{
    switch (format) {
    case ExportFormat::Json:
        writeScheduleJson(out, schedule, computeMetrics(schedule));
        return;
    case ExportFormat::Csv:
        writeTransfersCsv(out, schedule);
        return;
    case ExportFormat::ChannelsCsv:
        writeChannelLoadCsv(out, schedule);
        return;
    case ExportFormat::Trace:
        writeChromeTrace(out, schedule);
        return;
    case ExportFormat::GraphML:
        if (graph == ExportGraph::Tree)
            writeTreeGraphml(out, schedule);
        else
            writeTopologyGraphml(out, schedule.topology());
        return;
    case ExportFormat::Dot:
        if (graph == ExportGraph::Tree)
            writeTreeDot(out, schedule);
        else
            writeTopologyDot(out, schedule.topology());
        return;
    }
}

std::string exportToString(const Schedule& schedule, ExportFormat format, ExportGraph graph)
{
    std::ostringstream out;
    writeExport(out, schedule, format, graph);
    return std::move(out).str();
}

void exportToFile(const std::filesystem::path& path, const Schedule& schedule, ExportFormat format, ExportGraph graph)
{
    writeFileAtomic(path, exportToString(schedule, format, graph));
}

} // namespace topocast
