// topocast-cli divisible: the divisible-load model of Drozdowski & Głazek (§3, Theorem 1; §4, Figs. 4–7).
//
//   divisible --ports P [--layers H] [--A a --C c --S s --V v --epsilon e] [--json|--csv]
//             [--topology mesh:XxYxZ [--source x,y,z]]
//   divisible --sweep layers|rho|shares [--ports 1,3,6] [--layers H] [--rho-factors 0.1,1,10] …

#include "commands.h"

#include "envelope.h"

#include "topocast/algorithms/divisible_load.h"
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/io/figures_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/text/numbers.h"

#include <cmath>
#include <iomanip>
#include <limits>
#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

constexpr int kNotGiven = std::numeric_limits<int>::min();

struct DivisibleOptions {
    std::vector<int> ports;
    int layers = -1; ///< −1: not given
    int layersGiven = kNotGiven;
    double A = DivisibleLoadParams{}.A;
    double C = DivisibleLoadParams{}.C;
    double S = DivisibleLoadParams{}.S;
    double V = DivisibleLoadParams{}.V;
    double epsilon = 0.0;
    bool json = false;
    bool csv = false;
    std::string sweep;
    std::vector<double> rhoFactors;
    std::string topology;
    std::string source;
};

std::string num(double v)
{
    return formatSignificant(v, 15);
}

DivisibleLoadParams baseParams(const DivisibleOptions& o, int p)
{
    DivisibleLoadParams pr;
    pr.ports = p;
    pr.layers = 0;
    pr.A = o.A;
    pr.C = o.C;
    pr.S = o.S;
    pr.V = o.V;
    pr.epsilon = o.epsilon;
    checkDivisibleLoadParams(pr);
    return pr;
}

// h_max, or `fallback` when every h is feasible (σ = 0).
int maxLayersOr(const DivisibleLoadParams& pr, int fallback)
{
    const auto h = divisibleLoadMaxLayers(pr);
    return h ? *h : fallback;
}

// The sweep's last h: --layers, else one past h_max (to show the first infeasible point).
int sweepEnd(const DivisibleOptions& o, const DivisibleLoadParams& pr)
{
    if (o.layers >= 0)
        return o.layers;
    return std::min(maxLayersOr(pr, 15) + 1, kDivisibleMaxLayers);
}

void speedupRow(std::ostream& out, const DivisibleLoadParams& pr)
{
    const auto m = solveDivisibleLoad(pr);
    out << pr.ports << ',' << num(pr.C) << ',' << num(m.rho) << ',' << num(m.sigma) << ',' << pr.layers << ','
        << num(m.processors) << ',' << num(m.speedup) << ',' << num(divisibleLoadSpeedupNoSetup(pr)) << ','
        << num(m.limit) << ',' << num(m.bound) << ',' << (m.feasible ? 1 : 0) << '\n';
}

int runSweep(const DivisibleOptions& o, Io& io)
{
    std::vector<int> ports = o.ports;
    std::vector<double> factors = o.rhoFactors;
    if (o.sweep == "layers") {
        // Fig 4 (Table T1/T2): speedup against h (n = (p+1)^h) for each p.
        if (ports.empty())
            ports = {1, 3, 6};
        if (factors.empty())
            factors = {1.0};
    } else if (o.sweep == "rho") {
        // Fig 5 (Table T3): one p, C scaled by each factor (σ stays).
        if (ports.empty())
            ports = {6};
        if (factors.empty())
            factors = {0.1, 1.0, 10.0};
    } else if (o.sweep == "shares") {
        // Figs 6–7 (Tables T4–T6): α_i and λ_i per layer at h (default h_max of each p).
        if (ports.empty())
            ports = {1, 3, 6};
        if (factors.empty())
            factors = {1.0};
    } else {
        throw Error("--sweep '" + o.sweep + "' is not known; use layers, rho or shares");
    }
    for (double f : factors)
        if (!(f > 0) || !std::isfinite(f))
            throw Error("--rho-factors: " + num(f) + " is not a positive number");

    std::ostream& out = io.out;
    if (o.sweep == "shares") {
        out << "p,C,rho,h,layer,processors,alpha,lambda,feasible\n";
        for (int p : ports)
            for (double f : factors) {
                DivisibleLoadParams pr = baseParams(o, p);
                pr.C *= f;
                pr.layers = o.layers >= 0 ? o.layers : maxLayersOr(pr, 6);
                const auto m = solveDivisibleLoad(pr);
                for (int i = 0; i <= pr.layers; ++i) {
                    const auto u = static_cast<std::size_t>(i);
                    out << p << ',' << num(pr.C) << ',' << num(m.rho) << ',' << pr.layers << ',' << i << ','
                        << num(m.layerSize[u]) << ',' << num(m.alpha[u]) << ',' << num(m.lambda[u]) << ','
                        << (m.feasible ? 1 : 0) << '\n';
                }
            }
        return 0;
    }
    out << "p,C,rho,sigma,h,n,speedup,speedup_no_setup,limit,bound,feasible\n";
    for (int p : ports)
        for (double f : factors) {
            DivisibleLoadParams pr = baseParams(o, p);
            pr.C *= f;
            const int end = sweepEnd(o, pr);
            for (int h = 0; h <= end; ++h) {
                pr.layers = h;
                speedupRow(out, pr);
            }
        }
    return 0;
}

