// topocast-cli compare: the hypercube comparison table (Johnsson & Ho, Tables 4–5, 7–9, 11–14, 15–18):
// every spanning graph that serves one pattern, ranked by the time of the schedule topocast builds
// (counted from its transfers, in the cost model of Johnsson & Ho §1–§2), with the paper's closed form
// beside it and a flag where the two differ, the lower bound and the ratio. One table per port model:
// schedules for different port models run on different machines and are not ranked against each other.
#include "commands.h"

#include "compare_command.h"
#include "envelope.h"

#include "topocast/algorithms/collectives.h"
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/hypercube_schedule.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/simulate.h"
#include "topocast/analysis/time_bound.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/io/network_json.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"
#include "topocast/text/numbers.h"

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

/// Largest n for which the schedules are built and counted; above it the closed form ranks.
constexpr int kCountLimit = 10;

/// One row: one algorithm under one port model.
struct CompareRow {
    std::string algorithm;
    Ports ports = Ports::One;
    ClosedForm formula;                 ///< the paper's closed form (available = false: none printed)
    std::optional<CountedCost> counted; ///< the built schedule's figures (n ≤ kCountLimit)
    double time = 0;                    ///< counted time, or the formula's when nothing was counted
    double formulaTime = 0;             ///< the closed form's time (formula.available only)
    double lowerBound = 0;
    bool differs = false;        ///< counted and closed-form times differ
    std::optional<double> loggp; ///< ns: the schedule on the network model (counted rows only)
    std::size_t countedRank = 0; ///< its rank by `time` within its port model
};

} // namespace

