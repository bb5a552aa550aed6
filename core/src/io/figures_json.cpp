#include "topocast/io/figures_json.h"

#include <cmath>

namespace topocast {

namespace {

nlohmann::ordered_json finiteOrNull(double v)
{
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json array(const std::vector<double>& v)
{
    auto a = nlohmann::ordered_json::array();
    for (double x : v)
        a.push_back(finiteOrNull(x));
    return a;
}

} // namespace

nlohmann::ordered_json scatterPlacementJson(const ScatterPlacementFigures& f)
{
    nlohmann::ordered_json placement;
    placement["rule"] = f.rule;
    placement["originator"] = f.originator;
    placement["mirror"] = f.mirror;
    placement["box_min"] = f.boxMin;
    placement["box_max"] = f.boxMax;
    placement["processors"] = f.processors;
    placement["unused_nodes"] = f.unusedNodes;
    return placement;
}

nlohmann::ordered_json scatterRoutesJson(const ScatterRouteFigures& f)
{
    nlohmann::ordered_json routes;
    routes["kind"] = f.kind;
    routes["contention_uses"] = f.contentionUses;
    routes["max_step_load"] = f.maxStepLoad;
    routes["contention_uses_per_move"] = f.contentionUsesPerMove;
    routes["contended_channels_per_move"] = f.contendedChannelsPerMove;
    return routes;
}

nlohmann::ordered_json divisibleLoadJson(const DivisibleLoadModel& m)
{
    const DivisibleLoadParams& pr = m.params;
    nlohmann::ordered_json j;
    j["p"] = pr.ports;
    j["layers"] = pr.layers;
    j["A"] = pr.A;
    j["C"] = pr.C;
    j["S"] = pr.S;
    j["V"] = pr.V;
    j["epsilon"] = pr.epsilon;
    j["rho"] = m.rho;
    j["sigma"] = m.sigma;
    j["alpha"] = array(m.alpha);
    j["lambda"] = array(m.lambda);
    j["layer_sizes"] = array(m.layerSize);
    j["message_sizes"] = array(m.messageSize);
    j["receive_times"] = array(m.receiveTime);
    j["finish_time"] = finiteOrNull(m.finishTime);
    j["processors"] = finiteOrNull(m.processors);
    j["speedup"] = finiteOrNull(m.speedup);
    j["speedup_no_setup"] = finiteOrNull(divisibleLoadSpeedupNoSetup(pr));
    j["limit"] = finiteOrNull(m.limit);
    j["bound"] = finiteOrNull(m.bound);
    j["feasible"] = m.feasible;
    const auto hMax = divisibleLoadMaxLayers(pr);
    j["h_max"] = hMax ? nlohmann::ordered_json(*hMax) : nlohmann::ordered_json(nullptr);
    const auto hOpt = divisibleLoadOptimalLayersEstimate(pr);
    j["h_opt_estimate"] = hOpt ? finiteOrNull(*hOpt) : nlohmann::ordered_json(nullptr);

    const DivisibleLoadTimeline t = divisibleLoadTimeline(m);
    nlohmann::ordered_json tl;
    tl["finish_time"] = finiteOrNull(t.finishTime);
    auto rows = nlohmann::ordered_json::array();
    for (const auto& r : t.rows) {
        nlohmann::ordered_json o;
        o["layer"] = r.layer;
        o["processors"] = finiteOrNull(r.processors);
        o["alpha"] = finiteOrNull(r.alpha);
        o["receive_begin"] = finiteOrNull(r.receiveBegin);
        o["setup_end"] = finiteOrNull(r.setupEnd);
        o["receive_end"] = finiteOrNull(r.receiveEnd);
        o["received_bytes"] = finiteOrNull(r.receivedBytes);
        o["compute_begin"] = finiteOrNull(r.computeBegin);
        o["compute_end"] = finiteOrNull(r.computeEnd);
        o["send_begin"] = finiteOrNull(r.sendBegin);
        o["send_end"] = finiteOrNull(r.sendEnd);
        rows.push_back(std::move(o));
    }
    tl["rows"] = std::move(rows);
    auto moves = nlohmann::ordered_json::array();
    for (const auto& mv : t.moves) {
        nlohmann::ordered_json o;
        o["move"] = mv.move;
        o["begin"] = finiteOrNull(mv.begin);
        o["setup_end"] = finiteOrNull(mv.setupEnd);
        o["end"] = finiteOrNull(mv.end);
        o["message_size"] = finiteOrNull(mv.messageSize);
        o["result_allowance"] = finiteOrNull(mv.resultAllowance);
        o["senders"] = finiteOrNull(mv.senders);
        o["messages"] = finiteOrNull(mv.messages);
        moves.push_back(std::move(o));
    }
    tl["moves"] = std::move(moves);
    j["timeline"] = std::move(tl);
    return j;
}


namespace {

using ojson = nlohmann::ordered_json;

/// A size: a whole number as an integer, a fraction as a double (as files have always had).
ojson sizeJson(double v)
{
    if (std::floor(v) == v && std::fabs(v) < 9.007199254740992e15)
        return ojson(static_cast<long long>(v));
    return ojson(v);
}

ojson cangWuJson(const CangWuFigures& f)
{
    ojson j;
    j["mode"] = f.mode;
    j["optimum"] = f.optimum;
    j["source_tcd"] = f.sourceTcd;
    if (f.torusNote)
        j["torus"] = *f.torusNote;
    ojson eyes = ojson::array();
    for (const Coord& c : f.eyes)
        eyes.push_back(c);
    j["eyes"] = std::move(eyes);
    j["eye_side"] = f.eyeSide;
    j["source_eye_level"] = f.sourceEyeLevel;
    j["levels"] = f.levels;
    return j;
}

ojson tsayWangJson(const TsayWangFigures& f)
{
    ojson j;
    j["variant"] = f.variant;
    j["n_prime"] = f.nPrime;
    j["r"] = f.r;
    j["lower_bound"] = f.lowerBound;
    j["paper_bound"] = f.paperBound;
    j["spec_steps"] = f.specSteps;
    return j;
}

ojson hypercubeJson(const HypercubeFigures& f)
{
    ojson j;
    j["graph"] = f.graph;
    j["ports"] = f.ports;
    j["discipline"] = f.discipline;
    j["message"] = f.message;
    j["packet"] = f.packet;
    j["tau"] = f.tau;
    j["tc"] = f.tc;
    j["formula"] = f.formula;
    if (f.formulaNote)
        j["formula_note"] = *f.formulaNote;
    j["startups"] = f.startups;
    j["transfer"] = f.transfer;
    j["startups_exact"] = f.startupsExact;
    j["transfer_exact"] = f.transferExact;
    j["time"] = f.time;
    j["lower_bound"] = f.lowerBound;
    j["lower_bound_startups"] = f.lowerBoundStartups;
    j["lower_bound_transfer"] = f.lowerBoundTransfer;
    j["ratio"] = f.ratio;
    j["cycles"] = f.cycles;
    j["counted_startups"] = f.countedStartups;
    j["counted_transfer"] = f.countedTransfer;
    j["counted_time"] = f.countedTime;
    j["packet_opt"] = f.packetOpt;
    j["time_min"] = f.timeMin;
    if (f.height) {
        ojson subtrees = ojson::array(), levels = ojson::array();
        for (double v : f.subtreeSizes)
            subtrees.push_back(sizeJson(v));
        for (double v : f.levelSizes)
            levels.push_back(sizeJson(v));
        j["subtree_sizes"] = std::move(subtrees);
        j["level_sizes"] = std::move(levels);
        j["height"] = *f.height;
    }
    return j;
}

ojson divisibleLoadInfo(const DivisibleLoadFigures& f)
{
    ojson j = divisibleLoadJson(f.model);
    j["layers_chosen"] = f.layersChosen;
    j["placement"] = scatterPlacementJson(f.placement);
    j["routes"] = scatterRoutesJson(f.routes);
    j["warnings"] = f.warnings;
    return j;
}


ojson collectiveJson(const CollectiveFigures& f)
{
    ojson j;
    j["cost_formula"] = f.formula;
    j["message"] = f.message;
    j["alpha"] = f.alpha;
    j["beta"] = f.beta;
    j["startups"] = f.startups;
    j["data_per_node"] = f.data;
    j["time"] = f.time;
    j["lower_bound_startups"] = f.lowerBoundStartups;
    j["lower_bound_data"] = f.lowerBoundData;
    j["lower_bound"] = f.lowerBoundTime;
    return j;
}


} // namespace

ojson infoJson(const AlgorithmFigures& figures)
{
    return std::visit(
        [](const auto& f) -> ojson {
            using T = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<T, CangWuFigures>)
                return cangWuJson(f);
            else if constexpr (std::is_same_v<T, TsayWangFigures>)
                return tsayWangJson(f);
            else if constexpr (std::is_same_v<T, HypercubeFigures>)
                return hypercubeJson(f);
            else if constexpr (std::is_same_v<T, CollectiveFigures>)
                return collectiveJson(f);
            else
                return divisibleLoadInfo(f);
        },
        figures.of);
}

ojson scheduleInfo(const Schedule& s)
{
    if (s.figures)
        return infoJson(*s.figures);
    ojson info = ojson::object();
    for (const auto& [key, text] : s.fileInfo)
        info[key] = ojson::parse(text);
    return info;
}


} // namespace topocast
