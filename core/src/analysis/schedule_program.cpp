// A schedule as a program of sends and receives for the time engine (time_engine.h): its
// transfers' sizes in bytes, the ports they use and the data each send waits for.
#include "topocast/analysis/time_engine.h"

#include "topocast/model/error.h"
#include "topocast/model/routing.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace topocast {

std::uint64_t blockBytes(const Schedule& schedule, std::uint64_t message)
{
    const Pattern p = schedule.pattern();
    std::uint64_t divisor = std::max<std::uint32_t>(schedule.parts, 1);
    if (p != Pattern::Broadcast && p != Pattern::Reduce && p != Pattern::Allreduce) {
        const std::uint64_t n =
            schedule.participants.empty() ? schedule.topology().nodeCount() : schedule.participants.size();
        divisor *= std::max<std::uint64_t>(n, 1);
    }
    return std::max<std::uint64_t>(1, (message + divisor - 1) / divisor);
}

std::uint64_t transferBytesOf(const Schedule& schedule, const Transfer& t, std::uint64_t message)
{
    if (schedule.sizeUnit == "load") {
        double load = 0;
        for (const Transfer& u : schedule.transfers())
            if (u.from == schedule.source())
                load += u.size;
        if (load > 0)
            return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(t.size / load * static_cast<double>(message))));
    }
    return schedule.payload(t.payload).size() * blockBytes(schedule, message);
}

namespace {

/// Hash of (node, block) for the dependency table.
struct HeldKey {
    std::uint32_t node;
    Block block;
    friend bool operator==(const HeldKey&, const HeldKey&) = default;
};
struct HeldKeyHash {
    std::size_t operator()(const HeldKey& k) const
    {
        std::uint64_t h = k.node;
        h = h * 0x9E3779B97F4A7C15ull ^ k.block.origin;
        h = h * 0x9E3779B97F4A7C15ull ^ k.block.dest;
        h = h * 0x9E3779B97F4A7C15ull ^ k.block.part;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

/// The port a message leaves `from` by (all-port: its first link's direction; k-port: that
/// modulo k; one-port: 0) and the port it arrives at `to` by.
std::pair<std::uint32_t, std::uint32_t> portsOf(const Schedule& s, const Transfer& t, const NetworkModel& m)
{
    if (m.ports == NetworkPorts::One || t.from == t.to)
        return {0, 0};
    const Topology& topo = s.topology();
    const auto ports = static_cast<std::uint64_t>(topo.portsPerNode());
    std::int64_t first = -1, last = -1;
    forEachChannel(topo, t.from, t.to, t.route, s.dimensionOrder, [&](ChannelId c) {
        if (first < 0)
            first = static_cast<std::int64_t>(c % ports);
        last = static_cast<std::int64_t>(c % ports);
    });
    if (first < 0)
        return {0, 0};
    auto out = static_cast<std::uint32_t>(first);
    // The receiver's port faces back along the last link: the opposite sign in its dimension.
    auto in = static_cast<std::uint32_t>(topo.isHypercube() ? last : last ^ 1);
    if (m.ports == NetworkPorts::K) {
        out %= static_cast<std::uint32_t>(m.k);
        in %= static_cast<std::uint32_t>(m.k);
    }
    return {out, in};
}

} // namespace

OpProgram scheduleProgram(const Schedule& schedule, const NetworkModel& network)
{
    if (!schedule.finalized())
        throw Error("the schedule must be finalized before it is timed");
    OpProgram program;
    program.ranks = schedule.topology().nodeCount();
    const std::vector<Transfer>& transfers = schedule.transfers();
    program.ops.reserve(transfers.size() * 2);
    double load = 0;
    if (schedule.sizeUnit == "load")
        for (const Transfer& u : transfers)
            if (u.from == schedule.source())
                load += u.size;
    const std::uint64_t perBlock = blockBytes(schedule, network.message);
    std::unordered_map<HeldKey, std::vector<std::uint32_t>, HeldKeyHash> held;
    std::vector<std::pair<HeldKey, std::uint32_t>> arriving;
    std::unordered_map<std::uint32_t, std::uint32_t> lastSend;
    for (StepNo step : steps(schedule)) {
        for (std::size_t i = schedule.stepBegin(step); i < schedule.stepEnd(step); ++i) {
            const Transfer& t = transfers[i];
            const auto blocks = schedule.payload(t.payload);
            const std::uint64_t bytes =
                load > 0 ? std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(t.size / load * static_cast<double>(network.message))))
                         : blocks.size() * perBlock;
            const auto [out, in] = portsOf(schedule, t, network);
            const auto hops = static_cast<std::uint32_t>(schedule.hops(t));
            const auto send = static_cast<std::uint32_t>(program.ops.size());
            program.ops.push_back(ProgramOp{.kind = ProgramOp::Kind::Send, .rank = t.from.value(), .peer = t.to.value(),
                                            .tag = static_cast<std::uint32_t>(i), .size = bytes, .nic = out,
                                            .recvNic = in, .hops = hops, .transfer = static_cast<std::int64_t>(i)});
            program.ops.push_back(ProgramOp{.kind = ProgramOp::Kind::Recv, .rank = t.to.value(), .peer = t.from.value(),
                                            .tag = static_cast<std::uint32_t>(i), .size = bytes, .nic = in,
                                            .recvNic = in, .transfer = static_cast<std::int64_t>(i)});
            // A rank issues its sends in the schedule's order (as a program does): a send
            // starts no sooner than the rank's send before it.
            if (const auto previous = lastSend.find(t.from.value()); previous != lastSend.end())
                program.dependencies.push_back({send, previous->second, true});
            lastSend[t.from.value()] = send;
            for (const Block& b : blocks) {
                if (const auto found = held.find(HeldKey{t.from.value(), b}); found != held.end())
                    for (std::uint32_t recv : found->second)
                        program.dependencies.push_back({send, recv, false});
                arriving.emplace_back(HeldKey{t.to.value(), b}, send + 1);
            }
        }
        for (const auto& [key, recv] : arriving)
            held[key].push_back(recv);
        arriving.clear();
    }
    // A send that carries the same block from two receives depends on each once.
    std::sort(program.dependencies.begin(), program.dependencies.end(),
              [](const ProgramDependency& a, const ProgramDependency& b) {
                  return a.op != b.op ? a.op < b.op : a.on != b.on ? a.on < b.on : a.onStart < b.onStart;
              });
    program.dependencies.erase(std::unique(program.dependencies.begin(), program.dependencies.end(),
                                           [](const ProgramDependency& a, const ProgramDependency& b) {
                                               return a.op == b.op && a.on == b.on && a.onStart == b.onStart;
                                           }),
                               program.dependencies.end());
    return program;
}

} // namespace topocast
