#include "topocast/cost_model.h"

#include "topocast/error.h"
#include "topocast/replay.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace topocast {

namespace {

constexpr int kConstants = 3; // t_s, t_h, t_b

double feature(const CostSample& s, int column)
{
    switch (column) {
    case 0: return 1.0;
    case 1: return s.hops;
    default: return s.bytes;
    }
}

// Unconstrained least squares on the columns in `cols` (normal equations on columns scaled to a
// largest magnitude of 1, Gaussian elimination with partial pivoting). False when the columns are
// (numerically) dependent.
bool solveSubset(std::span<const CostSample> samples, const std::vector<int>& cols, std::array<double, kConstants>& out)
{
    const std::size_t k = cols.size();
    std::array<double, kConstants> scale{};
    for (std::size_t j = 0; j < k; ++j) {
        for (const CostSample& s : samples)
            scale[j] = std::max(scale[j], std::abs(feature(s, cols[j])));
        if (scale[j] == 0.0)
            return false;
    }
    std::array<std::array<double, kConstants + 1>, kConstants> g{};
    for (const CostSample& s : samples)
        for (std::size_t i = 0; i < k; ++i) {
            const double fi = feature(s, cols[i]) / scale[i];
            for (std::size_t j = 0; j < k; ++j)
                g[i][j] += fi * feature(s, cols[j]) / scale[j];
            g[i][k] += fi * s.seconds;
        }
    double largest = 0.0;
    for (std::size_t i = 0; i < k; ++i)
        largest = std::max(largest, g[i][i]);
    for (std::size_t c = 0; c < k; ++c) {
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < k; ++r)
            if (std::abs(g[r][c]) > std::abs(g[pivot][c]))
                pivot = r;
        if (std::abs(g[pivot][c]) <= 1e-9 * largest)
            return false;
        std::swap(g[c], g[pivot]);
        for (std::size_t r = 0; r < k; ++r) {
            if (r == c)
                continue;
            const double f = g[r][c] / g[c][c];
            for (std::size_t j = c; j <= k; ++j)
                g[r][j] -= f * g[c][j];
        }
    }
    out = {};
    for (std::size_t j = 0; j < k; ++j)
        out[static_cast<std::size_t>(cols[j])] = g[j][k] / g[j][j] / scale[j];
    return true;
}

LinearCost toCost(const std::array<double, kConstants>& x) { return LinearCost{x[0], x[1], x[2]}; }

double sumSquares(std::span<const CostSample> samples, const LinearCost& c)
{
    double sum = 0.0;
    for (const CostSample& s : samples) {
        const double r = c.time(s.hops, s.bytes) - s.seconds;
        sum += r * r;
    }
    return sum;
}

} // namespace

CostFit fitLinearCost(std::span<const CostSample> samples)
{
    CostFit fit;
    fit.samples = samples.size();
    if (samples.empty())
        return fit;
    // Every support of the three constants, fewest first, start-up first: the first of equally
    // good fits is kept.
    static const std::vector<std::vector<int>> supports = {{0}, {0, 1}, {0, 2}, {0, 1, 2}, {1}, {2}, {1, 2}};
    double scaleY = 0.0;
    for (const CostSample& s : samples)
        scaleY += s.seconds * s.seconds;
    double best = sumSquares(samples, fit.cost); // the all-zero fit
    const double tolerance = 1e-9 * scaleY;
    for (const auto& cols : supports) {
        std::array<double, kConstants> x{};
        if (!solveSubset(samples, cols, x))
            continue;
        if (std::any_of(x.begin(), x.end(), [](double v) { return v < 0.0 || !std::isfinite(v); }))
            continue;
        const LinearCost c = toCost(x);
        const double ss = sumSquares(samples, c);
        if (ss < best - tolerance) {
            best = ss;
            fit.cost = c;
        }
    }
    fit.rms = std::sqrt(best / static_cast<double>(samples.size()));
    return fit;
}

std::vector<CostSample> costSamples(const MeasuredTimes& measured, const Schedule& schedule)
{
    std::vector<CostSample> samples;
    const auto& transfers = schedule.transfers();
    if (!measured.transfers.empty()) {
        samples.reserve(measured.transfers.size());
        for (const MeasuredTransfer& mt : measured.transfers) {
            if (mt.index >= transfers.size())
                throw Error("measured transfer " + std::to_string(mt.index) + " is not in the schedule (it has " +
                            std::to_string(transfers.size()) + " transfers)");
            const Transfer& t = transfers[mt.index];
            if (t.from != mt.from || t.to != mt.to || t.step != mt.step)
                throw Error("measured transfer " + std::to_string(mt.index) + " (step " + std::to_string(mt.step) +
                            ", " + std::to_string(mt.from) + " to " + std::to_string(mt.to) +
                            ") is not the schedule's transfer " + std::to_string(mt.index) + " (step " +
                            std::to_string(t.step) + ", " + std::to_string(t.from) + " to " + std::to_string(t.to) + ")");
            const double bytes = mt.bytes > 0 ? static_cast<double>(mt.bytes)
                                              : static_cast<double>(transferBytes(schedule, t, measured.bytesPerBlock));
            samples.push_back({static_cast<double>(schedule.hops(t)), bytes, mt.time.median});
        }
        return samples;
    }
    for (const MeasuredStep& ms : measured.steps) {
        if (ms.step > schedule.stepCount())
            break;
        CostSample s;
        for (const Transfer& t : schedule.stepTransfers(ms.step)) {
            s.hops = std::max(s.hops, static_cast<double>(schedule.hops(t)));
            s.bytes = std::max(s.bytes, static_cast<double>(transferBytes(schedule, t, measured.bytesPerBlock)));
        }
        s.seconds = ms.time.median;
        samples.push_back(s);
    }
    return samples;
}

std::vector<double> modelStepTimes(const Schedule& schedule, const LinearCost& cost, std::uint64_t bytesPerBlock)
{
    std::vector<double> times(schedule.stepCount(), 0.0);
    for (std::uint32_t step = 1; step <= schedule.stepCount(); ++step)
        for (const Transfer& t : schedule.stepTransfers(step))
            times[step - 1] = std::max(times[step - 1],
                                       cost.time(schedule.hops(t), static_cast<double>(transferBytes(schedule, t, bytesPerBlock))));
    return times;
}

} // namespace topocast
