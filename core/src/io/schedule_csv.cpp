#include "topocast/io/schedule_csv.h"

#include "csv_fields.h"

#include "topocast/io/read_file.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/routing.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace topocast {

namespace {

using csv::commentValue;
using csv::CsvError;
using csv::forEachLine;
using csv::lower;
using csv::orderField;
using csv::parseCsvNode;
using csv::parseNodeField;
using csv::parseRouteField;
using csv::splitFields;
using csv::trim;

// The columns a student writes (step, from, to, route) and the ones `export --format csv` adds:
// size, tag and blocks are read back; from_id, to_id, hops and payload are there for a reader's
// convenience and ignored (the CSV export is the CSV this reader takes).
enum Column {
    ColStep,
    ColFrom,
    ColTo,
    ColRoute,
    ColSize,
    ColTag,
    ColBlocks,
    ColFromId,
    ColToId,
    ColHops,
    ColPayload,
    ColCount
};
constexpr std::array<const char*, ColCount> kColumnNames{"step",   "from",    "to",    "route", "size",   "tag",
                                                         "blocks", "from_id", "to_id", "hops",  "payload"};
constexpr const char* kAllowedColumns =
    "step, from, to and (optional) route; also size, tag, blocks, the export's from_id, to_id, hops, payload "
    "and its settings (topology, source, pattern, ports, …)";

/// The settings the export writes as columns after the transfer's, filled in its first row (the
/// same keys as '# key: value' lines, which a hand-written file may use instead).
constexpr std::array<const char*, 11> kSettingColumns{
    "topology",        "algorithm",       "mode",  "source",      "pattern", "ports", "max_sends_per_step",
    "step_contention", "dimension_order", "parts", "participants"};

struct Header {
    std::array<int, ColCount> index = [] {
        std::array<int, ColCount> a{};
        a.fill(-1);
        return a;
    }();
    std::vector<std::pair<std::string, std::size_t>> settings; ///< setting column: (key, field index)
    std::size_t fields = 0;
};

Header parseHeader(const std::vector<std::string>& fields, std::size_t lineNo, const CsvError& err)
{
    Header h;
    h.fields = fields.size();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string name = lower(fields[i]);
        int col = -1;
        for (int c = 0; c < ColCount; ++c)
            if (name == kColumnNames[static_cast<std::size_t>(c)])
                col = c;
        if (col < 0 && std::find_if(kSettingColumns.begin(), kSettingColumns.end(),
                                    [&](const char* k) { return name == k; }) != kSettingColumns.end()) {
            if (std::any_of(h.settings.begin(), h.settings.end(), [&](const auto& s) { return s.first == name; }))
                err.at(lineNo, "column '" + name + "' appears twice; a setting is one column");
            h.settings.emplace_back(name, i);
            continue;
        }
        if (col < 0) {
            bool numeric = !name.empty() &&
                           std::all_of(name.begin(), name.end(), [](unsigned char ch) { return std::isdigit(ch); });
            err.at(lineNo, numeric ? std::string("the first line must be the header step,from,to (columns ") +
                                         kAllowedColumns + "); got a data row"
                                   : "column '" + fields[i] + "' is not one of " + kAllowedColumns);
        }
        if (h.index[static_cast<std::size_t>(col)] >= 0)
            err.at(lineNo, "column '" + name + "' appears twice; each of " + kAllowedColumns + " at most once");
        h.index[static_cast<std::size_t>(col)] = static_cast<int>(i);
    }
    for (int c = ColStep; c <= ColTo; ++c)
        if (h.index[static_cast<std::size_t>(c)] < 0)
            err.at(lineNo, std::string("the header has no '") + kColumnNames[static_cast<std::size_t>(c)] +
                               "' column; it needs " + kAllowedColumns);
    return h;
}

