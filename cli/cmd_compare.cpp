// topocast-cli compare: the hypercube comparison table (spec/hypercube.md §4.4, §5.3, §6.3, §7.3):
// every spanning graph that serves one pattern, ranked by the time of the schedule topocast builds
// (counted from its transfers, §2 cost model), with the paper's closed form beside it and a flag
// where the two differ (issue #31), the lower bound and the ratio.
#include "commands.h"

#include "envelope.h"

#include "topocast/algorithms/hypercube_schedule.h"
#include "topocast/error.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

namespace topocast::cli {

namespace {

using namespace topocast::hypercube;

struct CompareCommand {
    std::string topology = "hypercube:4";
    std::string pattern = "broadcast";
    std::string ports; // empty: every port model that serves the pattern
    long long message = 1;
    long long packet = 0; // 0: = message
    double tau = 1.0;
    double tc = 1.0;
    bool json = false;
};

/// Largest n for which the schedules are built and counted; above it the closed form ranks.
constexpr int kCountLimit = 10;

/// One row: one algorithm under one port model.
struct CompareRow {
    std::string algorithm;
    Ports ports = Ports::One;
    ClosedForm formula;              ///< the paper's closed form (available = false: none printed)
    std::optional<CountedCost> counted; ///< the built schedule's figures (n ≤ kCountLimit)
    double time = 0;        ///< counted time, or the formula's when nothing was counted
    double formulaTime = 0; ///< the closed form's time (formula.available only)
    double lowerBound = 0;
    bool differs = false;   ///< counted and closed-form times differ
};

bool nearlyEqual(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

CompareRow makeRow(const std::string& a, Ports ports, Pattern pattern, const CostParams& p)
{
    CompareRow r;
    r.algorithm = a;
    r.ports = ports;
    r.formula = closedForm(a, pattern, ports, p);
    if (r.formula.available)
        r.formulaTime = r.formula.time(p.tau, p.tc);
    if (p.n <= kCountLimit)
        r.counted = countCost(generateSchedule({a, pattern, ports, p, NodeId{0}, ""}), p.B);
    if (r.counted) {
        r.time = r.counted->startups.value() * p.tau + r.counted->transfer.value() * p.tc;
        r.differs = r.formula.available && !nearlyEqual(r.time, r.formulaTime);
    } else {
        r.time = r.formulaTime;
    }
    r.lowerBound = lowerBound(pattern, ports, p).time(p.tau, p.tc);
    return r;
}

/// Every (algorithm, port model) serving `pattern`, fastest first (ties keep registry order).
/// Rows with neither a closed form nor a count (n > kCountLimit) are returned in `uncounted`.
std::vector<CompareRow> buildRows(const std::vector<Ports>& models, Pattern pattern, const CostParams& p,
                                  std::vector<std::string>& uncounted)
{
    std::vector<CompareRow> rows;
    for (Ports ports : models)
        for (const std::string& a : algorithmNames()) {
            const auto served = servedPorts(a, pattern);
            if (std::find(served.begin(), served.end(), ports) == served.end())
                continue;
            CompareRow r = makeRow(a, ports, pattern, p);
            if (!r.formula.available && !r.counted) {
                uncounted.push_back(a + " " + portsName(ports));
                continue;
            }
            rows.push_back(std::move(r));
        }
    std::stable_sort(rows.begin(), rows.end(), [](const CompareRow& x, const CompareRow& y) { return x.time < y.time; });
    return rows;
}

std::string fmtNum(double v, int precision = 6)
{
    std::ostringstream s;
    s << std::setprecision(precision) << v;
    return s.str();
}

nlohmann::ordered_json rowJson(const CompareRow& r, std::size_t rank)
{
    const double ratio = r.lowerBound > 0 ? r.time / r.lowerBound : 1.0;
    nlohmann::ordered_json row{{"rank", rank},
                               {"algorithm", r.algorithm},
                               {"graph", graphName(graphFor(r.algorithm, r.ports))},
                               {"ports", portsName(r.ports)},
                               {"time_from", r.counted ? "counted schedule" : "closed form"}};
    row["startups"] = r.counted ? r.counted->startups.value() : r.formula.startups.value();
    row["transfer"] = r.counted ? r.counted->transfer.value() : r.formula.transfer.value();
    row["time"] = r.time;
    if (r.formula.available) {
        row["formula_startups"] = r.formula.startups.value();
        row["formula_transfer"] = r.formula.transfer.value();
        row["formula_time"] = r.formulaTime;
        row["formula"] = r.formula.source;
        row["packet_opt"] = r.formula.packetOpt;
    } else {
        row["formula_time"] = nullptr;
        row["formula"] = "";
    }
    row["formula_differs"] = r.differs;
    row["lower_bound"] = r.lowerBound;
    row["ratio"] = ratio;
    return row;
}

void rowText(std::ostream& text, const CompareRow& r, std::size_t rank)
{
    const double ratio = r.lowerBound > 0 ? r.time / r.lowerBound : 1.0;
    const Rational& su = r.counted ? r.counted->startups : r.formula.startups;
    const Rational& tr = r.counted ? r.counted->transfer : r.formula.transfer;
    text << std::right << std::setw(4) << rank << "  " << std::left << std::setw(7) << r.algorithm << std::setw(11)
         << portsName(r.ports) << std::right << std::setw(12) << su.str() << std::setw(14) << tr.str() << std::setw(14)
         << fmtNum(r.time) << (r.counted ? "" : "F") << std::setw(r.counted ? 14 : 13)
         << (r.formula.available ? fmtNum(r.formulaTime) : std::string("-")) << std::setw(3) << (r.differs ? "≠" : "")
         << std::setw(14) << fmtNum(r.lowerBound) << std::setw(8) << fmtNum(ratio, 3) << std::setw(10)
         << (r.formula.available ? fmtNum(r.formula.packetOpt, 4) : std::string("")) << "  "
         << (r.formula.available ? r.formula.source : std::string("none in the paper")) << "\n";
}

/// §5.1.5: the SBnT n-port streaming bound, a formula with no schedule topocast builds; shown
/// under the table, not ranked with the schedules.
std::optional<nlohmann::ordered_json> streamingBound(Pattern pattern, const std::vector<Ports>& models,
                                                     const CostParams& p)
{
    if (pattern != Pattern::Scatter || std::find(models.begin(), models.end(), Ports::N) == models.end())
        return std::nullopt;
    const ClosedForm st = closedForm("sbntc", pattern, Ports::N, p, "streaming");
    return nlohmann::ordered_json{{"algorithm", "sbntc"},
                                  {"variant", "streaming"},
                                  {"ports", "n"},
                                  {"formula_startups", st.startups.value()},
                                  {"formula_transfer", st.transfer.value()},
                                  {"formula_time", st.time(p.tau, p.tc)},
                                  {"formula", st.source},
                                  {"reason", "a bound without a schedule topocast builds; not ranked"}};
}

int runCompare(const CompareCommand& o, Io& io)
{
    const Topology topo = Topology::parse(o.topology);
    if (!topo.isHypercube())
        throw Error("compare needs a hypercube; got " + topo.displayName());
    const Pattern pattern = parsePatternName(o.pattern);
    CostParams p{topo.dims(), o.message, o.packet ? o.packet : o.message, o.tau, o.tc};
    checkCostParams(p, pattern);
    std::vector<Ports> models = {Ports::One, Ports::SendRecv, Ports::Half, Ports::N};
    if (!o.ports.empty())
        models = {parsePorts(o.ports)};
    std::vector<std::string> uncounted;
    const std::vector<CompareRow> rows = buildRows(models, pattern, p, uncounted);
    if (rows.empty())
        throw Error("no hypercube graph serves " + patternName(pattern) + " with --ports " + o.ports +
                    "; run without --ports to see every port model that does");
    const auto streaming = streamingBound(pattern, models, p);
    if (o.json) {
        nlohmann::ordered_json doc = envelope("topocast-compare", topo);
        doc["pattern"] = patternName(pattern);
        doc["parameters"] = {{"message", p.M}, {"packet", p.B}, {"tau", p.tau}, {"tc", p.tc}};
        doc["message"] = p.M;
        doc["packet"] = p.B;
        doc["tau"] = p.tau;
        doc["tc"] = p.tc;
        doc["time_unit"] = "model units (startups·tau + transfer·tc)";
        doc["ranked_by"] = "time of the schedule topocast builds, counted from its transfers";
        doc["winner"] = rows.front().algorithm;
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < rows.size(); ++i)
            list.push_back(rowJson(rows[i], i + 1));
        doc["rows"] = list;
        if (streaming)
            doc["bounds_without_schedule"] = nlohmann::ordered_json::array({*streaming});
        if (!uncounted.empty())
            doc["left_out"] = {{"rows", uncounted},
                               {"reason", "no closed form, and schedules are counted only for n ≤ " +
                                              std::to_string(kCountLimit)}};
        io.out << doc.dump(2) << "\n";
        return 0;
    }
    std::ostringstream text;
    text << topo.displayName() << ", " << patternName(pattern) << ", M = " << p.M << ", B = " << p.B
         << ", tau = " << p.tau << ", tc = " << p.tc << "\n"
         << "ranked by the time of the schedule topocast builds (counted); formula = the paper's closed form, "
            "≠ where it differs, F = no schedule counted (n > "
         << kCountLimit << "), the formula ranks\n";
    text << std::right << std::setw(4) << "rank" << "  " << std::left << std::setw(7) << "graph" << std::setw(11)
         << "ports" << std::right << std::setw(12) << "start-ups" << std::setw(14) << "transfer" << std::setw(14)
         << "time" << std::setw(14) << "formula" << std::setw(3) << "" << std::setw(14) << "lower bound"
         << std::setw(8) << "ratio" << std::setw(10) << "B_opt" << "  source\n";
    for (std::size_t i = 0; i < rows.size(); ++i)
        rowText(text, rows[i], i + 1);
    if (streaming)
        text << "not ranked: sbntc --variant streaming (n-port), " << (*streaming)["formula_time"].get<double>()
             << " by " << (*streaming)["formula"].get<std::string>() << ": a bound without a schedule topocast builds\n";
    for (const std::string& u : uncounted)
        text << "left out: " << u << " (no closed form; schedules are counted only for n ≤ " << kCountLimit << ")\n";
    io.out << text.str();
    return 0;
}

const CommandRegistrar reg{Command{
    "compare",
    "hypercube: every spanning graph for one pattern, ranked by the counted time of its schedule, with the "
    "paper's closed form and the lower bound",
    [](CLI::App& sub) {
        auto o = std::make_shared<CompareCommand>();
        sub.add_option("--topology,-t", o->topology, "hypercube:N (N = 1..20)");
        sub.add_option("--pattern", o->pattern, "broadcast | scatter | allgather | alltoall");
        sub.add_option("--ports", o->ports,
                       portsHelp() + " (default: every model that serves the pattern)");
        sub.add_option("--message", o->message, "M, elements per message");
        sub.add_option("--packet", o->packet, "B, packet size in elements (default M)");
        sub.add_option("--tau", o->tau, "start-up time per packet (model time units)");
        sub.add_option("--tc", o->tc, "transfer time per element (model time units)");
        sub.add_flag("--json", o->json, "print the table as JSON");
        return [o](Io& io) { return runCompare(*o, io); };
    },
}};

} // namespace

} // namespace topocast::cli
