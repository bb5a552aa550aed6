#pragma once

// A schedule's time with contention charged: the time engine (time_engine.h: LogGP's overheads,
// gaps, ports and latencies) with every message's bytes sent over the links of its route by
// SimGrid's flow-level network model (Velho & Legrand's max-min bandwidth sharing, the CM02 model
// without its correction factors): messages that cross one link at once share its bandwidth, the
// two directions of a channel are two links. A message alone on its links takes exactly the
// engine's time, so the simulation of a schedule without contention is the engine's to the
// nanosecond, and what it adds is the cost of sharing links. Each transfer goes over exactly the
// route topocast computed (dimension order, the hypercube's e-cube routes, Tsay–Wang's paths, an
// imported schedule's routes); store-and-forward sends each hop after the one before.

#include "topocast/analysis/time_engine.h"
#include "topocast/model/schedule.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace topocast {

struct SimulationOptions {
    /// A barrier between steps (every step starts when the slowest message of the step before
    /// has arrived, as the papers read a schedule).
    bool steps = false;
    /// Called now and then (about once a second of a long run) with the share of messages through.
    std::function<void(double)> progress;
};

/// What one directed link carried.
struct LinkLoad {
    ChannelId channel{};
    double busy = 0;             ///< ns in which at least one message's bytes crossed it
    double shared = 0;           ///< ns in which two or more did at once
    std::uint32_t transfers = 0; ///< messages that crossed it
    std::uint32_t most = 0;      ///< the most messages at once
    double mostAt = 0;           ///< ns: when it first carried that many
    StepNo mostStep{1};          ///< the step of the message that made it that many
};

/// Busy and shared intervals of one link, in ns, each list sorted and disjoint.
struct LinkIntervals {
    std::vector<OpTiming> busy;
    std::vector<OpTiming> shared;
};

struct Simulation {
    /// The simulated time: model "simgrid" ("simgrid-steps" with a barrier between steps); every
    /// transfer's start and end, every rank's finish, the total, in nanoseconds.
    TimeResult time;
    /// The engine's time of the same schedule with the same network and options (no contention
    /// charged): model "loggp" or "loggp-steps".
    TimeResult contentionFree;
    /// Transfer i crosses channels routeLinks[routeFirst[i]] … in order; hopTimes (same index)
    /// says when its bytes crossed each of them (ns).
    std::vector<std::uint64_t> routeFirst;
    std::vector<ChannelId> routeLinks;
    std::vector<OpTiming> hopTimes;
    /// Every link that carried a message, the most shared first (then the busiest, then by channel).
    std::vector<LinkLoad> links;
    double wallSeconds = 0; ///< how long the simulation ran (the child's whole run)

    /// (simulated − contention-free) / contention-free: 0.38 where contention costs 38 %. O(1).
    double contentionCost() const;
};

/// Whether this build has SimGrid (`simulateSchedule` throws otherwise).
bool simulationAvailable();
/// Throws Error with the reason and the remedy where this build has no SimGrid. O(1).
void requireSimulation();
/// "SimGrid 3.32, CM02 max-min flow model" (the version this build links), for notes and files.
std::string simulationEngine();

/// What a simulation of `schedule` will take before it starts: seconds on one core of a machine
/// like this one (measured in bench/, within 2×) and bytes of memory. O(1).
struct SimulationEstimate {
    double seconds = 0;
    std::uint64_t bytes = 0;
};
SimulationEstimate estimateSimulation(const Schedule& schedule);

/// Simulates `schedule` (finalized) on `network`. SimGrid runs one simulation per process, so
/// this one runs in a child process of its own (fork) that hands back its result. Throws Error
/// where this build has no SimGrid, before starting when the memory limit (limits.h) would be
/// passed, and when the simulation fails (with SimGrid's reason). O(transfers · hops · log).
Simulation simulateSchedule(const Schedule& schedule, const NetworkModel& network,
                            const SimulationOptions& options = {});

/// The intervals in which `channel` was busy and shared. O(hop entries).
LinkIntervals linkIntervals(const Simulation& simulation, ChannelId channel);

} // namespace topocast
