#include "topocast/io/sweep_svg.h"

#include "topocast/io/xml_text.h"

#include "topocast/model/units.h"
#include "topocast/text/numbers.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace topocast {

namespace {

constexpr double kWidth = 1200, kHeight = 760;
constexpr double kLeft = 130, kRight = 300, kTop = 120, kBottom = 96;

/// Okabe & Ito's colours, which colour-blind readers tell apart; then darker ones.
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                    "#56B4E9", "#000000", "#8B4513", "#6A5ACD", "#2F4F4F"};
constexpr const char* kDashes[] = {"", "10 4", "2 4", "10 4 2 4", "", "10 4", "2 4", "10 4 2 4", "", "10 4"};

std::string escape(const std::string& s)
{
    return xmlEscaped(s);
}

/// A duration on an axis, in the unit that keeps it short: "10 us", "1 ms".
std::string timeLabel(double ns)
{
    std::string s = formatSeconds(ns * 1e-9);
    return s;
}

void polyline(std::ostream& out, const std::vector<std::pair<double, double>>& points, const std::string& colour,
              const std::string& dash, double width)
{
    out << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"" << width << "\"";
    if (!dash.empty())
        out << " stroke-dasharray=\"" << dash << "\"";
    out << " points=\"";
    for (const auto& [x, y] : points)
        out << fmt::format("{:.1f},{:.1f} ", x, y);
    out << "\"/>\n";
}

/// The legend right of the plot from (lx, top): each algorithm's line, the bound, what the dots
/// mean, then where the winner changes while there is room above `bottom`.
void legend(std::ostream& out, const SweepTable& table, double lx, double top, double bottom)
{
    double y = top;
    out << fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"19\" font-weight=\"bold\">algorithm</text>\n", lx,
                       y + 8);
    y += 36;
    for (std::size_t a = 0; a < table.algorithms.size(); ++a) {
        const std::string colour = sweepLineColour(a);
        polyline(out, {{lx, y}, {lx + 44, y}}, colour, sweepLineDash(a), 3.5);
        out << fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"18\">{}</text>\n", lx + 54, y + 6,
                           escape(table.algorithms[a]));
        y += 32;
    }
    polyline(out, {{lx, y}, {lx + 44, y}}, "#555555", "3 6", 2.5);
    out << fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"18\">the bound</text>\n", lx + 54, y + 6);
    y += 32;
    out << fmt::format("<circle cx=\"{}\" cy=\"{:.1f}\" r=\"6\" fill=\"#000\"/>\n", lx + 22, y);
    out << fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"18\">fastest at that size</text>\n", lx + 54, y + 6);
    y += 44;
    for (const Crossover& c : table.crossovers) {
        if (y > bottom)
            break;
        out << fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"16\">{}</text>\n", lx, y,
                           escape(c.to + " fastest from " + formatSize(c.size)));
        y += 24;
    }
}

} // namespace

const char* sweepLineColour(std::size_t i)
{
    return kColours[i % std::size(kColours)];
}
const char* sweepLineDash(std::size_t i)
{
    return kDashes[i % std::size(kDashes)];
}

