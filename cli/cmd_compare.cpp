// topocast-cli compare: the hypercube comparison table (Johnsson & Ho, Tables 4–5, 7–9, 11–14, 15–18):
// every spanning graph that serves one pattern, ranked by the time of the schedule topocast builds
// (counted from its transfers, in the cost model of Johnsson & Ho §1–§2), with the paper's closed form
// beside it and a flag where the two differ, the lower bound and the ratio. One table per port model:
// schedules for different port models run on different machines and are not ranked against each other.
#include "commands.h"

#include "envelope.h"
#include "network_options.h"

#include "topocast/algorithms/collectives.h"
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/hypercube_schedule.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/simulate.h"
#include "topocast/analysis/time_bound.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/io/network_json.h"
#include "topocast/model/units.h"
#include "topocast/text/numbers.h"
#include "topocast/model/error.h"

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
    NetworkOptions network;
    std::string topology = "hypercube:4";
    std::string pattern = "broadcast";
    std::string ports; // empty: every port model that serves the pattern
    long long message = 1;
    long long packet = 0; // 0: = message
    double tau = 1.0;
    double tc = 1.0;
    std::string model = "loggp";  ///< what ranks the reductions: loggp (the engine) or simgrid (simulated)
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
    std::optional<double> loggp; ///< ns: the schedule on the network model (counted rows only)
    std::size_t countedRank = 0; ///< its rank by `time` within its port model
};

bool nearlyEqual(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

/// The row's schedule on the network model, its ports the row's (n-port: all-port; half-duplex:
/// half-duplex; one-port-exchange and send-recv: one-port, a send and a receive at once), its
/// collective the size `net` says (runCompare sets it).
double loggpTime(const std::string& a, Ports ports, Pattern pattern, const CostParams& p, NetworkModel net)
{
    const Schedule s = buildSchedule(a, Topology::hypercube(p.n), NodeId{0},
                                     {{"pattern", patternName(pattern)}, {"ports", portsName(ports)},
                                      {"message", std::to_string(p.M)}, {"packet", std::to_string(p.B)}});
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

/// A time on the network model, to the picosecond; null where there is none.
nlohmann::ordered_json nsValue(std::optional<double> ns)
{
    return ns ? nlohmann::ordered_json{{"value", std::round(*ns * 1e3) / 1e3}, {"unit", "ns"}} : nlohmann::ordered_json(nullptr);
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
    doc["pattern"] = patternName(pattern);
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
        doc["left_out"] = {{"rows", uncounted},
                           {"reason", "no closed form, and schedules are counted only for n ≤ " +
                                          std::to_string(kCountLimit)}};
    return doc;
}

void compareText(const Topology& topo, Pattern pattern, const CostParams& p, const std::vector<CompareRow>& rows,
                 const std::vector<std::string>& uncounted, const std::optional<nlohmann::ordered_json>& streaming,
                 const NetworkModel& net, std::ostream& out)
{
    std::ostringstream text;
    text << topo.displayName() << ", " << patternName(pattern) << ", M = " << p.M << ", B = " << p.B
         << ", tau = " << p.tau << ", tc = " << p.tc << " (times in model units: start-ups·tau + transfer·tc)\n"
         << "one table per port model, ranked by [LogGP …], the schedule's time on the network model (time engine: "
            "hops, overlap and ports charged, contention not; n-port rows all-port, half rows half-duplex, the others "
            "one-port; M elements of 8 B unless --size), network "
         << describe(net, false) << "\n"
         << "time = the paper's model counted from the schedule topocast builds (counted rank k where it ranks "
            "otherwise); formula = the paper's closed form, ≠ where it differs, F = no schedule counted (n > "
         << kCountLimit << "), ranked last by the formula; source = where Johnsson & Ho print the closed form; "
            "docs/glossary.md\n";
    const std::vector<std::size_t> rank = ranks(rows);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == 0 || rows[i].ports != rows[i - 1].ports) {
            const auto counted = std::find_if(rows.begin(), rows.end(), [&](const CompareRow& r) {
                return r.ports == rows[i].ports && r.countedRank == 1;
            });
            text << "\n--ports " << portsName(rows[i].ports) << " (" << toString(toPortModel(rows[i].ports)) << "): ";
            if (rows[i].loggp)
                text << "least LogGP time " << formatSeconds(*rows[i].loggp * 1e-9) << " by " << rows[i].algorithm << "; ";
            text << "least counted time " << fmtNum(counted->time) << " by " << counted->algorithm << "\n";
            text << std::right << std::setw(4) << "rank" << "  " << std::left << std::setw(7) << "graph"
                 << std::setw(11) << "ports" << std::right << std::setw(12) << "start-ups" << std::setw(14)
                 << "transfer" << std::setw(14) << "time" << std::setw(14) << "formula" << std::setw(3) << ""
                 << std::setw(14) << "lower bound" << std::setw(8) << "ratio" << std::setw(10) << "B_opt"
                 << "  source\n";
        }
        rowText(text, rows[i], rank[i]);
    }
    if (streaming)
        text << "not ranked: sbntc --variant streaming (n-port), " << (*streaming)["formula_time"]["value"].get<double>()
             << " by " << (*streaming)["formula"].get<std::string>() << ": a bound without a schedule topocast builds\n";
    for (const std::string& u : uncounted)
        text << "left out: " << u << " (no closed form; schedules are counted only for n ≤ " << kCountLimit << ")\n";
    out << text.str();
}

