// Johnsson & Ho's vocabulary: the port models and patterns by name, which algorithm serves which
// pattern on which ports, and the checks of the cost parameters.
#include "topocast/algorithms/hypercube_cost.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <cmath>

namespace topocast::hypercube {

std::string portsName(Ports p)
{
    switch (p) {
    case Ports::One:
        return "one";
    case Ports::SendRecv:
        return "send-recv";
    case Ports::Half:
        return "half";
    case Ports::N:
        return "n";
    }
    return "?";
}

Ports parsePorts(std::string_view text)
{
    if (text == "one" || text == "one-port")
        return Ports::One;
    if (text == "send-recv")
        return Ports::SendRecv;
    if (text == "half")
        return Ports::Half;
    if (text == "n" || text == "n-port" || text == "all")
        return Ports::N;
    throw Error("unknown port model '" + std::string(text) + "'; use one, send-recv, half or n");
}

std::string portsHelp()
{
    // In parentheses: the port model's name in schedule files and tables (docs/glossary.md).
    return "one (one-port-exchange: a node exchanges with one neighbour per cycle, sending to and receiving from "
           "it), send-recv (one-port: one send + one receive per cycle, on different ports), half (half-duplex: "
           "one send or one receive per cycle) or n (all-port: every port sends and receives each cycle; also "
           "written n-port or all)";
}

PortModel toPortModel(Ports p)
{
    switch (p) {
    case Ports::One:
        return PortModel::OnePortExchange;
    case Ports::SendRecv:
        return PortModel::OnePort;
    case Ports::Half:
        return PortModel::HalfDuplex;
    case Ports::N:
        return PortModel::AllPort;
    }
    return PortModel::AllPort;
}

Pattern parsePatternName(std::string_view text)
{
    for (Pattern p : {Pattern::Broadcast, Pattern::Scatter, Pattern::Allgather, Pattern::Alltoall})
        if (text == toString(p))
            return p;
    throw Error("unknown pattern '" + std::string(text) + "'; use broadcast, scatter, allgather or alltoall");
}

const std::vector<std::string>& algorithmNames()
{
    static const std::vector<std::string> names = {"hp", "sbt", "tcbt", "nrsbt", "nesbt", "sbnt", "sbntc"};
    return names;
}

namespace {

void requireKnown(std::string_view algorithm)
{
    const auto& names = algorithmNames();
    if (std::find(names.begin(), names.end(), algorithm) == names.end())
        throw Error("unknown hypercube graph '" + std::string(algorithm) +
                    "'; use hp, sbt, tcbt, nrsbt, nesbt, sbnt or sbntc");
}

} // namespace

std::vector<Pattern> servedPatterns(std::string_view a)
{
    requireKnown(a);
    if (a == "sbnt" || a == "sbntc") // SBnT is not analysed for one-to-all broadcast (§4.1)
        return {Pattern::Scatter, Pattern::Allgather, Pattern::Alltoall};
    return {Pattern::Broadcast, Pattern::Scatter, Pattern::Allgather, Pattern::Alltoall};
}

std::vector<Ports> servedPorts(std::string_view a, Pattern p)
{
    const auto pats = servedPatterns(a);
    if (std::find(pats.begin(), pats.end(), p) == pats.end())
        return {};
    if (a == "hp" && (p == Pattern::Broadcast || p == Pattern::Scatter))
        return {Ports::One, Ports::SendRecv, Ports::N};
    if (a == "tcbt") {
        if (p == Pattern::Broadcast)
            return {Ports::One, Ports::SendRecv, Ports::N};
        if (p == Pattern::Scatter)
            return {Ports::One, Ports::N};
        return {Ports::N}; // TCBT one-port all-to-all has no label schedule (§6.2)
    }
    if (a == "nesbt" && p == Pattern::Broadcast)
        return {Ports::One, Ports::Half, Ports::N};
    return {Ports::One, Ports::N};
}

GraphKind graphFor(std::string_view a, Ports ports)
{
    requireKnown(a);
    if (a == "hp")
        return ports == Ports::N ? GraphKind::Nrbrg : GraphKind::Brg;
    if (a == "sbt")
        return GraphKind::Sbt;
    if (a == "tcbt")
        return GraphKind::Tcbt;
    if (a == "nrsbt")
        return GraphKind::Nrsbt;
    if (a == "nesbt")
        return GraphKind::Nesbt;
    if (a == "sbnt")
        return GraphKind::Sbnt;
    return GraphKind::Sbntc;
}

void requireServed(std::string_view a, Pattern pattern, Ports ports)
{
    const auto pats = servedPatterns(a);
    if (std::find(pats.begin(), pats.end(), pattern) == pats.end()) {
        std::string list;
        for (Pattern p : pats)
            list += (list.empty() ? "" : ", ") + toString(p);
        throw Error(std::string(a) + " does not serve pattern " + toString(pattern) +
                    " (Johnsson & Ho §4–§7); it serves " + list);
    }
    const auto ports2 = servedPorts(a, pattern);
    if (std::find(ports2.begin(), ports2.end(), ports) == ports2.end()) {
        std::string list;
        for (Ports p : ports2)
            list += (list.empty() ? "" : ", ") + portsName(p);
        throw Error(std::string(a) + " " + toString(pattern) + " has no schedule for --ports " + portsName(ports) +
                    "; allowed: " + list);
    }
}

void checkCostParams(const CostParams& p, Pattern pattern)
{
    if (p.n < 1 || p.n > kMaxDim)
        throw Error("hypercube dimension " + std::to_string(p.n) + " is outside 1.." + std::to_string(kMaxDim));
    if (p.M < 1)
        throw Error("message size M = " + std::to_string(p.M) + " must be ≥ 1 element");
    if (p.B < 1)
        throw Error("packet size B = " + std::to_string(p.B) + " must be ≥ 1 element");
    if (!(p.tau >= 0.0) || !std::isfinite(p.tau))
        throw Error("start-up time tau = " + std::to_string(p.tau) + " must be a finite number ≥ 0");
    if (!(p.tc >= 0.0) || !std::isfinite(p.tc))
        throw Error("transfer time tc = " + std::to_string(p.tc) + " must be a finite number ≥ 0");
    if (pattern == Pattern::Broadcast && p.B > p.M)
        throw Error("packet size B = " + std::to_string(p.B) + " is larger than the message M = " +
                    std::to_string(p.M) + "; a broadcast packet holds at most the whole message");
    if (p.M > (1LL << 30) || p.B > (1LL << 40))
        throw Error("message size M = " + std::to_string(p.M) + " is too large (at most 2^30 elements)");
}

} // namespace topocast::hypercube
