#include "csv_fields.h"

#include "topocast/model/topology.h"

#include <algorithm>
#include <cctype>

namespace topocast::csv {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

/// Splits one line into fields (RFC 4180 quoting, no field spans lines).
std::vector<std::string> splitFields(std::string_view line, std::size_t lineNo, const CsvError& err)
{
    std::vector<std::string> fields;
    std::size_t i = 0;
    while (true) {
        std::string field;
        // Leading blanks before a quote are tolerated ("1, \"0,0\"").
        std::size_t j = i;
        while (j < line.size() && (line[j] == ' ' || line[j] == '\t'))
            ++j;
        if (j < line.size() && line[j] == '"') {
            i = j + 1;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    closed = true;
                    ++i;
                    break;
                }
                field += line[i++];
            }
            if (!closed)
                err.at(lineNo, "field " + std::to_string(fields.size() + 1) +
                                   " opens a quote that is not closed on its line; write a quoted field as \"0,0\" "
                                   "(a quote inside it as \"\")");
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
                ++i;
            if (i < line.size() && line[i] != ',')
                err.at(lineNo, "field " + std::to_string(fields.size() + 1) + " has text after its closing quote ('" +
                                   std::string(line.substr(i, 12)) + "'); a quoted field ends at the quote");
        } else {
            const std::size_t end = std::min(line.find(',', i), line.size());
            field = std::string(line.substr(i, end - i));
            if (field.find('"') != std::string::npos)
                err.at(lineNo, "field " + std::to_string(fields.size() + 1) + " ('" + field +
                                   "') has a quote inside it; quote the whole field (\"0,0\") or none of it");
            i = end;
        }
        fields.push_back(std::string(trim(field)));
        if (i >= line.size())
            break;
        ++i;                    // the comma
        if (i == line.size()) { // a trailing comma: one more, empty field
            fields.emplace_back();
            break;
        }
    }
    return fields;
}

/// The value of a "# key: value" comment line, if `line` is one for `key`.
std::optional<std::string> commentValue(std::string_view line, std::string_view key)
{
    line = trim(line);
    if (line.empty() || line.front() != '#')
        return std::nullopt;
    line.remove_prefix(1);
    line = trim(line);
    if (lower(line.substr(0, key.size())) != key)
        return std::nullopt;
    line.remove_prefix(key.size());
    line = trim(line);
    if (line.empty() || line.front() != ':')
        return std::nullopt;
    line.remove_prefix(1);
    return std::string(trim(line));
}

/// A node as Topology::parseNode reads it, or with ';' between coordinates ("1;2", as GraphML
/// and the channel CSV write them).
NodeId parseCsvNode(const Topology& topo, std::string text)
{
    if (text.find(',') == std::string::npos)
        std::replace(text.begin(), text.end(), ';', ',');
    return topo.parseNode(text);
}

NodeId parseNodeField(const Topology& topo, const std::string& text, const char* column, std::size_t lineNo,
                      const CsvError& err)
{
    if (text.empty())
        err.at(lineNo, std::string("column '") + column + "' is empty; it needs a node of the " + topo.displayName());
    try {
        return parseCsvNode(topo, text);
    } catch (const Error& e) {
        err.at(lineNo, std::string("column '") + column + "': " + e.what());
    }
}

std::optional<DimensionOrder> orderField(std::string_view text, int dims)
{
    if (text.empty() || text.find_first_of("xyzwvuXYZWVU") == std::string_view::npos)
        return std::nullopt;
    try {
        return parseOrder(text, dims);
    } catch (const Error&) {
        return std::nullopt;
    }
}

RouteSpec parseRouteField(const Topology& topo, const RouteField& row, const DimensionOrder& order, const CsvError& err)
{
    const std::string text = lower(trim(row.route));
    const std::string allowed = "a route is empty (dimension-ordered), a dimension order such as xy, "
                                "cyclic:<dim><+|-> such as cyclic:1-, or the path's nodes separated by ';'";
    if (text.empty() || text == "order" || orderField(text, topo.dims()))
        return RouteSpec::dimensionOrder();
    auto checkCyclic = [&](RouteSpec spec) {
        try {
            (void)routeLength(topo, row.from, row.to, spec, order);
            forEachChannel(topo, row.from, row.to, spec, order, [](ChannelId) {});
        } catch (const Error& e) {
            err.at(row.line, "route '" + row.route + "': " + e.what());
        }
        return spec;
    };
    if (text.rfind("cyclic:", 0) == 0) {
        const std::string rest = text.substr(7);
        if (rest.size() >= 2 && (rest.back() == '+' || rest.back() == '-') &&
            std::all_of(rest.begin(), rest.end() - 1, [](unsigned char c) { return std::isdigit(c); }) &&
            rest.size() <= 4) {
            const int dim = std::stoi(rest.substr(0, rest.size() - 1));
            if (dim >= topo.dims())
                err.at(row.line, "route '" + row.route + "' starts in dimension " + std::to_string(dim) + "; the " +
                                     topo.displayName() + " has dimensions 0.." + std::to_string(topo.dims() - 1));
            return checkCyclic(RouteSpec::cyclic(dim, rest.back() == '-' ? -1 : +1));
        }
        err.at(row.line, "route '" + row.route + "' is not understood; " + allowed);
    }
    // A path: nodes separated by ';'.
    std::vector<NodeId> path;
    std::size_t start = 0;
    while (start <= row.route.size()) {
        const std::size_t end = std::min(row.route.find(';', start), row.route.size());
        const std::string part(trim(std::string_view(row.route).substr(start, end - start)));
        try {
            path.push_back(topo.parseNode(part));
        } catch (const Error& e) {
            err.at(row.line, "route '" + row.route + "': " + e.what() + "; " + allowed);
        }
        if (path.size() > static_cast<std::size_t>(topo.dims()) * 64 + 2)
            err.at(row.line, "route '" + row.route + "' is longer than any route of the " + topo.displayName());
        start = end + 1;
    }
    if (path.front() != row.from || path.back() != row.to)
        err.at(row.line, "route '" + row.route + "' must start at the sender " + topo.nodeName(row.from) +
                             " and end at the receiver " + topo.nodeName(row.to));
    for (std::size_t i = 1; i < path.size(); ++i)
        if (!topo.channelBetween(path[i - 1], path[i]))
            err.at(row.line, "route '" + row.route + "': " + topo.nodeName(path[i - 1]) + " and " +
                                 topo.nodeName(path[i]) + " are not neighbours; a path goes one hop at a time");
    std::vector<RouteSpec> candidates{RouteSpec::dimensionOrder()};
    for (int d = 0; d < topo.dims(); ++d)
        for (int sign : {+1, -1})
            candidates.push_back(RouteSpec::cyclic(d, sign));
    for (const RouteSpec& spec : candidates) {
        try {
            if (routeNodes(topo, row.from, row.to, spec, order) == path)
                return spec;
        } catch (const Error&) {
            // a cyclic route that would leave the mesh: not this one
        }
    }
    err.at(row.line, "route '" + row.route + "' is a path topocast cannot replay; it must be the dimension-ordered (" +
                         orderName(order) + ") route or a cyclic one (cyclic:<dim><+|->)");
}

} // namespace topocast::csv
