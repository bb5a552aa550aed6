#pragma once
// The CSV tokenizer under the schedule CSV reader (schedule_csv.cpp).
// A small RFC 4180 reader rather than a library: Debian 12 packages no C++ CSV parser (libcsv is
// C and reports no line numbers), and every error here must name its line and what is allowed.

#include "topocast/model/error.h"
#include "topocast/model/ids.h"
#include "topocast/model/routing.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topocast {
class Topology;
}

namespace topocast::csv {

/// `s` without leading blanks and tabs, or trailing blanks, tabs and CRs.
std::string_view trim(std::string_view s);

/// `s` in lower case (ASCII).
std::string lower(std::string_view s);

/// Throws topocast::Error "<file>:<line>: <message>".
class CsvError {
public:
    CsvError(std::string what) : m_what(std::move(what)) {}
    [[noreturn]] void at(std::size_t line, const std::string& message) const
    {
        throw Error(m_what + ":" + std::to_string(line) + ": " + message);
    }

private:
    std::string m_what;
};

/// Splits one line into fields (RFC 4180 quoting, no field spans lines).
std::vector<std::string> splitFields(std::string_view line, std::size_t lineNo, const CsvError& err);

/// A node as Topology::parseNode reads it, or with ';' between coordinates ("1;2", as GraphML
/// and the channel CSV write them). Throws Error as parseNode does.
NodeId parseCsvNode(const Topology& topo, std::string text);
/// A node column's field: refused with its line when empty or not a node of `topo`.
NodeId parseNodeField(const Topology& topo, const std::string& text, const char* column, std::size_t lineNo,
                      const CsvError& err);

/// The value of a "# key: value" comment line, if `line` is one for `key` (key in lower case).
std::optional<std::string> commentValue(std::string_view line, std::string_view key);

/// Calls f(line, lineNo) for each line of `text` (1-based, a trailing CR removed) until f returns false.
template <class F> void forEachLine(std::string_view text, F&& f)
{
    std::size_t lineNo = 0, pos = 0;
    while (pos < text.size()) {
        ++lineNo;
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!f(line, lineNo))
            return;
        pos = end + 1;
    }
}

/// The schedule-wide dimension order a route field names ("xy", "yx", "0,1"), if it is one.
std::optional<DimensionOrder> orderField(std::string_view text, int dims);

/// A row's route column and the transfer it routes.
struct RouteField {
    const std::string& route;
    NodeId from, to;
    std::size_t line = 0;
};
/// The route of one row, checked against the topology (`order` is the schedule's order): empty or
/// a dimension order (dimension-ordered), cyclic:<dim><+|->, or the path's nodes separated by ';'
/// (the dimension-ordered or a cyclic route). Refused with its line otherwise.
RouteSpec parseRouteField(const Topology& topo, const RouteField& row, const DimensionOrder& order,
                          const CsvError& err);

} // namespace topocast::csv
