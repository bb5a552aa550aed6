#pragma once

// The step-time model that measured runs (topocast-mpi) are compared with: wormhole (cut-through)
// routing, where one message of m bytes over h hops costs t_s + h·t_h + m·t_b and a step lasts as
// long as its slowest message. The constants come from a non-negative least-squares fit to the
// measured per-message times, so the model's bars are in seconds and comparable with the
// measured ones; what the model adds is the schedule's shape (which step moves how much how far).

#include "topocast/analysis/measured.h"
#include "topocast/model/network.h"
#include "topocast/model/schedule.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace topocast {

/// Wormhole cost constants, in seconds: start-up, per hop, per byte.
struct LinearCost {
    double startup = 0.0; ///< t_s
    double perHop = 0.0;  ///< t_h
    double perByte = 0.0; ///< t_b
    /// t_s + hops·t_h + bytes·t_b.
    double time(double hops, double bytes) const { return startup + hops * perHop + bytes * perByte; }
};

/// One observation: a message of `bytes` bytes over `hops` hops took `seconds`.
struct CostSample {
    double hops = 0.0;
    double bytes = 0.0;
    double seconds = 0.0;
};

/// A fitted LinearCost and how well it fits.
struct CostFit {
    LinearCost cost;
    double rms = 0.0;        ///< root-mean-square residual over the samples (seconds)
    std::size_t samples = 0; ///< number of samples fitted
};

/// Non-negative least squares: the LinearCost with t_s, t_h, t_b ≥ 0 that minimizes
/// Σ (cost.time(hops, bytes) − seconds)². Solved exactly by trying every subset of the three
/// constants (the optimum is the unconstrained fit on its own support); a constant the data cannot
/// determine (e.g. every sample has the same hop count, so t_h and t_s are confounded) stays 0, and
/// among equally good fits the one with fewer constants, start-up first, wins. No samples: all
/// zero. O(samples). Never throws.
CostFit fitLinearCost(std::span<const CostSample> samples);

/// The constants `samples` cannot tell apart, one sentence each (empty: all three can be
/// separated), e.g. "t_b cannot be told from t_s: every sample has 1024 bytes (one message
/// size), so the fit reports t_b = 0"; fitLinearCost then leaves the confounded constant 0.
/// O(samples). Never throws.
std::vector<std::string> confoundedConstants(std::span<const CostSample> samples);

/// One sample per measured transfer of `measured` (its median time; hops from `schedule`'s route,
/// bytes as measured), or, when the file lists no transfers, one per step (the step's median
/// against its longest route and its largest message). Requires a finalized schedule that
/// `measured` belongs to (measuredMismatch empty). Throws Error naming the transfer when a
/// transfer index is outside the schedule. O(transfers).
std::vector<CostSample> costSamples(const MeasuredTimes& measured, const Schedule& schedule);

/// The model's time of every step (index step−1): the largest cost.time(hops, bytes) over the
/// step's transfers, bytes = transferBytes(…, bytesPerBlock); 0 for an empty step. Requires a
/// finalized schedule. O(transfers).
std::vector<double> modelStepTimes(const Schedule& schedule, const LinearCost& cost, std::uint64_t bytesPerBlock);

/// The model's defaults, for figures that have no measured run behind them (the source map metric
/// "time" of algorithms without a cost figure of their own): t_s = 1 µs start-up, t_h = 10 ns per
/// hop, t_b = 1 ns per byte (a 1 GB/s link) — round numbers of the order of a cluster interconnect,
/// not a fit — and blocks of kDefaultBytesPerBlock bytes (topocast-mpi's --bytes default).
inline constexpr LinearCost kDefaultWormholeCost{1e-6, 1e-8, 1e-9};
inline constexpr std::uint64_t kDefaultBytesPerBlock = 1024;

/// The model's time of the whole schedule: Σ modelStepTimes(schedule, cost, bytesPerBlock), in
/// seconds. Requires a finalized schedule. O(transfers).
double wormholeTime(const Schedule& schedule, const LinearCost& cost = kDefaultWormholeCost,
                    std::uint64_t bytesPerBlock = kDefaultBytesPerBlock);

/// The fitted constants as a network model the time engine takes (preset "measured"): latency
/// t_s, a latency per hop t_h, bandwidth 1 / t_b, no overhead or gap of their own (the fit folds
/// them into t_s), one port. Throws Error when t_b is 0 (the fit could not tell the bytes' cost:
/// every sample had one message size), naming what to measure instead. O(1).
NetworkModel networkFromFit(const LinearCost& cost);

} // namespace topocast
