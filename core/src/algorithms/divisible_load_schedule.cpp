#include "topocast/algorithms/divisible_load.h"

#include "topocast/algorithms/figures.h"
#include "topocast/analysis/metrics.h"
#include "topocast/model/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

// The divisible-load Scatter(p) schedule: one step per move (Drozdowski & Głazek §2.1–§2.2; the layout is
// our reconstruction of the paper's lost Figs. 1–2).

namespace topocast {

namespace {

std::string pointName(const Point3& p)
{
    return "(" + std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]) + ")";
}

void requireThreeD(const Topology& topo)
{
    if (topo.isHypercube() || topo.dims() != 3)
        throw Error("divisible-load needs a 3-D mesh or torus large enough for the layers; got " + topo.displayName());
}

const char* axisName(std::size_t a)
{
    return a == 0 ? "x" : a == 1 ? "y" : "z";
}

// The placement, or an error message when nothing fits.
struct Fit {
    bool ok = false;
    ScatterPlacement placement;
    std::string why;
};

Fit tryPlace(const Topology& topo, NodeId source, int p, int h)
{
    const auto box = scatterBox(p, h);
    const Point3 lo = box[0], hi = box[1], org = box[2];
    Fit fit;
    ScatterPlacement& pl = fit.placement;
    pl.origin = org;
    pl.wrap = topo.isTorus();
    for (std::size_t a = 0; a < 3; ++a) {
        pl.sides[a] = topo.side(static_cast<int>(a));
        pl.anchor[a] = topo.coord(source, static_cast<int>(a));
    }
    const Point3 extent{hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1};
    std::ostringstream why;
    const std::string pattern = "the p = " + std::to_string(p) + ", " + std::to_string(h) + "-layer pattern spans " +
                                std::to_string(extent[0]) + "×" + std::to_string(extent[1]) + "×" +
                                std::to_string(extent[2]) + " nodes";
    for (std::size_t a = 0; a < 3; ++a)
        if (extent[a] > pl.sides[a]) {
            why << "divisible-load: " << pattern << "; the " << topo.displayName() << " is too small (" << axisName(a)
                << " side " << pl.sides[a] << " < " << extent[a]
                << "); use fewer layers or a mesh with sides ≥ the pattern's extent";
            fit.why = why.str();
            return fit;
        }
    if (pl.wrap) {
        fit.ok = true;
        return fit;
    }
    // Mesh: per axis, translation if the box fits around the source, else its reflection.
    auto fits = [&](std::size_t a, int sign) {
        const int c = pl.anchor[a];
        const int below = sign > 0 ? org[a] - lo[a] : hi[a] - org[a];
        const int above = sign > 0 ? hi[a] - org[a] : org[a] - lo[a];
        return c - below >= 0 && c + above <= pl.sides[a] - 1;
    };
    auto range = [&](std::size_t a, int sign) {
        const int below = sign > 0 ? org[a] - lo[a] : hi[a] - org[a];
        const int above = sign > 0 ? hi[a] - org[a] : org[a] - lo[a];
        const int last = pl.sides[a] - 1 - above;
        return below == last ? std::to_string(below) : std::to_string(below) + ".." + std::to_string(last);
    };
    auto either = [](const std::string& a, const std::string& b) { return a == b ? a : a + " or " + b; };
    bool ok = true;
    std::ostringstream need;
    if (p == 3) {
        // y and z are reflected together (keeps the move-1 routes expressible as RouteSpecs).
        pl.mirror[0] = fits(0, 1) ? 1 : fits(0, -1) ? -1 : 0;
        pl.mirror[1] = pl.mirror[2] = (fits(1, 1) && fits(2, 1)) ? 1 : (fits(1, -1) && fits(2, -1)) ? -1 : 0;
        if (pl.mirror[0] == 0) {
            ok = false;
            need << " x in " << either(range(0, 1), range(0, -1)) << ";";
        }
        if (pl.mirror[1] == 0) {
            ok = false;
            need << " (y, z) in " << either(range(1, 1) + " × " + range(2, 1), range(1, -1) + " × " + range(2, -1))
                 << ";";
        }
    } else {
        for (std::size_t a = 0; a < 3; ++a) {
            pl.mirror[a] = fits(a, 1) ? 1 : fits(a, -1) ? -1 : 0;
            if (pl.mirror[a] == 0) {
                ok = false;
                need << " " << axisName(a) << " in " << either(range(a, 1), range(a, -1)) << ";";
            }
        }
    }
    if (!ok) {
        std::string n = need.str();
        n.pop_back();
        why << "divisible-load: " << pattern << " with the originator at "
            << pointName({org[0] - lo[0], org[1] - lo[1], org[2] - lo[2]}) << " of it; it does not fit the "
            << topo.displayName() << " around source " << topo.nodeName(source)
            << " even reflected; sources that fit have" << n;
        fit.why = why.str();
        return fit;
    }
    fit.ok = true;
    return fit;
}

