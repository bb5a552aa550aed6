#pragma once
// Internal to the simulation (simulate.cpp): a schedule's program run by the time engine with
// every message's bytes sent over its route by SimGrid's flow-level network model. SimGrid keeps
// one simulation per process (its configuration and models are global and cannot be made
// again), so simulate.cpp calls runSimGrid in a child process of its own.
#include "topocast/analysis/time_engine.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace topocast::sim {

/// The links of every transfer's route: transfer i crosses links[first[i]] … links[first[i+1] − 1]
/// in order, each an index < linkCount (one SimGrid link per directed channel used).
struct Routes {
    std::vector<std::uint64_t> first{0};
    std::vector<std::uint32_t> links;
    std::uint32_t linkCount = 0;
};

struct Input {
    const OpProgram* program = nullptr; ///< a schedule's program (paired by index)
    std::vector<std::size_t> stepFirst; ///< the first transfer of each step, then the count
    bool steps = false;                 ///< a barrier between steps
    NetworkModel network;
    Routes routes;
    /// Called now and then (about once a second of the run) with the share of messages through.
    std::function<void(double)> progress;
};

struct Output {
    std::vector<OpTiming> ops;      ///< per op of the program
    std::vector<std::uint8_t> done; ///< per op: it completed
    std::vector<double> rankFinish; ///< per rank
    std::vector<OpTiming> hops;     ///< per entry of Routes::links: when the bytes crossed that link (ns)
    double wallSeconds = 0;
};

/// Whether this build has SimGrid.
bool available();
/// Runs the simulation in this process (once per process: SimGrid cannot start twice). Throws
/// Error where this build has no SimGrid.
Output runSimGrid(const Input& input);

} // namespace topocast::sim
