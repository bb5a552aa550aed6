// topocast-mpi: replays a schedule document on real message passing, one MPI rank per topology
// node, verifies every byte, and times each step against the MPI library's own collective.
// The MPI-free parts (payload bytes, checksums, per-rank plans, the measured-times document)
// live in core (topocast/replay.h, topocast/io/measured_json.h) and are unit-tested there.
#include "topocast/durations.h"
#include "topocast/error.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/measured_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/replay.h"
#include "topocast/validate.h"
#include "topocast/version.h"

#include "landscape.h"
#include "mpi_util.h"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace topocast::mpi {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitBadInput = 2;
constexpr std::size_t kMaxReportedErrors = 10; // per rank

struct Options {
    std::string scheduleFile;
    std::uint64_t bytes = 1024;
    int repeat = 5;
    std::string outFile;
    bool noLibrary = false;
    long long injectFault = -1; // testing aid: corrupt this transfer's payload at its sender
};

const char* const kDescription =
    "Replays a topocast schedule (the JSON of `topocast-cli schedule --json`) with one MPI rank per\n"
    "topology node: each rank performs exactly its sends and receives, step by step, with\n"
    "MPI_Isend/MPI_Irecv + MPI_Waitall and a barrier between steps. Every byte received is checked\n"
    "against the deterministic payload of its blocks, and every rank must end holding its blocks.\n"
    "Reduce, reduce-scatter and allreduce combine for real: each rank's contribution is an array of\n"
    "64-bit integers (48-bit values, so no sum overflows; --bytes must be a multiple of 8), partial\n"
    "results are their sums, every partial received is checked against the sum its sender should\n"
    "hold, and every result must be the sum of all contributions.\n"
    "Times each step (MPI_Wtime, slowest rank) and each transfer (at its receiver), and the MPI\n"
    "library's own collective (MPI_Bcast / MPI_Scatter / MPI_Allgather / MPI_Alltoall / MPI_Gather /\n"
    "MPI_Reduce / MPI_Allreduce / MPI_Reduce_scatter_block, the sums as MPI_SUM on MPI_UINT64_T) on the\n"
    "same ranks and data; prints min/median over the repetitions.\n"
    "Run with exactly as many ranks as the topology has nodes, e.g.\n"
    "  mpirun -np 64 topocast-mpi mesh8x8.json --bytes 4096 --repeat 10 --out mesh8x8.measured.json\n"
    "(`topocast-mpi replay SCHEDULE …` is the same). The other command, `topocast-mpi landscape\n"
    "--topology T --algorithm A --metric M [--json] [--out FILE]`, computes the map of every source on\n"
    "any number of ranks (see `topocast-mpi landscape --help`).\n"
    "Exit status: 0 verified, 1 a payload mismatch or missing block, 2 bad input (unreadable or\n"
    "invalid schedule, wrong number of ranks, bad option); nothing is sent before the checks pass.";

/// Every rank parses the same argv; only rank 0 prints. Returns -1 to go on, else an exit code.
int parseOptions(int argc, char** argv, Options& o, int rank)
{
    CLI::App app{kDescription, "topocast-mpi"};
    app.set_version_flag("--version", std::string("topocast-mpi ") + kVersion, "print the version and exit");
    app.add_option("schedule", o.scheduleFile, "schedule JSON file (read by rank 0 and broadcast)")->required();
    app.add_option("--bytes", o.bytes,
                   "bytes per block (a transfer sends its payload's blocks back to back; a multiple of 8 for "
                   "reduce, reduce-scatter and allreduce, whose chunks are 64-bit integers); given twice, the last counts")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 28))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
        ->capture_default_str();
    app.add_option("--repeat", o.repeat, "timed repetitions (after one untimed warm-up run)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--out", o.outFile, "write the measured-times JSON (format topocast-measured) to FILE");
    app.add_flag("--no-library", o.noLibrary, "skip timing the MPI library's own collective");
    app.add_option("--inject-fault", o.injectFault,
                   "testing aid: the sender of transfer INDEX (0-based, schedule order) flips one byte, so the "
                   "receiver must report a mismatch");
    return parseOnEveryRank(app, argc, argv, rank);
}

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open");
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

std::string isoNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

/// Where the schedule's nodes live among the ranks of `comm`.
struct Mapping {
    MPI_Comm comm = MPI_COMM_NULL;
    std::vector<int> rankOf;    // node → rank in comm
    std::vector<NodeId> nodeOf; // rank in comm → node
    std::string how;
};

