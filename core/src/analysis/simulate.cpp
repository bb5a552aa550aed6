// A schedule simulated on SimGrid's flow-level network (simgrid_run.cpp) in a child process,
// and what its links carried.
#include "topocast/analysis/simulate.h"

#include "loggp_engine.h"
#include "simgrid_run.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"
#include "topocast/model/routing.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <unordered_map>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace topocast {

namespace {

/// Bytes a simulation holds per transfer: the engine's, the route's entries, SimGrid's
/// communication while it is on the wire (an action, a variable of the max-min system).
constexpr std::uint64_t kSimulationBytesPerTransfer = kEngineBytesPerTransfer + 96;
constexpr std::uint64_t kSimulationBytesPerHop = 4 + 8 + 16 + 40; // link index, channel, hop times, a link event
constexpr std::uint64_t kSimulationBytesPerRank = kEngineBytesPerRank + 2048; // a SimGrid host

// ---- the pipe between the child and its parent ---------------------------------------------

void writeAll(int fd, const void* data, std::size_t n)
{
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            ::_exit(3);
        p += w;
        n -= static_cast<std::size_t>(w);
    }
}

template <class T> void writeVector(int fd, const std::vector<T>& v)
{
    static_assert(std::is_trivially_copyable_v<T>);
    const std::uint64_t n = v.size();
    writeAll(fd, &n, sizeof n);
    writeAll(fd, v.data(), n * sizeof(T));
}

/// Reads what the child wrote, in order.
class Reader {
public:
    explicit Reader(const std::string& bytes) : m_bytes(bytes) {}
    template <class T> T value()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T out{};
        take(&out, sizeof out);
        return out;
    }
    template <class T> std::vector<T> vector()
    {
        const auto n = value<std::uint64_t>();
        if (n > (m_bytes.size() - m_at) / sizeof(T))
            throw Error("the simulation's child process handed back a broken result");
        std::vector<T> out(n);
        take(out.data(), n * sizeof(T));
        return out;
    }

private:
    void take(void* to, std::size_t n)
    {
        if (m_bytes.size() - m_at < n)
            throw Error("the simulation's child process handed back a broken result");
        std::memcpy(to, m_bytes.data() + m_at, n);
        m_at += n;
    }
    const std::string& m_bytes;
    std::size_t m_at = 0;
};

/// What the child writes: progress records (kProgress, then a double), then one result (kResult,
/// then the output) or one failure (kFailed, then the reason).
constexpr std::uint8_t kResult = 0, kFailed = 1, kProgress = 2;

[[noreturn]] void childRun(int fd, sim::Input input)
{
    try {
        input.progress = [fd](double share) {
            writeAll(fd, &kProgress, 1);
            writeAll(fd, &share, sizeof share);
        };
        const sim::Output out = sim::runSimGrid(input);
        writeAll(fd, &kResult, 1);
        writeVector(fd, out.ops);
        writeVector(fd, out.done);
        writeVector(fd, out.rankFinish);
        writeVector(fd, out.hops);
        writeAll(fd, &out.wallSeconds, sizeof out.wallSeconds);
    } catch (const std::exception& e) {
        writeAll(fd, &kFailed, 1);
        const std::string what = e.what();
        writeVector(fd, std::vector<char>(what.begin(), what.end()));
    }
    ::close(fd);
    ::_exit(0);
}

/// Runs the simulation in a child process and reads its result back (its progress to `progress`).
sim::Output runInChild(const sim::Input& input, const std::function<void(double)>& progress)
{
    // What this process has buffered for its output would be the child's too, and written twice:
    // out with it first.
    std::fflush(nullptr);
    int fds[2];
    if (::pipe(fds) != 0)
        throw Error(std::string("cannot start the simulation: pipe: ") + std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw Error(std::string("cannot start the simulation: fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        ::close(fds[0]);
        // The child writes only to the pipe (and SimGrid's own messages to stderr): its standard
        // output goes nowhere, so nothing it inherited is printed twice.
        if (const int null = ::open("/dev/null", O_WRONLY); null >= 0)
            ::dup2(null, STDOUT_FILENO);
        childRun(fds[1], input);
    }
    ::close(fds[1]);
    std::string bytes;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t r = ::read(fds[0], buffer, sizeof buffer);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        bytes.append(buffer, static_cast<std::size_t>(r));
        // Progress records come first, one byte and a double each.
        while (bytes.size() >= 1 + sizeof(double) && static_cast<std::uint8_t>(bytes[0]) == kProgress) {
            double share = 0;
            std::memcpy(&share, bytes.data() + 1, sizeof share);
            bytes.erase(0, 1 + sizeof share);
            if (progress)
                progress(share);
        }
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status))
        throw Error("the simulation stopped with signal " + std::to_string(WTERMSIG(status)) + " (" +
                    strsignal(WTERMSIG(status)) + "); SimGrid's message, if any, is above");
    if (bytes.empty())
        throw Error("the simulation ended without a result (exit status " + std::to_string(WEXITSTATUS(status)) + ")");
    Reader in(bytes);
    if (in.value<std::uint8_t>() != kResult) {
        const std::vector<char> what = in.vector<char>();
        throw Error(std::string(what.begin(), what.end()));
    }
    sim::Output out;
    out.ops = in.vector<OpTiming>();
    out.done = in.vector<std::uint8_t>();
    out.rankFinish = in.vector<double>();
    out.hops = in.vector<OpTiming>();
    out.wallSeconds = in.value<double>();
    return out;
}

