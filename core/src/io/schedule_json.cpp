#include "topocast/io/schedule_json.h"

#include "json_fields.h"

#include "topocast/algorithms/figures.h"
#include "topocast/io/figures_json.h"
#include "topocast/io/read_file.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace topocast {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

namespace {

/// Memory per byte of JSON text while a document is read: nlohmann's tree and the text (measured:
/// validating a 15 MB schedule file peaks at 12× its size, everything included).
constexpr std::uint64_t kJsonBytesPerTextByte = 16;

ojson nodeJson(const Topology& topo, NodeId v)
{
    if (topo.isHypercube())
        return v;
    return topo.coords(v);
}

ojson transferJson(const Schedule& s, const Transfer& t)
{
    ojson o;
    o["step"] = t.step;
    o["from"] = nodeJson(s.topology(), t.from);
    o["to"] = nodeJson(s.topology(), t.to);
    o["hops"] = s.hops(t);
    if (t.route.kind == RouteKind::Cyclic)
        o["route"] = {{"kind", "cyclic"}, {"start", t.route.start}, {"sign", t.route.sign}};
    if (t.payload != 0)
        o["payload"] = t.payload;
    if (t.tag != 0)
        o["tag"] = t.tag;
    if (t.size != 1.0)
        o["size"] = t.size;
    return o;
}

ojson headerJson(const Schedule& s, const Metrics& m)
{
    const Topology& topo = s.topology();
    ojson o;
    o["format"] = "topocast-schedule";
    o["version"] = 1;
    o["topology"] = topo.spec();
    o["algorithm"] = s.algorithm;
    if (!s.mode.empty())
        o["mode"] = s.mode;
    // A pattern without a root (all-gather, all-reduce, …) has no source to record.
    o["source"] = hasRoot(s.pattern()) ? nodeJson(topo, s.source()) : ojson(nullptr);
    o["pattern"] = toString(s.pattern());
    o["port_model"] = toString(s.portModel());
    if (s.portModel() == PortModel::MultiPort)
        o["max_sends_per_step"] = s.maxSendsPerStep;
    o["step_contention"] = s.contentionFree ? "forbidden" : "allowed";
    o["dimension_order"] = orderName(s.dimensionOrder);
    o["steps"] = m.steps;
    o["tcd"] = m.tcd;
    o["contention"] = m.contentionUses;
    o["max_link_load"] = m.maxLinkLoad;
    ojson metrics;
    metrics["transfers"] = m.transfers;
    metrics["tcd_per_step"] = m.tcdPerStep;
    metrics["max_step_load"] = m.maxStepLoad;
    metrics["depth_contended_channels"] = m.depthContendedChannels;
    metrics["max_sends_per_node_step"] = m.maxSendsPerNodeStep;
    metrics["max_receives_per_node_step"] = m.maxReceivesPerNodeStep;
    metrics["max_hops"] = m.maxHops;
    ojson contentions = ojson::array();
    for (const Contention& c : m.contentions) {
        ojson list = ojson::array();
        for (std::size_t i : c.transfers)
            list.push_back(i);
        contentions.push_back({{"step", c.step},
                               {"from", nodeJson(topo, topo.channelTail(c.channel))},
                               {"to", nodeJson(topo, topo.channelHead(c.channel))},
                               {"transfers", list}});
    }
    metrics["contentions"] = contentions;
    o["metrics"] = metrics;
    const ojson info = scheduleInfo(s);
    for (const auto& [key, value] : info.items())
        if (!o.contains(key))
            o[key] = value;
    if (s.figures) { // what each of the algorithm's keys above is: its name, unit and a sentence
        ojson figures = ojson::object();
        for (const FigureRow& row : figureRows(*s.figures))
            figures[row.key] = {{"label", row.name}, {"unit", row.unit}, {"help", row.help}};
        o["figures"] = figures;
    }
    if (s.parts != 1)
        o["parts"] = s.parts;
    o["size_unit"] = s.sizeUnit; // always, the default ("message") too: every size says its unit
    if (!s.stepLabels.empty())
        o["step_labels"] = s.stepLabels;
    if (!s.participants.empty()) {
        ojson list = ojson::array();
        for (NodeId v : s.participants)
            list.push_back(nodeJson(topo, v));
        o["participants"] = list;
    }
    if (s.payloadCount() > 1) {
        ojson payloads = ojson::array();
        for (std::uint32_t p = 0; p < s.payloadCount(); ++p) {
            ojson blocks = ojson::array();
            for (const Block& b : s.payload(p))
                blocks.push_back({b.origin == Block::kAll ? -1 : static_cast<long long>(b.origin),
                                  b.dest == Block::kAll ? -1 : static_cast<long long>(b.dest), b.part});
            payloads.push_back(blocks);
        }
        o["payloads"] = payloads;
    }
    return o;
}

// ---- reading ------------------------------------------------------------------------------

using jsonfields::fail;
using jsonfields::need;
using jsonfields::stringValue;

long long intValue(const json& v, const std::string& path, long long min, long long max)
{
    if (!v.is_number_integer())
        fail(path, std::string("expected a whole number, got ") + v.type_name());
    if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(max))
        fail(path, std::to_string(v.get<unsigned long long>()) + " is out of range " + std::to_string(min) + ".." +
                       std::to_string(max));
    const long long x = v.get<long long>();
    if (x < min || x > max)
        fail(path, std::to_string(x) + " is out of range " + std::to_string(min) + ".." + std::to_string(max));
    return x;
}

