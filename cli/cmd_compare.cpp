// topocast-cli compare: the hypercube comparison table (spec/hypercube.md §4.4, §5.3, §6.3, §7.3):
// every spanning graph that serves a pattern, its closed-form cost, the lower bound and the ratio.
#include "commands.h"

#include "topocast/algorithms/hypercube_schedule.h"
#include "topocast/error.h"

#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>

namespace topocast::cli {

namespace {

using namespace topocast::hypercube;

struct CompareCommand {
    std::string topology = "hypercube:4";
    std::string pattern = "broadcast";
    std::string ports; // empty: every port model
    long long message = 1;
    long long packet = 0; // 0: = message
    double tau = 1.0;
    double tc = 1.0;
    bool json = false;
};

/// Largest n for which a missing closed form is counted from a generated schedule.
constexpr int kCountLimit = 10;

const CommandRegistrar reg{Command{
    "compare",
    "hypercube: cost of every spanning graph for a pattern, against the lower bound",
    [](CLI::App& sub) {
        auto o = std::make_shared<CompareCommand>();
        sub.add_option("--topology,-t", o->topology, "hypercube:N (N = 1..20)");
        sub.add_option("--pattern", o->pattern, "broadcast | scatter | allgather | alltoall");
        sub.add_option("--ports", o->ports, "one | send-recv | half | n (default: every model)");
        sub.add_option("--message", o->message, "M, elements per message");
        sub.add_option("--packet", o->packet, "B, packet size in elements (default M)");
        sub.add_option("--tau", o->tau, "start-up time per packet");
        sub.add_option("--tc", o->tc, "transfer time per element");
        sub.add_flag("--json", o->json, "print the table as JSON");
        return [o](Io& io) {
            const Topology topo = Topology::parse(o->topology);
            if (!topo.isHypercube())
                throw Error("compare needs a hypercube; got " + topo.displayName());
            const Pattern pattern = parsePatternName(o->pattern);
            CostParams p{topo.dims(), o->message, o->packet ? o->packet : o->message, o->tau, o->tc};
            checkCostParams(p, pattern);
            std::vector<Ports> models = {Ports::One, Ports::SendRecv, Ports::Half, Ports::N};
            if (!o->ports.empty())
                models = {parsePorts(o->ports)};
            nlohmann::ordered_json rows = nlohmann::ordered_json::array();
            std::ostringstream text;
            text << topo.displayName() << ", " << patternName(pattern) << ", M = " << p.M << ", B = " << p.B
                 << ", tau = " << p.tau << ", tc = " << p.tc << "\n";
            text << std::left << std::setw(7) << "graph" << std::setw(11) << "ports" << std::right << std::setw(12)
                 << "start-ups" << std::setw(14) << "transfer" << std::setw(14) << "time" << std::setw(14)
                 << "lower bound" << std::setw(8) << "ratio" << std::setw(10) << "B_opt"
                 << "  formula\n";
            for (Ports ports : models)
                for (const std::string& a : algorithmNames()) {
                    const auto served = servedPorts(a, pattern);
                    if (std::find(served.begin(), served.end(), ports) == served.end())
                        continue;
                    ClosedForm f = closedForm(a, pattern, ports, p);
                    if (a == "sbntc" && pattern == Pattern::Scatter && ports == Ports::N) {
                        // §5.1.5: the streaming bound, shown next to the reverse-breadth-first row.
                        const ClosedForm st = closedForm(a, pattern, ports, p, "streaming");
                        const Bound lb0 = lowerBound(pattern, ports, p);
                        const double t0 = st.time(p.tau, p.tc), l0 = lb0.time(p.tau, p.tc);
                        rows.push_back({{"algorithm", a + " (streaming)"},
                                        {"graph", "SBnT"},
                                        {"ports", "n"},
                                        {"startups", st.startups.value()},
                                        {"transfer", st.transfer.value()},
                                        {"time", t0},
                                        {"lower_bound", l0},
                                        {"ratio", l0 > 0 ? t0 / l0 : 1.0},
                                        {"formula", st.source},
                                        {"packet_opt", st.packetOpt}});
                        text << std::left << std::setw(7) << "sbnt*" << std::setw(11) << "n" << std::right
                             << std::setw(12) << st.startups.str() << std::setw(14) << st.transfer.str()
                             << std::setw(14) << std::setprecision(6) << t0 << std::setw(14) << l0 << std::setw(8)
                             << std::setprecision(3) << (l0 > 0 ? t0 / l0 : 1.0) << std::setw(10) << ""
                             << "  " << st.source << "\n";
                    }
                    std::string source = f.available ? f.source : "";
                    if (!f.available) {
                        if (p.n > kCountLimit) {
                            text << std::left << std::setw(7) << a << std::setw(11) << portsName(ports)
                                 << "  (no closed form; counted only for n ≤ " << kCountLimit << ")\n";
                            continue;
                        }
                        const CountedCost c = countCost(generateSchedule({a, pattern, ports, p, NodeId{0}, ""}), p.B);
                        f.startups = c.startups;
                        f.transfer = c.transfer;
                        source = "counted from the schedule";
                    }
                    const Bound lb = lowerBound(pattern, ports, p);
                    const double t = f.time(p.tau, p.tc), l = lb.time(p.tau, p.tc);
                    const double ratio = l > 0 ? t / l : 1.0;
                    nlohmann::ordered_json row{{"algorithm", a},
                                               {"graph", graphName(graphFor(a, ports))},
                                               {"ports", portsName(ports)},
                                               {"startups", f.startups.value()},
                                               {"transfer", f.transfer.value()},
                                               {"time", t},
                                               {"lower_bound", l},
                                               {"ratio", ratio},
                                               {"formula", source}};
                    if (f.available)
                        row["packet_opt"] = f.packetOpt;
                    rows.push_back(row);
                    std::ostringstream bopt;
                    if (f.available)
                        bopt << std::setprecision(4) << f.packetOpt;
                    text << std::left << std::setw(7) << a << std::setw(11) << portsName(ports) << std::right
                         << std::setw(12) << f.startups.str() << std::setw(14) << f.transfer.str() << std::setw(14)
                         << std::setprecision(6) << t << std::setw(14) << l << std::setw(8) << std::setprecision(3)
                         << ratio << std::setw(10) << bopt.str() << "  " << source << "\n";
                }
            if (rows.empty())
                throw Error("no hypercube graph serves " + patternName(pattern) + " with --ports " + o->ports);
            if (o->json) {
                nlohmann::ordered_json doc{{"topology", topo.spec()},
                                           {"pattern", patternName(pattern)},
                                           {"message", p.M},
                                           {"packet", p.B},
                                           {"tau", p.tau},
                                           {"tc", p.tc},
                                           {"rows", rows}};
                io.out << doc.dump(2) << "\n";
            } else {
                io.out << text.str();
            }
            return 0;
        };
    },
}};

} // namespace

} // namespace topocast::cli