bool nearlyEqual(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

namespace {

/// The row's schedule on the network model, its ports the row's (n-port: all-port; half-duplex:
/// half-duplex; one-port-exchange and send-recv: one-port, a send and a receive at once), its
/// collective the size `net` says (runCompare sets it).
double loggpTime(const std::string& a, Ports ports, Pattern pattern, const CostParams& p, NetworkModel net)
{
    const Schedule s = buildSchedule(a, Topology::hypercube(p.n), NodeId{0},
                                     {{"pattern", toString(pattern)},
                                      {"ports", portsName(ports)},
                                      {"message", std::to_string(p.M)},
                                      {"packet", std::to_string(p.B)}});
    net.ports = ports == Ports::N ? NetworkPorts::All : ports == Ports::Half ? NetworkPorts::Half : NetworkPorts::One;
    return timeSchedule(s, net).total;
}

CompareRow makeRow(const std::string& a, Ports ports, Pattern pattern, const CostParams& p)
{
    CompareRow r;
    r.algorithm = a;
    r.ports = ports;
    r.formula = closedForm(a, pattern, ports, p);
    if (r.formula.available)
        r.formulaTime = r.formula.time(p.tau, p.tc);
    if (p.n <= kCountLimit) {
        try {
            r.counted = countCost(generateSchedule({a, pattern, ports, p, NodeId{0}, ""}), p.B);
        } catch (const Error&) {
            // Too large to enumerate (nRBRG's all-to-all from n = 8): the closed form ranks it, marked F.
        }
    }
    if (r.counted) {
        r.time = r.counted->startups.value() * p.tau + r.counted->transfer.value() * p.tc;
        r.differs = r.formula.available && !nearlyEqual(r.time, r.formulaTime);
    } else {
        r.time = r.formulaTime;
    }
    r.lowerBound = lowerBound(pattern, ports, p).time(p.tau, p.tc);
    return r;
}

/// Every (algorithm, port model) serving `pattern`, grouped by port model (in `models` order) and
/// fastest first within each: schedules for one port model are compared only with each other
/// (ties keep registry order).
/// Rows with neither a closed form nor a count (n > kCountLimit) are returned in `uncounted`.
std::vector<CompareRow> buildRows(const std::vector<Ports>& models, Pattern pattern, const CostParams& p,
                                  std::vector<std::string>& uncounted, const NetworkModel& net)
{
    std::vector<CompareRow> rows;
    for (Ports ports : models)
        for (const std::string& a : algorithmNames()) {
            const auto served = servedPorts(a, pattern);
            if (std::find(served.begin(), served.end(), ports) == served.end())
                continue;
            CompareRow r = makeRow(a, ports, pattern, p);
            if (r.counted)
                r.loggp = loggpTime(a, ports, pattern, p, net);
            if (!r.formula.available && !r.counted) {
                uncounted.push_back(a + " " + portsName(ports));
                continue;
            }
            rows.push_back(std::move(r));
        }
    auto group = [&](Ports ports) { return std::find(models.begin(), models.end(), ports) - models.begin(); };
    // Each row's rank by the paper's model (counted, else the closed form), kept beside.
    for (CompareRow& r : rows) {
        r.countedRank = 1;
        for (const CompareRow& x : rows)
            if (x.ports == r.ports && x.time < r.time && !nearlyEqual(x.time, r.time))
                ++r.countedRank;
    }
    // Ranked by the time on the network model; rows with no schedule to time (the closed form
    // alone, n > kCountLimit) after them, by the paper's model.
    std::stable_sort(rows.begin(), rows.end(), [&](const CompareRow& x, const CompareRow& y) {
        if (group(x.ports) != group(y.ports))
            return group(x.ports) < group(y.ports);
        if (x.loggp.has_value() != y.loggp.has_value())
            return x.loggp.has_value();
        return x.loggp ? *x.loggp < *y.loggp : x.time < y.time;
    });
    return rows;
}

} // namespace

nlohmann::ordered_json nsValue(std::optional<double> ns)
{
    return ns ? nlohmann::ordered_json{{"value", std::round(*ns * 1e3) / 1e3}, {"unit", "ns"}}
              : nlohmann::ordered_json(nullptr);
}

namespace {

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
                               {"counted_rank", r.countedRank},
                               {"algorithm", r.algorithm},
                               {"graph", graphName(graphFor(r.algorithm, r.ports))},
                               {"ports", portsName(r.ports)},
                               {"port_model", toString(toPortModel(r.ports))},
                               {"time_from", r.counted ? "counted schedule" : "closed form"}};
    row["startups"] = r.counted ? r.counted->startups.value() : r.formula.startups.value();
    row["transfer"] = quantity(r.counted ? r.counted->transfer.value() : r.formula.transfer.value(), kElements);
    row["time"] = quantity(r.time, kModelUnits);
    if (r.formula.available) {
        row["formula_startups"] = r.formula.startups.value();
        row["formula_transfer"] = quantity(r.formula.transfer.value(), kElements);
        row["formula_time"] = quantity(r.formulaTime, kModelUnits);
        row["formula"] = r.formula.source;
        row["packet_opt"] = quantity(r.formula.packetOpt, kElements);
    } else {
        row["formula_time"] = nullptr;
        row["formula"] = "";
    }
    row["formula_differs"] = r.differs;
    row["loggp_time"] = nsValue(r.loggp);
    row["lower_bound"] = quantity(r.lowerBound, kModelUnits);
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
         << std::setw(14) << fmtNum(r.lowerBound) << std::setw(8) << formatRatio(ratio) << std::setw(10)
         << (r.formula.available ? fmtNum(r.formula.packetOpt, 4) : std::string("")) << "  "
         << (r.formula.available ? r.formula.source : std::string("none in the paper"))
         << (r.loggp ? "  [LogGP " + formatSeconds(*r.loggp * 1e-9) + "]" : std::string())
         << (r.countedRank != rank ? "  counted rank " + std::to_string(r.countedRank) : std::string()) << "\n";
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
                                  {"formula_transfer", quantity(st.transfer.value(), kElements)},
                                  {"formula_time", quantity(st.time(p.tau, p.tc), kModelUnits)},
                                  {"formula", st.source},
                                  {"reason", "a bound without a schedule topocast builds; not ranked"}};
}

/// Each row's rank within its port model (1 = least time on the network model; equal times share
/// a rank), rows as buildRows orders them.
std::vector<std::size_t> ranks(const std::vector<CompareRow>& rows)
{
    std::vector<std::size_t> out(rows.size(), 1);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        if (rows[i].ports != rows[i - 1].ports)
            continue;
        const bool tie = rows[i].loggp && rows[i - 1].loggp && nearlyEqual(*rows[i].loggp, *rows[i - 1].loggp);
        std::size_t place = 1;
        for (std::size_t j = i; j > 0 && rows[j - 1].ports == rows[i].ports; --j)
            ++place;
        out[i] = tie ? out[i - 1] : place;
    }
    return out;
}