NodeId nodeValue(const Topology& topo, const json& v, const std::string& path)
{
    if (topo.isHypercube()) {
        return static_cast<NodeId>(intValue(v, path, 0, topo.nodeCount() - 1));
    }
    if (!v.is_array())
        fail(path, "expected an array of " + std::to_string(topo.dims()) + " coordinates");
    if (v.size() != static_cast<std::size_t>(topo.dims()))
        fail(path, "expected " + std::to_string(topo.dims()) + " coordinates, got " + std::to_string(v.size()));
    Coord c;
    for (std::size_t i = 0; i < v.size(); ++i)
        c.push_back(static_cast<int>(
            intValue(v[i], path + "[" + std::to_string(i) + "]", 0, topo.side(static_cast<int>(i)) - 1)));
    return topo.idUnchecked(c);
}

} // namespace

NodeId nodeFromJson(const Topology& topo, const nlohmann::json& value, const std::string& path)
{
    return nodeValue(topo, value, path);
}

nlohmann::ordered_json nodeToJson(const Topology& topo, NodeId node)
{
    return nodeJson(topo, node);
}

ojson toJson(const Schedule& schedule, const Metrics& metrics)
{
    ojson o = headerJson(schedule, metrics);
    ojson list = ojson::array();
    for (const Transfer& t : schedule.transfers())
        list.push_back(transferJson(schedule, t));
    o["transfers"] = std::move(list);
    return o;
}

void writeScheduleJson(std::ostream& out, const Schedule& schedule, const Metrics& metrics)
{
    const std::string header = headerJson(schedule, metrics).dump(2);
    // Drop the closing brace, append the transfers one per line, close again.
    std::string head = header.substr(0, header.rfind('}'));
    while (!head.empty() && (head.back() == '\n' || head.back() == ' '))
        head.pop_back();
    out << head;
    out << ",\n  \"transfers\": [";
    bool first = true;
    for (const Transfer& t : schedule.transfers()) {
        out << (first ? "\n    " : ",\n    ") << transferJson(schedule, t).dump();
        first = false;
    }
    out << (first ? "]\n}\n" : "\n  ]\n}\n");
}

