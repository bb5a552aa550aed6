#include "topocast/io/figures_json.h"

#include <cmath>
#include <initializer_list>
#include <utility>

namespace topocast {

namespace {

nlohmann::ordered_json finiteOrNull(double v)
{
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

/// Adds each named number to `o`, in order: a finite value as a number, any other as null.
void addNumbers(nlohmann::ordered_json& o, std::initializer_list<std::pair<const char*, double>> fields)
{
    for (const auto& [key, value] : fields)
        o[key] = finiteOrNull(value);
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
    return {{"rule", f.rule},      {"originator", f.originator}, {"mirror", f.mirror},           {"box_min", f.boxMin},
            {"box_max", f.boxMax}, {"processors", f.processors}, {"unused_nodes", f.unusedNodes}};
}

nlohmann::ordered_json scatterRoutesJson(const ScatterRouteFigures& f)
{
    return {{"kind", f.kind},
            {"contention_uses", f.contentionUses},
            {"max_step_load", f.maxStepLoad},
            {"contention_uses_per_move", f.contentionUsesPerMove},
            {"contended_channels_per_move", f.contendedChannelsPerMove}};
}

nlohmann::ordered_json divisibleLoadJson(const DivisibleLoadModel& m)
{
    const DivisibleLoadParams& pr = m.params;
    nlohmann::ordered_json j = {
        {"p", pr.ports}, {"layers", pr.layers},   {"A", pr.A},    {"C", pr.C},       {"S", pr.S},
        {"V", pr.V},     {"epsilon", pr.epsilon}, {"rho", m.rho}, {"sigma", m.sigma}};
    j["alpha"] = array(m.alpha);
    j["lambda"] = array(m.lambda);
    j["layer_sizes"] = array(m.layerSize);
    j["message_sizes"] = array(m.messageSize);
    j["receive_times"] = array(m.receiveTime);
    addNumbers(j, {{"finish_time", m.finishTime},
                   {"processors", m.processors},
                   {"speedup", m.speedup},
                   {"speedup_no_setup", divisibleLoadSpeedupNoSetup(pr)},
                   {"limit", m.limit},
                   {"bound", m.bound}});
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
        nlohmann::ordered_json o = {{"layer", r.layer}};
        addNumbers(o, {{"processors", r.processors},
                       {"alpha", r.alpha},
                       {"receive_begin", r.receiveBegin},
                       {"setup_end", r.setupEnd},
                       {"receive_end", r.receiveEnd},
                       {"received_bytes", r.receivedBytes},
                       {"compute_begin", r.computeBegin},
                       {"compute_end", r.computeEnd},
                       {"send_begin", r.sendBegin},
                       {"send_end", r.sendEnd}});
        rows.push_back(std::move(o));
    }
    tl["rows"] = std::move(rows);
    auto moves = nlohmann::ordered_json::array();
    for (const auto& mv : t.moves) {
        nlohmann::ordered_json o = {{"move", mv.move}};
        addNumbers(o, {{"begin", mv.begin},
                       {"setup_end", mv.setupEnd},
                       {"end", mv.end},
                       {"message_size", mv.messageSize},
                       {"result_allowance", mv.resultAllowance},
                       {"senders", mv.senders},
                       {"messages", mv.messages}});
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

/// Adds the members of `more` to `j` after its own, in their order.
void append(ojson& j, ojson more)
{
    for (auto& [key, value] : more.items())
        j[key] = std::move(value);
}

ojson cangWuJson(const CangWuFigures& f)
{
    ojson j = {{"mode", f.mode}, {"optimum", f.optimum}, {"source_tcd", f.sourceTcd}};
    if (f.torusNote)
        j["torus"] = *f.torusNote;
    ojson eyes = ojson::array();
    for (const Coord& c : f.eyes)
        eyes.push_back(c);
    append(j, {{"eyes", std::move(eyes)},
               {"eye_side", f.eyeSide},
               {"source_eye_level", f.sourceEyeLevel},
               {"levels", f.levels}});
    return j;
}

ojson tsayWangJson(const TsayWangFigures& f)
{
    return {{"variant", f.variant},        {"n_prime", f.nPrime},         {"r", f.r},
            {"lower_bound", f.lowerBound}, {"paper_bound", f.paperBound}, {"spec_steps", f.specSteps}};
}

ojson hypercubeJson(const HypercubeFigures& f)
{
    ojson j = {{"graph", f.graph},     {"ports", f.ports},    {"discipline", f.discipline},
               {"message", f.message}, {"packet", f.packet},  {"tau", f.tau},
               {"tc", f.tc},           {"formula", f.formula}};
    if (f.formulaNote)
        j["formula_note"] = *f.formulaNote;
    append(j, {{"startups", f.startups},
               {"transfer", f.transfer},
               {"startups_exact", f.startupsExact},
               {"transfer_exact", f.transferExact},
               {"time", f.time},
               {"lower_bound", f.lowerBound},
               {"lower_bound_startups", f.lowerBoundStartups},
               {"lower_bound_transfer", f.lowerBoundTransfer},
               {"ratio", f.ratio},
               {"cycles", f.cycles},
               {"counted_startups", f.countedStartups},
               {"counted_transfer", f.countedTransfer},
               {"counted_time", f.countedTime},
               {"packet_opt", f.packetOpt},
               {"time_min", f.timeMin}});
    if (f.height) {
        ojson subtrees = ojson::array(), levels = ojson::array();
        for (double v : f.subtreeSizes)
            subtrees.push_back(sizeJson(v));
        for (double v : f.levelSizes)
            levels.push_back(sizeJson(v));
        append(j, {{"subtree_sizes", std::move(subtrees)}, {"level_sizes", std::move(levels)}, {"height", *f.height}});
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
    return {{"cost_formula", f.formula},
            {"message", f.message},
            {"alpha", f.alpha},
            {"beta", f.beta},
            {"startups", f.startups},
            {"data_per_node", f.data},
            {"time", f.time},
            {"lower_bound_startups", f.lowerBoundStartups},
            {"lower_bound_data", f.lowerBoundData},
            {"lower_bound", f.lowerBoundTime}};
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
