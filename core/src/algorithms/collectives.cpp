#include "topocast/algorithms/collectives.h"

#include "topocast/algorithms/baselines.h"
#include "topocast/error.h"
#include "topocast/figures.h"

#include <algorithm>
#include <bit>
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

std::string patternList() { return "allgather, reduce-scatter or allreduce"; }

std::uint32_t ceilLog2(std::uint32_t n) { return n <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(n - 1)); }

std::shared_ptr<const AlgorithmFigures> figuresOf(const std::string& algorithm, Pattern pattern, std::uint32_t n)
{
    const CollectiveCost c = collectiveCost(algorithm, pattern, n);
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
        return "the " + topo.displayName() + " has no Hamiltonian cycle (a mesh with an odd number of nodes has none); "
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
    if (c < 0)  // a torus with every side odd: the snake's end reaches column 0 across the wrap of c
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
    s.contentionFree = true;  // every transfer is one hop to the ring successor
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
        case Pattern::Allgather: b = Block{h[j], Block::kAll, 0}; break;
        case Pattern::ReduceScatter: b = Block{Block::kAll, h[j], 0}; break;
        default: b = Block{Block::kAll, Block::kAll, j}; break;
        }
        payload[j] = s.addPayload(std::span<const Block>(&b, 1));
    }
    const double size = pattern == Pattern::Allgather ? 1.0 : 1.0 / n;
    auto at = [n](std::int64_t i) { return static_cast<std::uint32_t>(((i % n) + n) % n); };
    const std::string first = pattern == Pattern::Allgather ? "all-gather" : "reduce-scatter";
    for (std::uint32_t k = 1; k <= phaseSteps; ++k) {
        for (std::uint32_t i = 0; i < n; ++i) {
            // Reduce-scatter: h_i sends its partial of chunk i − k; all-gather: the block of h_{i−k+1}.
            const std::uint32_t j = pattern == Pattern::Allgather ? at(std::int64_t{i} - k + 1) : at(std::int64_t{i} - k);
            s.add(h[i], h[at(i + 1)], StepNo{k}, {}, payload[j], j, size);
        }
        s.stepLabels.push_back(first + ", step " + std::to_string(k) + " of " + std::to_string(phaseSteps));
    }
    if (twoPhases)
        for (std::uint32_t k = 1; k <= phaseSteps; ++k) {
            for (std::uint32_t i = 0; i < n; ++i) {
                const std::uint32_t j = at(std::int64_t{i} - k + 1);  // complete chunks travel on
                s.add(h[i], h[at(i + 1)], StepNo{phaseSteps + k}, {}, payload[j], j, size);
            }
            s.stepLabels.push_back("all-gather, step " + std::to_string(k) + " of " + std::to_string(phaseSteps));
        }
    s.figures = figuresOf("ring", pattern, n);
    s.finalize();
    return s;
}

Schedule binomialReduce(const Topology& topo, NodeId root)
{
    const Schedule bcast = binomialBroadcast(topo, root);
    Schedule s(topo, root, Pattern::Reduce, PortModel::OnePort);
    s.algorithm = "binomial";
    s.sizeUnit = "message";
    s.contentionFree = false;  // as the broadcast: routes of one step may share channels
    const Block chunk{Block::kAll, Block::kAll, 0};
    const std::uint32_t payload = s.addPayload(std::span<const Block>(&chunk, 1));
    const std::uint32_t last = bcast.stepCount();
    s.reserve(bcast.size());
    for (const Transfer& t : bcast.transfers())
        s.add(t.to, t.from, StepNo{last + 1 - t.step}, {}, payload, 0, 1.0);
    s.figures = figuresOf("binomial", Pattern::Reduce, topo.nodeCount());
    s.finalize();
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
    s.figures = figuresOf("binomial", Pattern::Gather, n);
    s.finalize();
    return s;
}

CollectiveCost collectiveCost(const std::string& algorithm, Pattern pattern, std::uint32_t nodes)
{
    const double n = nodes, logN = ceilLog2(nodes);
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
    } else if (algorithm == "binomial") {
        switch (pattern) {
        case Pattern::Reduce:
            c = {logN, logN, c.lowerBoundStartups, c.lowerBoundData, "⌈log₂N⌉·α + ⌈log₂N⌉·M·β (the root receives a partial result every step)"};
            break;
        case Pattern::Gather:
            c = {logN, n - 1, c.lowerBoundStartups, c.lowerBoundData, "⌈log₂N⌉·α + (N−1)·M·β"};
            break;
        default:
            throw Error("binomial's collective costs are for reduce and gather; got pattern '" + toString(pattern) + "'");
        }
    } else {
        throw Error("no collective cost for algorithm '" + algorithm + "'");
    }
    return c;
}

} // namespace topocast