std::uint32_t parseStep(const std::string& text, std::size_t lineNo, const CsvError& err)
{
    const std::string allowed = "steps are whole numbers 1.." + std::to_string(kMaxScheduleCsvStep);
    if (text.empty() || text.size() > 9 ||
        !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
        err.at(lineNo, "step '" + text + "' is not a whole number; " + allowed);
    const unsigned long v = std::stoul(text);
    if (v == 0)
        err.at(lineNo, "step 0; steps start at 1 (" + allowed + ")");
    if (v > kMaxScheduleCsvStep)
        err.at(lineNo, "step " + text + " is past the largest step; " + allowed);
    return static_cast<std::uint32_t>(v);
}

struct Row {
    StepNo step{};
    NodeId from{}, to{};
    std::string route;
    std::string blocks; ///< "origin:dest:part …" (dest * = every node); empty = the source's message
    double size = 1.0;
    std::uint32_t tag = 0;
    std::size_t line = 0;
};

std::string readWhole(const std::filesystem::path& path)
{
    ReadFileLimits limits;
    limits.kind = "CSV file";
    limits.checkSize = [&](std::uint64_t bytes) {
        if (bytes > kMaxScheduleCsvBytes)
            throw Error(path.string() + ": " + formatBytes(bytes) + " is past the " +
                        formatBytes(kMaxScheduleCsvBytes) + " limit of a schedule CSV");
    };
    limits.maxBytes = kMaxScheduleCsvBytes; // past it: scheduleFromCsv names the line where
    return readFileText(path, limits);
}

} // namespace

std::optional<Topology> csvTopology(std::string_view text)
{
    // A '# topology:' line, or the topology column of the first row (as the export writes it).
    std::optional<Topology> found;
    const CsvError err("CSV");
    std::optional<std::size_t> column;
    bool header = false;
    forEachLine(text.substr(0, std::min<std::size_t>(text.size(), 1 << 16)),
                [&](std::string_view line, std::size_t lineNo) {
                    if (auto v = commentValue(line, "topology")) {
                        found = Topology::parse(*v);
                        return false;
                    }
                    if (trim(line).empty() || trim(line).front() == '#')
                        return true;
                    const std::vector<std::string> fields = splitFields(line, lineNo, err);
                    if (!header) {
                        header = true;
                        for (std::size_t i = 0; i < fields.size(); ++i)
                            if (lower(trim(fields[i])) == "topology")
                                column = i;
                        return column.has_value();
                    }
                    if (*column < fields.size() && !trim(fields[*column]).empty())
                        found = Topology::parse(trim(fields[*column]));
                    return false;
                });
    return found;
}

bool isCsvPath(const std::filesystem::path& path)
{
    return lower(path.extension().string()) == ".csv";
}

namespace {

/// Refuses a text past the size limit, naming the line where it passes it.
void checkCsvSize(std::string_view text, const CsvError& err)
{
    if (text.size() > kMaxScheduleCsvBytes) {
        std::size_t line =
            1 + static_cast<std::size_t>(
                    std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(kMaxScheduleCsvBytes), '\n'));
        err.at(line, "the file passes the " + formatBytes(kMaxScheduleCsvBytes) +
                         " limit of a schedule CSV here; a hand-written schedule is far smaller");
    }
}

/// What the first pass over a CSV finds: its comment settings, header and rows (steps and routes;
/// the nodes wait until the topology is known).
struct CsvFirstPass {
    std::optional<Topology> fileTopology;
    std::optional<std::string> sourceText, portsText;
    std::size_t sourceLine = 0, portsLine = 0;
    /// The other '# key: value' settings the export writes (pattern, step_contention, algorithm,
    /// mode, dimension_order, max_sends_per_step, parts, participants), with their lines.
    std::map<std::string, std::pair<std::string, std::size_t>> settings;
    std::optional<Header> header;
    std::vector<Row> rows;
};

/// One '#' line of the first pass: '# topology:', '# source:' or '# ports:' (others are comments).
void readCommentLine(std::string_view t, std::size_t lineNo, const CsvError& err, CsvFirstPass& pass)
{
    if (auto v = commentValue(t, "topology")) {
        std::optional<Topology> topo;
        try {
            topo = Topology::parse(*v);
        } catch (const Error& e) {
            err.at(lineNo, e.what());
        }
        if (pass.fileTopology && !(*pass.fileTopology == *topo))
            err.at(lineNo, "a second topology (" + topo->spec() + " after " + pass.fileTopology->spec() +
                               "); a file names one topology");
        pass.fileTopology = topo;
    } else if (auto s = commentValue(t, "source")) {
        pass.sourceText = *s;
        pass.sourceLine = lineNo;
    } else if (auto p = commentValue(t, "ports")) {
        pass.portsText = *p;
        pass.portsLine = lineNo;
    } else {
        for (const char* key : {"pattern", "step_contention", "algorithm", "mode", "dimension_order",
                                "max_sends_per_step", "parts", "participants"})
            if (auto value = commentValue(t, key))
                pass.settings[key] = {*value, lineNo};
    }
}

