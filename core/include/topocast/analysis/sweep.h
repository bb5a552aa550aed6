#pragma once

// Which algorithm for which size: every algorithm that computes a pattern on a network, timed by
// the engine (time_engine.h) at each message size of a range, beside the bound (time_bound.h),
// with the winner of each size and the sizes where the winner changes — the first lesson of every
// course on collectives (trees win small messages, rings and buckets large ones).

#include "topocast/analysis/time_bound.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/model/network.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

struct SweepRequest {
    Topology topology = Topology::mesh({8, 8});
    Pattern pattern = Pattern::Allreduce;
    NodeId source{};
    /// Algorithm names; empty: every algorithm of the registry that computes the pattern here.
    std::vector<std::string> algorithms;
    std::vector<std::uint64_t> sizes; ///< bytes, increasing
    NetworkModel network;             ///< its message size is replaced by each size
    bool steps = false;               ///< a barrier between steps
    /// "loggp" (the engine), or the model `timer` computes ("simgrid": the CLI's simulation).
    std::string model = "loggp";
    /// Where set, each cell's time in ns (schedule, network at the cell's size, steps) in place of
    /// the engine's, one cell at a time (a simulation runs in a child process of its own).
    std::function<double(const Schedule&, const NetworkModel&, bool)> timer;
};

struct SweepRow {
    std::uint64_t size = 0;
    std::vector<double> times; ///< ns, one per SweepTable::algorithms
    TimeBound bound;
    std::size_t winner = 0; ///< index of the least time (the first of equal ones)
};

/// Where the winner changes between two sizes of the sweep.
struct Crossover {
    std::uint64_t size = 0; ///< the first size the new winner wins
    std::string from, to;
    std::string text; ///< "bucket overtakes rabenseifner at 256 KiB"
};

struct SweepTable {
    SweepRequest request;
    std::vector<std::string> algorithms; ///< the ones timed, in registry order
    /// The ones left out, each with why ("needs sides that are powers of two").
    std::vector<std::pair<std::string, std::string>> notApplicable;
    std::vector<std::size_t> transfers; ///< each timed algorithm's transfers
    std::vector<SweepRow> rows;
    std::vector<Crossover> crossovers;
};

/// "8B..1GiB" (every power of two from the first to the last, both powers of two), "1KiB,1MiB",
/// or a mix ("8B..64B,1MiB"); sorted and without repeats. Throws Error naming the text and the
/// forms allowed (a size without its unit, a range that is not of powers of two or goes down, more
/// than 64 sizes).
std::vector<std::uint64_t> parseSizeList(std::string_view text);

/// The schedules a sweep would time: (algorithm, schedule) for each one that applies, and why the
/// others do not. Throws Error for an unknown algorithm name, or when none applies.
struct SweepSchedules {
    std::vector<std::pair<std::string, Schedule>> schedules;
    std::vector<std::pair<std::string, std::string>> notApplicable;
    /// Per schedule: its folded program where every rank runs the same one (foldSchedule), timed
    /// at every size in place of the whole program.
    std::vector<std::optional<FoldedProgram>> folded;
};
SweepSchedules sweepSchedules(const SweepRequest& request);

/// Seconds the engine will take for `schedules` × `sizes` (from their transfers — a folded
/// one's, folded — at the rate bench/bench_time measures), said before a long sweep starts.
/// O(algorithms).
double estimateSweepSeconds(const SweepSchedules& schedules, std::size_t sizes, bool steps);

/// How many cores a sweep of `sizes` sizes uses (each with its own copy of the programs).
unsigned sweepThreads(std::size_t sizes);
/// Throws Error (checkMemory, limits.h) when the sweep's programs (folded where they fold), one
/// copy per core and one more, would be over the memory limit. O(algorithms).
void checkSweepMemory(const SweepSchedules& schedules, std::size_t sizes);

/// Times every schedule at every size (checkSweepMemory first). `progress` (may be empty) is called after each time
/// with the share done. O(algorithms · sizes · engine).
SweepTable runSweep(const SweepRequest& request, const SweepSchedules& schedules,
                    const std::function<void(double)>& progress = {});

} // namespace topocast