/// One collective (ring, bucket, rabenseifner, binomial) on the network: its α–β figures and its
/// time on the network model (the time engine: hops, overlap, ports; contention not charged).
struct CollectiveRow {
    std::string algorithm;
    std::uint32_t steps = 0;
    std::uint64_t tcd = 0;
    double startups = 0, data = 0, time = 0, lowerBound = 0;
    double loggp = 0, loggpSteps = 0;  ///< ns
    int maxHops = 0;
    std::optional<double> simulated, simulatedSteps;  ///< ns, --model simgrid: contention charged
    /// The α–β figures are a hypercube graph's own (the broadcast or scatter it reverses).
    bool graphFigures = false;
    /// What ranks it: the simulated time with --model simgrid, else the engine's.
    double ranked() const { return simulated ? *simulated : loggp; }
};

/// A schedule's α–β figures: its CollectiveFigures, or for a hypercube graph's reduce or gather
/// (the broadcast or scatter it reverses, Johnsson & Ho) its own figures — start-ups, and the
/// elements in sequence over M as the data — beside the pattern's lower bound; nullopt for none.
std::optional<CollectiveCost> alphaBetaOf(const Schedule& s, Pattern pattern, const Topology& topo)
{
    if (!s.figures)
        return std::nullopt;
    if (const CollectiveFigures* f = s.figures->get<CollectiveFigures>())
        return CollectiveCost{f->startups, f->data, f->lowerBoundStartups, f->lowerBoundData, f->formula};
    const HypercubeFigures* h = s.figures->get<HypercubeFigures>();
    if (!h || h->message <= 0)
        return std::nullopt;
    CollectiveCost c = collectiveLowerBound(pattern, topo);
    c.startups = h->startups;
    c.data = h->transfer / static_cast<double>(h->message);
    c.formula = h->formula;
    return c;
}

/// The simulated times of `row`'s schedule, without and with barriers (--model simgrid).
void simulateRow(CollectiveRow& row, const Schedule& s, const NetworkModel& net)
{
    row.simulated = simulateSchedule(s, net).time.total;
    row.simulatedSteps = simulateSchedule(s, net, {.steps = true}).time.total;
}

