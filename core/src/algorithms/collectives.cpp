#include "topocast/algorithms/collectives.h"

#include "topocast/algorithms/baselines.h"
#include "topocast/algorithms/figures.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>

namespace topocast {

namespace {

/// A dimension c whose rows (the other dimensions' nodes) are even in number, so the cycle
/// needs no wrap; −1 if there is none.
int evenRowsDimension(const Topology& topo)
{
    for (int c = 0; c < topo.dims(); ++c) {
        if (topo.side(c) < 2)
            continue;
        for (int k = 0; k < topo.dims(); ++k)
            if (k != c && topo.side(k) % 2 == 0)
                return c;
    }
    return -1;
}

/// The boustrophedon order of the nodes with coordinate 0 in dimension c (the rows), as ids.
std::vector<std::uint32_t> snakeRows(const Topology& topo, int c)
{
    std::vector<std::uint32_t> order{0}, next;
    for (int k = 0; k < topo.dims(); ++k) {
        if (k == c)
            continue;
        next.clear();
        next.reserve(order.size() * static_cast<std::size_t>(topo.side(k)));
        for (int v = 0; v < topo.side(k); ++v) {
            const std::uint32_t offset = static_cast<std::uint32_t>(v) * topo.stride(k);
            if (v % 2 == 0)
                for (std::uint32_t e : order)
                    next.push_back(e + offset);
            else
                for (auto it = order.rbegin(); it != order.rend(); ++it)
                    next.push_back(*it + offset);
        }
        order.swap(next);
    }
    return order;
}

std::string patternList()
{
    return "allgather, reduce-scatter or allreduce";
}

std::uint32_t ceilLog2(std::uint32_t n)
{
    return n <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(n - 1));
}

std::shared_ptr<const AlgorithmFigures> figuresOf(const std::string& algorithm, Pattern pattern, const Topology& topo)
{
    const CollectiveCost c = collectiveCost(algorithm, pattern, topo);
    CollectiveFigures f;
    f.algorithm = algorithm;
    f.pattern = toString(pattern);
    f.startups = c.startups;
    f.data = c.data;
    f.time = f.alpha * c.startups + f.beta * c.data * f.message;
    f.lowerBoundStartups = c.lowerBoundStartups;
    f.lowerBoundData = c.lowerBoundData;
    f.lowerBoundTime = f.alpha * c.lowerBoundStartups + f.beta * c.lowerBoundData * f.message;
    f.formula = c.formula;
    return std::make_shared<const AlgorithmFigures>(AlgorithmFigures{f});
}

} // namespace

std::optional<std::string> hamiltonianCycleWhyNot(const Topology& topo)
{
    const std::uint32_t n = topo.nodeCount();
    if (n < 2)
        return "a ring needs at least two nodes; got the " + topo.displayName();
    if (topo.isHypercube() || topo.isTorus())
        return std::nullopt;
    if (topo.dims() == 1)
        return n == 2 ? std::nullopt
                      : std::optional<std::string>("a 1-D mesh of " + std::to_string(n) +
                                                   " nodes is a path, not a cycle; use a torus (a ring), a mesh with "
                                                   "an even number of nodes in two or more dimensions, or a hypercube");
    if (n % 2 != 0)
        return "the " + topo.displayName() +
               " has no Hamiltonian cycle (a mesh with an odd number of nodes has none); "
               "use a torus, a mesh with an even side, or a hypercube";
    return std::nullopt;
}

std::vector<NodeId> hamiltonianCycle(const Topology& topo)
{
    if (auto why = hamiltonianCycleWhyNot(topo))
        throw Error(*why);
    const std::uint32_t n = topo.nodeCount();
    std::vector<NodeId> cycle;
    cycle.reserve(n);
    if (topo.isHypercube()) {
        for (std::uint32_t i = 0; i < n; ++i)
            cycle.push_back(NodeId{i ^ (i >> 1)});
        return cycle;
    }
    if (topo.dims() == 1 || n == 2) {
        for (std::uint32_t i = 0; i < n; ++i)
            cycle.push_back(NodeId{i});
        return cycle;
    }
    int c = evenRowsDimension(topo);
    if (c < 0) // a torus with every side odd: the snake's end reaches column 0 across the wrap of c
        for (c = 0; topo.side(c) < 2; ++c) {
        }
    const std::vector<std::uint32_t> rows = snakeRows(topo, c);
    const std::uint32_t stride = topo.stride(c);
    const auto m = static_cast<std::uint32_t>(topo.side(c));
    // Node 0 (column 0 of the first row) first, then the snake over columns 1..m−1, then column 0
    // back from the last row.
    cycle.push_back(NodeId{rows.front()});
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::uint32_t i = 1; i < m; ++i)
            cycle.push_back(NodeId{rows[r] + (r % 2 == 0 ? i : m - i) * stride});
    for (std::size_t r = rows.size(); r-- > 1;)
        cycle.push_back(NodeId{rows[r]});
    return cycle;
}