/// Meshes and tori: MPI_Cart_create over the sides (reorder allowed; MPI's last dimension runs
/// fastest, ours the first, so the dimensions are listed reversed). Hypercube: node = rank bits.
Mapping mapRanks(const Topology& topo)
{
    Mapping m;
    const std::uint32_t n = topo.nodeCount();
    m.rankOf.assign(n, 0);
    m.nodeOf.assign(n, NodeId{0});
    if (topo.isHypercube()) {
        MPI_Comm_dup(MPI_COMM_WORLD, &m.comm);
        for (NodeId v{}; v < n; ++v) {
            m.rankOf[v] = static_cast<int>(v);
            m.nodeOf[v] = v;
        }
        m.how = "hypercube address = rank bits";
        return m;
    }
    const int d = topo.dims();
    std::vector<int> dims(static_cast<std::size_t>(d)), periods(static_cast<std::size_t>(d), topo.isTorus() ? 1 : 0);
    for (int k = 0; k < d; ++k)
        dims[static_cast<std::size_t>(k)] = topo.side(d - 1 - k);
    MPI_Cart_create(MPI_COMM_WORLD, d, dims.data(), periods.data(), /*reorder=*/1, &m.comm);
    std::vector<int> mpiCoords(static_cast<std::size_t>(d));
    Coord c(static_cast<std::size_t>(d));
    for (NodeId v{}; v < n; ++v) {
        for (int k = 0; k < d; ++k)
            mpiCoords[static_cast<std::size_t>(k)] = topo.coord(v, d - 1 - k);
        int r = 0;
        MPI_Cart_rank(m.comm, mpiCoords.data(), &r);
        m.rankOf[v] = r;
        m.nodeOf[static_cast<std::size_t>(r)] = v;
    }
    m.how = std::string("MPI_Cart_create ") + (topo.isTorus() ? "periodic " : "") + "(reorder allowed)";
    return m;
}

class Replayer {
public:
    Replayer(const Schedule& s, const Options& o, const Mapping& map, int rank)
        : m_s(s), m_o(o), m_map(map), m_rank(rank), m_node(map.nodeOf[static_cast<std::size_t>(rank)])
    {
    }