void printText(const DivisibleLoadModel& m, std::ostream& out)
{
    const DivisibleLoadParams& pr = m.params;
    out << "divisible load, p = " << pr.ports << ", h = " << pr.layers << " layers, n = " << num(m.processors)
        << " processors\n";
    out << "A = " << num(pr.A) << " s/byte, C = " << num(pr.C) << " s/byte, S = " << num(pr.S)
        << " s, V = " << num(pr.V) << ", epsilon = " << num(pr.epsilon) << "; rho = " << num(m.rho)
        << ", sigma = " << num(m.sigma) << "\n\n";
    out << std::left << std::setw(6) << "layer" << std::setw(12) << "processors" << std::setw(24) << "alpha"
        << std::setw(24) << "lambda" << std::setw(24) << "message L_k" << std::setw(24) << "receive T_k"
        << "compute end\n";
    for (std::size_t k = 0; k < m.alpha.size(); ++k)
        out << std::setw(6) << k << std::setw(12) << num(m.layerSize[k]) << std::setw(24) << num(m.alpha[k])
            << std::setw(24) << num(m.lambda[k]) << std::setw(24) << num(m.messageSize[k]) << std::setw(24)
            << num(m.receiveTime[k]) << num(m.receiveTime[k] + pr.A * m.alpha[k]) << '\n';
    out << std::right << '\n';
    const auto hMax = divisibleLoadMaxLayers(pr);
    const auto hOpt = divisibleLoadOptimalLayersEstimate(pr);
    out << "finish time T = A·alpha_0: " << num(m.finishTime) << " s (every layer finishes then)\n";
    out << "speedup: " << num(m.speedup) << "\n";
    out << "limit 1 + p/rho: " << num(m.limit) << "\n";
    out << "bound min{n, 1 + p/rho}: " << num(m.bound) << "\n";
    out << "h_max (best number of layers): " << (hMax ? std::to_string(*hMax) : std::string("unbounded (S = 0)"))
        << "\n";
    out << "h_opt estimate (8): " << (hOpt ? num(*hOpt) : std::string("none (S = 0)")) << "\n";
    out << "feasible: " << (m.feasible ? "yes" : "no") << "\n";
}

void printCsv(const DivisibleLoadModel& m, std::ostream& out)
{
    const auto t = divisibleLoadTimeline(m);
    out << "layer,processors,alpha,lambda,message_size,receive_begin,setup_end,receive_end,compute_begin,"
           "compute_end,send_end\n";
    for (const auto& r : t.rows)
        out << r.layer << ',' << num(r.processors) << ',' << num(r.alpha) << ','
            << num(m.lambda[static_cast<std::size_t>(r.layer)]) << ',' << num(r.receivedBytes) << ','
            << num(r.receiveBegin) << ',' << num(r.setupEnd) << ',' << num(r.receiveEnd) << ',' << num(r.computeBegin)
            << ',' << num(r.computeEnd) << ',' << num(r.sendEnd) << '\n';
}

