#pragma once

// Times measured by topocast-mpi on real ranks, per step and per transfer, beside the schedule
// they were measured on. Read and written by io/measured_json.h; compared with the model in
// analysis/cost_model.h.

#include "topocast/model/schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace topocast {

/// Repeated timings of one thing, in seconds: every repetition's value and their min/median.
struct TimeStats {
    std::vector<double> samples;
    double min = 0.0;
    double median = 0.0;
};

/// Fills min and median from samples (median of an even count: mean of the middle two).
/// O(r log r).
TimeStats makeTimeStats(std::vector<double> samples);

/// One step of the schedule as measured. Stepped runs: the slowest rank's time from the step's
/// start (after a barrier) until it packed and sent all its messages of the step and received and
/// combined all of them. Async runs (no barriers): the time from the moment the slowest rank
/// completed the step before to the moment the slowest rank completed this one.
struct MeasuredStep {
    StepNo step{1};
    std::uint64_t transfers = 0;
    std::uint64_t bytes = 0; ///< bytes moved in the step, all transfers together
    TimeStats time;
};

/// One transfer as measured at its receiver: time from the step's start until the receive
/// completed.
struct MeasuredTransfer {
    std::size_t index = 0; ///< index into Schedule::transfers()
    StepNo step{1};
    NodeId from{};
    NodeId to{};
    std::uint64_t bytes = 0;
    TimeStats time;
};

/// The same collective done by the MPI library on the same ranks and data.
struct LibraryTiming {
    std::string operation;   ///< "MPI_Bcast", "MPI_Scatter(v)", "MPI_Allgather", "MPI_Alltoall", "MPI_Gather",
                             ///< "MPI_Reduce", "MPI_Allreduce", "MPI_Reduce_scatter_block"
    std::uint64_t bytes = 0; ///< count argument in bytes (per rank for Scatter/Allgather/Alltoall blocks)
    TimeStats time;          ///< slowest rank, per repetition
};

/// The document topocast-mpi writes and the app opens beside the schedule
/// ({"format": "topocast-measured", "version": 1, …}).
struct MeasuredTimes {
    // The schedule it belongs to.
    std::string scheduleFile;
    std::string topology; ///< Topology::spec()
    std::string algorithm;
    std::string pattern;
    std::string fingerprint; ///< scheduleFingerprint()
    std::uint32_t stepCount = 0;
    // How it ran.
    std::uint32_t ranks = 0;
    std::uint64_t bytesPerBlock = 0;
    int repeat = 0;
    std::string mpiLibrary;       ///< MPI_Get_library_version, first line
    std::uint32_t hosts = 0;      ///< distinct processor names
    std::string mapping;          ///< "MPI_Cart_create (reorder)", "rank bits"
    std::string mode = "stepped"; ///< "stepped" (a barrier before each step) or "async" (none)
    bool verified = false;        ///< every receive and every final holding matched byte for byte
    std::string date;             ///< UTC, ISO 8601
    // What was measured.
    std::vector<MeasuredStep> steps; ///< one per schedule step, in order
    TimeStats total;                 ///< Σ over steps of the step time, per repetition
    /// Slowest rank, from the barrier that starts the run to its last receive combined (stepped:
    /// the barriers between steps included): what the library's collective is set against.
    std::optional<TimeStats> endToEnd;
    std::optional<TimeStats> barriers; ///< stepped: slowest rank's time in the barriers between steps
    std::vector<MeasuredTransfer> transfers;
    std::optional<LibraryTiming> library;
};

/// Empty when `measured` was taken on `schedule` (same topology, step count and fingerprint);
/// otherwise the reason, e.g. "measured on mesh:4x4 but the schedule is on mesh:8x8".
std::optional<std::string> measuredMismatch(const MeasuredTimes& measured, const Schedule& schedule);

} // namespace topocast