Schedule ringSchedule(const Topology& topo, Pattern pattern)
{
    if (pattern != Pattern::Allgather && pattern != Pattern::ReduceScatter && pattern != Pattern::Allreduce)
        throw Error("ring computes " + patternList() + "; got pattern '" + toString(pattern) + "'");
    const std::vector<NodeId> h = hamiltonianCycle(topo);
    const std::uint32_t n = topo.nodeCount();
    Schedule s(topo, NodeId{0}, pattern, PortModel::OnePort);
    s.algorithm = "ring";
    s.sizeUnit = "message";
    s.contentionFree = true; // every transfer is one hop to the ring successor
    const bool twoPhases = pattern == Pattern::Allreduce;
    if (twoPhases)
        s.parts = n;
    const std::uint32_t phaseSteps = n - 1;
    s.reserve(std::size_t{n} * phaseSteps * (twoPhases ? 2 : 1));
    // One payload per ring position j: the message of h_j (allgather), the partial of h_j's chunk
    // (reduce-scatter), chunk j (allreduce).
    std::vector<std::uint32_t> payload(n);
    for (std::uint32_t j = 0; j < n; ++j) {
        Block b;
        switch (pattern) {
        case Pattern::Allgather:
            b = Block{h[j], Block::kAll, 0};
            break;
        case Pattern::ReduceScatter:
            b = Block{Block::kAll, h[j], 0};
            break;
        default:
            b = Block{Block::kAll, Block::kAll, j};
            break;
        }
        payload[j] = s.addPayload(std::span<const Block>(&b, 1));
    }
    const double size = pattern == Pattern::Allgather ? 1.0 : 1.0 / n;
    auto at = [n](std::int64_t i) { return static_cast<std::uint32_t>(((i % n) + n) % n); };
    const std::string first = pattern == Pattern::Allgather ? "all-gather" : "reduce-scatter";
    for (std::uint32_t k = 1; k <= phaseSteps; ++k) {
        for (std::uint32_t i = 0; i < n; ++i) {
            // Reduce-scatter: h_i sends its partial of chunk i − k; all-gather: the block of h_{i−k+1}.
            const std::uint32_t j =
                pattern == Pattern::Allgather ? at(std::int64_t{i} - k + 1) : at(std::int64_t{i} - k);
            s.add(h[i], h[at(i + 1)], StepNo{k}, {}, payload[j], j, size);
        }
        s.stepLabels.push_back(first + ", step " + std::to_string(k) + " of " + std::to_string(phaseSteps));
    }
    if (twoPhases)
        for (std::uint32_t k = 1; k <= phaseSteps; ++k) {
            for (std::uint32_t i = 0; i < n; ++i) {
                const std::uint32_t j = at(std::int64_t{i} - k + 1); // complete chunks travel on
                s.add(h[i], h[at(i + 1)], StepNo{phaseSteps + k}, {}, payload[j], j, size);
            }
            s.stepLabels.push_back("all-gather, step " + std::to_string(k) + " of " + std::to_string(phaseSteps));
        }
    s.figures = figuresOf("ring", pattern, topo);
    s.finalize();
    return s;
}