int runSingle(const DivisibleOptions& o, Io& io)
{
    if (o.ports.size() != 1)
        throw Error("divisible: give exactly one --ports value (1..6); lists are for --sweep");
    DivisibleLoadParams pr = baseParams(o, o.ports[0]);
    const auto hMax = divisibleLoadMaxLayers(pr);
    if (o.layers >= 0) {
        pr.layers = o.layers;
    } else {
        if (!hMax)
            throw Error("divisible: with S = 0 every number of layers is feasible; give --layers");
        pr.layers = *hMax;
    }
    const auto m = solveDivisibleLoad(pr);
    if (!m.feasible)
        throw Error("divisible: --layers " + std::to_string(pr.layers) + " is infeasible for these parameters (alpha_" +
                    std::to_string(pr.layers) + " = " + num(m.alpha.back()) +
                    " <= 0); the largest feasible number of layers is " + std::to_string(hMax.value_or(0)));

    nlohmann::ordered_json mapping;
    std::string sourceName;
    if (!o.topology.empty()) {
        const Topology topo = Topology::parse(o.topology);
        const NodeId source = o.source.empty() ? NodeId{0} : topo.parseNode(o.source);
        Params params{{"p", std::to_string(pr.ports)},
                      {"layers", std::to_string(pr.layers)},
                      {"A", num(pr.A)},
                      {"C", num(pr.C)},
                      {"S", num(pr.S)},
                      {"V", num(pr.V)},
                      {"epsilon", num(pr.epsilon)}};
        const Schedule s = buildSchedule("divisible-load", topo, source, params);
        mapping["topology"] = topo.spec();
        mapping["source"] = nodeToJson(topo, source);
        sourceName = topo.nodeName(source);
        const DivisibleLoadFigures& figures = *s.figures->get<DivisibleLoadFigures>();
        mapping["placement"] = scatterPlacementJson(figures.placement);
        mapping["routes"] = scatterRoutesJson(figures.routes);
        mapping["warnings"] = figures.warnings;
    }

    if (o.json) {
        nlohmann::ordered_json j = o.topology.empty() ? envelope("topocast-divisible")
                                                      : envelope("topocast-divisible", Topology::parse(o.topology));
        j["algorithm"] = "divisible-load";
        j["parameters"] = {{"p", pr.ports}, {"layers", pr.layers},  {"A", pr.A}, {"C", pr.C}, {"S", pr.S},
                           {"V", pr.V},     {"epsilon", pr.epsilon}};
        j["units"] = {{"A", "s/byte"},
                      {"C", "s/byte"},
                      {"S", "s"},
                      {"V", "bytes"},
                      {"time", "s"},
                      {"load", "bytes"},
                      {"alpha", "bytes per processor"},
                      {"lambda", "fraction of V"}};
        j.update(divisibleLoadJson(m));
        if (!mapping.is_null())
            j["mapping"] = mapping;
        io.out << j.dump(2) << '\n';
    } else if (o.csv) {
        printCsv(m, io.out);
    } else {
        printText(m, io.out);
        if (!mapping.is_null())
            io.out << "\nmapping on " << mapping["topology"].get<std::string>() << " from " << sourceName << ":\n"
                   << mapping.dump(2) << '\n';
    }
    return 0;
}

CommandRegistrar reg{Command{
    .name = "divisible",
    .help = "divisible-load scattering (Drozdowski & Glazek): per-layer load shares, speedup, bound, timeline",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<DivisibleOptions>();
            sub.add_option("--ports,-p", o->ports, "ports p (1..6); with --sweep a list such as 1,3,6")->delimiter(',');
            sub.add_option("--layers,-H", o->layersGiven,
                           "layers h after the originator (default: h_max, the best); with --sweep the last h");
            sub.add_option("--A", o->A, "inverse processing rate A (s/byte, > 0; default 1e-6)");
            sub.add_option("--C", o->C, "inverse link rate C (s/byte, >= 0; default 3.3e-9)");
            sub.add_option("--S", o->S, "setup time per message S (s, >= 0; default 8.57e-6)");
            sub.add_option("--V", o->V, "total load V (bytes, > 0; default 1e6)");
            sub.add_option("--epsilon", o->epsilon, "returned results as a fraction of the data (>= 0; default 0)");
            auto* json = sub.add_flag("--json", o->json,
                                      "print JSON (alpha, lambda, speedup, limit, bound, h_max, "
                                      "feasible, timeline, …)");
            auto* csv = sub.add_flag("--csv", o->csv, "print the per-layer timeline as CSV");
            json->excludes(csv);
            sub.add_option("--sweep", o->sweep, "print a CSV series: layers (Fig 4), rho (Fig 5), shares (Figs 6-7)");
            sub.add_option("--rho-factors", o->rhoFactors,
                           "with --sweep: factors applied to C (default 0.1,1,10 for rho)")
                ->delimiter(',');
            sub.add_option("--topology,-t", o->topology,
                           "also place the layers on this 3-D mesh/torus (e.g. mesh:16x16x16)");
            sub.add_option("--source", o->source, "with --topology: the originator node, e.g. 0,0,5 (default node 0)");
            return [o](Io& io) {
                if (o->layersGiven != kNotGiven && (o->layersGiven < 0 || o->layersGiven > kDivisibleMaxLayers))
                    throw Error("divisible: --layers " + std::to_string(o->layersGiven) + " is outside 0.." +
                                std::to_string(kDivisibleMaxLayers));
                o->layers = o->layersGiven == kNotGiven ? -1 : o->layersGiven;
                if (!o->sweep.empty())
                    return runSweep(*o, io);
                if (o->ports.empty())
                    throw Error("divisible: --ports P (1..6) is required");
                return runSingle(*o, io);
            };
        },
}};

} // namespace

} // namespace topocast::cli