nlohmann::ordered_json compareJson(const Topology& topo, Pattern pattern, const CostParams& p,
                                   const std::vector<CompareRow>& rows, const std::vector<std::string>& uncounted,
                                   const std::optional<nlohmann::ordered_json>& streaming, const NetworkModel& net)
{
    nlohmann::ordered_json doc = envelope("topocast-compare", topo);
    doc["pattern"] = toString(pattern);
    doc["parameters"] = {{"message", quantity(p.M, kElements)},
                         {"packet", quantity(p.B, kElements)},
                         {"tau", quantity(p.tau, kModelUnits)},
                         {"tc", quantity(p.tc, kModelUnitsPerElement)}};
    doc["time_unit"] = "model units (startups·tau + transfer·tc)";
    doc["network"] = networkJson(net);
    doc["size"] = {{"value", net.message}, {"unit", "B"}};
    doc["ranked_by"] = "loggp: the schedule's time on the network model (time engine: hops, overlap and ports charged, "
                       "contention not; n-port rows all-port, half rows half-duplex, the others one-port), within each "
                       "port model; counted_rank: its rank by the counted time (start-ups·tau + transfer·tc)";
    const std::vector<std::size_t> rank = ranks(rows);
    nlohmann::ordered_json winners = nlohmann::ordered_json::array();
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rank[i] == 1)
            winners.push_back({{"ports", portsName(rows[i].ports)},
                               {"port_model", toString(toPortModel(rows[i].ports))},
                               {"algorithm", rows[i].algorithm},
                               {"time", quantity(rows[i].time, kModelUnits)},
                               {"loggp_time", nsValue(rows[i].loggp)}});
        list.push_back(rowJson(rows[i], rank[i]));
    }
    doc["winners"] = winners;
    doc["rows"] = list;
    if (streaming)
        doc["bounds_without_schedule"] = nlohmann::ordered_json::array({*streaming});
    if (!uncounted.empty())
        doc["left_out"] = {
            {"rows", uncounted},
            {"reason", "no closed form, and schedules are counted only for n ≤ " + std::to_string(kCountLimit)}};
    return doc;
}

void compareText(const Topology& topo, Pattern pattern, const CostParams& p, const std::vector<CompareRow>& rows,
                 const std::vector<std::string>& uncounted, const std::optional<nlohmann::ordered_json>& streaming,
                 const NetworkModel& net, std::ostream& out)
{
    std::ostringstream text;
    text << topo.displayName() << ", " << toString(pattern) << ", M = " << p.M << ", B = " << p.B << ", tau = " << p.tau
         << ", tc = " << p.tc << " (times in model units: start-ups·tau + transfer·tc)\n"
         << "one table per port model, ranked by [LogGP …], the schedule's time on the network model (time engine: "
            "hops, overlap and ports charged, contention not; n-port rows all-port, half rows half-duplex, the others "
            "one-port; M elements of 8 B unless --size), network "
         << describe(net, false) << "\n"
         << "time = the paper's model counted from the schedule topocast builds (counted rank k where it ranks "
            "otherwise); formula = the paper's closed form, ≠ where it differs, F = no schedule counted (n > "
         << kCountLimit
         << "), ranked last by the formula; source = where Johnsson & Ho print the closed form; "
            "docs/glossary.md\n";
    const std::vector<std::size_t> rank = ranks(rows);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == 0 || rows[i].ports != rows[i - 1].ports) {
            const auto counted = std::find_if(rows.begin(), rows.end(), [&](const CompareRow& r) {
                return r.ports == rows[i].ports && r.countedRank == 1;
            });
            text << "\n--ports " << portsName(rows[i].ports) << " (" << toString(toPortModel(rows[i].ports)) << "): ";
            if (rows[i].loggp)
                text << "least LogGP time " << formatSeconds(*rows[i].loggp * 1e-9) << " by " << rows[i].algorithm
                     << "; ";
            text << "least counted time " << fmtNum(counted->time) << " by " << counted->algorithm << "\n";
            text << std::right << std::setw(4) << "rank"
                 << "  " << std::left << std::setw(7) << "graph" << std::setw(11) << "ports" << std::right
                 << std::setw(12) << "start-ups" << std::setw(14) << "transfer" << std::setw(14) << "time"
                 << std::setw(14) << "formula" << std::setw(3) << "" << std::setw(14) << "lower bound" << std::setw(8)
                 << "ratio" << std::setw(10) << "B_opt"
                 << "  source\n";
        }
        rowText(text, rows[i], rank[i]);
    }
    if (streaming)
        text << "not ranked: sbntc --variant streaming (n-port), "
             << (*streaming)["formula_time"]["value"].get<double>() << " by "
             << (*streaming)["formula"].get<std::string>() << ": a bound without a schedule topocast builds\n";
    for (const std::string& u : uncounted)
        text << "left out: " << u << " (no closed form; schedules are counted only for n ≤ " << kCountLimit << ")\n";
    out << text.str();
}

