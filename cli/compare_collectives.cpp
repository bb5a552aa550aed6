// topocast-cli compare for the reductions and all-gathers of any network: every algorithm with
// α–β figures that serves the pattern, ranked by its time on the network model (the time engine,
// or the simulation with --model simgrid), the α–β model's rank beside it.
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
#include <ostream>
#include <sstream>

namespace topocast::cli {

namespace {

using namespace topocast::hypercube;

/// One collective (ring, bucket, rabenseifner, binomial) on the network: its α–β figures and its
/// time on the network model (the time engine: hops, overlap, ports; contention not charged).
struct CollectiveRow {
    std::string algorithm;
    std::uint32_t steps = 0;
    std::uint64_t tcd = 0;
    double startups = 0, data = 0, time = 0, lowerBound = 0;
    double loggp = 0, loggpSteps = 0; ///< ns
    int maxHops = 0;
    std::optional<double> simulated, simulatedSteps; ///< ns, --model simgrid: contention charged
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
    text << std::setw(14) << "LogGP" << std::setw(14) << "with barriers" << std::setw(13) << "above bound"
         << std::setw(16) << "α–β time"
         << "    " << std::setw(10) << "start-ups" << std::setw(15) << "data/node (M)" << std::setw(17) << "α–β bound"
         << std::setw(8) << "ratio"
         << "\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const CollectiveRow& r = rows[i];
        text << std::left << std::setw(6) << rank[i] << std::setw(20) << r.algorithm << std::right << std::setw(7)
             << r.steps << std::setw(6) << r.maxHops;
        if (simulated)
            text << std::setw(14) << formatSeconds(*r.simulated * 1e-9) << std::setw(14)
                 << formatSeconds(*r.simulatedSteps * 1e-9) << std::setw(12)
                 << formatSignificant(100 * (*r.simulated / r.loggp - 1), 3) + " %";
        text << std::setw(14) << formatSeconds(r.loggp * 1e-9) << std::setw(14) << formatSeconds(r.loggpSteps * 1e-9)
             << std::setw(13)
             << (bound.total > 0 ? formatSignificant(100 * (r.ranked() / bound.total - 1), 3) + " %" : std::string("-"))
             << std::setw(12) << r.time
             << (alphaBetaRank[i] != rank[i] ? " ≠" + std::to_string(alphaBetaRank[i]) + " " : std::string("    "))
             << std::setw(10) << r.startups << std::setw(15) << r.data << std::setw(13) << r.lowerBound << std::setw(8)
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
        text << graphs << ": α–β from the hypercube graph's own figures for the "
             << (pattern == Pattern::Gather ? "scatter" : "broadcast") << " this " << toString(pattern)
             << " reverses (Johnsson & Ho): its start-ups, and its elements in sequence as data/node\n";
    for (const auto& [name, why] : skipped)
        text << "not applicable: " << name << ": " << why << "\n";
    return text.str();
}

} // namespace

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
        throw Error(
            "no algorithm computes a " + toString(pattern) + " on the " + topo.displayName() +
            (skipped.empty() ? std::string() : " (" + skipped.front().first + ": " + skipped.front().second + ")"));
    // Ranked by the time on the network model; the α–β time (a fully connected network, a step
    // as long as its slowest message) stays beside it, with its own rank.
    std::stable_sort(rows.begin(), rows.end(),
                     [](const CollectiveRow& a, const CollectiveRow& b) { return a.ranked() < b.ranked(); });
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
        doc["ranked_by"] =
            o.model == "simgrid"
                ? "simgrid: the simulated time (" + simulationEngine() +
                      ": hops, overlap and ports charged, and links shared by messages at once)"
                : "loggp: the time on the network model (time engine; hops, overlap and ports charged, contention not)";
        doc["network"] = networkJson(net);
        doc["size"] = {{"value", net.message}, {"unit", "B"}};
        doc["loggp_bound"] = {{"value", std::round(bound.total * 1e3) / 1e3}, {"unit", "ns"}};
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const CollectiveRow& r = rows[i];
            list.push_back({{"rank", rank[i]},
                            {"algorithm", r.algorithm},
                            {"steps", r.steps},
                            {"tcd", r.tcd},
                            {"max_hops", r.maxHops},
                            {"loggp_time", nsValue(r.loggp)},
                            {"loggp_steps_time", nsValue(r.loggpSteps)},
                            {"loggp_above_bound",
                             {{"value", bound.total > 0 ? std::round((r.loggp / bound.total - 1) * 1e8) / 1e6 : 0.0},
                              {"unit", "%"}}},
                            {"alpha_beta_rank", alphaBetaRank[i]},
                            {"alpha_beta_differs", alphaBetaRank[i] != rank[i]},
                            {"startups", r.startups},
                            {"data_per_node", quantity(r.data, "M")},
                            {"time", quantity(r.time, kModelUnits)},
                            {"lower_bound", quantity(r.lowerBound, kModelUnits)},
                            {"ratio", r.lowerBound > 0 ? r.time / r.lowerBound : 1.0},
                            {"alpha_beta_from", r.graphFigures ? "hypercube-graph" : "collective"}});
        }
        if (o.model == "simgrid")
            for (std::size_t i = 0; i < rows.size(); ++i) {
                list[i]["simulated_time"] = nsValue(*rows[i].simulated);
                list[i]["simulated_steps_time"] = nsValue(*rows[i].simulatedSteps);
                list[i]["contention_cost"] = {
                    {"value", std::round((*rows[i].simulated / rows[i].loggp - 1) * 1e8) / 1e6}, {"unit", "%"}};
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

} // namespace topocast::cli