/// The collective comparison for people: one row per algorithm, ranked (`rank`), the α–β
/// model's rank beside it.
std::string collectiveText(const CompareCommand& o, const Topology& topo, Pattern pattern, const NetworkModel& net,
                           const std::vector<CollectiveRow>& rows, const std::vector<std::size_t>& rank,
                           const std::vector<std::size_t>& alphaBetaRank, const TimeBound& bound,
                           const std::vector<std::pair<std::string, std::string>>& skipped)
{
    const double alpha = o.tau, beta = o.tc;
    const bool simulated = o.model == "simgrid";
    std::ostringstream text;
    text << toString(pattern) << " on the " << topo.displayName()
         << (simulated ? ", ranked by the simulated time (" + simulationEngine() +
                             ": hops, overlap and ports charged, and links shared by messages at once)\n"
                       : std::string(", ranked by the time on the network model (LogGP: hops, overlap and ports "
                                     "charged; contention between messages not charged)\n"))
         << "network " << describe(net) << "\n"
         << "α–β beside it: α·start-ups + β·data per node·M, α = " << alpha << ", β = " << beta << ", M = " << o.message
         << " (a fully connected network, each step as long as its slowest message); ≠ where it ranks differently\n";
    text << std::left << std::setw(6) << "rank" << std::setw(20) << "algorithm" << std::right << std::setw(7) << "steps"
         << std::setw(6) << "hops";
    if (simulated)
        text << std::setw(14) << "simulated" << std::setw(14) << "sim. barriers" << std::setw(12) << "contention";
    text << std::setw(14) << "LogGP" << std::setw(14) << "with barriers" << std::setw(13) << "above bound" << std::setw(16) << "α–β time" << "    " << std::setw(10) << "start-ups"
         << std::setw(15) << "data/node (M)" << std::setw(17) << "α–β bound" << std::setw(8) << "ratio" << "\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const CollectiveRow& r = rows[i];
        text << std::left << std::setw(6) << rank[i] << std::setw(20) << r.algorithm << std::right << std::setw(7) << r.steps
             << std::setw(6) << r.maxHops;
        if (simulated)
            text << std::setw(14) << formatSeconds(*r.simulated * 1e-9) << std::setw(14)
                 << formatSeconds(*r.simulatedSteps * 1e-9) << std::setw(12)
                 << formatSignificant(100 * (*r.simulated / r.loggp - 1), 3) + " %";
        text << std::setw(14) << formatSeconds(r.loggp * 1e-9) << std::setw(14) << formatSeconds(r.loggpSteps * 1e-9)
             << std::setw(13)
             << (bound.total > 0 ? formatSignificant(100 * (r.ranked() / bound.total - 1), 3) + " %" : std::string("-"))
             << std::setw(12) << r.time
             << (alphaBetaRank[i] != rank[i] ? " ≠" + std::to_string(alphaBetaRank[i]) + " " : std::string("    ")) << std::setw(10)
             << r.startups << std::setw(15) << r.data << std::setw(13) << r.lowerBound << std::setw(8)
             << formatRatio(r.lowerBound > 0 ? r.time / r.lowerBound : 1.0) << "\n";
    }
    text << "LogGP bound: " << formatSeconds(bound.total * 1e-9) << " (" << bound.latencyReason << "; "
         << bound.bandwidthReason << ")\n";
    text << "α–β lower bound: ⌈log₂N⌉ start-ups and the least data any " << toString(pattern)
         << " moves per node (Thakur, Rabenseifner & Gropp 2005; docs/glossary.md)\n";
    std::string graphs;
    for (const CollectiveRow& r : rows)
        if (r.graphFigures)
            graphs += (graphs.empty() ? "" : ", ") + r.algorithm;
    if (!graphs.empty())
        text << graphs << ": α–β from the hypercube graph's own figures for the " << (pattern == Pattern::Gather ? "scatter" : "broadcast")
             << " this " << toString(pattern) << " reverses (Johnsson & Ho): its start-ups, and its elements in sequence as data/node\n";
    for (const auto& [name, why] : skipped)
        text << "not applicable: " << name << ": " << why << "\n";
    return text.str();
}

