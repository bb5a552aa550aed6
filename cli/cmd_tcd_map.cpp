// topocast-cli tcd-map: the TCD of the broadcast from every source, as a matrix
// (Cang & Wu §3). Text: one matrix per plane; --json: {"tcd": [...] in node-id order, "optimum",
// "optimal_sources", "eyes", …}.

#include "commands.h"

#include "envelope.h"
#include "node_matrix.h"

#include "topocast/algorithms/cang_wu.h"
#include "topocast/algorithms/registry.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <numeric>
#include <ostream>
#include <string>

namespace topocast::cli {

namespace {

struct TcdSourceMapOptions {
    std::string topology;
    std::string algorithm = "cang-wu";
    std::string mode;
    bool json = false;
};

int runTcdMap(const TcdSourceMapOptions& opt, Io& io)
{
    const Topology topo = Topology::parse(opt.topology);
    const AlgorithmInfo& algo = findAlgorithm(opt.algorithm);
    if (!algo.tcdSourceMap)
        throw Error("algorithm '" + algo.name + "' has no TCD source map; use --algorithm cang-wu");
    if (auto why = algo.whyNot(topo))
        throw Error(*why);
    Params params;
    std::string mode = opt.mode;
    if (mode.empty() && !algo.modes.empty())
        mode = algo.modes.front();
    if (!mode.empty())
        params.set("mode", mode);
    const std::vector<std::uint64_t> tcd = algo.tcdSourceMap(topo, params);

    const bool cangWu = algo.name == "cang-wu";
    const std::uint64_t minimum = tcd.empty() ? 0 : *std::min_element(tcd.begin(), tcd.end());
    const std::uint64_t maximum = tcd.empty() ? 0 : *std::max_element(tcd.begin(), tcd.end());
    const std::uint64_t sum = std::accumulate(tcd.begin(), tcd.end(), std::uint64_t{0});
    int k = 0;
    if (cangWu) {
        k = cubicPowerOfTwoExponent(topo);
        mode = toString(parseCangWuMode(mode));
    }
    const std::uint64_t optimum = cangWu ? cangWuOptimum(topo.dims(), k) : minimum;
    std::vector<NodeId> optimalSources;
    for (NodeId id{}; id < tcd.size(); ++id)
        if (tcd[id] == minimum)
            optimalSources.push_back(id);
    std::vector<Coord> eyes;
    if (cangWu)
        eyes = meshEyes(topo.dims(), k);

    if (opt.json) {
        nlohmann::ordered_json doc = envelope("topocast-tcd-map", topo);
        doc["algorithm"] = algo.name;
        doc["mode"] = mode;
        doc["sides"] = topo.sides();
        doc["unit"] = "hops";
        doc["tcd"] = tcd;
        doc["optimum"] = optimum;
        doc["min"] = minimum;
        doc["max"] = maximum;
        doc["sum"] = sum;
        nlohmann::ordered_json sources = nlohmann::ordered_json::array();
        for (NodeId id : optimalSources)
            sources.push_back(nodeToJson(topo, id));
        doc["optimal_sources"] = std::move(sources);
        if (cangWu) {
            nlohmann::ordered_json e = nlohmann::ordered_json::array();
            for (const Coord& c : eyes)
                e.push_back(nodeToJson(topo, topo.idUnchecked(c)));
            doc["eyes"] = std::move(e);
            if (topo.isTorus())
                doc["note"] = "torus: the eye schedule moved to each source; optimum is OD_k, the mesh's least TCD, "
                              "not a proven minimum "
                              "on the torus (docs/glossary.md)";
        }
        io.out << doc.dump() << '\n';
        return 0;
    }

    io.out << algo.name << (mode.empty() ? "" : " (" + mode + ")") << ": TCD of the broadcast from every source of the "
           << topo.displayName() << '\n';
    std::vector<std::string> cells;
    cells.reserve(tcd.size());
    for (std::uint64_t v : tcd)
        cells.push_back(std::to_string(v));
    printNodeMatrices(io.out, topo, cells);
    io.out << "min " << minimum << ", max " << maximum << ", sum " << sum << " hops\n";
    if (cangWu)
        io.out << "optimum OD_" << k << " = " << optimum << (topo.isTorus() ? " (eye schedule)" : "")
               << " (OD_k: the least TCD over every source, Cang & Wu §1; docs/glossary.md)\n";
    io.out << "sources with TCD " << minimum << ": " << optimalSources.size();
    if (optimalSources.size() <= 64) {
        io.out << ':';
        for (NodeId id : optimalSources)
            io.out << ' ' << topo.nodeName(id);
    }
    io.out << '\n';
    if (cangWu) {
        io.out << "eyes:";
        for (const Coord& c : eyes)
            io.out << ' ' << topo.nodeName(topo.idUnchecked(c));
        io.out << '\n';
    }
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "tcd-map",
    .help = "total communication distance of the broadcast from every source, as a matrix",
    .setup =
        [](CLI::App& sub) {
            auto opt = std::make_shared<TcdSourceMapOptions>();
            sub.add_option("--topology,-t", opt->topology, "mesh:8x8, mesh:4x4x4, torus:8x8, …")->required();
            sub.add_option("--algorithm", opt->algorithm, "algorithm with a TCD source map (default cang-wu)");
            sub.add_option("--mode", opt->mode, "cang-wu: optimal (default), eye-best or paper");
            sub.add_flag(
                "--json", opt->json,
                "write JSON (tcd in node-id order, x fastest; nodes as coordinate arrays, addresses on a hypercube)");
            return [opt](Io& io) { return runTcdMap(*opt, io); };
        },
}};

} // namespace

} // namespace topocast::cli