/// The size, tag and blocks columns of one row, where the header has them.
void readExtraFields(const std::vector<std::string>& fields, const Header& header, std::size_t lineNo,
                     const CsvError& err, Row& r)
{
    auto field = [&](Column c) -> const std::string* {
        const int i = header.index[static_cast<std::size_t>(c)];
        return i >= 0 ? &fields[static_cast<std::size_t>(i)] : nullptr;
    };
    if (const std::string* f = field(ColBlocks))
        r.blocks = *f;
    if (const std::string* f = field(ColSize); f && !f->empty()) {
        char* end = nullptr;
        r.size = std::strtod(f->c_str(), &end);
        if (end != f->c_str() + f->size() || !(r.size >= 0) || !std::isfinite(r.size))
            err.at(lineNo, "size '" + *f + "' is not a number ≥ 0");
    }
    if (const std::string* f = field(ColTag); f && !f->empty()) {
        if (f->size() > 9 || !std::all_of(f->begin(), f->end(), [](unsigned char c) { return std::isdigit(c); }))
            err.at(lineNo, "tag '" + *f + "' is not a whole number 0..999999999");
        r.tag = static_cast<std::uint32_t>(std::stoul(*f));
    }
}

/// A row with settings and no transfer (the export of a schedule without transfers writes one).
bool isSettingsOnly(const std::vector<std::string>& fields, const Header& header)
{
    if (header.settings.empty())
        return false;
    for (int c = 0; c < ColCount; ++c)
        if (const int i = header.index[static_cast<std::size_t>(c)];
            i >= 0 && !trim(fields[static_cast<std::size_t>(i)]).empty())
            return false;
    return true;
}

CsvFirstPass readFirstPass(std::string_view text, const CsvError& err)
{
    CsvFirstPass pass;
    forEachLine(text, [&](std::string_view line, std::size_t lineNo) {
        const std::string_view t = trim(line);
        if (t.empty())
            return true;
        if (t.front() == '#') {
            readCommentLine(t, lineNo, err, pass);
            return true;
        }
        std::vector<std::string> fields = splitFields(line, lineNo, err);
        if (!pass.header) {
            pass.header = parseHeader(fields, lineNo, err);
            return true;
        }
        const Header& header = *pass.header;
        if (fields.size() != header.fields)
            err.at(lineNo, std::to_string(fields.size()) + " field" + (fields.size() == 1 ? "" : "s") +
                               "; the header has " + std::to_string(header.fields) +
                               " (quote a node that holds commas: \"0,0\")");
        // The export's settings, in columns of their own: read as its '# key: value' lines are.
        for (const auto& [key, i] : header.settings)
            if (!trim(fields[i]).empty())
                readCommentLine("# " + key + ": " + fields[i], lineNo, err, pass);
        if (isSettingsOnly(fields, header))
            return true;
        Row r;
        r.line = lineNo;
        r.step = StepNo{parseStep(fields[static_cast<std::size_t>(header.index[ColStep])], lineNo, err)};
        // Nodes are parsed once the topology is known; keep the texts for now.
        r.route =
            header.index[ColRoute] >= 0 ? fields[static_cast<std::size_t>(header.index[ColRoute])] : std::string();
        readExtraFields(fields, header, lineNo, err, r);
        pass.rows.push_back(std::move(r));
        return true;
    });
    if (!pass.header)
        err.at(1, std::string("no header line; a schedule CSV starts with the header step,from,to (columns ") +
                      kAllowedColumns + ")");
    return pass;
}

/// The file's topology or the one asked for (they must agree when both are given).
Topology chooseTopology(const std::optional<Topology>& fileTopology, const std::optional<Topology>& topology,
                        const std::string& what)
{
    Topology topo = Topology::mesh({1});
    if (fileTopology && topology && !(*fileTopology == *topology))
        throw Error(what + ": the file is for the " + fileTopology->displayName() + " (# topology: " +
                    fileTopology->spec() + ") but the " + topology->displayName() + " was asked for");
    if (fileTopology)
        topo = *fileTopology;
    else if (topology)
        topo = *topology;
    else
        throw Error(what + ": no topology; name it in the file (a line '# topology: mesh:4x4') or give one "
                           "(topocast-cli validate --topology mesh:4x4)");
    return topo;
}