// ---- routes and links ------------------------------------------------------------------------

/// Every transfer's channels, numbered as SimGrid links in the order they are first used.
sim::Routes routesOf(const Schedule& schedule, std::vector<ChannelId>& channels, std::vector<std::uint64_t>& first,
                     std::vector<ChannelId>& links)
{
    sim::Routes routes;
    const Topology& topo = schedule.topology();
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    routes.first.reserve(schedule.size() + 1);
    for (const Transfer& t : schedule.transfers()) {
        forEachChannel(topo, t.from, t.to, t.route, schedule.dimensionOrder, [&](ChannelId ch) {
            const auto [it, added] = index.try_emplace(ch.value(), static_cast<std::uint32_t>(channels.size()));
            if (added)
                channels.push_back(ch);
            routes.links.push_back(it->second);
            links.push_back(ch);
        });
        routes.first.push_back(routes.links.size());
    }
    routes.linkCount = static_cast<std::uint32_t>(channels.size());
    first = routes.first;
    return routes;
}

struct LinkEvent {
    std::uint32_t link;
    double time;
    int delta; ///< +1 a message's bytes begin to cross it, −1 they are through
    std::uint32_t transfer;
};

std::vector<LinkEvent> linkEvents(const Simulation& s, const std::vector<std::uint32_t>& linkOf,
                                  std::uint32_t only = 0xFFFFFFFFu)
{
    std::vector<LinkEvent> events;
    for (std::size_t t = 0; t + 1 < s.routeFirst.size(); ++t)
        for (std::uint64_t k = s.routeFirst[t]; k < s.routeFirst[t + 1]; ++k) {
            const OpTiming& h = s.hopTimes[k];
            if (h.end <= h.start || (only != 0xFFFFFFFFu && linkOf[k] != only))
                continue;
            events.push_back({linkOf[k], h.start, +1, static_cast<std::uint32_t>(t)});
            events.push_back({linkOf[k], h.end, -1, static_cast<std::uint32_t>(t)});
        }
    // Ends before beginnings at one instant: touching messages do not share.
    std::sort(events.begin(), events.end(), [](const LinkEvent& a, const LinkEvent& b) {
        return a.link != b.link ? a.link < b.link : a.time != b.time ? a.time < b.time : a.delta < b.delta;
    });
    return events;
}

/// Each link's load from its events, the most shared first.
std::vector<LinkLoad> linkLoads(const Simulation& s, const Schedule& schedule, const std::vector<ChannelId>& channels,
                                const std::vector<std::uint32_t>& linkOf)
{
    std::vector<LinkLoad> loads(channels.size());
    for (std::size_t l = 0; l < channels.size(); ++l)
        loads[l].channel = channels[l];
    const std::vector<LinkEvent> events = linkEvents(s, linkOf);
    std::uint32_t count = 0;
    double since = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const LinkEvent& e = events[i];
        if (i == 0 || events[i - 1].link != e.link)
            count = 0;
        LinkLoad& load = loads[e.link];
        if (count >= 1)
            load.busy += e.time - since;
        if (count >= 2)
            load.shared += e.time - since;
        since = e.time;
        count = static_cast<std::uint32_t>(static_cast<int>(count) + e.delta);
        if (e.delta > 0) {
            ++load.transfers;
            if (count > load.most) {
                load.most = count;
                load.mostAt = e.time;
                load.mostStep = schedule.transfers()[e.transfer].step;
            }
        }
    }
    std::erase_if(loads, [](const LinkLoad& l) { return l.transfers == 0; });
    std::sort(loads.begin(), loads.end(), [](const LinkLoad& a, const LinkLoad& b) {
        if (a.shared != b.shared)
            return a.shared > b.shared;
        if (a.busy != b.busy)
            return a.busy > b.busy;
        return a.channel.value() < b.channel.value();
    });
    return loads;
}

