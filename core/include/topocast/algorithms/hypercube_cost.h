#pragma once

// Closed-form costs of the hypercube spanning-graph algorithms (Johnsson & Ho §4–§7, Tables 2–18,
// in the cost model of §1–§2): start-up count and element-transfer count as exact rationals
// (T = startups·τ + transfer·t_c), lower bounds, optimal packet sizes. Which graph serves which pattern
// under which port model.

#include "topocast/algorithms/hypercube_graphs.h"
#include "topocast/model/schedule.h"

#include <optional>
#include <string>
#include <vector>

namespace topocast::hypercube {

/// The port models of spec §2.
enum class Ports : std::uint8_t {
    One,      ///< one-port: exchange with at most one neighbour per cycle
    SendRecv, ///< one send + one receive (on different ports)
    Half,     ///< one send or one receive
    N,        ///< n-port: all ports, full duplex
};

/// "one", "send-recv", "half", "n".
std::string portsName(Ports p);
/// Parses the names above (and "one-port", "n-port", "all"). Throws Error listing them.
Ports parsePorts(std::string_view text);
/// The port models in words, for help texts and errors, each with its name in schedule files:
/// "one (one-port-exchange: a node exchanges with one neighbour per cycle …), send-recv
/// (one-port: …), half (half-duplex: …) or n (all-port: …; also written n-port or all)" — the
/// wording of docs/glossary.md's port models that every front end shows. Never throws.
std::string portsHelp();
/// one → OnePortExchange, send-recv → OnePort, half → HalfDuplex, n → AllPort.
PortModel toPortModel(Ports p);
/// Parses the names of the four patterns the hypercube paper analyses ("broadcast", "scatter",
/// "allgather", "alltoall", as toString(Pattern) writes them). Throws Error listing them.
Pattern parsePatternName(std::string_view text);

/// The algorithm names of the registry: "hp", "sbt", "tcbt", "nrsbt", "nesbt", "sbnt", "sbntc".
const std::vector<std::string>& algorithmNames();
/// Patterns the algorithm serves, in the order the spec pairs them (first = default).
std::vector<Pattern> servedPatterns(std::string_view algorithm);
/// Port models with a schedule for (algorithm, pattern); empty if the pattern is not served.
std::vector<Ports> servedPorts(std::string_view algorithm, Pattern pattern);
/// The graph an algorithm uses under a port model ("hp": BRG, or nRBRG for n-port).
GraphKind graphFor(std::string_view algorithm, Ports ports);
/// Throws Error naming the algorithm and what it accepts unless (pattern, ports) is served.
void requireServed(std::string_view algorithm, Pattern pattern, Ports ports);

/// Inputs of every formula.
struct CostParams {
    int n = 1;
    long long M = 1;  ///< elements per message (per destination for personalized patterns)
    long long B = 1;  ///< packet size in elements
    double tau = 1.0; ///< start-up time per packet
    double tc = 1.0;  ///< transfer time per element
};

/// Checks n (1..20), M ≥ 1, B ≥ 1, τ ≥ 0, t_c ≥ 0; for broadcast also B ≤ M. Throws Error.
void checkCostParams(const CostParams& p, Pattern pattern);

/// One closed form: T = startups·τ + transfer·t_c.
struct ClosedForm {
    bool available = false; ///< false: the paper prints no formula for this case
    bool exact = true;      ///< false for the paper's "≈" rows (TCBT personalized, …)
    std::string source;     ///< "Table 4", "Thm. 4.3", "Thm. 6.2 on the graph's counters", …
    Rational startups;
    Rational transfer;
    double packetOpt = 0.0; ///< optimal packet size (elements)
    double timeMin = 0.0;   ///< T at packetOpt as the paper gives it
    double time(double tau, double tc) const { return startups.value() * tau + transfer.value() * tc; }
};

/// The spec's closed form for (algorithm, pattern, ports) (§4.4, §5.3, §6.3, §7.3, corrected as
/// §10 says), or a formula evaluated on the graph's counters (Thm. 6.2 / 7.3, label sums of §6.2 /
/// §7.1) where the paper gives none. `variant` "nopipe" selects the BRG broadcast without
/// pipelining; "streaming" the SBnT n-port personalized streaming bound of §5.1.5 (formula only). Evaluated literally
/// with exact rationals (§10 item 26). Throws Error for a pair that is not served. O(1) for tables; O(trees·N·n) where
/// the graph is needed.
ClosedForm closedForm(std::string_view algorithm, Pattern pattern, Ports ports, const CostParams& p,
                      std::string_view variant = {});

/// Lower bound of the problem under the port model (§4.1, §5.1, §6.1 Thm. 6.1, §7.1 Thm. 7.1–7.2).
struct Bound {
    Rational startups;
    Rational transfer;
    double time(double tau, double tc) const { return startups.value() * tau + transfer.value() * tc; }
};
Bound lowerBound(Pattern pattern, Ports ports, const CostParams& p);

/// Binomial coefficient (0 when k > n or k < 0).
long long binomial(int n, int k);

} // namespace topocast::hypercube
