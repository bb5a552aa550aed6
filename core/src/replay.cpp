#include "topocast/replay.h"

#include "topocast/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace topocast {

namespace {

std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

std::uint64_t blockSeed(const Block& b)
{
    std::uint64_t h = splitmix64(0x746F706F63617374ull ^ b.origin); // "topocast"
    h = splitmix64(h ^ b.dest);
    return splitmix64(h ^ b.part);
}

std::uint64_t word(std::uint64_t seed, std::uint64_t wordIndex)
{
    return splitmix64(seed ^ (wordIndex * 0xD6E8FEB86659FD93ull));
}

constexpr std::uint64_t kFnvOffset = 0xCBF29CE484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001B3ull;

void fnv(std::uint64_t& h, std::uint64_t value)
{
    for (int i = 0; i < 8; ++i) {
        h ^= (value >> (8 * i)) & 0xFF;
        h *= kFnvPrime;
    }
}

} // namespace

std::uint8_t blockByte(const Block& b, std::uint64_t index)
{
    return static_cast<std::uint8_t>(word(blockSeed(b), index / 8) >> (8 * (index % 8)));
}

void fillBlock(const Block& b, std::span<std::uint8_t> out)
{
    const std::uint64_t seed = blockSeed(b);
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (i % 8 == 0)
            w = word(seed, i / 8);
        out[i] = static_cast<std::uint8_t>(w >> (8 * (i % 8)));
    }
}

std::uint64_t checksum(std::span<const std::uint8_t> bytes)
{
    std::uint64_t h = kFnvOffset;
    for (std::uint8_t c : bytes) {
        h ^= c;
        h *= kFnvPrime;
    }
    return h;
}

std::uint64_t blockChecksum(const Block& b, std::uint64_t bytes)
{
    const std::uint64_t seed = blockSeed(b);
    std::uint64_t h = kFnvOffset;
    std::uint64_t w = 0;
    for (std::uint64_t i = 0; i < bytes; ++i) {
        if (i % 8 == 0)
            w = word(seed, i / 8);
        h ^= (w >> (8 * (i % 8))) & 0xFF;
        h *= kFnvPrime;
    }
    return h;
}

std::size_t firstMismatch(const Block& b, std::span<const std::uint8_t> bytes)
{
    const std::uint64_t seed = blockSeed(b);
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % 8 == 0)
            w = word(seed, i / 8);
        if (bytes[i] != static_cast<std::uint8_t>(w >> (8 * (i % 8))))
            return i;
    }
    return bytes.size();
}

std::string describeBlock(const Topology& topo, const Block& b)
{
    auto name = [&](NodeId v) { return v < topo.nodeCount() ? topo.nodeName(v) : std::to_string(v); };
    return "block (origin " + name(b.origin) + ", dest " + (b.dest == Block::kAll ? std::string("all") : name(b.dest)) +
           ", part " + std::to_string(b.part) + ")";
}

std::vector<Block> requiredBlocks(const Schedule& schedule, NodeId node)
{
    const NodeId n = schedule.topology().nodeCount();
    if (node >= n)
        throw Error("node " + std::to_string(node) + " is outside the " + schedule.topology().displayName() + " (0.." +
                    std::to_string(n - 1) + ")");
    const NodeId src = schedule.source();
    std::vector<Block> out;
    const auto& takesPart = schedule.participants;
    if (schedule.pattern() == Pattern::Scatter && !takesPart.empty() &&
        std::find(takesPart.begin(), takesPart.end(), node) == takesPart.end())
        return out; // a scatter over part of the topology leaves the others idle
    for (std::uint32_t p = 0; p < schedule.parts; ++p) {
        switch (schedule.pattern()) {
        case Pattern::Broadcast:
            if (node != src)
                out.push_back(Block{src, Block::kAll, p});
            break;
        case Pattern::Scatter:
            if (node != src)
                out.push_back(Block{src, node, p});
            break;
        case Pattern::Allgather:
            for (NodeId u = 0; u < n; ++u)
                if (u != node)
                    out.push_back(Block{u, Block::kAll, p});
            break;
        case Pattern::Alltoall:
            for (NodeId u = 0; u < n; ++u)
                if (u != node)
                    out.push_back(Block{u, node, p});
            break;
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

int transferTag(std::uint32_t step, std::uint32_t ordinal, int tagUpperBound)
{
    constexpr std::uint64_t kStepModulus = 4096;
    const std::uint64_t tag = std::uint64_t{ordinal} * kStepModulus + step % kStepModulus;
    if (tagUpperBound < 0 || tag > static_cast<std::uint64_t>(tagUpperBound))
        throw Error("step " + std::to_string(step) + " has " + std::to_string(ordinal + 1) +
                    " transfers between the same two nodes; their message tags would exceed the MPI tag limit " +
                    std::to_string(tagUpperBound));
    return static_cast<int>(tag);
}

RankPlan rankPlan(const Schedule& schedule, NodeId node, int tagUpperBound)
{
    if (!schedule.finalized())
        throw Error("internal: Schedule::finalize() must run before rankPlan");
    RankPlan plan;
    plan.node = node;
    plan.required = requiredBlocks(schedule, node);
    const std::uint32_t steps = schedule.stepCount();
    plan.steps.resize(steps);
    std::map<std::pair<NodeId, NodeId>, std::uint32_t> ordinals;
    for (std::uint32_t step = 1; step <= steps; ++step) {
        ordinals.clear();
        const std::size_t first = schedule.stepBegin(step);
        const auto transfers = schedule.stepTransfers(step);
        for (std::size_t k = 0; k < transfers.size(); ++k) {
            const Transfer& t = transfers[k];
            const std::uint32_t ordinal = ordinals[{t.from, t.to}]++;
            if (t.from != node && t.to != node)
                continue;
            PlannedOp op;
            op.transfer = first + k;
            op.payload = t.payload;
            op.blocks = static_cast<std::uint32_t>(schedule.payload(t.payload).size());
            op.tag = transferTag(step, ordinal, tagUpperBound);
            if (t.from == node) {
                op.peer = t.to;
                plan.steps[step - 1].sends.push_back(op);
            }
            if (t.to == node) {
                op.peer = t.from;
                plan.steps[step - 1].receives.push_back(op);
            }
        }
    }
    return plan;
}

std::uint64_t transferBytes(const Schedule& schedule, const Transfer& t, std::uint64_t bytesPerBlock)
{
    return static_cast<std::uint64_t>(schedule.payload(t.payload).size()) * bytesPerBlock;
}

std::string scheduleFingerprint(const Schedule& schedule)
{
    std::uint64_t h = kFnvOffset;
    for (char c : schedule.topology().spec())
        fnv(h, static_cast<unsigned char>(c));
    fnv(h, static_cast<std::uint64_t>(schedule.pattern()));
    fnv(h, schedule.source());
    fnv(h, schedule.parts);
    for (const Transfer& t : schedule.transfers()) {
        fnv(h, (std::uint64_t{t.step} << 32) ^ 0x5eed);
        fnv(h, (std::uint64_t{t.from} << 32) | t.to);
        for (const Block& b : schedule.payload(t.payload)) {
            fnv(h, (std::uint64_t{b.origin} << 32) | b.dest);
            fnv(h, b.part);
        }
    }
    return fmt::format("{:016x}", h);
}

} // namespace topocast