/// The simulated result in the engine's form: each transfer's and step's times, the total.
TimeResult timeOf(const Schedule& schedule, const OpProgram& program, const sim::Output& out,
                  const NetworkModel& network, const SimulationOptions& options)
{
    TimeResult r;
    r.model = options.steps ? "simgrid-steps" : "simgrid";
    r.network = network;
    r.rankFinish = out.rankFinish;
    for (std::uint32_t i = 0; i < r.rankFinish.size(); ++i)
        if (r.rankFinish[i] > r.total) {
            r.total = r.rankFinish[i];
            r.lastRank = i;
        }
    r.ops = out.ops;
    r.transfers.resize(schedule.size());
    r.stepEnds.assign(schedule.stepCount(), 0.0);
    for (std::size_t i = 0; i < schedule.size(); ++i) {
        r.transfers[i] = OpTiming{out.ops[2 * i].start, out.ops[2 * i + 1].end};
        double& end = r.stepEnds[schedule.transfers()[i].step.value() - 1];
        end = std::max(end, r.transfers[i].end);
    }
    for (std::size_t i = 0; i < program.ops.size() && r.unfinished.size() < 20; ++i)
        if (!out.done[i])
            r.unfinished.push_back(loggp::opName(program, static_cast<std::uint32_t>(i)) + " never completed");
    if (options.steps)
        r.notes.push_back("a barrier between steps: no transfer starts before every rank has finished the step before");
    r.notes.push_back("contention charged: messages that cross one link at once share its bandwidth (" +
                      simulationEngine() + "; the two directions of a channel are two links)");
    return r;
}

} // namespace

bool simulationAvailable()
{
    return sim::available();
}

void requireSimulation()
{
    if (!simulationAvailable())
        sim::runSimGrid({}); // (it says why: this build has no SimGrid)
}

std::string simulationEngine()
{
    return "SimGrid 3.32, CM02 max-min flow model";
}

SimulationEstimate estimateSimulation(const Schedule& schedule)
{
    std::uint64_t hops = 0;
    for (const Transfer& t : schedule.transfers())
        hops += static_cast<std::uint64_t>(schedule.hops(t));
    const std::uint64_t n = schedule.topology().nodeCount();
    SimulationEstimate e;
    e.bytes = saturatingAdd(saturatingAdd(saturatingMul(schedule.size(), kSimulationBytesPerTransfer),
                                          saturatingMul(hops, kSimulationBytesPerHop)),
                            saturatingMul(n, kSimulationBytesPerRank));
    // Measured in bench/bench_simulate.cpp (bucket and Rabenseifner on torus:16x16x16, ring on
    // torus:32x32): each message costs in proportion to the messages on the wire with it (SimGrid
    // solves its sharing among them), about a step's worth.
    const double atOnce = static_cast<double>(schedule.size()) / std::max<std::uint32_t>(1, schedule.stepCount());
    e.seconds = 0.01 + atOnce * (2.7e-9 * static_cast<double>(schedule.size()) + 1.3e-9 * static_cast<double>(hops));
    return e;
}

Simulation simulateSchedule(const Schedule& schedule, const NetworkModel& network, const SimulationOptions& options)
{
    checkNetworkModel(network);
    requireSimulation();
    const SimulationEstimate estimate = estimateSimulation(schedule);
    checkMemory("simulating " + std::to_string(schedule.size()) + " transfers on " +
                    std::to_string(schedule.topology().nodeCount()) + " nodes",
                estimate.bytes,
                std::to_string(kSimulationBytesPerTransfer) + " B a transfer, " +
                    std::to_string(kSimulationBytesPerHop) + " B a hop");
    Simulation s;
    s.contentionFree = timeSchedule(schedule, network, TimeOptions{.steps = options.steps, .fold = true});
    const OpProgram program = scheduleProgram(schedule, network);
    std::vector<ChannelId> channels;
    sim::Input input;
    input.program = &program;
    input.steps = options.steps;
    input.network = network;
    for (std::uint32_t st = 1; st <= schedule.stepCount() + 1; ++st)
        input.stepFirst.push_back(schedule.stepBegin(StepNo{st}));
    input.routes = routesOf(schedule, channels, s.routeFirst, s.routeLinks);
    const sim::Output out = runInChild(input, options.progress);
    s.wallSeconds = out.wallSeconds;
    s.hopTimes = out.hops;
    s.time = timeOf(schedule, program, out, network, options);
    s.links = linkLoads(s, schedule, channels, input.routes.links);
    return s;
}

LinkIntervals linkIntervals(const Simulation& s, ChannelId channel)
{
    LinkIntervals out;
    std::vector<std::uint32_t> linkOf(s.routeLinks.size());
    for (std::size_t k = 0; k < s.routeLinks.size(); ++k)
        linkOf[k] = s.routeLinks[k] == channel ? 0u : 1u;
    std::uint32_t count = 0;
    for (const LinkEvent& e : linkEvents(s, linkOf, 0)) {
        const std::uint32_t before = count;
        count = static_cast<std::uint32_t>(static_cast<int>(count) + e.delta);
        const auto open = [&](std::vector<OpTiming>& list, std::uint32_t level) {
            if (before < level && count >= level)
                list.push_back(OpTiming{e.time, e.time});
            if (before >= level && count < level)
                list.back().end = e.time;
        };
        open(out.busy, 1);
        open(out.shared, 2);
    }
    for (std::vector<OpTiming>* list : {&out.busy, &out.shared}) { // one interval where two touch
        std::vector<OpTiming> merged;
        for (const OpTiming& i : *list)
            if (!merged.empty() && merged.back().end >= i.start)
                merged.back().end = std::max(merged.back().end, i.end);
            else
                merged.push_back(i);
        *list = std::move(merged);
    }
    return out;
}

} // namespace topocast
