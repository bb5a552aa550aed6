#include "topocast/algorithms/figures.h"

#include <algorithm>
#include <cmath>

namespace topocast {

namespace {

std::string coordText(const Coord& c)
{
    std::string s = "(";
    for (std::size_t i = 0; i < c.size(); ++i)
        s += (i ? "," : "") + std::to_string(c[i]);
    return s + ")";
}

void cangWuRows(const CangWuFigures& f, std::vector<FigureRow>& rows)
{
    rows.push_back({"source_tcd", "TCD of this schedule (by formula)", static_cast<double>(f.sourceTcd), "hops",
                    "the total communication distance of the " + f.mode +
                        " schedule from this source, by the "
                        "paper's closed form or topocast's table of the corrected values; equals the counted TCD"});
    rows.push_back(
        {"best_from_source",
         f.bestFromSourceProven ? "Best TCD from this source (proven)" : "Best TCD from this source (best known)",
         static_cast<double>(f.bestFromSource), "hops",
         f.bestFromSourceProven
             ? "the least TCD of any time-optimal broadcast from this source, proven by exhaustive search or "
               "an integer program (README: Where the papers are wrong)"
             : "the submesh-optimal schedule's TCD from this source: the best known, an upper bound on the "
               "least possible (README: Where the papers are wrong)"});
    std::string where;
    for (std::size_t i = 0; i < f.eyes.size() && i < 4; ++i)
        where += (i ? ", " : "") + coordText(f.eyes[i]);
    if (f.eyes.size() > 4)
        where += ", … (" + std::to_string(f.eyes.size()) + " eyes)";
    rows.push_back({"optimum", "Best TCD over all sources", static_cast<double>(f.optimum), "hops",
                    "OD_k, reached from the eyes" + (where.empty() ? std::string() : ": " + where)});
    rows.push_back({"eyes", "Eyes (Cang & Wu's sources of the optimum)", where, "",
                    "the sources from which the paper's construction reaches OD_k (§3); a source map of the "
                    "optimal schedules can find more sources that reach it"});
    rows.push_back({"levels", "Levels of boxes", static_cast<double>(f.levels), "",
                    "k: the network is 2^k nodes on a side and the broadcast takes d·k steps"});
    rows.push_back({"eye_side", "Eyes' distance from the box corners", static_cast<double>(f.eyeSide), "hops",
                    "a_k: the distance of the eyes from the box corners at the top level (Cang & Wu §3)"});
    rows.push_back({"source_eye_level", "Source is an eye up to level", static_cast<double>(f.sourceEyeLevel), "",
                    "the largest level at which the source sits at an eye of its box"});
    if (f.torusNote)
        rows.push_back({"torus", "On a torus", *f.torusNote, "", ""});
}

void tsayWangRows(const TsayWangFigures& f, std::vector<FigureRow>& rows)
{
    rows.push_back({"lower_bound", "Lower bound on steps", static_cast<double>(f.lowerBound), "steps",
                    "⌈d·log_{2d+1} n⌉: no all-port broadcast is faster (Lemma 1)"});
    rows.push_back({"paper_bound", "Paper's bound on steps", static_cast<double>(f.paperBound), "steps",
                    "the number of steps Tsay & Wang state"});
    rows.push_back({"spec_steps", "Steps of this variant (construction)", static_cast<double>(f.specSteps), "steps",
                    "the steps the " + f.variant + " variant takes by its construction (Tsay & Wang §3)"});
    rows.push_back({"r", "Digits in base 2d+1", static_cast<double>(f.r), "", "r = ⌈log_{2d+1} n'⌉"});
    rows.push_back(
        {"n_prime", "Odd side used", static_cast<double>(f.nPrime), "nodes", "n': n when odd, n − 1 when even"});
}

void hypercubeRows(const HypercubeFigures& f, std::vector<FigureRow>& rows)
{
    rows.push_back(
        {"time", "Model time", f.time, "τ, t_c units", "start-ups × τ + elements in sequence × t_c; " + f.formula});
    rows.push_back({"lower_bound", "Lower bound on time", f.lowerBound, "τ, t_c units",
                    "the paper's lower bound for this pattern"});
    rows.push_back({"ratio", "Time over the lower bound", f.ratio, "", "1 means optimal"});
    rows.push_back(
        {"startups", "Start-ups", f.startups, "messages", "messages sent in sequence (" + f.startupsExact + ")"});
    rows.push_back({"transfer", "Elements in sequence", f.transfer, "elements", f.transferExact});
    rows.push_back({"cycles", "Routing cycles", static_cast<double>(f.cycles), "steps", ""});
    rows.push_back({"counted_time", "Time counted from the schedule", f.countedTime, "τ, t_c units", ""});
    rows.push_back({"packet_opt", "Best packet size", f.packetOpt, "elements", "the B that minimises the time"});
    rows.push_back({"time_min", "Time at the best packet size", f.timeMin, "τ, t_c units", ""});
    rows.push_back({"graph", "Spanning graph", f.graph, "", ""});
    rows.push_back({"message", "Message size (M)", static_cast<double>(f.message), "elements", ""});
    rows.push_back({"packet", "Packet size (B)", static_cast<double>(f.packet), "elements", ""});
    if (f.height)
        rows.push_back({"height", "Tree height", static_cast<double>(*f.height), "levels", ""});
    if (f.formulaNote)
        rows.push_back({"formula_note", "Note", *f.formulaNote, "", ""});
}

void collectiveRows(const CollectiveFigures& f, std::vector<FigureRow>& rows)
{
    rows.push_back({"time", "Model time", f.time, "α, β units", "α·start-ups + β·data; " + f.formula});
    rows.push_back({"lower_bound", "Lower bound on time", f.lowerBoundTime, "α, β units",
                    "⌈log₂N⌉ start-ups and the least data any " + f.pattern + " must move (Thakur et al. 2005)"});
    rows.push_back({"startups", "Start-ups", f.startups, "messages", "messages in sequence"});
    rows.push_back({"data_per_node", "Data per node", f.data, "M", "what the busiest node receives, in messages of M"});
    rows.push_back({"lower_bound_data", "Least data per node", f.lowerBoundData, "M",
                    f.pattern == "allreduce"
                        ? "2(N−1)/N·M: every node must receive N−1 shares of the others' contributions and "
                          "send its own (bandwidth bound)"
                        : "what any " + f.pattern + " must deliver to one node"});
}

void divisibleLoadRows(const DivisibleLoadFigures& f, std::vector<FigureRow>& rows)
{
    const DivisibleLoadModel& m = f.model;
    rows.push_back({"speedup", "Speedup", m.speedup, "×", "V/α₀: how much faster than one processor"});
    rows.push_back({"bound", "Speedup bound", m.bound, "×", "min{n, 1 + p/ρ} (Theorem 3)"});
    rows.push_back({"finish_time", "Finish time", m.finishTime, "s", "A·α₀: every processor stops then"});
    rows.push_back({"processors", "Processors used", m.processors, "", "(p+1)^h"});
    rows.push_back({"layers", "Layers (h)", static_cast<double>(m.params.layers), "", f.layersChosen});
    rows.push_back({"rho", "Communication to computation ratio (ρ)", m.rho, "", "(1+ε)C/A"});
    rows.push_back({"feasible", "Every layer gets load", std::string(m.feasible ? "yes" : "no"), "",
                    "false when some α_i ≤ 0: too many layers for the start-up time"});
}

} // namespace

std::vector<FigureRow> figureRows(const AlgorithmFigures& figures)
{
    std::vector<FigureRow> rows;
    std::visit(
        [&](const auto& f) {
            using T = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<T, CangWuFigures>)
                cangWuRows(f, rows);
            else if constexpr (std::is_same_v<T, TsayWangFigures>)
                tsayWangRows(f, rows);
            else if constexpr (std::is_same_v<T, HypercubeFigures>)
                hypercubeRows(f, rows);
            else if constexpr (std::is_same_v<T, CollectiveFigures>)
                collectiveRows(f, rows);
            else
                divisibleLoadRows(f, rows);
        },
        figures.of);
    return rows;
}

std::vector<double> divisibleLoadSpeedupByLayers(DivisibleLoadParams params)
{
    std::vector<double> speedup;
    const int top = std::max(params.layers, 8);
    for (int h = 1; h <= top; ++h) {
        params.layers = h;
        const double s = divisibleLoadSpeedup(params);
        if (!std::isfinite(s))
            break;
        speedup.push_back(s);
    }
    return speedup;
}

} // namespace topocast