/// Second pass over the data rows for the nodes, now that the topology is known; returns the
/// schedule-wide dimension order the routes name, if any.
std::optional<DimensionOrder> readNodes(std::string_view text, const Topology& topo, const Header& header,
                                        std::vector<Row>& rows, const CsvError& err)
{
    std::size_t rowIndex = 0;
    bool seenHeader = false;
    std::optional<DimensionOrder> order;
    std::size_t orderLine = 0;
    forEachLine(text, [&](std::string_view line, std::size_t lineNo) {
        const std::string_view t = trim(line);
        if (t.empty() || t.front() == '#')
            return true;
        if (!seenHeader) {
            seenHeader = true;
            return true;
        }
        const std::vector<std::string> fields = splitFields(line, lineNo, err);
        if (isSettingsOnly(fields, header))
            return true;
        Row& r = rows[rowIndex++];
        r.from = parseNodeField(topo, fields[static_cast<std::size_t>(header.index[ColFrom])], "from", lineNo, err);
        r.to = parseNodeField(topo, fields[static_cast<std::size_t>(header.index[ColTo])], "to", lineNo, err);
        if (auto o = orderField(lower(trim(r.route)), topo.dims())) {
            if (order && *order != *o)
                err.at(lineNo, "route '" + r.route + "' names the dimension order " + orderName(*o) + " but line " +
                                   std::to_string(orderLine) + " named " + orderName(*order) +
                                   "; one dimension order per schedule");
            order = o;
            orderLine = lineNo;
        }
        return true;
    });
    return order;
}

/// The '# source:' node, or else the sender of the earliest step.
NodeId csvSource(const Topology& topo, const CsvFirstPass& pass, const CsvError& err)
{
    NodeId source{};
    if (pass.sourceText) {
        try {
            source = parseCsvNode(topo, *pass.sourceText);
        } catch (const Error& e) {
            err.at(pass.sourceLine, std::string("# source: ") + e.what());
        }
    } else if (!pass.rows.empty()) {
        source = std::min_element(pass.rows.begin(), pass.rows.end(), [](const Row& a, const Row& b) {
                     return a.step < b.step;
                 })->from;
    }
    return source;
}

PortModel csvPorts(const CsvFirstPass& pass, const CsvError& err)
{
    PortModel ports = PortModel::OnePort;
    if (pass.portsText) {
        try {
            ports = parsePortModel(*pass.portsText);
        } catch (const Error& e) {
            err.at(pass.portsLine, std::string("# ports: ") + e.what());
        }
    }
    return ports;
}

/// One block "origin:dest:part" (dest * = every node, origin * = a partial result) of a blocks field.
Block parseBlock(const Topology& topo, std::string_view text, const Row& row, const CsvError& err)
{
    const std::string allowed = "blocks are origin:dest:part separated by spaces (dest * = every node; origin * = a "
                                "partial result of a reduction), e.g. 0:*:0";
    const auto c1 = text.find(':');
    const auto c2 = c1 == std::string_view::npos ? c1 : text.find(':', c1 + 1);
    if (c2 == std::string_view::npos)
        err.at(row.line, "block '" + std::string(text) + "' is not understood; " + allowed);
    auto number = [&](std::string_view part, std::uint64_t max) {
        if (part.empty() || part.size() > 10 ||
            !std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); }) ||
            std::stoull(std::string(part)) > max)
            err.at(row.line, "block '" + std::string(text) + "': '" + std::string(part) +
                                 "' is not a whole number 0.." + std::to_string(max) + "; " + allowed);
        return static_cast<std::uint32_t>(std::stoull(std::string(part)));
    };
    const std::string_view dest = text.substr(c1 + 1, c2 - c1 - 1);
    const std::string_view origin = text.substr(0, c1);
    Block b;
    b.origin = origin == "*" ? Block::kAll : number(origin, topo.nodeCount() - 1);
    b.dest = dest == "*" ? Block::kAll : number(dest, topo.nodeCount() - 1);
    b.part = number(text.substr(c2 + 1), 0xFFFFFFFEu);
    return b;
}