    /// Builds the plan; false (with a message on stderr) if it cannot be run.
    bool plan()
    {
        int* tagUb = nullptr;
        int flag = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagUb, &flag);
        try {
            m_plan = rankPlan(m_s, m_node, flag && tagUb ? *tagUb : 32767);
            if (combines(m_s.pattern())) {
                m_combine = combinePlan(m_s);  // every rank derives what each arrival does
                m_partials.emplace(m_s, m_combine, m_node, m_o.bytes);
            }
            std::uint64_t largest = 0;
            for (const RankStep& st : m_plan.steps)
                for (const auto* ops : {&st.sends, &st.receives})
                    for (const PlannedOp& op : *ops)
                        largest = std::max<std::uint64_t>(largest, std::uint64_t{op.blocks} * m_o.bytes);
            if (largest > static_cast<std::uint64_t>(INT_MAX))
                throw Error("a transfer of " + std::to_string(largest) + " bytes exceeds one MPI message (" +
                            std::to_string(INT_MAX) + "); use a smaller --bytes");
        } catch (const Error& e) {
            std::cerr << "topocast-mpi: rank " << m_rank << " (node " << m_s.topology().nodeName(m_node)
                      << "): " << e.what() << "\n";
            return false;
        }
        return true;
    }

    /// One run of the schedule. `record` = index of the timed repetition, or -1 for the warm-up.
    void run(int record)
    {
        m_held.clear();
        if (m_partials)  // every run starts from the rank's own contributions
            m_partials.emplace(m_s, m_combine, m_node, m_o.bytes);
        const std::uint32_t steps = m_s.stepCount();
        if (record >= 0) {
            m_stepTimes.resize(static_cast<std::size_t>(record + 1) * steps, 0.0);
        }
        std::vector<std::vector<std::uint8_t>> sendBufs, recvBufs;
        std::vector<MPI_Request> reqs;
        std::vector<double> recvDone;
        for (StepNo step{1}; step <= steps; ++step) {
            const RankStep& rs = m_plan.steps[step - 1];
            sendBufs.resize(rs.sends.size());
            recvBufs.resize(rs.receives.size());
            for (std::size_t i = 0; i < rs.sends.size(); ++i)
                pack(step, rs.sends[i], sendBufs[i]);
            for (std::size_t i = 0; i < rs.receives.size(); ++i)
                recvBufs[i].assign(std::size_t{rs.receives[i].blocks} * m_o.bytes, 0);
            reqs.assign(rs.receives.size() + rs.sends.size(), MPI_REQUEST_NULL);
            recvDone.assign(rs.receives.size(), 0.0);

            MPI_Barrier(m_map.comm);
            const double t0 = MPI_Wtime();
            for (std::size_t i = 0; i < rs.receives.size(); ++i)
                MPI_Irecv(recvBufs[i].data(), static_cast<int>(recvBufs[i].size()), MPI_BYTE,
                          m_map.rankOf[rs.receives[i].peer], rs.receives[i].tag, m_map.comm, &reqs[i]);
            for (std::size_t i = 0; i < rs.sends.size(); ++i)
                MPI_Isend(sendBufs[i].data(), static_cast<int>(sendBufs[i].size()), MPI_BYTE,
                          m_map.rankOf[rs.sends[i].peer], rs.sends[i].tag, m_map.comm, &reqs[rs.receives.size() + i]);
            for (std::size_t left = reqs.size(); left > 0; --left) {
                int idx = MPI_UNDEFINED;
                MPI_Waitany(static_cast<int>(reqs.size()), reqs.data(), &idx, MPI_STATUS_IGNORE);
                if (idx == MPI_UNDEFINED)
                    break;
                if (static_cast<std::size_t>(idx) < rs.receives.size())
                    recvDone[static_cast<std::size_t>(idx)] = MPI_Wtime() - t0;
            }
            const double t1 = MPI_Wtime();

            if (record >= 0) {
                m_stepTimes[static_cast<std::size_t>(record) * steps + step - 1] = t1 - t0;
                for (std::size_t i = 0; i < rs.receives.size(); ++i)
                    m_recvTimes[rs.receives[i].transfer].push_back(recvDone[i]);
            }
            for (std::size_t i = 0; i < rs.receives.size(); ++i)
                unpack(step, rs.receives[i], recvBufs[i]);
        }
        checkHoldings();
    }

    /// The library's collective on the same ranks and data; returns this rank's time.
    double runLibrary(int record)
    {
        const std::uint32_t n = m_s.topology().nodeCount();
        const std::uint64_t chunk64 = std::uint64_t{m_s.parts} * m_o.bytes;
        const int chunk = static_cast<int>(chunk64);
        const int root = m_map.rankOf[m_s.source()];
        const NodeId src = m_s.source();
        auto fillChunk = [&](std::uint8_t* p, NodeId origin, std::uint32_t dest) {  // dest: a node or Block::kAll
            for (std::uint32_t part = 0; part < m_s.parts; ++part)
                fillBlock(Block{origin, dest, part}, {p + std::size_t{part} * m_o.bytes, m_o.bytes});
        };
        auto checkChunk = [&](const std::uint8_t* p, NodeId origin, std::uint32_t dest, const char* op) {
            for (std::uint32_t part = 0; part < m_s.parts; ++part) {
                const Block b{origin, dest, part};
                const std::span<const std::uint8_t> got{p + std::size_t{part} * m_o.bytes, m_o.bytes};
                const std::size_t bad = firstMismatch(b, got);
                if (bad < got.size() && record <= 0)
                    error(std::string(op) + ": " + describeBlock(m_s.topology(), b) + " arrived wrong at byte " +
                          std::to_string(bad));
            }
        };
        // The combining patterns: this rank's contribution to chunk c, and the sum of all of them.
        auto fillContributions = [&](std::uint8_t* p, std::uint64_t firstChunk, std::uint64_t count) {
            for (std::uint64_t c = 0; c < count; ++c)
                fillContribution(m_node, chunkBlock(m_s, firstChunk + c), {p + c * m_o.bytes, m_o.bytes});
        };
        auto checkSums = [&](const std::uint8_t* p, std::uint64_t firstChunk, std::uint64_t count, const char* op) {
            std::vector<std::uint8_t> full(m_o.bytes);
            for (std::uint64_t c = 0; c < count; ++c) {
                const Block named = chunkBlock(m_s, firstChunk + c);
                fillTotal(n, named, full);
                if (!std::equal(full.begin(), full.end(), p + c * m_o.bytes) && record <= 0)
                    error(std::string(op) + ": " + chunkName(m_s, named) + " is not the sum of all " +
                          std::to_string(n) + " contributions");
            }
        };
        std::vector<std::uint8_t> sendBuf, recvBuf;
        const Pattern pattern = m_s.pattern();
        const std::uint64_t parts = m_s.parts;
        m_scatterCounts.assign(n, 0);
        m_scatterDispls.assign(n, 0);
        for (int r = 0; r < static_cast<int>(n); ++r) {
            const NodeId v = m_map.nodeOf[static_cast<std::size_t>(r)];
            m_scatterCounts[static_cast<std::size_t>(r)] = v != src && takesPart(v) ? chunk : 0;
            m_scatterDispls[static_cast<std::size_t>(r)] = r * chunk; // fits: see libraryFits
        }
        switch (pattern) {
        case Pattern::Broadcast:
            recvBuf.assign(chunk64, 0);
            if (m_node == src)
                fillChunk(recvBuf.data(), src, Block::kAll);
            break;
        case Pattern::Scatter:
            recvBuf.assign(chunk64, 0);
            if (m_node == src) {
                sendBuf.assign(chunk64 * n, 0);
                for (int r = 0; r < static_cast<int>(n); ++r)
                    fillChunk(sendBuf.data() + chunk64 * static_cast<std::uint64_t>(r), src,
                              m_map.nodeOf[static_cast<std::size_t>(r)]);
            }
            break;
        case Pattern::Allgather:
            sendBuf.assign(chunk64, 0);
            fillChunk(sendBuf.data(), m_node, Block::kAll);
            recvBuf.assign(chunk64 * n, 0);
            break;
        case Pattern::Alltoall:
            sendBuf.assign(chunk64 * n, 0);
            for (int r = 0; r < static_cast<int>(n); ++r)
                fillChunk(sendBuf.data() + chunk64 * static_cast<std::uint64_t>(r), m_node,
                          m_map.nodeOf[static_cast<std::size_t>(r)]);
            recvBuf.assign(chunk64 * n, 0);
            break;
        case Pattern::Gather:
            sendBuf.assign(chunk64, 0);
            fillChunk(sendBuf.data(), m_node, Block::kAll);
            if (m_node == src)
                recvBuf.assign(chunk64 * n, 0);
            break;
        case Pattern::Reduce:
        case Pattern::Allreduce:
            sendBuf.assign(chunk64, 0);
            fillContributions(sendBuf.data(), 0, parts);
            recvBuf.assign(chunk64, 0);
            break;
        case Pattern::ReduceScatter:  // rank r's share is node nodeOf[r]'s chunks
            sendBuf.assign(chunk64 * n, 0);
            for (int r = 0; r < static_cast<int>(n); ++r)
                fillContributions(sendBuf.data() + chunk64 * static_cast<std::uint64_t>(r),
                                  std::uint64_t{m_map.nodeOf[static_cast<std::size_t>(r)]} * parts, parts);
            recvBuf.assign(chunk64, 0);
            break;
        }
        MPI_Barrier(m_map.comm);
        const double t0 = MPI_Wtime();
        switch (pattern) {
        case Pattern::Broadcast:
            MPI_Bcast(recvBuf.data(), chunk, MPI_BYTE, root, m_map.comm);
            break;
        case Pattern::Scatter:
            if (m_s.participants.empty())
                MPI_Scatter(sendBuf.data(), chunk, MPI_BYTE, recvBuf.data(), chunk, MPI_BYTE, root, m_map.comm);
            else
                MPI_Scatterv(sendBuf.data(), m_scatterCounts.data(), m_scatterDispls.data(), MPI_BYTE, recvBuf.data(),
                             m_scatterCounts[static_cast<std::size_t>(m_rank)], MPI_BYTE, root, m_map.comm);
            break;
        case Pattern::Allgather:
            MPI_Allgather(sendBuf.data(), chunk, MPI_BYTE, recvBuf.data(), chunk, MPI_BYTE, m_map.comm);
            break;
        case Pattern::Alltoall:
            MPI_Alltoall(sendBuf.data(), chunk, MPI_BYTE, recvBuf.data(), chunk, MPI_BYTE, m_map.comm);
            break;
        case Pattern::Gather:
            MPI_Gather(sendBuf.data(), chunk, MPI_BYTE, recvBuf.data(), chunk, MPI_BYTE, root, m_map.comm);
            break;
        case Pattern::Reduce:
            MPI_Reduce(sendBuf.data(), recvBuf.data(), chunk / 8, MPI_UINT64_T, MPI_SUM, root, m_map.comm);
            break;
        case Pattern::Allreduce:
            MPI_Allreduce(sendBuf.data(), recvBuf.data(), chunk / 8, MPI_UINT64_T, MPI_SUM, m_map.comm);
            break;
        case Pattern::ReduceScatter:
            MPI_Reduce_scatter_block(sendBuf.data(), recvBuf.data(), chunk / 8, MPI_UINT64_T, MPI_SUM, m_map.comm);
            break;
        }
        const double t = MPI_Wtime() - t0;
        const char* op = libraryOperation(m_s);
        switch (pattern) {
        case Pattern::Broadcast:
            if (m_node != src)
                checkChunk(recvBuf.data(), src, Block::kAll, op);
            break;
        case Pattern::Scatter:
            if (m_node != src && takesPart(m_node))
                checkChunk(recvBuf.data(), src, m_node, op);
            break;
        case Pattern::Allgather:
        case Pattern::Alltoall:
            for (int r = 0; r < static_cast<int>(n); ++r) {
                const NodeId from = m_map.nodeOf[static_cast<std::size_t>(r)];
                if (from != m_node)
                    checkChunk(recvBuf.data() + chunk64 * static_cast<std::uint64_t>(r), from,
                               pattern == Pattern::Allgather ? Block::kAll : m_node, op);
            }
            break;
        case Pattern::Gather:
            if (m_node == src)
                for (int r = 0; r < static_cast<int>(n); ++r) {
                    const NodeId from = m_map.nodeOf[static_cast<std::size_t>(r)];
                    if (from != m_node)
                        checkChunk(recvBuf.data() + chunk64 * static_cast<std::uint64_t>(r), from, Block::kAll, op);
                }
            break;
        case Pattern::Reduce:
            if (m_node == src)
                checkSums(recvBuf.data(), 0, parts, op);
            break;
        case Pattern::Allreduce:
            checkSums(recvBuf.data(), 0, parts, op);
            break;
        case Pattern::ReduceScatter:
            checkSums(recvBuf.data(), std::uint64_t{m_node} * parts, parts, op);
            break;
        }
        return t;
    }

    /// A scatter over part of the topology (Schedule::participants) is compared with MPI_Scatterv
    /// sending nothing to the idle ranks.
    static const char* libraryOperation(const Schedule& s)
    {
        switch (s.pattern()) {
        case Pattern::Broadcast:
            return "MPI_Bcast";
        case Pattern::Scatter:
            return s.participants.empty() ? "MPI_Scatter" : "MPI_Scatterv";
        case Pattern::Allgather:
            return "MPI_Allgather";
        case Pattern::Alltoall:
            return "MPI_Alltoall";
        case Pattern::Gather:
            return "MPI_Gather";
        case Pattern::Reduce:
            return "MPI_Reduce";
        case Pattern::Allreduce:
            return "MPI_Allreduce";
        case Pattern::ReduceScatter:
            return "MPI_Reduce_scatter_block";
        }
        return "MPI_Bcast";
    }

    bool takesPart(NodeId v) const
    {
        const auto& p = m_s.participants;
        return p.empty() || std::find(p.begin(), p.end(), v) != p.end();
    }

    std::uint64_t errors() const { return m_errors; }
    const std::vector<double>& stepTimes() const { return m_stepTimes; }
    const std::map<std::size_t, std::vector<double>>& recvTimes() const { return m_recvTimes; }