namespace {

/// Reads a header field with `read`; an Error that does not already start with `prefix` is
/// given the field's name ("pattern: unknown pattern 'x'; …").
template <class Read> auto parsedField(const char* key, const char* prefix, Read read)
{
    try {
        return read();
    } catch (const Error& e) {
        if (std::string(e.what()).rfind(prefix, 0) == 0)
            throw;
        fail(key, e.what());
    }
}

void checkFormat(const json& doc)
{
    if (!doc.is_object())
        fail("schedule", "expected a JSON object");
    const std::string format = stringValue(need(doc, "format", "schedule"), "format");
    if (format != "topocast-schedule")
        fail("format", "\"" + format + "\" is not a topocast schedule (expected \"topocast-schedule\")");
    const long long version = intValue(need(doc, "version", "schedule"), "version", 0, 1000000);
    if (version != 1)
        fail("version", std::to_string(version) + " is not supported (this topocast reads version 1)");
}

/// The schedule with its topology, source, pattern and port model, as yet without transfers.
Schedule emptySchedule(const json& doc)
{
    const Topology topo = parsedField("topology", "topology", [&] {
        return Topology::parse(stringValue(need(doc, "topology", "schedule"), "topology"));
    });
    const Pattern pattern = parsedField("pattern", "pattern:", [&] {
        return doc.contains("pattern") ? parsePattern(stringValue(doc["pattern"], "pattern")) : Pattern::Broadcast;
    });
    // null where the pattern has no root (files before it wrote the first node there: read too).
    const json& sourceJson = need(doc, "source", "schedule");
    if (sourceJson.is_null() && hasRoot(pattern))
        fail("source", "a " + toString(pattern) + " needs its source (root) node, not null");
    const NodeId source = sourceJson.is_null() ? NodeId{0} : nodeValue(topo, sourceJson, "source");
    const PortModel ports = parsedField("port_model", "port_model:", [&] {
        return doc.contains("port_model") ? parsePortModel(stringValue(doc["port_model"], "port_model"))
                                          : PortModel::OnePort;
    });
    return Schedule(topo, source, pattern, ports);
}

/// algorithm, mode, dimension_order, parts, size_unit, max_sends_per_step, step_labels,
/// participants: each optional.
void readScheduleFields(const json& doc, Schedule& s)
{
    const Topology& topo = s.topology();
    if (doc.contains("algorithm"))
        s.algorithm = stringValue(doc["algorithm"], "algorithm");
    if (doc.contains("mode"))
        s.mode = stringValue(doc["mode"], "mode");
    if (doc.contains("dimension_order")) {
        try {
            s.dimensionOrder = parseOrder(stringValue(doc["dimension_order"], "dimension_order"), topo.dims());
        } catch (const Error& e) {
            fail("dimension_order", e.what());
        }
    }
    if (doc.contains("parts"))
        s.parts = static_cast<std::uint32_t>(intValue(doc["parts"], "parts", 1, 1 << 24));
    if (doc.contains("size_unit"))
        s.sizeUnit = stringValue(doc["size_unit"], "size_unit");
    if (doc.contains("max_sends_per_step"))
        s.maxSendsPerStep = static_cast<int>(intValue(doc["max_sends_per_step"], "max_sends_per_step", 1, 1 << 20));
    if (doc.contains("step_contention")) {
        const std::string c = stringValue(doc["step_contention"], "step_contention");
        if (c != "forbidden" && c != "allowed")
            fail("step_contention", "\"" + c + "\" is not a contention model; use \"forbidden\" or \"allowed\"");
        s.contentionFree = c == "forbidden";
    }
    if (doc.contains("step_labels")) {
        const json& labels = doc["step_labels"];
        if (!labels.is_array())
            fail("step_labels", "expected an array of strings");
        for (std::size_t i = 0; i < labels.size(); ++i)
            s.stepLabels.push_back(stringValue(labels[i], "step_labels[" + std::to_string(i) + "]"));
    }
    if (doc.contains("participants")) {
        const json& list = doc["participants"];
        if (!list.is_array())
            fail("participants", "expected an array of nodes");
        for (std::size_t i = 0; i < list.size(); ++i)
            s.participants.push_back(nodeValue(topo, list[i], "participants[" + std::to_string(i) + "]"));
    }
}

/// [origin, dest, part], dest −1 for every node, origin −1 for a partial result (reductions).
Block blockValue(const Topology& topo, const json& blk, const std::string& path)
{
    if (!blk.is_array() || blk.size() != 3)
        fail(path, "expected [origin, dest, part] (dest −1 = every node; origin −1 = a partial result of a reduction)");
    const long long origin = intValue(blk[0], path + "[0]", -1, topo.nodeCount() - 1);
    const long long dest = intValue(blk[1], path + "[1]", -1, topo.nodeCount() - 1);
    const auto part = static_cast<std::uint32_t>(intValue(blk[2], path + "[2]", 0, (1LL << 32) - 1));
    return Block{origin < 0 ? Block::kAll : static_cast<std::uint32_t>(origin),
                 dest < 0 ? Block::kAll : static_cast<std::uint32_t>(dest), part};
}

void readPayloads(const json& doc, Schedule& s)
{
    if (!doc.contains("payloads"))
        return;
    const json& payloads = doc["payloads"];
    if (!payloads.is_array() || payloads.empty())
        fail("payloads", "expected a non-empty array of block lists");
    for (std::size_t p = 0; p < payloads.size(); ++p) {
        const std::string path = "payloads[" + std::to_string(p) + "]";
        if (!payloads[p].is_array())
            fail(path, "expected an array of [origin, dest, part] blocks");
        std::vector<Block> blocks;
        for (std::size_t b = 0; b < payloads[p].size(); ++b)
            blocks.push_back(blockValue(s.topology(), payloads[p][b], path + "[" + std::to_string(b) + "]"));
        if (p == 0)
            continue; // payload 0 is always the source's message
        s.addPayload(blocks);
    }
}

/// Every other top-level key is algorithm information (kept in Schedule::fileInfo).
void readInfo(const json& doc, Schedule& s)
{
    static const char* const kKnown[] = {
        "format",          "version",  "topology",   "algorithm",          "mode",
        "source",          "pattern",  "port_model", "max_sends_per_step", "step_contention",
        "dimension_order", "steps",    "tcd",        "contention",         "max_link_load",
        "metrics",         "parts",    "size_unit",  "step_labels",        "participants",
        "payloads",        "transfers"};
    for (const auto& [key, value] : doc.items())
        if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown))
            s.fileInfo.emplace_back(key, value.dump());
}

