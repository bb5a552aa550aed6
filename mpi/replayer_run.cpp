// One run of a schedule on this rank: stepped (a barrier before each step, as the papers count
// steps) or async (no barriers: every receive posted at the start, each step's sends packed and
// sent as soon as the rank has combined what it received in the step before). Both are timed end
// to end, packing and combining inside the clock, as the MPI library's collective is timed; the
// byte check comes after the clock has stopped on every rank.
#include "replayer.h"

#include <sstream>

namespace topocast::mpi {

void Replayer::run(int record)
{
    m_held.clear();
    if (m_partials) // every run starts from the rank's own contributions
        m_partials.emplace(m_s, m_combine, m_node, m_o.bytes);
    if (record >= 0)
        m_stepTimes.resize(static_cast<std::size_t>(record + 1) * m_s.stepCount(), 0.0);
    const double endToEnd = m_o.async ? runAsync(record) : runStepped(record);
    // No rank checks bytes while another is still timed (on shared cores it would slow it down).
    MPI_Barrier(m_map.comm);
    if (record >= 0)
        m_endToEnd.push_back(endToEnd);
    verify();
}

double Replayer::runStepped(int record)
{
    const std::uint32_t steps = m_s.stepCount();
    std::vector<MPI_Request> reqs;
    std::vector<double> recvDone;
    double barriers = 0.0;
    MPI_Barrier(m_map.comm);
    const double t0 = MPI_Wtime();
    for (StepNo step{1}; step <= steps; ++step) {
        const RankStep& rs = m_plan.steps[step - 1];
        if (step > 1) { // step 1's barrier is the one that started the clock
            const double b0 = MPI_Wtime();
            MPI_Barrier(m_map.comm);
            barriers += MPI_Wtime() - b0;
        }
        const double ts = MPI_Wtime();
        reqs.assign(rs.receives.size() + rs.sends.size(), MPI_REQUEST_NULL);
        recvDone.assign(rs.receives.size(), 0.0);
        for (std::size_t i = 0; i < rs.receives.size(); ++i)
            postReceive(step, i, reqs[i]);
        for (std::size_t i = 0; i < rs.sends.size(); ++i)
            packAndSend(step, i, reqs[rs.receives.size() + i]);
        for (std::size_t left = reqs.size(); left > 0; --left) {
            int idx = MPI_UNDEFINED;
            MPI_Waitany(static_cast<int>(reqs.size()), reqs.data(), &idx, MPI_STATUS_IGNORE);
            if (idx == MPI_UNDEFINED)
                break;
            if (static_cast<std::size_t>(idx) < rs.receives.size()) {
                recvDone[static_cast<std::size_t>(idx)] = MPI_Wtime() - ts;
                accept(step, static_cast<std::size_t>(idx)); // combined as it arrives
            }
        }
        if (record >= 0) {
            m_stepTimes[static_cast<std::size_t>(record) * steps + step - 1] = MPI_Wtime() - ts;
            for (std::size_t i = 0; i < rs.receives.size(); ++i)
                m_recvTimes[rs.receives[i].transfer].push_back(recvDone[i]);
        }
    }
    const double endToEnd = MPI_Wtime() - t0;
    if (record >= 0)
        m_barriers.push_back(barriers);
    return endToEnd;
}

double Replayer::runAsync(int record)
{
    const std::uint32_t steps = m_s.stepCount();
    std::vector<std::size_t> firstReceive(steps + 1, 0); // step − 1 → its first request
    for (std::uint32_t st = 0; st < steps; ++st)
        firstReceive[st + 1] = firstReceive[st] + m_plan.steps[st].receives.size();
    std::vector<MPI_Request> receives(firstReceive[steps], MPI_REQUEST_NULL), sends;
    MPI_Barrier(m_map.comm);
    const double t0 = MPI_Wtime();
    // Every receive of the run is posted at once: a message is taken whenever it comes. Messages
    // between two ranks match in the order both post them (MPI's non-overtaking rule), which is
    // the schedule's order on both sides.
    for (StepNo step{1}; step <= steps; ++step) {
        const RankStep& rs = m_plan.steps[step - 1];
        for (std::size_t i = 0; i < rs.receives.size(); ++i)
            postReceive(step, i, receives[firstReceive[step - 1] + i]);
    }
    for (StepNo step{1}; step <= steps; ++step) {
        // A step's sends need what the rank held at the end of the step before, nothing more.
        const RankStep& rs = m_plan.steps[step - 1];
        for (std::size_t i = 0; i < rs.sends.size(); ++i) {
            sends.push_back(MPI_REQUEST_NULL);
            packAndSend(step, i, sends.back());
        }
        MPI_Request* mine = receives.data() + firstReceive[step - 1];
        for (std::size_t left = rs.receives.size(); left > 0; --left) {
            int idx = MPI_UNDEFINED;
            MPI_Waitany(static_cast<int>(rs.receives.size()), mine, &idx, MPI_STATUS_IGNORE);
            if (idx == MPI_UNDEFINED)
                break;
            accept(step, static_cast<std::size_t>(idx)); // combined as it arrives
        }
        if (record >= 0)
            m_stepTimes[static_cast<std::size_t>(record) * steps + step - 1] = MPI_Wtime() - t0;
    }
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
    return MPI_Wtime() - t0;
}

void Replayer::postReceive(std::uint32_t step, std::size_t i, MPI_Request& request)
{
    const PlannedOp& op = m_plan.steps[step - 1].receives[i];
    std::vector<std::uint8_t>& buf = m_recvBufs[step - 1][i];
    MPI_Irecv(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, m_map.rankOf[op.peer], op.tag, m_map.comm, &request);
}

void Replayer::packAndSend(std::uint32_t step, std::size_t i, MPI_Request& request)
{
    const PlannedOp& op = m_plan.steps[step - 1].sends[i];
    std::vector<std::uint8_t>& buf = pack(step, i);
    MPI_Isend(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, m_map.rankOf[op.peer], op.tag, m_map.comm, &request);
}

std::vector<std::uint8_t>& Replayer::pack(std::uint32_t step, std::size_t i)
{
    const PlannedOp& op = m_plan.steps[step - 1].sends[i];
    std::vector<std::uint8_t>& buf = m_sendBufs[step - 1][i];
    const auto blocks = m_s.payload(op.payload);
    for (std::size_t k = 0; k < blocks.size(); ++k) {
        const Block& b = blocks[k];
        std::uint8_t* out = buf.data() + k * m_o.bytes;
        std::span<const std::uint8_t> from;
        if (const std::uint64_t c = combinedChunk(op.transfer, k); c != kNoChunk) {
            from = m_partials->chunk(c); // as it stood at the end of the step before
        } else if (const auto own = m_own.find(b); own != m_own.end()) {
            from = own->second;
        } else if (const auto held = m_held.find(b); held != m_held.end()) {
            from = held->second;
        } else {
            // The checker rules this out; sending zeros keeps every rank's matching intact.
            error(transferName(step, op) + ": the sender does not hold the " + describeBlock(m_s.topology(), b));
            std::fill(out, out + m_o.bytes, std::uint8_t{0});
            continue;
        }
        std::copy(from.begin(), from.end(), out);
    }
    if (static_cast<long long>(op.transfer) == m_o.injectFault && !buf.empty())
        buf[buf.size() / 2] ^= 0x5A;
    return buf;
}

void Replayer::accept(std::uint32_t step, std::size_t i)
{
    const PlannedOp& op = m_plan.steps[step - 1].receives[i];
    const std::vector<std::uint8_t>& buf = m_recvBufs[step - 1][i];
    const auto blocks = m_s.payload(op.payload);
    for (std::size_t k = 0; k < blocks.size(); ++k) {
        const std::span<const std::uint8_t> got{buf.data() + k * m_o.bytes, m_o.bytes};
        if (combinedChunk(op.transfer, k) != kNoChunk) {
            if (const std::string problem = m_partials->combine(op.transfer, k, got); !problem.empty())
                error(transferName(step, op) + ": " + problem);
            continue;
        }
        m_held[blocks[k]] = got;
    }
}

void Replayer::verify()
{
    for (std::uint32_t st = 0; st < m_plan.steps.size(); ++st) {
        const auto& receives = m_plan.steps[st].receives;
        for (std::size_t i = 0; i < receives.size(); ++i) {
            const PlannedOp& op = receives[i];
            const auto blocks = m_s.payload(op.payload);
            for (std::size_t k = 0; k < blocks.size(); ++k) {
                const std::span<const std::uint8_t> got{m_recvBufs[st][i].data() + k * m_o.bytes, m_o.bytes};
                if (combinedChunk(op.transfer, k) != kNoChunk) {
                    if (const std::string problem = m_partials->check(op.transfer, k, got); !problem.empty())
                        error(transferName(st + 1, op) + ": " + problem);
                    continue;
                }
                if (const std::size_t bad = firstMismatch(blocks[k], got); bad < got.size()) {
                    std::ostringstream msg;
                    msg << transferName(st + 1, op) << ": " << describeBlock(m_s.topology(), blocks[k])
                        << " differs at byte " << bad << " of " << m_o.bytes << " (checksum " << std::hex
                        << checksum(got) << ", expected " << blockChecksum(blocks[k], m_o.bytes) << ")";
                    error(msg.str());
                }
            }
        }
    }
    checkHoldings();
}

std::uint64_t Replayer::combinedChunk(std::size_t transfer, std::size_t k) const
{
    return m_partials ? m_combine.arrivals[m_combine.first[transfer] + k].chunk : kNoChunk;
}

void Replayer::checkHoldings()
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

} // namespace topocast::mpi
