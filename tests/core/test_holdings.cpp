// What each node holds after each step: core Holdings against a brute-force
// replay of the schedule with a set of blocks per node, and `topocast-cli buffers` against it.
#include "cli_runner.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/replay.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace topocast;
using topocast::testing::CliRun;
using topocast::testing::runCli;

namespace {

struct HoldingsCase {
    const char* algorithm;
    const char* topology;
    std::uint32_t source;
    Params params;
};

std::vector<HoldingsCase> holdingsCases()
{
    return {
        {"binomial", "mesh:4x4", 5, {}},
        {"cang-wu", "mesh:8x8", 19, {}},
        {"tsay-wang", "torus:5x5", 7, {}},
        {"sbt", "hypercube:4", 6, {{"pattern", "scatter"}}},
        {"sbnt", "hypercube:3", 2, {{"pattern", "scatter"}, {"message", "2"}}},
        {"sbnt", "hypercube:3", 0, {{"pattern", "allgather"}}},
        {"nesbt", "hypercube:3", 5, {{"pattern", "alltoall"}}},
        {"nrsbt", "hypercube:4", 3, {{"pattern", "broadcast"}, {"message", "8"}, {"packet", "2"}}},
        {"divisible-load", "mesh:9x9x9", 364, {{"layers", "2"}, {"p", "2"}}},
    };
}

/// Every node's blocks, replayed step by step with a set per node (the definition, not the
/// incremental structure Holdings keeps), and checked against Holdings at every step.
void checkAgainstReplay(const Schedule& s)
{
    const Holdings h(s);
    const std::uint32_t n = s.topology().nodeCount();
    std::vector<std::set<Block>> held(n), required(n);
    for (NodeId v{}; v < n; ++v) {
        const auto initial = initialBlocks(s, v);
        held[v].insert(initial.begin(), initial.end());
        const auto req = requiredBlocks(s, v);
        required[v].insert(req.begin(), req.end());
        CHECK(h.requiredCount(v) == req.size());
    }
    for (StepNo k{}; k <= s.stepCount(); ++k) {
        if (k > 0) {
            // Receives of step k, applied after every send of step k has read its sender's state.
            std::vector<std::pair<NodeId, Block>> arriving;
            for (const Transfer& t : s.stepTransfers(k))
                for (const Block& b : s.payload(t.payload))
                    arriving.emplace_back(t.to, b);
            for (const auto& [to, b] : arriving)
                held[to].insert(b);
        }
        for (NodeId v{}; v < n; ++v) {
            INFO("step " << k << ", node " << s.topology().nodeName(v));
            const std::vector<HeldBlock> blocks = h.blocksAt(s, v, k);
            std::set<Block> got;
            for (const HeldBlock& b : blocks) {
                got.insert(b.block);
                CHECK(b.chunk == chunkId(s, b.block));
                CHECK(b.sources == std::vector<NodeId>{NodeId{b.block.origin}});
            }
            CHECK(got.size() == blocks.size()); // each block once
            CHECK(got == held[v]);
            CHECK(h.countAt(v, k) == held[v].size());
            std::size_t requiredHeld = 0;
            for (const Block& b : held[v])
                requiredHeld += required[v].count(b);
            CHECK(h.requiredHeldAt(v, k) == requiredHeld);
        }
    }
    // A valid schedule ends with every node holding its whole final data.
    for (NodeId v{}; v < n; ++v)
        CHECK(h.finalShareAt(v, StepNo{s.stepCount()}) == 1.0);
}

} // namespace

TEST_CASE("holdings: every node's blocks after every step equal a brute-force replay", "[holdings]")
{
    for (const HoldingsCase& c : holdingsCases()) {
        INFO(c.algorithm << " on " << c.topology << " from " << c.source);
        const Schedule s = buildSchedule(c.algorithm, Topology::parse(c.topology), NodeId{c.source}, c.params);
        checkAgainstReplay(s);
    }
}