namespace {

/// One stage of a staged collective: the nodes in disjoint groups of k, each in ring order.
struct Stage {
    std::vector<std::vector<NodeId>> groups;
    std::string along; ///< "x", "y (distance 2)", … for the step captions
};

std::string dimensionName(const Topology& topo, int d)
{
    return d < 3 && !topo.isHypercube() ? std::string(1, "xyz"[d]) : "dimension " + std::to_string(d);
}

/// Reduce-scatter stage by stage (each group's ring leaves node j of it the j-th k-th of the
/// chunks it held), all-gather back in the reverse order, on a vector of N chunks; the
/// pattern says which halves run and what a chunk is (allreduce: chunk c; reduce-scatter: the
/// chunk of the node that ends with it; allgather: the message of that node).
Schedule stagedSchedule(const Topology& topo, Pattern pattern, const std::vector<Stage>& stages,
                        const std::string& name, bool contentionFree)
{
    if (pattern != Pattern::Allgather && pattern != Pattern::ReduceScatter && pattern != Pattern::Allreduce)
        throw Error(name + " computes " + patternList() + "; got pattern '" + toString(pattern) + "'");
    const std::uint32_t n = topo.nodeCount();
    Schedule s(topo, NodeId{0}, pattern, PortModel::OnePort);
    s.algorithm = name;
    s.sizeUnit = "message";
    s.contentionFree = contentionFree;
    if (pattern == Pattern::Allreduce)
        s.parts = n;
    // Every node's range of chunks before each stage, and after the last: [lo, hi).
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> range(
        stages.size() + 1, std::vector<std::pair<std::uint32_t, std::uint32_t>>(n));
    range[0].assign(n, {0u, n});
    for (std::size_t t = 0; t < stages.size(); ++t)
        for (const std::vector<NodeId>& g : stages[t].groups) {
            const auto k = static_cast<std::uint32_t>(g.size());
            for (std::uint32_t j = 0; j < k; ++j) {
                const auto [lo, hi] = range[t][g[j]];
                if (hi - lo != range[t][g[0]].second - range[t][g[0]].first || (hi - lo) % k != 0)
                    throw Error(name + ": the groups of stage " + std::to_string(t + 1) +
                                " do not split the chunks evenly");
                const std::uint32_t part = (hi - lo) / k;
                range[t + 1][g[j]] = {lo + j * part, lo + (j + 1) * part};
            }
        }
    // The node each chunk ends at.
    std::vector<NodeId> owner(n);
    for (NodeId v{}; v < n; ++v) {
        const auto [lo, hi] = range.back()[v];
        if (hi != lo + 1)
            throw Error(name + ": its stages leave " + topo.nodeName(v) + " with " + std::to_string(hi - lo) +
                        " chunks, not one");
        owner[lo] = v;
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> payloads;
    std::vector<Block> blocks;
    auto payloadOf = [&](std::uint32_t lo, std::uint32_t hi) {
        auto [it, fresh] = payloads.emplace(std::pair{lo, hi}, 0u);
        if (fresh) {
            blocks.clear();
            for (std::uint32_t c = lo; c < hi; ++c)
                blocks.push_back(pattern == Pattern::Allgather       ? Block{owner[c], Block::kAll, 0}
                                 : pattern == Pattern::ReduceScatter ? Block{Block::kAll, owner[c], 0}
                                                                     : Block{Block::kAll, Block::kAll, c});
            it->second = s.addPayload(blocks);
        }
        return it->second;
    };
    const double unit = pattern == Pattern::Allgather ? 1.0 : 1.0 / n;
    std::uint32_t step = 0;
    // One ring step of a group: position i sends the sub-range `which(i)` of `from`'s ranges.
    auto ringSteps = [&](const Stage& stage, std::size_t t, bool gather) {
        const auto k = static_cast<std::uint32_t>(stage.groups.front().size());
        for (std::uint32_t r = 1; r < k; ++r) {
            ++step;
            for (const std::vector<NodeId>& g : stage.groups)
                for (std::uint32_t i = 0; i < k; ++i) {
                    // Reduce-scatter: the partial of sub-range i − r; all-gather: sub-range i − r + 1.
                    const std::uint32_t j = (i + k - r + (gather ? 1 : 0)) % k;
                    const auto [lo, hi] = range[t + 1][g[j]];
                    s.add(g[i], g[(i + 1) % k], StepNo{step}, {}, payloadOf(lo, hi), j, unit * (hi - lo));
                }
            s.stepLabels.push_back((gather ? "all-gather along " : "reduce-scatter along ") + stage.along + ", step " +
                                   std::to_string(r) + " of " + std::to_string(k - 1));
        }
    };
    if (pattern != Pattern::Allgather)
        for (std::size_t t = 0; t < stages.size(); ++t)
            ringSteps(stages[t], t, false);
    if (pattern != Pattern::ReduceScatter)
        for (std::size_t t = stages.size(); t-- > 0;)
            ringSteps(stages[t], t, true);
    s.figures = figuresOf(name, pattern, topo);
    s.finalize();
    return s;
}

} // namespace

Schedule bucketSchedule(const Topology& topo, Pattern pattern)
{
    if (topo.nodeCount() < 2)
        throw Error("bucket needs at least two nodes; got the " + topo.displayName());
    std::vector<Stage> stages;
    for (int d = 0; d < topo.dims(); ++d) {
        const int k = topo.side(d);
        if (k < 2)
            continue;
        // The ring order of a line: a torus's own ring; a mesh line folded (0, 2, 4, …, 5, 3, 1).
        std::vector<std::uint32_t> order;
        if (topo.isTorus() || k == 2) {
            for (int x = 0; x < k; ++x)
                order.push_back(static_cast<std::uint32_t>(x));
        } else {
            for (int x = 0; x < k; x += 2)
                order.push_back(static_cast<std::uint32_t>(x));
            for (int x = (k % 2 == 0 ? k - 1 : k - 2); x >= 1; x -= 2)
                order.push_back(static_cast<std::uint32_t>(x));
        }
        Stage stage;
        stage.along = dimensionName(topo, d);
        for (NodeId v{}; v < topo.nodeCount(); ++v) {
            if (topo.coord(v, d) != 0)
                continue;
            std::vector<NodeId> line;
            for (std::uint32_t x : order)
                line.push_back(NodeId{v + x * topo.stride(d)});
            stage.groups.push_back(std::move(line));
        }
        stages.push_back(std::move(stage));
    }
    return stagedSchedule(topo, pattern, stages, "bucket", true);
}

std::optional<std::string> rabenseifnerWhyNot(const Topology& topo)
{
    if (topo.nodeCount() < 2)
        return "rabenseifner needs at least two nodes; got the " + topo.displayName();
    for (int d = 0; d < topo.dims(); ++d)
        if (!std::has_single_bit(static_cast<unsigned>(topo.side(d))))
            return "rabenseifner halves the network: every side must be a power of two; got the " + topo.displayName() +
                   " (ring and bucket take any torus)";
    return std::nullopt;
}

Schedule rabenseifnerSchedule(const Topology& topo, Pattern pattern)
{
    if (auto why = rabenseifnerWhyNot(topo))
        throw Error(*why);
    if (pattern != Pattern::ReduceScatter && pattern != Pattern::Allreduce)
        throw Error("rabenseifner computes reduce-scatter or allreduce; got pattern '" + toString(pattern) + "'");
    std::vector<Stage> stages;
    bool oneHop = true;
    for (int d = 0; d < topo.dims(); ++d)
        for (int half = topo.side(d) / 2; half >= 1; half /= 2) {
            Stage stage;
            stage.along = dimensionName(topo, d) + (topo.side(d) > 2 ? " (distance " + std::to_string(half) + ")" : "");
            for (NodeId v{}; v < topo.nodeCount(); ++v)
                if ((topo.coord(v, d) & half) == 0)
                    stage.groups.push_back({v, NodeId{v + static_cast<std::uint32_t>(half) * topo.stride(d)}});
            oneHop = oneHop && half == 1;
            stages.push_back(std::move(stage));
        }
    // Exchanges farther than one hop may share channels within a step (pairs interleave).
    return stagedSchedule(topo, pattern, stages, "rabenseifner", oneHop);
}

Schedule recursiveDoublingAllreduce(const Topology& topo)
{
    if (topo.nodeCount() < 2)
        throw Error("recursive-doubling needs at least two nodes; got the " + topo.displayName());
    for (int d = 0; d < topo.dims(); ++d)
        if (!std::has_single_bit(static_cast<unsigned>(topo.side(d))))
            throw Error("recursive-doubling needs every side to be a power of two; got the " + topo.displayName() +
                        " (ring and bucket take any torus)");
    Schedule s(topo, NodeId{0}, Pattern::Allreduce, PortModel::OnePort);
    s.algorithm = "recursive-doubling";
    s.sizeUnit = "message";
    const std::vector<Block> vector{Block{Block::kAll, Block::kAll, 0}};
    const std::uint32_t whole = s.addPayload(vector);
    bool oneHop = true;
    std::uint32_t step = 0;
    for (int d = 0; d < topo.dims(); ++d)
        for (int distance = 1; distance < topo.side(d); distance *= 2) {
            ++step;
            const auto stride = topo.stride(d);
            for (NodeId v{}; v < topo.nodeCount(); ++v) {
                const int x = topo.coord(v, d);
                const NodeId partner{v - static_cast<std::uint32_t>(x) * stride +
                                     static_cast<std::uint32_t>(x ^ distance) * stride};
                s.add(v, partner, StepNo{step}, {}, whole, 0, 1.0);
            }
            oneHop = oneHop && distance == 1;
            s.stepLabels.push_back("exchange the whole vector along " + dimensionName(topo, d) +
                                   (topo.side(d) > 2 ? " (distance " + std::to_string(distance) + ")" : ""));
        }
    // Exchanges farther than one hop may share channels within a step (pairs interleave).
    s.contentionFree = oneHop;
    s.figures = figuresOf("recursive-doubling", Pattern::Allreduce, topo);
    s.finalize();
    return s;
}

Schedule binomialReduce(const Topology& topo, NodeId root)
{
    Schedule s = reversedSchedule(binomialBroadcast(topo, root));
    s.figures = figuresOf("binomial", Pattern::Reduce, topo);
    return s;
}

Schedule binomialGather(const Topology& topo, NodeId root)
{
    const Schedule bcast = binomialBroadcast(topo, root);
    const std::uint32_t n = topo.nodeCount();
    Schedule s(topo, root, Pattern::Gather, PortModel::OnePort);
    s.algorithm = "binomial";
    s.sizeUnit = "message";
    s.contentionFree = false;
    // Each node's subtree, leaves first: a node's children receive after it in the broadcast, so
    // walking the broadcast backwards completes every child's list before its parent's.
    std::vector<std::vector<std::uint32_t>> subtree(n);
    for (std::uint32_t v = 0; v < n; ++v)
        subtree[v].push_back(v);
    const std::uint32_t last = bcast.stepCount();
    const auto& transfers = bcast.transfers();
    std::vector<std::uint32_t> payloadOf(transfers.size());
    std::vector<Block> blocks;
    for (std::size_t i = transfers.size(); i-- > 0;) {
        const Transfer& t = transfers[i];
        std::vector<std::uint32_t>& mine = subtree[t.to];
        std::sort(mine.begin(), mine.end());
        blocks.clear();
        for (std::uint32_t v : mine)
            blocks.push_back(Block{v, Block::kAll, 0});
        payloadOf[i] = s.addPayload(blocks);
        subtree[t.from].insert(subtree[t.from].end(), mine.begin(), mine.end());
    }
    s.reserve(transfers.size());
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const Transfer& t = transfers[i];
        s.add(t.to, t.from, StepNo{last + 1 - t.step}, {}, payloadOf[i], 0,
              static_cast<double>(s.payload(payloadOf[i]).size()));
    }
    s.figures = figuresOf("binomial", Pattern::Gather, topo);
    s.finalize();
    return s;
}