// A RouteSpec for a transfer with displacement `disp` whose preferred hop order is `order`.
RouteSpec routeFor(const Point3& disp, const std::array<int, 3>& order)
{
    std::vector<int> nz;
    for (int a : order)
        if (disp[static_cast<std::size_t>(a)] != 0)
            nz.push_back(a);
    if (nz.size() <= 1)
        return RouteSpec::dimensionOrder();
    int sign = 0;
    bool same = true;
    for (int a : nz) {
        const int s = disp[static_cast<std::size_t>(a)] > 0 ? 1 : -1;
        if (sign != 0 && s != sign)
            same = false;
        sign = s;
    }
    if (!same)
        return RouteSpec::dimensionOrder();
    for (int start = 0; start < 3; ++start) {
        std::vector<int> seq;
        for (int k = 0; k < 3; ++k) {
            const int a = (start + k) % 3;
            if (disp[static_cast<std::size_t>(a)] != 0)
                seq.push_back(a);
        }
        if (seq == nz)
            return RouteSpec::cyclic(start, sign);
    }
    return RouteSpec::dimensionOrder();
}

} // namespace

std::vector<ParamSpec> divisibleLoadParamSpecs()
{
    using K = ParamSpec::Kind;
    constexpr double kUnbounded = 1e300;
    const DivisibleLoadParams d;
    return {
        {.key = "p",
         .label = "ports p",
         .kind = K::Integer,
         .min = 1,
         .max = 6,
         .byDefault = d.ports,
         .help = "p: simultaneous sends per processor (Scatter(p))",
         .aliases = {"ports"}},
        {.key = "layers",
         .label = "layers h",
         .kind = K::Integer,
         .min = 0,
         .max = kDivisibleMaxLayers,
         .defaultText = "the most that fit around the source",
         .help = "h: layers after the originator (= moves)"},
        {.key = "A",
         .label = "processing A",
         .kind = K::Number,
         .min = 0,
         .max = kUnbounded,
         .minExcluded = true,
         .byDefault = d.A,
         .unit = "s/byte",
         .help = "A: inverse processing rate"},
        {.key = "C",
         .label = "link C",
         .kind = K::Number,
         .min = 0,
         .max = kUnbounded,
         .byDefault = d.C,
         .unit = "s/byte",
         .help = "C: inverse link transfer rate"},
        {.key = "S",
         .label = "setup S",
         .kind = K::Number,
         .min = 0,
         .max = kUnbounded,
         .byDefault = d.S,
         .unit = "s",
         .help = "S: circuit setup time per message"},
        {.key = "V",
         .label = "load V",
         .kind = K::Number,
         .min = 0,
         .max = kUnbounded,
         .minExcluded = true,
         .byDefault = d.V,
         .unit = "bytes",
         .help = "V: total load"},
        {.key = "epsilon",
         .label = "results ε",
         .kind = K::Number,
         .min = 0,
         .max = kUnbounded,
         .byDefault = d.epsilon,
         .help = "ε: returned results as a fraction of the data (C_eff = (1+ε)C)"},
    };
}

DivisibleLoadParams divisibleLoadParamsFrom(const ParamValues& params)
{
    DivisibleLoadParams pr;
    pr.ports = static_cast<int>(params.integer("p", pr.ports));
    pr.layers = params.given("layers") ? static_cast<int>(params.integer("layers")) : pr.layers;
    pr.A = params.number("A", pr.A);
    pr.C = params.number("C", pr.C);
    pr.S = params.number("S", pr.S);
    pr.V = params.number("V", pr.V);
    pr.epsilon = params.number("epsilon", pr.epsilon);
    checkDivisibleLoadParams(pr);
    return pr;
}