TEST_CASE("holdings: chunk ids are dense, and each chunk starts at exactly one node", "[holdings]")
{
    for (const HoldingsCase& c : holdingsCases()) {
        INFO(c.algorithm << " on " << c.topology);
        const Schedule s = buildSchedule(c.algorithm, Topology::parse(c.topology), NodeId{c.source}, c.params);
        std::set<std::uint64_t> ids;
        std::size_t blocks = 0;
        for (NodeId v{}; v < s.topology().nodeCount(); ++v)
            for (const Block& b : initialBlocks(s, v)) {
                ++blocks;
                CHECK(b.origin == v);
                const std::uint64_t id = chunkId(s, b);
                CHECK(id < chunkCount(s));
                ids.insert(id);
            }
        CHECK(ids.size() == blocks);
        // The ids name the data: all of it for broadcast and allgather, all but a node's block
        // to itself for scatter (the source's) and alltoall (every node's).
        const std::uint64_t n = s.topology().nodeCount(), p = s.parts;
        const std::uint64_t missing = s.pattern() == Pattern::Alltoall                            ? n * p
                                      : s.pattern() == Pattern::Scatter && s.participants.empty() ? p
                                                                                                  : 0;
        if (s.participants.empty())
            CHECK(ids.size() + missing == chunkCount(s));
    }
    const Schedule b = buildSchedule("binomial", Topology::parse("mesh:4x4"), NodeId{0}, {});
    CHECK(chunkId(b, Block{0, Block::kAll, 0}) == 0);
    CHECK(chunkId(b, Block{3, Block::kAll, 0}) == kNoChunk); // not the source's data
    CHECK(chunkId(b, Block{0, Block::kAll, 1}) == kNoChunk); // no part 1
}

TEST_CASE("holdings: a block received twice counts once, and a schedule that drops one ends short", "[holdings]")
{
    Schedule s = buildSchedule("binomial", Topology::parse("mesh:4x4"), NodeId{0}, {});
    const Transfer last = s.transfers().back();
    // The last receiver gets the message a second time one step later: nothing new.
    s.add(Transfer{last.from, last.to, StepNo{last.step + 1}, {}, last.payload, 0, 1.0});
    s.finalize();
    const Holdings twice(s);
    CHECK(twice.countAt(last.to, StepNo{last.step}) == 1);
    CHECK(twice.countAt(last.to, StepNo{last.step + 1}) == 1);
    // Drop it altogether: the receiver ends without its data, the others with theirs.
    s.mutableTransfers().pop_back();
    s.mutableTransfers().erase(s.mutableTransfers().end() - 1);
    s.finalize();
    const Holdings dropped(s);
    CHECK(dropped.finalShareAt(last.to, StepNo{s.stepCount()}) == 0.0);
    CHECK(dropped.finalShareAt(NodeId{0}, StepNo{s.stepCount()}) == 1.0);
    CHECK_THROWS_AS(Holdings(Schedule(Topology::parse("mesh:2x2"), NodeId{0}, Pattern::Broadcast, PortModel::OnePort)),
                    Error); // not finalized: nothing to index yet (finalize() first)
}

TEST_CASE("buffers: topocast-cli prints what every node holds at a step, as Holdings computes it", "[holdings][cli]")
{
    // SBnT all-gather on the 3-cube from the spec's example: after step 1 each node holds its
    // own block and its neighbour's across dimension 0.
    const CliRun r = runCli({"buffers", "--topology", "hypercube:3", "--algorithm", "sbnt", "--pattern", "allgather",
                             "--step", "1", "--json"});
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["format"] == "topocast-buffers");
    CHECK(doc["pattern"] == "allgather");
    CHECK(doc["step"] == 1);
    CHECK(doc["chunks"] == 8);
    const Schedule s = buildSchedule("sbnt", Topology::hypercube(3), NodeId{0}, {{"pattern", "allgather"}});
    CHECK(doc["steps"] == s.stepCount());
    const Holdings h(s);
    REQUIRE(doc["nodes"].size() == 8);
    for (NodeId v{}; v < 8; ++v) {
        const auto& node = doc["nodes"][v.value()];
        INFO(s.topology().nodeName(v));
        CHECK(node["required"] == 7);
        CHECK(node["required_held"] == h.requiredHeldAt(v, StepNo{1}));
        std::set<std::uint64_t> chunks, sources, expected;
        for (const auto& b : node["blocks"]) {
            chunks.insert(b["chunk"].get<std::uint64_t>());
            for (const auto& u : b["sources"])
                sources.insert(u.get<std::uint64_t>());
        }
        for (const HeldBlock& b : h.blocksAt(s, v, StepNo{1}))
            expected.insert(b.chunk);
        CHECK(chunks == expected);
        CHECK(sources == expected); // P = 1: an all-gather chunk is its origin's data
        CHECK(chunks.count(v.value()) == 1);
    }
    // The text form, and a step out of range refused with the range.
    const CliRun text = runCli({"buffers", "--topology", "mesh:2x2", "--algorithm", "binomial", "--step", "0"});
    CHECK(text.status == 0);
    CHECK(text.out.find("(0,0): 0 of its 0 required; chunks 0") != std::string::npos);
    CHECK(text.out.find("(1,0): 0 of its 1 required; chunks none") != std::string::npos);
    const CliRun bad = runCli({"buffers", "--topology", "mesh:2x2", "--algorithm", "binomial", "--step", "9"});
    CHECK(bad.status != 0);
    CHECK(bad.err.find("--step 9: this schedule has steps 1..2; 0 is before the first") != std::string::npos);
}