RouteSpec routeValue(const Topology& topo, const json& r, const std::string& path)
{
    const std::string kind = stringValue(need(r, "kind", path), path + ".kind");
    if (kind == "cyclic") {
        const int start = static_cast<int>(intValue(need(r, "start", path), path + ".start", 0, topo.dims() - 1));
        const int sign = static_cast<int>(intValue(need(r, "sign", path), path + ".sign", -1, 1));
        if (sign == 0)
            fail(path + ".sign", "must be +1 or −1");
        return RouteSpec::cyclic(start, sign);
    }
    if (kind != "dimension-order")
        fail(path + ".kind", "\"" + kind + "\" is unknown; expected \"cyclic\" or \"dimension-order\"");
    return RouteSpec::dimensionOrder();
}

/// transfers[i]; `s` supplies the topology, the payloads read so far and the hop count to check.
Transfer transferValue(const Schedule& s, const json& t, const std::string& path)
{
    const Topology& topo = s.topology();
    if (!t.is_object())
        fail(path, std::string("expected an object, got ") + t.type_name());
    Transfer tr;
    tr.step = StepNo{intValue(need(t, "step", path), path + ".step", 1, 1 << 30)};
    tr.from = nodeValue(topo, need(t, "from", path), path + ".from");
    tr.to = nodeValue(topo, need(t, "to", path), path + ".to");
    if (t.contains("route"))
        tr.route = routeValue(topo, t["route"], path + ".route");
    if (t.contains("payload"))
        tr.payload = static_cast<std::uint32_t>(intValue(t["payload"], path + ".payload", 0, s.payloadCount() - 1));
    if (t.contains("tag"))
        tr.tag = static_cast<std::uint32_t>(intValue(t["tag"], path + ".tag", 0, (1LL << 32) - 1));
    if (t.contains("size")) {
        if (!t["size"].is_number())
            fail(path + ".size", "expected a number");
        tr.size = t["size"].get<double>();
        if (!(tr.size >= 0) || tr.size > 1e300)
            fail(path + ".size", "must be a finite number ≥ 0");
    }
    if (t.contains("hops")) {
        const long long hops = intValue(t["hops"], path + ".hops", 0, 1LL << 31);
        if (hops != s.hops(tr))
            fail(path + ".hops", "says " + std::to_string(hops) + " but the route " + topo.nodeName(tr.from) + "→" +
                                     topo.nodeName(tr.to) + " has " + std::to_string(s.hops(tr)) + " hops");
    }
    return tr;
}

