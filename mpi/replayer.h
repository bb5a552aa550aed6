#pragma once
// topocast-mpi's replay of one schedule on this rank: where the nodes live among the ranks, the
// rank's plan of sends and receives, one run with every byte checked, and the MPI library's own
// collective on the same ranks and data for comparison.

#include "topocast/analysis/replay.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace topocast::mpi {

constexpr std::size_t kMaxReportedErrors = 10; // per rank

/// The replay's options (topocast-mpi [replay] SCHEDULE …).
struct Options {
    std::string scheduleFile;
    std::uint64_t bytes = 1024;
    int repeat = 5;
    std::string outFile;
    bool noLibrary = false;
    bool async = false;         // no barriers: each rank sends as soon as its part of the schedule allows
    long long injectFault = -1; // testing aid: corrupt this transfer's payload at its sender
};

/// Where the schedule's nodes live among the ranks of `comm`.
struct Mapping {
    MPI_Comm comm = MPI_COMM_NULL;
    std::vector<int> rankOf;    // node → rank in comm
    std::vector<NodeId> nodeOf; // rank in comm → node
    std::string how;
};

/// Meshes and tori: MPI_Cart_create over the sides (reorder allowed; MPI's last dimension runs
/// fastest, ours the first, so the dimensions are listed reversed). Hypercube: node = rank bits.
Mapping mapRanks(const Topology& topo);

/// One rank's part of the replay.
class Replayer {
public:
    Replayer(const Schedule& s, const Options& o, const Mapping& map, int rank);

    /// Builds the plan; false (with a message on stderr) if it cannot be run.
    bool plan();

    /// One run of the schedule, timed end to end from a barrier (packing, sending, receiving and
    /// combining inside the clock), then a barrier, then every byte received checked. `record` =
    /// index of the timed repetition, or -1 for the warm-up.
    void run(int record);

    /// The library's collective on the same ranks and data; returns this rank's time.
    double runLibrary(int record);

    /// A scatter over part of the topology (Schedule::participants) is compared with MPI_Scatterv
    /// sending nothing to the idle ranks.
    static const char* libraryOperation(const Schedule& s);

    bool takesPart(NodeId v) const;

    std::uint64_t errors() const { return m_errors; }
    /// Repetition-major, one value per step: stepped, the step's time from its barrier to its last
    /// receive combined; async, when this rank completed the step, from the run's start.
    const std::vector<double>& stepTimes() const { return m_stepTimes; }
    /// Per repetition: first send to last combine (stepped: the barriers between steps included).
    const std::vector<double>& endToEndTimes() const { return m_endToEnd; }
    /// Per repetition, stepped runs: the time this rank spent in the barriers between steps.
    const std::vector<double>& barrierTimes() const { return m_barriers; }
    /// Stepped runs: transfer → its receive's completion after the step's start, per repetition.
    const std::map<std::size_t, std::vector<double>>& recvTimes() const { return m_recvTimes; }

private:
    double runStepped(int record);
    double runAsync(int record);

    // The library's collective: its buffers filled as the pattern gives them, the call, the check.
    void libraryBuffers(std::vector<std::uint8_t>& sendBuf, std::vector<std::uint8_t>& recvBuf);
    void callLibrary(std::vector<std::uint8_t>& sendBuf, std::vector<std::uint8_t>& recvBuf);
    void checkLibrary(const std::vector<std::uint8_t>& recvBuf, int record);
    void fillChunk(std::uint8_t* p, NodeId origin, std::uint32_t dest) const;
    void checkChunk(const std::uint8_t* p, NodeId origin, std::uint32_t dest, const char* op, int record);
    /// The combining patterns: this rank's contributions to `count` chunks from `firstChunk`, and
    /// the check that each is the sum of all of them.
    void fillContributions(std::uint8_t* p, std::uint64_t firstChunk, std::uint64_t count) const;
    void checkSums(const std::uint8_t* p, std::uint64_t firstChunk, std::uint64_t count, const char* op, int record);

    void error(const std::string& what);

    std::string transferName(std::uint32_t step, const PlannedOp& op) const;

    /// Posts receive i of `step` into its buffer; packs send i of `step` and posts it.
    void postReceive(std::uint32_t step, std::size_t i, MPI_Request& request);
    void packAndSend(std::uint32_t step, std::size_t i, MPI_Request& request);

    /// Fills the send's buffer from what the rank holds at the end of the step before.
    std::vector<std::uint8_t>& pack(std::uint32_t step, std::size_t i);

    /// Receive i of `step` arrived: its blocks are held (or combined); unchecked (see verify).
    void accept(std::uint32_t step, std::size_t i);

    /// After the clock: every block received checked byte for byte, then the final holdings.
    void verify();

    /// The chunk block k of transfer `transfer` carries in a combining schedule, else kNoChunk.
    std::uint64_t combinedChunk(std::size_t transfer, std::size_t k) const;

    void checkHoldings();

    const Schedule& m_s;
    const Options& m_o;
    const Mapping& m_map;
    int m_rank = 0;
    NodeId m_node{};
    RankPlan m_plan;
    std::map<Block, std::vector<std::uint8_t>> m_own;      // the blocks it sends of its own, made before the clock
    std::map<Block, std::span<const std::uint8_t>> m_held; // blocks received, in m_recvBufs
    std::vector<std::vector<std::vector<std::uint8_t>>> m_recvBufs, m_sendBufs; // [step − 1][op], made once
    CombinePlan m_combine;                    // combining patterns: what every arrival does
    std::optional<PartialResults> m_partials; // combining patterns: this rank's partial results
    std::uint64_t m_errors = 0;
    std::vector<int> m_scatterCounts, m_scatterDispls;      // MPI_Scatterv of a partial scatter, by rank
    std::vector<double> m_stepTimes;                        // see stepTimes()
    std::vector<double> m_endToEnd, m_barriers;             // per repetition
    std::map<std::size_t, std::vector<double>> m_recvTimes; // transfer → completion time per repetition
};

} // namespace topocast::mpi