ScatterPlacement placeScatter(const Topology& topo, NodeId source, int p, int h)
{
    requireThreeD(topo);
    if (source >= topo.nodeCount())
        throw Error("divisible-load: source " + std::to_string(source) + " is outside the " + topo.displayName());
    Fit fit = tryPlace(topo, source, p, h);
    if (!fit.ok)
        throw Error(fit.why);
    return fit.placement;
}

namespace {

/// The largest h that is feasible and fits the topology at this source (0 when none does:
/// then Error naming why not even one layer fits, if the topology has the nodes for one).
int largestLayers(const Topology& topo, NodeId source, int p, std::optional<int> hMax)
{
    int h = 0;
    const int cap = hMax ? *hMax : kDivisibleMaxLayers;
    while (h < cap && std::pow(p + 1.0, h + 1.0) <= topo.nodeCount() && tryPlace(topo, source, p, h + 1).ok)
        ++h;
    if (h == 0 && cap > 0 && std::pow(p + 1.0, 1.0) <= topo.nodeCount()) {
        const Fit one = tryPlace(topo, source, p, 1);
        if (!one.ok)
            throw Error(one.why + " (not even one layer fits; choose another source or p)");
    }
    return h;
}

/// Error unless the model is feasible and the topology has (p+1)^h nodes.
void requireBuildable(const Topology& topo, const DivisibleLoadParams& pr, const DivisibleLoadModel& model,
                      std::optional<int> hMax)
{
    const int p = pr.ports, h = pr.layers;
    if (!model.feasible)
        throw Error(fmt::format("divisible-load: layers = {} is infeasible for p = {}, A = {:.10g}, C = {:.10g}, "
                                "S = {:.10g}, V = {:.10g}, epsilon = {:.10g} (α_{} = {:.10g} ≤ 0); the largest "
                                "feasible number of layers is {}",
                                h, p, pr.A, pr.C, pr.S, pr.V, pr.epsilon, h, model.alpha.back(), hMax.value_or(h)));
    if (std::pow(p + 1.0, h) > topo.nodeCount())
        throw Error("divisible-load: the " + topo.displayName() + " (" + std::to_string(topo.nodeCount()) +
                    " nodes) is too small for p = " + std::to_string(p) + " with " + std::to_string(h) +
                    " layers, which needs " + fmt::format("{:.10g}", std::pow(p + 1.0, h)) + " processors");
}

/// The topology node of every mapping node.
std::vector<NodeId> placedNodes(const Topology& topo, const ScatterPlacement& place, const ScatterMapping& map)
{
    std::vector<NodeId> ids(map.size());
    for (std::size_t i = 0; i < map.size(); ++i) {
        const Point3 c = place.place(map.coords[i]);
        ids[i] = topo.idUnchecked(Coord{c[0], c[1], c[2]});
    }
    return ids;
}

/// Subtree sizes and preorder positions of the mapping's tree: every subtree is a contiguous
/// range [pre, pre + subtree) of the preorder.
struct Preorder {
    std::vector<std::uint32_t> subtree, pre;
};

Preorder preorderOf(const ScatterMapping& map)
{
    const std::size_t n = map.size();
    Preorder o{std::vector<std::uint32_t>(n, 1), std::vector<std::uint32_t>(n, 0)};
    std::vector<std::uint32_t> cursor(n, 0);
    for (std::size_t i = n; i-- > 1;)
        o.subtree[map.parent[i]] += o.subtree[i];
    cursor[0] = 1;
    for (std::size_t i = 1; i < n; ++i) {
        const std::uint32_t par = map.parent[i];
        o.pre[i] = cursor[par];
        cursor[par] += o.subtree[i];
        cursor[i] = o.pre[i] + 1;
    }
    return o;
}

/// Dimension order of the route to mapping node i: x, y, z, except p = 3's move 1 of a step,
/// where (0,3,2) goes y then z and the other two z then y.
std::array<int, 3> routeOrder(const ScatterMapping& map, std::size_t i)
{
    const int layer = map.layer[i];
    if (map.p != 3 || (layer - 1) % 3 != 0)
        return {0, 1, 2};
    const Point3 to = map.coords[i];
    long long t = 1;
    for (int k = 0; k < map.steps - 1 - (layer - 1) / 3; ++k)
        t *= 4;
    const int dy = static_cast<int>((to[1] / t) % 4), dz = static_cast<int>((to[2] / t) % 4);
    return (dy == 3 && dz == 2) ? std::array<int, 3>{1, 2, 0} : std::array<int, 3>{2, 1, 0};
}

/// One transfer per mapping node: its parent sends it its subtree's blocks in move `layer`.
void addScatterTransfers(Schedule& sched, const ScatterMapping& map, const ScatterPlacement& place,
                         const std::vector<NodeId>& ids, const DivisibleLoadModel& model)
{
    const std::size_t n = map.size();
    const Preorder order = preorderOf(map);
    std::vector<Block> blocks(n);
    for (std::size_t i = 0; i < n; ++i)
        blocks[order.pre[i]] = Block{sched.source(), ids[i], 0};
    sched.reserve(n);
    const std::span<const Block> all(blocks);
    for (std::size_t i = 1; i < n; ++i) {
        const int layer = map.layer[i];
        const Point3 from = map.coords[map.parent[i]];
        const Point3 to = map.coords[i];
        Point3 disp{};
        for (std::size_t a = 0; a < 3; ++a)
            disp[a] = place.mirror[a] * (to[a] - from[a]);
        const std::uint32_t payload = sched.addPayload(all.subspan(order.pre[i], order.subtree[i]));
        sched.add(ids[map.parent[i]], ids[i], StepNo{layer}, routeFor(disp, routeOrder(map, i)), payload,
                  static_cast<std::uint32_t>(layer), model.messageSize[static_cast<std::size_t>(layer)]);
    }
}

std::vector<std::string> moveLabels(const DivisibleLoadModel& model)
{
    std::vector<std::string> labels;
    for (int k = 1; k <= model.params.layers; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        labels.push_back(fmt::format("move {} (step {}, move {} of 3): layer {}, {:.10g} messages of {:.10g} "
                                     "load units",
                                     k, (k - 1) / 3 + 1, (k - 1) % 3 + 1, k, model.layerSize[kk],
                                     model.messageSize[kk]));
    }
    return labels;
}

/// Where the pattern went: the originator, the reflections and the box on the topology.
ScatterPlacementFigures placementFigures(const Topology& topo, const ScatterPlacement& place, const ScatterMapping& map)
{
    ScatterPlacementFigures f;
    f.rule = "the originator is put on the source; on a mesh each axis whose extent would leave the "
             "mesh is reflected (p = 3: y and z together); on a torus coordinates wrap";
    for (std::size_t a = 0; a < 3; ++a) {
        f.originator[a] = place.anchor[a];
        f.mirror[a] = place.mirror[a];
        const int u = place.anchor[a] + place.mirror[a] * (map.boxMin[a] - place.origin[a]);
        const int v = place.anchor[a] + place.mirror[a] * (map.boxMax[a] - place.origin[a]);
        f.boxMin[a] = std::min(u, v);
        f.boxMax[a] = std::max(u, v);
    }
    f.processors = map.size();
    f.unusedNodes = topo.nodeCount() - map.size();
    return f;
}

/// What kind of routes p gets and how much they contend, per move.
ScatterRouteFigures routeFigures(const Schedule& sched, int p, int h, const Metrics& metrics)
{
    ScatterRouteFigures f;
    f.contentionUsesPerMove.assign(static_cast<std::size_t>(h), 0);
    f.contendedChannelsPerMove.assign(static_cast<std::size_t>(h), 0);
    // computeMetrics keeps no records with limit 0; count per step from the loads.
    for (int k = 1; k <= h && metrics.contentionUses > 0; ++k) {
        const auto load = stepChannelLoad(sched, StepNo{k});
        for (std::uint32_t l : load)
            if (l > 1) {
                f.contentionUsesPerMove[static_cast<std::size_t>(k - 1)] += l;
                ++f.contendedChannelsPerMove[static_cast<std::size_t>(k - 1)];
            }
    }
    if (p <= 2)
        f.kind = "the spec's straight routes along the move's axis (contention-free)";
    else if (p == 3)
        f.kind = "the spec's routes for moves 1 and 3; move 2 goes straight along x (the spec's detours "
                 "through the pinwheel arms cannot be expressed as dimension-ordered/cyclic routes), so "
                 "the three messages of a move-2 sender share its first x channel";
    else
        f.kind = "display only: dimension-ordered x, y, z routes without wrap-around; the paper's "
                 "pattern relies on torus wrap inside the basic cube, so routes contend and some senders "
                 "have fewer than p links";
    f.contentionUses = metrics.contentionUses;
    f.maxStepLoad = metrics.maxStepLoad;
    return f;
}

/// Figures for the app and files: the model, the placement, the routes and their contention, warnings.
std::shared_ptr<const AlgorithmFigures> scatterFigures(const Schedule& sched, const DivisibleLoadModel& model,
                                                       bool autoLayers, const ScatterPlacement& place,
                                                       const ScatterMapping& map)
{
    const Topology& topo = sched.topology();
    const int p = model.params.ports;
    DivisibleLoadFigures f;
    f.model = model;
    f.timeline = divisibleLoadTimeline(model);
    f.speedupByLayers = divisibleLoadSpeedupByLayers(model.params);
    f.layersChosen = autoLayers ? "auto (largest feasible h that fits)" : "given";
    f.placement = placementFigures(topo, place, map);
    const Metrics metrics = computeMetrics(sched, 0);
    f.routes = routeFigures(sched, p, model.params.layers, metrics);
    if (p == 6 && topo.isMesh())
        f.warnings.push_back("p = 6 is the paper's 6-port torus scheme; on a mesh its routes are display only");
    if (p >= 4 && metrics.contentionUses > 0)
        f.warnings.push_back("routes contend (" + std::to_string(metrics.contentionUses) +
                             " channel uses); the analytic model ignores routes (transfer time is distance-free)");
    return std::make_shared<const AlgorithmFigures>(AlgorithmFigures{std::move(f)});
}

} // namespace