private:
    void error(const std::string& what)
    {
        if (m_errors++ < kMaxReportedErrors)
            std::cerr << "topocast-mpi: MISMATCH at rank " << m_rank << " (node " << m_s.topology().nodeName(m_node)
                      << "): " << what << "\n";
    }

    std::string transferName(std::uint32_t step, const PlannedOp& op) const
    {
        const Transfer& t = m_s.transfers()[op.transfer];
        return "step " + std::to_string(step) + ", transfer " + std::to_string(op.transfer) + " from " +
               m_s.topology().nodeName(t.from) + " to " + m_s.topology().nodeName(t.to);
    }

    void pack(std::uint32_t step, const PlannedOp& op, std::vector<std::uint8_t>& buf)
    {
        const auto blocks = m_s.payload(op.payload);
        buf.assign(blocks.size() * m_o.bytes, 0);
        for (std::size_t k = 0; k < blocks.size(); ++k) {
            const Block& b = blocks[k];
            const std::span<std::uint8_t> out{buf.data() + k * m_o.bytes, m_o.bytes};
            if (const std::uint64_t c = combinedChunk(op.transfer, k); c != kNoChunk) {
                const auto partial = m_partials->chunk(c);  // as it stood at the end of the last step
                std::copy(partial.begin(), partial.end(), out.begin());
                continue;
            }
            if (holdsInitially(m_node, b)) {
                fillBlock(b, out);
                continue;
            }
            const auto it = m_held.find(b);
            if (it == m_held.end()) {
                // The checker rules this out; sending zeros keeps every rank's matching intact.
                error(transferName(step, op) + ": the sender does not hold the " + describeBlock(m_s.topology(), b));
                continue;
            }
            std::copy(it->second.begin(), it->second.end(), out.begin());
        }
        if (static_cast<long long>(op.transfer) == m_o.injectFault && !buf.empty())
            buf[buf.size() / 2] ^= 0x5A;
    }

    void unpack(std::uint32_t step, const PlannedOp& op, const std::vector<std::uint8_t>& buf)
    {
        const auto blocks = m_s.payload(op.payload);
        for (std::size_t k = 0; k < blocks.size(); ++k) {
            const Block& b = blocks[k];
            const std::span<const std::uint8_t> got{buf.data() + k * m_o.bytes, m_o.bytes};
            if (combinedChunk(op.transfer, k) != kNoChunk) {
                if (const std::string problem = m_partials->receive(op.transfer, k, got); !problem.empty())
                    error(transferName(step, op) + ": " + problem);
                continue;
            }
            const std::size_t bad = firstMismatch(b, got);
            if (bad < got.size()) {
                std::ostringstream msg;
                msg << transferName(step, op) << ": " << describeBlock(m_s.topology(), b) << " differs at byte " << bad
                    << " of " << m_o.bytes << " (checksum " << std::hex << checksum(got) << ", expected "
                    << blockChecksum(b, m_o.bytes) << ")";
                error(msg.str());
            }
            m_held[b].assign(got.begin(), got.end());
        }
    }

    /// The chunk block k of transfer `transfer` carries in a combining schedule, else kNoChunk.
    std::uint64_t combinedChunk(std::size_t transfer, std::size_t k) const
    {
        return m_partials ? m_combine.arrivals[m_combine.first[transfer] + k].chunk : kNoChunk;
    }

    void checkHoldings()
    {
        if (m_partials) {
            for (const std::string& line : m_partials->finish())
                error("the run " + line);
            return;
        }
        for (const Block& b : m_plan.required) {
            const auto it = m_held.find(b);
            if (it == m_held.end()) {
                error("the run ends without the " + describeBlock(m_s.topology(), b));
                continue;
            }
            if (checksum(it->second) != blockChecksum(b, m_o.bytes))
                error("the run ends with a wrong copy of the " + describeBlock(m_s.topology(), b));
        }
    }

    const Schedule& m_s;
    const Options& m_o;
    const Mapping& m_map;
    int m_rank = 0;
    NodeId m_node{};
    RankPlan m_plan;
    std::map<Block, std::vector<std::uint8_t>> m_held; // blocks received (own blocks are generated)
    CombinePlan m_combine;                             // combining patterns: what every arrival does
    std::optional<PartialResults> m_partials;          // combining patterns: this rank's partial results
    std::uint64_t m_errors = 0;
    std::vector<int> m_scatterCounts, m_scatterDispls;      // MPI_Scatterv of a partial scatter, by rank
    std::vector<double> m_stepTimes;                        // repetition-major, this rank's step times
    std::map<std::size_t, std::vector<double>> m_recvTimes; // transfer → completion time per repetition
};

