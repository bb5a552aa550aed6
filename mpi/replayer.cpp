#include "replayer.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <iostream>
#include <span>
#include <sstream>

#include <unistd.h>

namespace topocast::mpi {

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

Replayer::Replayer(const Schedule& s, const Options& o, const Mapping& map, int rank)
    : m_s(s), m_o(o), m_map(map), m_rank(rank), m_node(map.nodeOf[static_cast<std::size_t>(rank)])
{
}

bool Replayer::plan()
{
    int* tagUb = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagUb, &flag);
    try {
        m_plan = rankPlan(m_s, m_node, flag && tagUb ? *tagUb : 32767);
        if (combines(m_s.pattern())) {
            m_combine = combinePlan(m_s); // every rank derives what each arrival does
            m_partials.emplace(m_s, m_combine, m_node, m_o.bytes);
        }
        std::uint64_t largest = 0, buffers = 0;
        for (const RankStep& st : m_plan.steps)
            for (const auto* ops : {&st.sends, &st.receives})
                for (const PlannedOp& op : *ops) {
                    largest = std::max<std::uint64_t>(largest, std::uint64_t{op.blocks} * m_o.bytes);
                    buffers = saturatingAdd(buffers, saturatingMul(op.blocks, m_o.bytes));
                }
        if (largest > static_cast<std::uint64_t>(INT_MAX))
            throw Error("a transfer of " + std::to_string(largest) + " bytes exceeds one MPI message (" +
                        std::to_string(INT_MAX) + "); use a smaller --bytes");
        // A run keeps every message it sends and receives until the check after the clock.
        checkMemory("the messages of one rank's run", buffers,
                    std::to_string(buffers) + " B sent and received by node " + m_s.topology().nodeName(m_node));
        m_recvBufs.assign(m_plan.steps.size(), {});
        m_sendBufs.assign(m_plan.steps.size(), {});
        for (std::size_t st = 0; st < m_plan.steps.size(); ++st) {
            for (const PlannedOp& op : m_plan.steps[st].receives)
                m_recvBufs[st].emplace_back(std::size_t{op.blocks} * m_o.bytes);
            for (const PlannedOp& op : m_plan.steps[st].sends) {
                m_sendBufs[st].emplace_back(std::size_t{op.blocks} * m_o.bytes);
                const auto blocks = m_s.payload(op.payload);
                for (std::size_t k = 0; k < blocks.size(); ++k)
                    if (combinedChunk(op.transfer, k) == kNoChunk && holdsInitially(m_node, blocks[k]) &&
                        !m_own.contains(blocks[k])) {
                        std::vector<std::uint8_t>& own = m_own[blocks[k]];
                        own.resize(m_o.bytes);
                        fillBlock(blocks[k], own);
                    }
            }
        }
    } catch (const Error& e) {
        std::cerr << "topocast-mpi: rank " << m_rank << " (node " << m_s.topology().nodeName(m_node)
                  << "): " << e.what() << "\n";
        return false;
    }
    return true;
}

double Replayer::runLibrary(int record)
{
    std::vector<std::uint8_t> sendBuf, recvBuf;
    libraryBuffers(sendBuf, recvBuf);
    MPI_Barrier(m_map.comm);
    const double t0 = MPI_Wtime();
    callLibrary(sendBuf, recvBuf);
    const double t = MPI_Wtime() - t0;
    MPI_Barrier(m_map.comm); // no rank checks bytes while another is still timed
    checkLibrary(recvBuf, record);
    return t;
}

void Replayer::fillChunk(std::uint8_t* p, NodeId origin, std::uint32_t dest) const // dest: a node or Block::kAll
{
    for (std::uint32_t part = 0; part < m_s.parts; ++part)
        fillBlock(Block{origin, dest, part}, {p + std::size_t{part} * m_o.bytes, m_o.bytes});
}

void Replayer::checkChunk(const std::uint8_t* p, NodeId origin, std::uint32_t dest, const char* op, int record)
{
    for (std::uint32_t part = 0; part < m_s.parts; ++part) {
        const Block b{origin, dest, part};
        const std::span<const std::uint8_t> got{p + std::size_t{part} * m_o.bytes, m_o.bytes};
        const std::size_t bad = firstMismatch(b, got);
        if (bad < got.size() && record <= 0)
            error(std::string(op) + ": " + describeBlock(m_s.topology(), b) + " arrived wrong at byte " +
                  std::to_string(bad));
    }
}

void Replayer::fillContributions(std::uint8_t* p, std::uint64_t firstChunk, std::uint64_t count) const
{
    for (std::uint64_t c = 0; c < count; ++c)
        fillContribution(m_node, chunkBlock(m_s, firstChunk + c), {p + c * m_o.bytes, m_o.bytes});
}

void Replayer::checkSums(const std::uint8_t* p, std::uint64_t firstChunk, std::uint64_t count, const char* op,
                         int record)
{
    const std::uint32_t n = m_s.topology().nodeCount();
    std::vector<std::uint8_t> full(m_o.bytes);
    for (std::uint64_t c = 0; c < count; ++c) {
        const Block named = chunkBlock(m_s, firstChunk + c);
        fillTotal(n, named, full);
        if (!std::equal(full.begin(), full.end(), p + c * m_o.bytes) && record <= 0)
            error(std::string(op) + ": " + chunkName(m_s, named) + " is not the sum of all " + std::to_string(n) +
                  " contributions");
    }
}