Schedule reversedSchedule(const Schedule& in)
{
    const Pattern from = in.pattern();
    if (from != Pattern::Broadcast && from != Pattern::Scatter)
        throw Error("only a broadcast (into a reduce) or a scatter (into a gather) can be run backwards; got a " +
                    toString(from));
    const Topology& topo = in.topology();
    Schedule s(topo, in.source(), from == Pattern::Broadcast ? Pattern::Reduce : Pattern::Gather, in.portModel());
    s.algorithm = in.algorithm;
    s.mode = in.mode;
    s.parts = in.parts;
    s.sizeUnit = in.sizeUnit;
    s.maxSendsPerStep = in.maxSendsPerStep;
    s.dimensionOrder = in.dimensionOrder;
    bool oneHop = true;
    for (const Transfer& t : in.transfers())
        oneHop = oneHop && in.hops(t) == 1;
    s.contentionFree = in.contentionFree && oneHop;
    std::vector<std::uint32_t> payloadOf(in.payloadCount());
    std::vector<Block> blocks;
    for (std::uint32_t p = 0; p < in.payloadCount(); ++p) {
        blocks.clear();
        for (const Block& b : in.payload(p))
            blocks.push_back(from == Pattern::Broadcast ? Block{Block::kAll, Block::kAll, b.part}
                                                        : Block{b.dest, Block::kAll, b.part});
        std::sort(blocks.begin(), blocks.end());
        blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
        payloadOf[p] = s.addPayload(blocks);
    }
    const std::uint32_t last = in.stepCount();
    s.reserve(in.size());
    for (const Transfer& t : in.transfers())
        s.add(t.to, t.from, StepNo{last + 1 - t.step}, oneHop ? t.route : RouteSpec{}, payloadOf[t.payload], t.tag,
              t.size);
    s.stepLabels.assign(in.stepLabels.rbegin(), in.stepLabels.rend());
    if (in.figures) {
        AlgorithmFigures f = *in.figures;
        if (auto* h = std::get_if<HypercubeFigures>(&f.of))
            h->formula = "the " + toString(from) + "'s, run backwards: " + h->formula;
        s.figures = std::make_shared<const AlgorithmFigures>(std::move(f));
    }
    s.finalize();
    // A forward schedule that starts with idle steps (a half-duplex cycle 0) ends the reduce early.
    if (s.stepLabels.size() > s.stepCount())
        s.stepLabels.resize(s.stepCount());
    return s;
}

