#include "topocast/algorithms/hypercube.h"

#include "topocast/algorithms/collectives.h"
#include "topocast/algorithms/figures.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <bit>

#include <nlohmann/json.hpp>

namespace topocast {

using namespace hypercube;

std::optional<std::string> hypercubeWhyNot(std::string_view algorithm, const Topology& topo)
{
    if (!topo.isHypercube())
        return std::string(algorithm) + " needs a hypercube; got " + topo.displayName();
    const int lo = algorithm == "tcbt" ? 2 : 1;
    if (topo.dims() < lo || topo.dims() > kMaxDim)
        return std::string(algorithm) + " needs a hypercube of dimension " + std::to_string(lo) + ".." +
               std::to_string(kMaxDim) + "; got " + topo.displayName();
    return std::nullopt;
}

std::vector<ParamSpec> hypercubeParamSpecs(std::string_view algorithm)
{
    using K = ParamSpec::Kind;
    constexpr double kUnbounded = 1e300;
    std::vector<ParamSpec> specs = {
        {.key = "message",
         .label = "message size M",
         .kind = K::Integer,
         .min = 1,
         .max = 1LL << 30,
         .byDefault = 1,
         .unit = "elements",
         .help = "M: elements the source sends (per destination for personalized patterns)"},
        {.key = "packet",
         .label = "packet size B",
         .kind = K::Integer,
         .min = 1,
         .max = static_cast<double>(1LL << 40),
         .defaultText = "= M",
         .unit = "elements",
         .help = "B: elements per packet; a broadcast packet holds at most the whole message"},
        {.key = "ports",
         .label = "port model",
         .kind = K::Choice,
         .choices = {"one", "send-recv", "half", "n"},
         .alsoAccepted = {"one-port", "n-port", "all"},
         .help = "port model (Johnsson-Ho §2): " + portsHelp()},
        {.key = "tau",
         .label = "start-up time τ",
         .kind = K::Number,
         .min = 0,
         .max = kUnbounded,
         .byDefault = 1,
         .help = "τ: start-up time per packet"},
        {.key = "tc",
         .label = "transfer time t_c",
         .kind = K::Number,
         .min = 0,
         .max = kUnbounded,
         .byDefault = 1,
         .help = "t_c: transfer time per element"},
    };
    if (algorithm == "hp")
        specs.push_back({.key = "variant",
                         .label = "variant",
                         .kind = K::Choice,
                         .choices = {"", "nopipe"},
                         .defaultText = "pipelined",
                         .help = "nopipe: the BRG broadcast without pipelining (Johnsson-Ho §4.1.1)"});
    else if (algorithm == "sbt")
        specs.push_back({.key = "variant",
                         .label = "scatter order",
                         .kind = K::Choice,
                         .choices = {"", "postorder", "subtree"},
                         .defaultText = "postorder when B ≤ M",
                         .help = "order of the one-port scatter: postorder or subtree (Johnsson-Ho §3.2)"});
    else if (algorithm == "sbnt" || algorithm == "sbntc")
        // "streaming" is the bound of §5.1.5 only; accepted here so the schedule says why it has none.
        specs.push_back(
            {.key = "variant",
             .label = "variant",
             .kind = K::Choice,
             .choices = {""},
             .alsoAccepted = {"streaming"},
             .defaultText = "none",
             .help = "no schedule variants (streaming is the source-side bound of Johnsson-Ho §5.1.5 only)"});
    return specs;
}

ScheduleRequest hypercubeRequest(std::string_view algorithm, const Topology& topo, NodeId source,
                                 const ParamValues& params)
{
    if (auto why = hypercubeWhyNot(algorithm, topo))
        throw Error(*why);
    ScheduleRequest rq;
    rq.algorithm = std::string(algorithm);
    rq.source = source;
    rq.pattern = params.given("pattern") ? parsePatternName(params.text("pattern")) : servedPatterns(algorithm).front();
    rq.ports = parsePorts(params.text("ports"));
    rq.cost.n = topo.dims();
    rq.cost.M = params.integer("message");
    rq.cost.B = params.given("packet") ? params.integer("packet") : rq.cost.M;
    rq.cost.tau = params.number("tau");
    rq.cost.tc = params.number("tc");
    rq.variant = params.text("variant");
    requireServed(algorithm, rq.pattern, rq.ports);
    checkCostParams(rq.cost, rq.pattern);
    return rq;
}

Schedule hypercubeSchedule(const RawSchedule& raw, const ScheduleRequest& rq, const Topology& topo)
{
    Schedule s(topo, raw.source, raw.pattern, toPortModel(raw.ports));
    s.algorithm = rq.algorithm;
    s.mode = portsName(raw.ports) + "-port";
    if (raw.ports == Ports::SendRecv)
        s.mode = "send+receive";
    else if (raw.ports == Ports::Half)
        s.mode = "half duplex";
    s.parts = raw.parts;
    s.sizeUnit = "elements";
    s.reserve(raw.transfers.size());
    for (const RawTransfer& t : raw.transfers)
        s.add(Transfer{t.from, t.to, StepNo{t.cycle + 1}, RouteSpec{}, s.addPayload(t.blocks), t.tag, t.size.value()});
    // Step captions: the cycle, and its dimension when every link of the cycle is in one.
    s.stepLabels.assign(raw.cycles, "");
    {
        std::vector<int> dim(raw.cycles, -1);
        for (const RawTransfer& t : raw.transfers) {
            const int d = std::countr_zero(t.from ^ t.to);
            int& cur = dim[t.cycle];
            cur = cur == -1 ? d : (cur == d ? d : -2);
        }
        for (std::uint32_t c = 0; c < raw.cycles; ++c)
            s.stepLabels[c] =
                "cycle " + std::to_string(c) + (dim[c] >= 0 ? ", dimension " + std::to_string(dim[c]) : "");
    }

    const CostParams& p = rq.cost;
    const ClosedForm f = closedForm(rq.algorithm, raw.pattern, raw.ports, p, rq.variant);
    const CountedCost counted = countCost(raw, p.B);
    const Bound lb = lowerBound(raw.pattern, raw.ports, p);
    HypercubeFigures fig;
    fig.graph = graphName(raw.graph);
    fig.ports = portsName(raw.ports);
    fig.discipline = raw.discipline;
    fig.message = p.M;
    fig.packet = p.B;
    fig.tau = p.tau;
    fig.tc = p.tc;
    const Rational startups = f.available ? f.startups : counted.startups;
    const Rational transfer = f.available ? f.transfer : counted.transfer;
    fig.formula = f.available ? f.source + (f.exact ? "" : " (approximation)")
                              : std::string("none in the paper; figures counted from the schedule");
    const long long n = p.n;
    const bool split = raw.graph == GraphKind::Nrbrg || raw.graph == GraphKind::Nrsbt ||
                       raw.graph == GraphKind::Nesbt || raw.graph == GraphKind::Sbntc;
    if (p.M % p.B != 0 || (split && p.M % n != 0))
        fig.formulaNote =
            "the closed form assumes B | M" + std::string(split ? " and n | M" : "") +
            " (docs/glossary.md, closed form) and is evaluated literally; the schedule sends the remainder in a "
            "smaller last packet or fractional parts, so counted figures may differ";
    fig.startups = startups.value();
    fig.transfer = transfer.value();
    fig.startupsExact = startups.str();
    fig.transferExact = transfer.str();
    fig.time = startups.value() * p.tau + transfer.value() * p.tc;
    fig.lowerBound = lb.time(p.tau, p.tc);
    fig.lowerBoundStartups = lb.startups.value();
    fig.lowerBoundTransfer = lb.transfer.value();
    fig.ratio = fig.lowerBound > 0 ? fig.time / fig.lowerBound : 1.0;
    fig.cycles = counted.cycles;
    fig.countedStartups = counted.startups.value();
    fig.countedTransfer = counted.transfer.value();
    fig.countedTime = counted.startups.value() * p.tau + counted.transfer.value() * p.tc;
    if (f.available) {
        fig.packetOpt = f.packetOpt;
        fig.timeMin = f.timeMin;
    } else {
        // No closed form: a packet as large as the largest per-cycle message gives one start-up
        // per cycle, the fewest this schedule allows (§2 cost model).
        Rational largest = 0;
        for (const Rational& d : counted.perCycle)
            largest = std::max(largest, d);
        fig.packetOpt = largest.value();
        fig.timeMin = static_cast<double>(counted.cycles) * p.tau + counted.transfer.value() * p.tc;
    }
    if (raw.graph != GraphKind::Brg && raw.graph != GraphKind::Nrbrg) {
        const SpanningGraph g = buildGraph(raw.graph, raw.n);
        const Counters k = computeCounters(g);
        for (std::uint64_t v : k.rootSubtrees)
            fig.subtreeSizes.push_back(k.weighted(v).value());
        for (std::uint64_t v : k.levelSizes)
            fig.levelSizes.push_back(k.weighted(v).value());
        fig.height = g.height;
    }
    s.figures = std::make_shared<const AlgorithmFigures>(AlgorithmFigures{std::move(fig)});
    s.finalize();
    return s;
}

std::vector<std::vector<TreeEdge>> scheduleTrees(const Schedule& schedule, std::size_t maxEdges)
{
    const Topology& topo = schedule.topology();
    // The graph an algorithm built the schedule on; for a schedule read from a file, the graph its
    // file names (so a saved hypercube schedule still shows its trees).
    std::string graph;
    if (schedule.figures) {
        if (const auto* h = schedule.figures->get<HypercubeFigures>())
            graph = h->graph;
    } else {
        for (const auto& [key, text] : schedule.fileInfo)
            if (key == "graph")
                if (const auto value = nlohmann::json::parse(text); value.is_string())
                    graph = value.get<std::string>();
    }
    if (!topo.isHypercube() || topo.dims() < 1 || topo.dims() > kMaxDim || graph.empty())
        return {};
    const auto kind = parseGraphName(graph);
    if (!kind || (*kind == GraphKind::Tcbt && topo.dims() < 2))
        return {};
    const int n = topo.dims();
    const bool multi = *kind == GraphKind::Nrbrg || *kind == GraphKind::Nrsbt || *kind == GraphKind::Nesbt ||
                       *kind == GraphKind::Sbntc;
    const std::size_t members = multi ? static_cast<std::size_t>(n) : 1;
    if (members * ((std::size_t{1} << n) - 1) > maxEdges)
        return {};
    return treeEdges(buildGraph(*kind, n), schedule.source());
}

Schedule buildHypercube(std::string_view algorithm, const Topology& topo, NodeId source, const ParamValues& params)
{
    // Reduce and gather: the broadcast and the scatter run backwards (collectives.h).
    if (const std::string pattern = params.text("pattern"); pattern == "reduce" || pattern == "gather") {
        const auto forward = params.with("pattern", std::string(pattern == "reduce" ? "broadcast" : "scatter"));
        return reversedSchedule(buildHypercube(algorithm, topo, source, forward));
    }
    const ScheduleRequest rq = hypercubeRequest(algorithm, topo, source, params);
    return hypercubeSchedule(generateSchedule(rq), rq, topo);
}

} // namespace topocast