void printSummary(std::ostream& out, const MeasuredTimes& m, const Schedule& s)
{
    out << "topocast-mpi: " << m.topology << " " << m.algorithm << " " << m.pattern << ", " << m.ranks << " ranks on "
        << m.hosts << " host" << (m.hosts == 1 ? "" : "s") << " (" << m.mapping << "), " << m.bytesPerBlock
        << " B per block, " << m.repeat << " timed repetition" << (m.repeat == 1 ? "" : "s") << "\n";
    out << (m.verified ? "verified: every receive and every rank's final blocks match byte for byte\n"
                       : "NOT verified: see the mismatches above\n");
    out << "step  transfers        bytes      min_us   median_us";
    if (!s.stepLabels.empty())
        out << "  label";
    out << "\n";
    for (const MeasuredStep& st : m.steps) {
        out << std::setw(4) << st.step << std::setw(11) << st.transfers << std::setw(13) << st.bytes << std::setw(12)
            << formatMicroseconds(st.time.min) << std::setw(12) << formatMicroseconds(st.time.median);
        if (st.step <= s.stepLabels.size())
            out << "  " << s.stepLabels[st.step - 1];
        out << "\n";
    }
    out << "total (sum of steps)            " << std::setw(12) << formatMicroseconds(m.total.min) << std::setw(12)
        << formatMicroseconds(m.total.median) << "\n";
    if (m.library)
        out << m.library->operation << " (" << m.library->bytes << " B per rank)" << std::string(4, ' ')
            << std::setw(12) << formatMicroseconds(m.library->time.min) << std::setw(12)
            << formatMicroseconds(m.library->time.median) << "\n";
}