Schedule divisibleLoadSchedule(const Topology& topo, NodeId source, const ParamValues& params)
{
    requireThreeD(topo);
    if (source >= topo.nodeCount())
        throw Error("divisible-load: source " + std::to_string(source) + " is outside the " + topo.displayName());
    if (params.text("pattern", "scatter") != "scatter")
        throw Error("divisible-load computes a scatter only; got pattern '" + params.text("pattern") + "'");
    DivisibleLoadParams pr = divisibleLoadParamsFrom(params);
    const int p = pr.ports;
    const std::optional<int> hMax = divisibleLoadMaxLayers(pr);
    const bool autoLayers = !params.given("layers");
    if (autoLayers)
        pr.layers = largestLayers(topo, source, p, hMax);
    const int h = pr.layers;
    const DivisibleLoadModel model = solveDivisibleLoad(pr);
    requireBuildable(topo, pr, model, hMax);
    const ScatterPlacement place = placeScatter(topo, source, p, h);
    const ScatterMapping map = scatterMapping(p, h);
    const std::vector<NodeId> ids = placedNodes(topo, place, map);

    Schedule sched(topo, source, Pattern::Scatter, PortModel::MultiPort);
    sched.algorithm = "divisible-load";
    sched.mode = "scatter(" + std::to_string(p) + ")";
    sched.maxSendsPerStep = p;
    sched.contentionFree = false; // store-and-forward moves: a step's routes may share channels (spec §1.5)
    sched.sizeUnit = "load";
    // p = 3: z before y for the mixed-sign move-1 route (−z, +y, +y) of spec §1.5.
    if (p == 3)
        sched.dimensionOrder = {2, 1, 0};
    if (map.size() < topo.nodeCount())
        sched.participants = ids; // the rest of the topology stays idle
    addScatterTransfers(sched, map, place, ids, model);
    sched.stepLabels = moveLabels(model);
    sched.finalize();
    sched.figures = scatterFigures(sched, model, autoLayers, place, map);
    return sched;
}

} // namespace topocast