CollectiveCost collectiveLowerBound(Pattern pattern, const Topology& topo)
{
    const double n = topo.nodeCount(), logN = ceilLog2(topo.nodeCount());
    CollectiveCost c;
    c.lowerBoundStartups = logN;
    switch (pattern) {
    case Pattern::Allgather:
    case Pattern::Gather:
        c.lowerBoundData = n - 1;
        break;
    case Pattern::ReduceScatter:
        c.lowerBoundData = (n - 1) / n;
        break;
    case Pattern::Allreduce:
        c.lowerBoundData = 2 * (n - 1) / n;
        break;
    case Pattern::Reduce:
        c.lowerBoundData = 1;
        break;
    default:
        throw Error("no collective cost for pattern '" + toString(pattern) + "'");
    }
    return c;
}

CollectiveCost collectiveCost(const std::string& algorithm, Pattern pattern, const Topology& topo)
{
    const double n = topo.nodeCount(), logN = ceilLog2(topo.nodeCount());
    double rings = 0; // bucket: Σ (k_d − 1)
    for (int d = 0; d < topo.dims(); ++d)
        rings += topo.side(d) - 1;
    CollectiveCost c = collectiveLowerBound(pattern, topo);
    if (algorithm == "ring") {
        switch (pattern) {
        case Pattern::Allgather:
            c = {n - 1, n - 1, c.lowerBoundStartups, c.lowerBoundData, "(N−1)·α + (N−1)·M·β"};
            break;
        case Pattern::ReduceScatter:
            c = {n - 1, (n - 1) / n, c.lowerBoundStartups, c.lowerBoundData, "(N−1)·α + (N−1)/N·M·β"};
            break;
        case Pattern::Allreduce:
            c = {2 * (n - 1), 2 * (n - 1) / n, c.lowerBoundStartups, c.lowerBoundData, "2(N−1)·α + 2(N−1)/N·M·β"};
            break;
        default:
            throw Error("ring computes " + patternList() + "; got pattern '" + toString(pattern) + "'");
        }
    } else if (algorithm == "bucket" || algorithm == "rabenseifner") {
        const double steps = algorithm == "bucket" ? rings : logN;
        const std::string k = algorithm == "bucket" ? "Σ(k_d−1)" : "log₂N";
        switch (pattern) {
        case Pattern::Allgather:
            c = {steps, n - 1, c.lowerBoundStartups, c.lowerBoundData, k + "·α + (N−1)·M·β"};
            break;
        case Pattern::ReduceScatter:
            c = {steps, (n - 1) / n, c.lowerBoundStartups, c.lowerBoundData, k + "·α + (N−1)/N·M·β"};
            break;
        case Pattern::Allreduce:
            c = {2 * steps, 2 * (n - 1) / n, c.lowerBoundStartups, c.lowerBoundData, "2" + k + "·α + 2(N−1)/N·M·β"};
            break;
        default:
            throw Error(algorithm + " computes " + patternList() + "; got pattern '" + toString(pattern) + "'");
        }
    } else if (algorithm == "recursive-doubling") {
        if (pattern != Pattern::Allreduce)
            throw Error("recursive-doubling's collective costs are for allreduce; got pattern '" + toString(pattern) +
                        "'");
        c = {logN, logN, c.lowerBoundStartups, c.lowerBoundData, "log₂N·α + log₂N·M·β (the whole vector every step)"};
    } else if (algorithm == "binomial") {
        switch (pattern) {
        case Pattern::Reduce:
            c = {logN, logN, c.lowerBoundStartups, c.lowerBoundData,
                 "⌈log₂N⌉·α + ⌈log₂N⌉·M·β (the root receives a partial result every step)"};
            break;
        case Pattern::Gather:
            c = {logN, n - 1, c.lowerBoundStartups, c.lowerBoundData, "⌈log₂N⌉·α + (N−1)·M·β"};
            break;
        default:
            throw Error("binomial's collective costs are for reduce and gather; got pattern '" + toString(pattern) +
                        "'");
        }
    } else {
        throw Error("no collective cost for algorithm '" + algorithm + "'");
    }
    return c;
}

} // namespace topocast