void readTransfers(const json& doc, Schedule& s)
{
    const json& transfers = need(doc, "transfers", "schedule");
    if (!transfers.is_array())
        fail("transfers", "expected an array");
    s.reserve(transfers.size());
    for (std::size_t i = 0; i < transfers.size(); ++i)
        s.add(transferValue(s, transfers[i], "transfers[" + std::to_string(i) + "]"));
}

} // namespace

Schedule scheduleFromJson(const json& doc)
{
    checkFormat(doc);
    Schedule s = emptySchedule(doc);
    readScheduleFields(doc, s);
    readPayloads(doc, s);
    readInfo(doc, s);
    readTransfers(doc, s);
    s.finalize();
    return s;
}

namespace {

/// The deepest nesting of arrays and objects in `text`, skipping strings; stops counting once it
/// passes `stopAt`. O(n), no allocation. On malformed text the count is exact up to the first
/// error, which is as far as the parser gets.
int nestingDepth(std::string_view text, int stopAt)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > stopAt)
                return depth;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return 0;
}

} // namespace

json parseJsonText(std::string_view text, const std::string& what)
{
    constexpr int kMaxDepth = 64;
    checkMemory(what + ": parsing " + formatBytes(text.size()) + " of JSON",
                saturatingMul(text.size(), kJsonBytesPerTextByte),
                "about " + std::to_string(kJsonBytesPerTextByte) + " B of document tree per byte of text");
    // Depth is checked by a pre-pass rather than a parser callback: nlohmann's callback parser
    // scans the enclosing array at the end of every object, which made reading a schedule of n
    // transfers O(n²) (a 262 144-transfer file took 14 s, a million would take minutes).
    if (nestingDepth(text, kMaxDepth) > kMaxDepth)
        throw Error(what + ": JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // e.byte is the offset where parsing stopped; turn it into line and column.
        std::size_t line = 1, col = 1;
        for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        std::string msg = e.what();
        const auto pos = msg.find("syntax error");
        msg = pos == std::string::npos ? msg : msg.substr(pos);
        throw Error(what + ":" + std::to_string(line) + ":" + std::to_string(col) + ": malformed JSON (" + msg + ")");
    } catch (const json::exception& e) {
        // A number too large for a double ("1e400") is an out_of_range, not a parse_error.
        std::string msg = e.what();
        const auto pos = msg.find("] ");
        throw Error(what + ": unreadable JSON (" + (pos == std::string::npos ? msg : msg.substr(pos + 2)) + ")");
    }
}

json readJsonFile(const std::filesystem::path& path)
{
    const std::string name = path.string();
    // The document tree takes about kJsonBytesPerTextByte times the text: refuse larger files
    // before reading them (regular files) or as soon as a stream passes the limit (pipes, devices).
    const std::uint64_t maxText = std::max<std::uint64_t>(memoryLimit() / kJsonBytesPerTextByte, 1);
    ReadFileLimits limits;
    limits.kind = "JSON file";
    limits.checkSize = [&](std::uint64_t bytes) {
        checkMemory(name + ": parsing " + formatBytes(bytes) + " of JSON", saturatingMul(bytes, kJsonBytesPerTextByte),
                    "about " + std::to_string(kJsonBytesPerTextByte) + " B of document tree per byte of text");
    };
    limits.maxBytes = maxText;
    limits.whenPast = [&] {
        throw Error(name + ": more than " + formatBytes(maxText) + " of JSON; parsing it would need more than " +
                    formatBytes(memoryLimit()) + ", the limit");
    };
    return parseJsonText(readFileText(path, limits), name);
}

} // namespace topocast