int run(int argc, char** argv)
{
    int worldRank = 0, worldSize = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
    MPI_Comm_size(MPI_COMM_WORLD, &worldSize);

    // `landscape …` is its own command; `replay SCHEDULE …` is the bare `SCHEDULE …`. The word
    // takes the program name's place, so each parser sees its own options only.
    if (argc > 1 && std::string_view(argv[1]) == "landscape")
        return runLandscape(argc - 1, argv + 1);
    if (argc > 1 && std::string_view(argv[1]) == "replay") {
        --argc;
        ++argv;
    }
    Options o;
    if (const int code = parseOptions(argc, argv, o, worldRank); code >= 0)
        return code;

    // Rank 0 reads and checks the schedule before anything moves; the others wait for its verdict.
    std::string text, problem;
    if (worldRank == 0) {
        try {
            text = readText(o.scheduleFile);
            const Schedule s = scheduleFromJson(parseJsonText(text, o.scheduleFile));
            ValidateOptions vo;
            vo.forbidStepContention = false; // contention slows a real network down but loses no data
            const Validation v = validate(s, vo);
            if (!v.ok()) {
                std::ostringstream msg;
                msg << o.scheduleFile << ": the schedule is invalid (" << v.violationCount << " violation"
                    << (v.violationCount == 1 ? "" : "s") << "); nothing was sent";
                for (const std::string& line : v.violations)
                    msg << "\n  - " << line;
                problem = msg.str();
            } else if (s.topology().nodeCount() != static_cast<std::uint32_t>(worldSize)) {
                problem = o.scheduleFile + ": the " + s.topology().displayName() + " has " +
                          std::to_string(s.topology().nodeCount()) + " nodes but " + std::to_string(worldSize) +
                          " ranks are running; start exactly one rank per node (mpirun -np " +
                          std::to_string(s.topology().nodeCount()) + " …)";
            } else if (combines(s.pattern()) && o.bytes % 8 != 0) {
                problem = "--bytes " + std::to_string(o.bytes) + ": a reduction (" + toString(s.pattern()) +
                          ") sums 64-bit integers, so the bytes per block must be a multiple of 8";
            } else if (o.injectFault >= static_cast<long long>(s.size())) {
                problem = "--inject-fault " + std::to_string(o.injectFault) + " names no transfer (the schedule has " +
                          std::to_string(s.size()) + ")";
            }
        } catch (const std::exception& e) {
            problem = e.what();
        }
    }
    bcastString(problem, 0, MPI_COMM_WORLD);
    if (!problem.empty()) {
        if (worldRank == 0)
            std::cerr << "topocast-mpi: " << problem << "\n";
        return kExitBadInput;
    }
    bcastString(text, 0, MPI_COMM_WORLD);
    Schedule s;
    try {
        s = scheduleFromJson(parseJsonText(text, o.scheduleFile));
    } catch (const std::exception& e) { // same text as rank 0 parsed: cannot happen
        std::cerr << "topocast-mpi: rank " << worldRank << ": " << e.what() << "\n";
        MPI_Abort(MPI_COMM_WORLD, kExitBadInput);
    }
    text.clear();
    text.shrink_to_fit();

    Mapping map = mapRanks(s.topology());
    int rank = 0;
    MPI_Comm_rank(map.comm, &rank);
    Replayer replayer(s, o, map, rank);
    if (!allOk(replayer.plan(), map.comm)) {
        MPI_Comm_free(&map.comm);
        return kExitBadInput;
    }

    const int reps = o.repeat;
    replayer.run(-1);
    for (int r = 0; r < reps; ++r)
        replayer.run(r);
    std::vector<double> libTimes;
    const std::uint64_t libraryCount = std::uint64_t{s.parts} * o.bytes;
    const bool libraryFits = libraryCount <= static_cast<std::uint64_t>(INT_MAX) &&
                             libraryCount * s.topology().nodeCount() <= (std::uint64_t{1} << 34) &&
                             (s.participants.empty() || // MPI_Scatterv displacements are int
                              libraryCount * s.topology().nodeCount() <= static_cast<std::uint64_t>(INT_MAX));
    if (!o.noLibrary && !libraryFits && rank == 0)
        std::cerr << "topocast-mpi: note: the library collective is skipped (" << libraryCount
                  << " bytes per rank is too large for one MPI count or for this run's buffers)\n";
    if (!o.noLibrary && libraryFits) {
        replayer.runLibrary(-1);
        for (int r = 0; r < reps; ++r)
            libTimes.push_back(replayer.runLibrary(r));
    }

    // Slowest rank per step and repetition; per-transfer times from the receivers.
    const std::uint32_t steps = s.stepCount();
    std::vector<double> stepMax(replayer.stepTimes().size(), 0.0);
    MPI_Reduce(replayer.stepTimes().data(), stepMax.data(), static_cast<int>(stepMax.size()), MPI_DOUBLE, MPI_MAX, 0,
               map.comm);
    std::vector<double> libMax(libTimes.size(), 0.0);
    if (!libTimes.empty())
        MPI_Reduce(libTimes.data(), libMax.data(), static_cast<int>(libMax.size()), MPI_DOUBLE, MPI_MAX, 0, map.comm);

    std::vector<double> mine; // per receive: transfer index, then one time per repetition
    for (const auto& [index, times] : replayer.recvTimes()) {
        mine.push_back(static_cast<double>(index));
        mine.insert(mine.end(), times.begin(), times.end());
    }
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(worldSize)), displs(static_cast<std::size_t>(worldSize));
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, map.comm);
    std::vector<double> all;
    if (rank == 0) {
        int total = 0;
        for (int r = 0; r < worldSize; ++r) {
            displs[static_cast<std::size_t>(r)] = total;
            total += counts[static_cast<std::size_t>(r)];
        }
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, map.comm);

    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int nameLen = 0;
    MPI_Get_processor_name(name, &nameLen);
    std::vector<char> names(rank == 0 ? static_cast<std::size_t>(worldSize) * MPI_MAX_PROCESSOR_NAME : 0);
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, map.comm);

    unsigned long long myErrors = replayer.errors(), errors = 0;
    MPI_Allreduce(&myErrors, &errors, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, map.comm);

    int code = errors ? kExitMismatch : kExitOk;
    if (rank == 0) {
        MeasuredTimes m;
        m.scheduleFile = o.scheduleFile;
        m.topology = s.topology().spec();
        m.algorithm = s.algorithm;
        m.pattern = toString(s.pattern());
        m.fingerprint = scheduleFingerprint(s);
        m.stepCount = steps;
        m.ranks = static_cast<std::uint32_t>(worldSize);
        m.bytesPerBlock = o.bytes;
        m.repeat = reps;
        char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
        int libLen = 0;
        MPI_Get_library_version(lib, &libLen);
        m.mpiLibrary = std::string(lib, static_cast<std::size_t>(libLen));
        m.mpiLibrary = m.mpiLibrary.substr(0, m.mpiLibrary.find_first_of(",\n"));
        std::set<std::string> hosts;
        for (int r = 0; r < worldSize; ++r)
            hosts.insert(std::string(names.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME));
        m.hosts = static_cast<std::uint32_t>(hosts.size());
        m.mapping = map.how;
        m.verified = errors == 0;
        m.date = isoNow();
        std::vector<double> totals(static_cast<std::size_t>(reps), 0.0);
        for (StepNo step{1}; step <= steps; ++step) {
            MeasuredStep st;
            st.step = step;
            st.transfers = s.stepTransfers(step).size();
            for (const Transfer& t : s.stepTransfers(step))
                st.bytes += transferBytes(s, t, o.bytes);
            std::vector<double> samples;
            for (int r = 0; r < reps; ++r) {
                const double v = stepMax[static_cast<std::size_t>(r) * steps + step - 1];
                samples.push_back(v);
                totals[static_cast<std::size_t>(r)] += v;
            }
            st.time = makeTimeStats(std::move(samples));
            m.steps.push_back(std::move(st));
        }
        m.total = makeTimeStats(totals);
        for (std::size_t i = 0; i < all.size(); i += static_cast<std::size_t>(reps) + 1) {
            MeasuredTransfer mt;
            mt.index = static_cast<std::size_t>(all[i]);
            const Transfer& t = s.transfers()[mt.index];
            mt.step = t.step;
            mt.from = t.from;
            mt.to = t.to;
            mt.bytes = transferBytes(s, t, o.bytes);
            mt.time = makeTimeStats(std::vector<double>(all.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                                        all.begin() + static_cast<std::ptrdiff_t>(i) + 1 + reps));
            m.transfers.push_back(std::move(mt));
        }
        std::sort(m.transfers.begin(), m.transfers.end(),
                  [](const MeasuredTransfer& a, const MeasuredTransfer& b) { return a.index < b.index; });
        if (!libMax.empty()) {
            LibraryTiming l;
            l.operation = Replayer::libraryOperation(s);
            l.bytes = std::uint64_t{s.parts} * o.bytes;
            l.time = makeTimeStats(libMax);
            m.library = l;
        }
        printSummary(std::cout, m, s);
        if (errors)
            std::cerr << "topocast-mpi: FAILED: " << errors << " mismatch" << (errors == 1 ? "" : "es")
                      << " over all ranks and repetitions (the first ones are listed above)\n";
        if (!o.outFile.empty()) {
            try {
                writeFileAtomic(o.outFile, toJson(m).dump(1) + "\n");
                std::cout << "measured times written to " << o.outFile << "\n";
            } catch (const Error& e) {
                std::cerr << "topocast-mpi: " << e.what() << "\n";
                code = kExitBadInput;
            }
        }
        std::cout.flush();
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, map.comm);
    MPI_Comm_free(&map.comm);
    return code;
}

} // namespace

} // namespace topocast::mpi

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int code = 0;
    try {
        code = topocast::mpi::run(argc, argv);
    } catch (const std::exception& e) {
        // Reached only by a bug or resource exhaustion on one rank; the others may be blocked in
        // a collective, so only MPI_Abort can end the job without hanging it.
        std::cerr << "topocast-mpi: " << e.what() << "\n";
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Finalize();
    return code;
}