/// Reduce, reduce-scatter, allreduce and gather on any network, allgather beyond the hypercube:
/// every algorithm with α–β figures (CollectiveFigures) that serves the pattern, ranked by
/// α·start-ups + β·data·M with α = --tau, β = --tc, M = --message (one model, so one ranking).
int runCollectiveCompare(const CompareCommand& o, const Topology& topo, Pattern pattern, Io& io)
{
    if (!(o.tau >= 0 && o.tc >= 0 && o.message >= 1 && std::isfinite(o.tau) && std::isfinite(o.tc)))
        throw Error("compare needs --tau ≥ 0, --tc ≥ 0 and --message ≥ 1; got " + std::to_string(o.tau) + ", " +
                    std::to_string(o.tc) + ", " + std::to_string(o.message));
    const double alpha = o.tau, beta = o.tc, m = static_cast<double>(o.message);
    // The network model's collective: --size, else M elements of 8 bytes (doubles).
    NetworkModel net = o.network.resolve();
    if (!o.network.messageGiven())
        net.message = static_cast<std::uint64_t>(o.message) * 8;
    std::vector<CollectiveRow> rows;
    std::vector<std::pair<std::string, std::string>> skipped;
    for (const AlgorithmInfo& info : algorithms()) {
        if (std::find(info.patterns.begin(), info.patterns.end(), toString(pattern)) == info.patterns.end())
            continue;
        if (auto why = info.whyNot(topo)) {
            skipped.emplace_back(info.name, *why);
            continue;
        }
        const Schedule s = buildSchedule(info.name, topo, NodeId{0}, {{"pattern", toString(pattern)}});
        const std::optional<CollectiveCost> f = alphaBetaOf(s, pattern, topo);
        if (!f) {
            skipped.emplace_back(info.name, "its schedule has no α–β figures");
            continue;
        }
        const Metrics metrics = computeMetrics(s, 1);
        const std::vector<TimeResult> times =
            timeSchedule(s, net, {TimeOptions{.totalOnly = true}, TimeOptions{.steps = true, .totalOnly = true}});
        rows.push_back({info.name, s.stepCount(), metrics.tcd, f->startups, f->data,
                        alpha * f->startups + beta * f->data * m,
                        alpha * f->lowerBoundStartups + beta * f->lowerBoundData * m, times[0].total, times[1].total,
                        static_cast<int>(metrics.maxHops)});
        rows.back().graphFigures = s.figures->get<CollectiveFigures>() == nullptr;
        if (o.model == "simgrid")
            simulateRow(rows.back(), s, net);
    }
    if (rows.empty())
        throw Error("no algorithm computes a " + toString(pattern) + " on the " + topo.displayName() +
                    (skipped.empty() ? std::string() : " (" + skipped.front().first + ": " + skipped.front().second + ")"));
    // Ranked by the time on the network model; the α–β time (a fully connected network, a step
    // as long as its slowest message) stays beside it, with its own rank.
    std::stable_sort(rows.begin(), rows.end(), [](const CollectiveRow& a, const CollectiveRow& b) { return a.ranked() < b.ranked(); });
    // Equal times share a rank: a tie has no winner.
    std::vector<std::size_t> rank(rows.size()), alphaBetaRank(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rank[i] = i > 0 && nearlyEqual(rows[i].ranked(), rows[i - 1].ranked()) ? rank[i - 1] : i + 1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        alphaBetaRank[i] = 1;
        for (std::size_t j = 0; j < rows.size(); ++j)
            if (rows[j].time < rows[i].time && !nearlyEqual(rows[j].time, rows[i].time))
                ++alphaBetaRank[i];
    }
    const TimeBound bound = timeBound(topo, pattern, NodeId{0}, net);
    if (o.json) {
        nlohmann::ordered_json doc = envelope("topocast-compare-collectives", topo);
        doc["pattern"] = toString(pattern);
        doc["model"] = "alpha-beta";
        doc["parameters"] = {{"alpha", quantity(alpha, kModelUnits)},
                             {"beta", quantity(beta, kModelUnitsPerElement)},
                             {"message", quantity(o.message, kElements)}};
        doc["time_unit"] = "model time units (α = --tau per start-up, β = --tc per element)";
        doc["ranked_by"] = o.model == "simgrid"
                               ? "simgrid: the simulated time (" + simulationEngine() +
                                     ": hops, overlap and ports charged, and links shared by messages at once)"
                               : "loggp: the time on the network model (time engine; hops, overlap and ports charged, contention not)";
        doc["network"] = networkJson(net);
        doc["size"] = {{"value", net.message}, {"unit", "B"}};
        doc["loggp_bound"] = {{"value", std::round(bound.total * 1e3) / 1e3}, {"unit", "ns"}};
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const CollectiveRow& r = rows[i];
            list.push_back({{"rank", rank[i]}, {"algorithm", r.algorithm}, {"steps", r.steps}, {"tcd", r.tcd},
                            {"max_hops", r.maxHops},
                            {"loggp_time", nsValue(r.loggp)}, {"loggp_steps_time", nsValue(r.loggpSteps)},
                            {"loggp_above_bound",
                             {{"value", bound.total > 0 ? std::round((r.loggp / bound.total - 1) * 1e8) / 1e6 : 0.0}, {"unit", "%"}}},
                            {"alpha_beta_rank", alphaBetaRank[i]}, {"alpha_beta_differs", alphaBetaRank[i] != rank[i]},
                            {"startups", r.startups}, {"data_per_node", quantity(r.data, "M")},
                            {"time", quantity(r.time, kModelUnits)}, {"lower_bound", quantity(r.lowerBound, kModelUnits)},
                            {"ratio", r.lowerBound > 0 ? r.time / r.lowerBound : 1.0},
                            {"alpha_beta_from", r.graphFigures ? "hypercube-graph" : "collective"}});
        }
        if (o.model == "simgrid")
            for (std::size_t i = 0; i < rows.size(); ++i) {
                list[i]["simulated_time"] = nsValue(*rows[i].simulated);
                list[i]["simulated_steps_time"] = nsValue(*rows[i].simulatedSteps);
                list[i]["contention_cost"] = {{"value", std::round((*rows[i].simulated / rows[i].loggp - 1) * 1e8) / 1e6},
                                              {"unit", "%"}};
            }
        doc["rows"] = std::move(list);
        nlohmann::ordered_json left = nlohmann::ordered_json::array();
        for (const auto& [name, why] : skipped)
            left.push_back({{"algorithm", name}, {"reason", why}});
        doc["not_applicable"] = std::move(left);
        io.out << doc.dump(2) << "\n";
        return 0;
    }
    io.out << collectiveText(o, topo, pattern, net, rows, rank, alphaBetaRank, bound, skipped);
    return 0;
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
        throw Error("no hypercube graph serves " + patternName(pattern) + " with --ports " + o.ports + "; " +
                    patternName(pattern) + " is served with --ports " + served);
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
    .setup = [](CLI::App& sub) {
        auto o = std::make_shared<CompareCommand>();
        sub.add_option("--topology,-t", o->topology,
                       "hypercube:N (N = 1..20); any network for allgather, gather, reduce, reduce-scatter, allreduce");
        sub.add_option("--pattern", o->pattern,
                       "broadcast | scatter | allgather | alltoall (the hypercube graphs, Johnsson-Ho model) | gather | "
                       "reduce | reduce-scatter | allreduce (ring, bucket, rabenseifner, binomial: α–β model with α = "
                       "--tau, β = --tc)");
        sub.add_option("--ports", o->ports,
                       portsHelp() + " (default: every model that serves the pattern)");
        sub.add_option("--message", o->message, "M, elements per message");
        sub.add_option("--packet", o->packet, "B, packet size in elements (default M)");
        sub.add_option("--tau", o->tau, "start-up time per packet (model time units)");
        sub.add_option("--tc", o->tc, "transfer time per element (model time units)");
        o->network.add(sub, "--size");
        sub.add_option("--model", o->model,
                       "what ranks the reductions and all-gathers: loggp (the time engine: contention not charged) or "
                       "simgrid (simulated: links shared by messages at once share their bandwidth; also the hypercube graphs)")
            ->check(CLI::IsMember({"loggp", "simgrid"}))
            ->capture_default_str();
        sub.add_flag("--json", o->json, "print the table as JSON");
        return [o](Io& io) { return runCompare(*o, io); };
    },
}};

} // namespace

} // namespace topocast::cli