void Replayer::libraryBuffers(std::vector<std::uint8_t>& sendBuf, std::vector<std::uint8_t>& recvBuf)
{
    const std::uint32_t n = m_s.topology().nodeCount();
    const std::uint64_t chunk64 = std::uint64_t{m_s.parts} * m_o.bytes;
    const int chunk = static_cast<int>(chunk64);
    const NodeId src = m_s.source();
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
    case Pattern::ReduceScatter: // rank r's share is node nodeOf[r]'s chunks
        sendBuf.assign(chunk64 * n, 0);
        for (int r = 0; r < static_cast<int>(n); ++r)
            fillContributions(sendBuf.data() + chunk64 * static_cast<std::uint64_t>(r),
                              std::uint64_t{m_map.nodeOf[static_cast<std::size_t>(r)]} * parts, parts);
        recvBuf.assign(chunk64, 0);
        break;
    case Pattern::PointToPoint: // (refused before anything runs: no library collective)
        break;
    }
}

void Replayer::callLibrary(std::vector<std::uint8_t>& sendBuf, std::vector<std::uint8_t>& recvBuf)
{
    const std::uint64_t chunk64 = std::uint64_t{m_s.parts} * m_o.bytes;
    const int chunk = static_cast<int>(chunk64);
    const int root = m_map.rankOf[m_s.source()];
    const Pattern pattern = m_s.pattern();
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
    case Pattern::PointToPoint:
        break;
    }
}

void Replayer::checkLibrary(const std::vector<std::uint8_t>& recvBuf, int record)
{
    const std::uint32_t n = m_s.topology().nodeCount();
    const std::uint64_t chunk64 = std::uint64_t{m_s.parts} * m_o.bytes;
    const NodeId src = m_s.source();
    const Pattern pattern = m_s.pattern();
    const std::uint64_t parts = m_s.parts;
    const char* op = libraryOperation(m_s);
    switch (pattern) {
    case Pattern::Broadcast:
        if (m_node != src)
            checkChunk(recvBuf.data(), src, Block::kAll, op, record);
        break;
    case Pattern::Scatter:
        if (m_node != src && takesPart(m_node))
            checkChunk(recvBuf.data(), src, m_node, op, record);
        break;
    case Pattern::Allgather:
    case Pattern::Alltoall:
        for (int r = 0; r < static_cast<int>(n); ++r) {
            const NodeId from = m_map.nodeOf[static_cast<std::size_t>(r)];
            if (from != m_node)
                checkChunk(recvBuf.data() + chunk64 * static_cast<std::uint64_t>(r), from,
                           pattern == Pattern::Allgather ? Block::kAll : m_node, op, record);
        }
        break;
    case Pattern::Gather:
        if (m_node == src)
            for (int r = 0; r < static_cast<int>(n); ++r) {
                const NodeId from = m_map.nodeOf[static_cast<std::size_t>(r)];
                if (from != m_node)
                    checkChunk(recvBuf.data() + chunk64 * static_cast<std::uint64_t>(r), from, Block::kAll, op, record);
            }
        break;
    case Pattern::Reduce:
        if (m_node == src)
            checkSums(recvBuf.data(), 0, parts, op, record);
        break;
    case Pattern::Allreduce:
        checkSums(recvBuf.data(), 0, parts, op, record);
        break;
    case Pattern::ReduceScatter:
        checkSums(recvBuf.data(), std::uint64_t{m_node} * parts, parts, op, record);
        break;
    case Pattern::PointToPoint:
        break;
    }
}

const char* Replayer::libraryOperation(const Schedule& s)
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
    case Pattern::PointToPoint:
        return "none";
    }
    return "MPI_Bcast";
}

bool Replayer::takesPart(NodeId v) const
{
    const auto& p = m_s.participants;
    return p.empty() || std::find(p.begin(), p.end(), v) != p.end();
}

void Replayer::error(const std::string& what)
{
    if (m_errors++ >= kMaxReportedErrors)
        return;
    // One write per line: every rank checks at once after the clock, and a line written in
    // pieces would interleave with another rank's.
    const std::string line = "topocast-mpi: MISMATCH at rank " + std::to_string(m_rank) + " (node " +
                             m_s.topology().nodeName(m_node) + "): " + what + "\n";
    std::fflush(stderr);
    for (std::size_t done = 0; done < line.size();) {
        const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
        if (n <= 0)
            break;
        done += static_cast<std::size_t>(n);
    }
}

std::string Replayer::transferName(std::uint32_t step, const PlannedOp& op) const
{
    const Transfer& t = m_s.transfers()[op.transfer];
    return "step " + std::to_string(step) + ", transfer " + std::to_string(op.transfer) + " from " +
           m_s.topology().nodeName(t.from) + " to " + m_s.topology().nodeName(t.to);
}

} // namespace topocast::mpi