int runCompare(const CompareCommand& o, Io& io)
{
    const Topology topo = Topology::parse(o.topology);
    if (const Pattern general = parsePattern(o.pattern);
        combines(general) || general == Pattern::Gather || (general == Pattern::Allgather && !topo.isHypercube()))
        return runCollectiveCompare(o, topo, general, io);
    if (!topo.isHypercube())
        throw Error("compare needs a hypercube; got " + topo.displayName());
    const Pattern pattern = parsePatternName(o.pattern);
    CostParams p{topo.dims(), o.message, o.packet ? o.packet : o.message, o.tau, o.tc};
    checkCostParams(p, pattern);
    std::vector<Ports> models = {Ports::One, Ports::SendRecv, Ports::Half, Ports::N};
    if (!o.ports.empty())
        models = {parsePorts(o.ports)};
    std::vector<std::string> uncounted;
    // Every row is timed, and the document says so, on one network: a collective of M elements of
    // 8 bytes unless --size says otherwise.
    NetworkModel net = o.network.resolve();
    if (!o.network.messageGiven())
        net.message = static_cast<std::uint64_t>(p.M) * 8;
    const std::vector<CompareRow> rows = buildRows(models, pattern, p, uncounted, net);
    if (rows.empty()) {
        std::string served;
        for (Ports ports : {Ports::One, Ports::SendRecv, Ports::Half, Ports::N})
            for (const std::string& a : algorithmNames())
                if (const auto s = servedPorts(a, pattern); std::find(s.begin(), s.end(), ports) != s.end()) {
                    served += (served.empty() ? "" : ", ") + portsName(ports);
                    break;
                }
        throw Error("no hypercube graph serves " + toString(pattern) + " with --ports " + o.ports + "; " +
                    toString(pattern) + " is served with --ports " + served);
    }
    const auto streaming = streamingBound(pattern, models, p);
    if (o.json)
        io.out << compareJson(topo, pattern, p, rows, uncounted, streaming, net).dump(2) << "\n";
    else
        compareText(topo, pattern, p, rows, uncounted, streaming, net, io.out);
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "compare",
    .help = "hypercube: every spanning graph for one pattern, ranked by its schedule's time on the network model, with "
            "the paper's counted time, its closed form and the lower bound; the reductions and all-gathers of any "
            "network ranked the same way, the α–β model beside",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<CompareCommand>();
            sub.add_option(
                "--topology,-t", o->topology,
                "hypercube:N (N = 1..20); any network for allgather, gather, reduce, reduce-scatter, allreduce");
            sub.add_option(
                "--pattern", o->pattern,
                "broadcast | scatter | allgather | alltoall (the hypercube graphs, Johnsson-Ho model) | gather | "
                "reduce | reduce-scatter | allreduce (ring, bucket, rabenseifner, binomial: α–β model with α = "
                "--tau, β = --tc)");
            sub.add_option("--ports", o->ports, portsHelp() + " (default: every model that serves the pattern)");
            sub.add_option("--message", o->message, "M, elements per message");
            sub.add_option("--packet", o->packet, "B, packet size in elements (default M)");
            sub.add_option("--tau", o->tau, "start-up time per packet (model time units)");
            sub.add_option("--tc", o->tc, "transfer time per element (model time units)");
            o->network.add(sub, "--size");
            sub.add_option(
                   "--model", o->model,
                   "what ranks the reductions and all-gathers: loggp (the time engine: contention not charged) or "
                   "simgrid (simulated: links shared by messages at once share their bandwidth; also the hypercube "
                   "graphs)")
                ->check(CLI::IsMember({"loggp", "simgrid"}))
                ->capture_default_str();
            sub.add_flag("--json", o->json, "print the table as JSON");
            return [o](Io& io) { return runCompare(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