void writeSweepSvg(std::ostream& out, const SweepTable& table, SweepMetric metric)
{
    const bool busbw = metric == SweepMetric::BusBandwidth;
    const std::uint64_t nodes = table.request.topology.nodeCount();
    const double factor = busBandwidthFactor(table.request.pattern, nodes);
    const auto value = [&](std::uint64_t size, double ns) {
        return busbw ? static_cast<double>(size) / ns * factor : ns; // B/ns = GB/s
    };
    double lo = 1e300, hi = 0;
    for (const SweepRow& row : table.rows) {
        for (double t : row.times) {
            lo = std::min(lo, value(row.size, t));
            hi = std::max(hi, value(row.size, t));
        }
        if (row.bound.total > 0) {
            lo = std::min(lo, value(row.size, row.bound.total));
            hi = std::max(hi, value(row.size, row.bound.total));
        }
    }
    if (!(hi > 0))
        hi = lo = 1;
    const double yMin = std::pow(10, std::floor(std::log10(lo))), yMax = std::pow(10, std::ceil(std::log10(hi)));
    const double xMin = std::log2(static_cast<double>(table.rows.front().size));
    const double xMax = std::max(xMin + 1, std::log2(static_cast<double>(table.rows.back().size)));
    const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
    const auto px = [&](std::uint64_t size) {
        return kLeft + (std::log2(static_cast<double>(size)) - xMin) / (xMax - xMin) * plotW;
    };
    const auto py = [&](double v) {
        return kTop + plotH -
               (std::log10(v) - std::log10(yMin)) / std::max(1e-9, std::log10(yMax) - std::log10(yMin)) * plotH;
    };

    out << fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                       "font-family=\"DejaVu Sans, sans-serif\">\n",
                       kWidth, kHeight, kWidth, kHeight);
    out << fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", kWidth, kHeight);
    const NetworkModel& net = table.request.network;
    const std::string title = toString(table.request.pattern) + " on the " + table.request.topology.displayName() +
                              ": " + (busbw ? "bus bandwidth" : "time") + " against message size";
    out << fmt::format("<text x=\"{}\" y=\"40\" font-size=\"26\" font-weight=\"bold\">{}</text>\n", kLeft,
                       escape(title));
    const bool simulated = table.request.model == "simgrid";
    const std::string model =
        std::string(simulated ? "simulated (SimGrid flow model)" : "LogGP") +
        (table.request.steps ? " with a barrier between steps" : ", each send as soon as its data and ports allow") +
        (simulated ? "; contention charged" : "; contention between messages not charged");
    const std::string network = "network " + net.preset + ": " + formatBandwidth(net.perByte) + " links, L " +
                                formatSeconds(net.latency) + ", " + formatSeconds(net.hopLatency) + " per hop, o " +
                                formatSeconds(net.overhead) + ", g " + formatSeconds(net.gap) + ", " + portsText(net);
    out << fmt::format("<text x=\"{}\" y=\"68\" font-size=\"17\" fill=\"#333\">{}</text>\n", kLeft, escape(model));
    out << fmt::format("<text x=\"{}\" y=\"92\" font-size=\"17\" fill=\"#333\">{}</text>\n", kLeft, escape(network));

    // Grid and axes: a line per power of four of the size, per decade of the value.
    out << "<g stroke=\"#d0d0d0\" stroke-width=\"1\">\n";
    for (double e = std::ceil(xMin); e <= xMax + 1e-9; e += 1) {
        const double x = kLeft + (e - xMin) / (xMax - xMin) * plotW;
        out << fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>\n", x, kTop, kTop + plotH);
    }
    for (double v = yMin; v <= yMax * 1.0001; v *= 10)
        out << fmt::format("<line x1=\"{1}\" y1=\"{0:.1f}\" x2=\"{2}\" y2=\"{0:.1f}\"/>\n", py(v), kLeft,
                           kLeft + plotW);
    out << "</g>\n";
    out << fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>\n",
        kLeft, kTop, plotW, plotH);
    const int step = (xMax - xMin) > 16 ? 4 : (xMax - xMin) > 8 ? 2 : 1;
    for (double e = std::ceil(xMin); e <= xMax + 1e-9; e += step) {
        const double x = kLeft + (e - xMin) / (xMax - xMin) * plotW;
        out << fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"18\" text-anchor=\"middle\">{}</text>\n", x,
                           kTop + plotH + 28, escape(formatSize(std::uint64_t{1} << static_cast<int>(e))));
    }
    for (double v = yMin; v <= yMax * 1.0001; v *= 10)
        out << fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"18\" text-anchor=\"end\">{}</text>\n", kLeft - 10,
                           py(v) + 6, escape(busbw ? formatSignificant(v, 3) + " GB/s" : timeLabel(v)));
    out << fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"19\" text-anchor=\"middle\">message size M (bytes, as "
                       "nccl-tests counts it; log scale)</text>\n",
                       kLeft + plotW / 2, kHeight - 30);
    out << fmt::format("<text x=\"28\" y=\"{0:.1f}\" font-size=\"19\" text-anchor=\"middle\" transform=\"rotate(-90 28 "
                       "{0:.1f})\">{1}</text>\n",
                       kTop + plotH / 2, busbw ? "bus bandwidth, GB/s (log scale)" : "time (log scale)");

    // The bound, dashed, then one line per algorithm; a dot on each size's winner.
    std::vector<std::pair<double, double>> bound;
    for (const SweepRow& row : table.rows)
        if (row.bound.total > 0)
            bound.emplace_back(px(row.size), py(value(row.size, row.bound.total)));
    polyline(out, bound, "#555555", "3 6", 2.5);
    for (std::size_t a = 0; a < table.algorithms.size(); ++a) {
        std::vector<std::pair<double, double>> points;
        for (const SweepRow& row : table.rows)
            points.emplace_back(px(row.size), py(value(row.size, row.times[a])));
        const std::string colour = sweepLineColour(a);
        polyline(out, points, colour, sweepLineDash(a), 3.5);
        for (const SweepRow& row : table.rows)
            if (row.winner == a)
                out << fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"{}\"/>\n", px(row.size),
                                   py(value(row.size, row.times[a])), colour);
    }

    legend(out, table, kLeft + plotW + 24, kTop + 10, kTop + plotH);
    out << "</svg>\n";
}

} // namespace topocast