/// The payload index of a row's blocks field (0 when empty), adding each distinct list once.
std::uint32_t rowPayload(Schedule& s, const Row& row, std::map<std::string, std::uint32_t>& seen, const CsvError& err)
{
    const std::string text(trim(row.blocks));
    if (text.empty())
        return 0;
    if (auto it = seen.find(text); it != seen.end())
        return it->second;
    std::vector<Block> blocks;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        if (end > start)
            blocks.push_back(parseBlock(s.topology(), std::string_view(text).substr(start, end - start), row, err));
        start = end + 1;
    }
    std::sort(blocks.begin(), blocks.end());
    const std::uint32_t index = s.addPayload(blocks);
    seen.emplace(text, index);
    return index;
}

/// Applies the export's '# key: value' settings to the schedule (each refused with its line and
/// what is allowed when malformed).
void applySettings(const CsvFirstPass& pass, Schedule& s, const CsvError& err)
{
    const Topology& topo = s.topology();
    for (const auto& [key, entry] : pass.settings) {
        const auto& [value, line] = entry;
        try {
            if (key == "step_contention") {
                if (value != "forbidden" && value != "allowed")
                    throw Error("'" + value + "' is not a contention model; use forbidden or allowed");
                s.contentionFree = value == "forbidden";
            } else if (key == "algorithm") {
                s.algorithm = value;
            } else if (key == "mode") {
                s.mode = value;
            } else if (key == "dimension_order") {
                s.dimensionOrder = parseOrder(value, topo.dims());
            } else if (key == "max_sends_per_step" || key == "parts") {
                if (value.empty() || value.size() > 7 ||
                    !std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); }) ||
                    std::stoul(value) == 0)
                    throw Error("'" + value + "' is not a whole number 1..9999999");
                const auto n = static_cast<std::uint32_t>(std::stoul(value));
                if (key == "parts")
                    s.parts = n;
                else
                    s.maxSendsPerStep = static_cast<int>(n);
            } else if (key == "participants") {
                std::istringstream in(value);
                for (std::string node; in >> node;)
                    s.participants.push_back(parseCsvNode(topo, node));
            }
        } catch (const Error& e) {
            err.at(line, "# " + key + ": " + e.what());
        }
    }
}

Pattern csvPattern(const CsvFirstPass& pass, const CsvError& err)
{
    const auto it = pass.settings.find("pattern");
    if (it == pass.settings.end())
        return Pattern::Broadcast;
    try {
        return parsePattern(it->second.first);
    } catch (const Error& e) {
        err.at(it->second.second, std::string("# pattern: ") + e.what());
    }
    return Pattern::Broadcast; // not reached: err.at throws
}

} // namespace

Schedule scheduleFromCsv(std::string_view text, const std::string& what, const std::optional<Topology>& topology)
{
    const CsvError err(what);
    checkCsvSize(text, err);
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") // UTF-8 byte order mark
        text.remove_prefix(3);

    CsvFirstPass pass = readFirstPass(text, err);
    const Topology topo = chooseTopology(pass.fileTopology, topology, what);
    const std::optional<DimensionOrder> order = readNodes(text, topo, *pass.header, pass.rows, err);
    const NodeId source = csvSource(topo, pass, err);
    const PortModel ports = csvPorts(pass, err);

    Schedule s(topo, source, csvPattern(pass, err), ports);
    s.algorithm = "student";
    s.mode = "csv";
    applySettings(pass, s, err);
    if (order)
        s.dimensionOrder = *order;
    s.reserve(pass.rows.size());
    std::map<std::string, std::uint32_t> payloads;
    for (const Row& r : pass.rows)
        s.add(Transfer{r.from, r.to, r.step,
                       parseRouteField(topo, {r.route, r.from, r.to, r.line}, s.dimensionOrder, err),
                       rowPayload(s, r, payloads, err), r.tag, r.size});
    s.finalize();
    return s;
}

Schedule readScheduleCsv(const std::filesystem::path& path, const std::optional<Topology>& topology)
{
    return scheduleFromCsv(readWhole(path), path.string(), topology);
}

} // namespace topocast
