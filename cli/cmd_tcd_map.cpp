// topocast-cli tcd-map: the TCD of the broadcast from every source, as a matrix (spec
// mesh-tcd §6). Text: one matrix per plane; --json: {"tcd": [...] in node-id order, "optimum",
// "optimal_sources", "eyes", …}.

#include "commands.h"

#include "topocast/algorithms/cang_wu.h"
#include "topocast/algorithms/registry.h"
#include "topocast/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <numeric>
#include <ostream>
#include <string>

namespace topocast::cli {

namespace {

struct TcdMapOptions {
    std::string topology;
    std::string algorithm = "cang-wu";
    std::string mode;
    bool json = false;
};

nlohmann::ordered_json coordJson(const Topology& topo, NodeId id)
{
    nlohmann::ordered_json c = nlohmann::ordered_json::array();
    for (int v : topo.coords(id))
        c.push_back(v);
    return c;
}

/// Prints one matrix: rows = `rowDim`, columns = x, with the other coordinates fixed as in `base`.
void printPlane(std::ostream& out, const Topology& topo, const std::vector<std::uint64_t>& tcd, Coord base, int rowDim,
                std::size_t width)
{
    const int cols = topo.side(0);
    const int rows = rowDim < 0 ? 1 : topo.side(rowDim);
    for (int r = 0; r < rows; ++r) {
        if (rowDim >= 0)
            base[static_cast<std::size_t>(rowDim)] = r;
        for (int x = 0; x < cols; ++x) {
            base[0] = x;
            const std::string v = std::to_string(tcd[topo.idUnchecked(base)]);
            out << std::string(width + 1 - std::min(width, v.size()), ' ') << v;
        }
        out << '\n';
    }
}

void printMatrices(std::ostream& out, const Topology& topo, const std::vector<std::uint64_t>& tcd)
{
    const int d = topo.dims();
    std::size_t width = 1;
    for (std::uint64_t v : tcd)
        width = std::max(width, std::to_string(v).size());
    Coord base(static_cast<std::size_t>(d), 0);
    if (d == 1) {
        out << "columns = x\n";
        printPlane(out, topo, tcd, base, -1, width);
        return;
    }
    if (d == 2) {
        out << "rows = y, columns = x\n";
        printPlane(out, topo, tcd, base, 1, width);
        return;
    }
    if (d == 3) {
        // The papers' Fig. 5 layout: one plane per y, rows = z, columns = x.
        for (int y = 0; y < topo.side(1); ++y) {
            out << "plane y = " << y << " (rows = z, columns = x)\n";
            base[1] = y;
            printPlane(out, topo, tcd, base, 2, width);
        }
        return;
    }
    // d ≥ 4: one plane per combination of coordinates 2..d−1, rows = y, columns = x.
    const std::uint32_t planes = topo.nodeCount() / static_cast<std::uint32_t>(topo.side(0) * topo.side(1));
    for (std::uint32_t p = 0; p < planes; ++p) {
        std::uint32_t rest = p;
        out << "plane";
        for (int i = 2; i < d; ++i) {
            base[static_cast<std::size_t>(i)] = static_cast<int>(rest % static_cast<std::uint32_t>(topo.side(i)));
            rest /= static_cast<std::uint32_t>(topo.side(i));
            out << (i == 2 ? " " : ", ") << "x" << i << " = " << base[static_cast<std::size_t>(i)];
        }
        out << " (rows = y, columns = x)\n";
        printPlane(out, topo, tcd, base, 1, width);
    }
}

int runTcdMap(const TcdMapOptions& opt, Io& io)
{
    const Topology topo = Topology::parse(opt.topology);
    const AlgorithmInfo& algo = findAlgorithm(opt.algorithm);
    if (!algo.tcdMap)
        throw Error("algorithm '" + algo.name + "' has no per-source TCD map; use --algorithm cang-wu");
    if (auto why = algo.whyNot(topo))
        throw Error(*why);
    Params params;
    std::string mode = opt.mode;
    if (mode.empty() && !algo.modes.empty())
        mode = algo.modes.front();
    if (!mode.empty())
        params.set("mode", mode);
    const std::vector<std::uint64_t> tcd = algo.tcdMap(topo, params);

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
    for (NodeId id = 0; id < tcd.size(); ++id)
        if (tcd[id] == minimum)
            optimalSources.push_back(id);
    std::vector<Coord> eyes;
    if (cangWu)
        eyes = meshEyes(topo.dims(), k);

    if (opt.json) {
        nlohmann::ordered_json doc;
        doc["format"] = "topocast-tcd-map";
        doc["version"] = 1;
        doc["topology"] = topo.spec();
        doc["algorithm"] = algo.name;
        doc["mode"] = mode;
        doc["sides"] = topo.sides();
        doc["tcd"] = tcd;
        doc["optimum"] = optimum;
        doc["min"] = minimum;
        doc["max"] = maximum;
        doc["sum"] = sum;
        nlohmann::ordered_json sources = nlohmann::ordered_json::array();
        for (NodeId id : optimalSources)
            sources.push_back(coordJson(topo, id));
        doc["optimal_sources"] = std::move(sources);
        if (cangWu) {
            nlohmann::ordered_json e = nlohmann::ordered_json::array();
            for (const Coord& c : eyes)
                e.push_back(c);
            doc["eyes"] = std::move(e);
            if (topo.isTorus())
                doc["note"] = "torus: translated eye schedule; OD_k from every source (not a proven minimum)";
        }
        io.out << doc.dump() << '\n';
        return 0;
    }

    io.out << algo.name << (mode.empty() ? "" : " (" + mode + ")") << ": TCD of the broadcast from every source of the "
           << topo.displayName() << '\n';
    printMatrices(io.out, topo, tcd);
    io.out << "min " << minimum << ", max " << maximum << ", sum " << sum << '\n';
    if (cangWu)
        io.out << "optimum OD_" << k << " = " << optimum << (topo.isTorus() ? " (eye schedule)" : "") << '\n';
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
    "tcd-map",
    "total communication distance of the broadcast from every source, as a matrix",
    [](CLI::App& sub) {
        auto opt = std::make_shared<TcdMapOptions>();
        sub.add_option("--topology,-t", opt->topology, "mesh:8x8, mesh:4x4x4, torus:8x8, …")->required();
        sub.add_option("--algorithm", opt->algorithm, "algorithm with a TCD map (default cang-wu)");
        sub.add_option("--mode", opt->mode, "cang-wu: optimal (default), eye-best or paper");
        sub.add_flag("--json", opt->json, "write JSON (tcd in node-id order, x fastest)");
        return [opt](Io& io) { return runTcdMap(*opt, io); };
    },
}};

} // namespace

} // namespace topocast::cli
