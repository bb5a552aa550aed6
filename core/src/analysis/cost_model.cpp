#include "topocast/analysis/cost_model.h"

#include "topocast/analysis/replay.h"
#include "topocast/model/error.h"

#include <Eigen/Dense>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <string>

namespace topocast {

namespace {

constexpr int kConstants = 3; // t_s, t_h, t_b

// The normal equations of all three columns, each scaled to a largest magnitude of 1 (a column
// that is zero throughout keeps scale 0 and is never solved for). Every support's equations are
// a sub-block of these, built in one pass over the samples.
struct NormalEquations {
    Eigen::Vector3d scale = Eigen::Vector3d::Zero();
    Eigen::Matrix3d gram = Eigen::Matrix3d::Zero();
    Eigen::Vector3d rhs = Eigen::Vector3d::Zero();
};

Eigen::Vector3d features(const CostSample& s)
{
    return {1.0, s.hops, s.bytes};
}

NormalEquations normalEquations(std::span<const CostSample> samples)
{
    NormalEquations ne;
    for (const CostSample& s : samples)
        ne.scale = ne.scale.cwiseMax(features(s).cwiseAbs());
    const Eigen::Vector3d divisor = (ne.scale.array() == 0.0).select(1.0, ne.scale);
    for (const CostSample& s : samples) {
        const Eigen::Vector3d f = features(s).cwiseQuotient(divisor);
        ne.gram.noalias() += f * f.transpose();
        ne.rhs += f * s.seconds;
    }
    return ne;
}

// Unconstrained least squares on the columns in `cols`, by LU with full pivoting on their block
// of the normal equations. False when the columns are (numerically) dependent: a pivot at most
// 1e-9 of the largest.
bool solveSubset(const NormalEquations& ne, const std::vector<int>& cols, std::array<double, kConstants>& out)
{
    for (int c : cols)
        if (ne.scale[c] == 0.0)
            return false;
    using Gram = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kConstants, kConstants>;
    using Column = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kConstants, 1>;
    const Gram g = ne.gram(cols, cols);
    Eigen::FullPivLU<Gram> lu(g);
    lu.setThreshold(1e-9);
    if (!lu.isInvertible())
        return false;
    const Column x = lu.solve(Column(ne.rhs(cols)));
    out = {};
    for (std::size_t j = 0; j < cols.size(); ++j)
        out[static_cast<std::size_t>(cols[j])] = x[static_cast<Eigen::Index>(j)] / ne.scale[cols[j]];
    return true;
}

LinearCost toCost(const std::array<double, kConstants>& x)
{
    return LinearCost{x[0], x[1], x[2]};
}

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

std::vector<std::string> confoundedConstants(std::span<const CostSample> samples)
{
    std::vector<std::string> out;
    if (samples.empty())
        return out;
    auto allSame = [&](auto field) {
        return std::all_of(samples.begin(), samples.end(),
                           [&](const CostSample& c) { return field(c) == field(samples.front()); });
    };
    auto number = [](double v) {
        std::ostringstream s;
        s << v;
        return s.str();
    };
    const bool sameHops = allSame([](const CostSample& c) { return c.hops; });
    const bool sameBytes = allSame([](const CostSample& c) { return c.bytes; });
    if (sameHops)
        out.push_back("t_h cannot be told from t_s: every sample has " + number(samples.front().hops) +
                      " hops, so the fit reports t_h = 0 and t_s holds both");
    if (sameBytes)
        out.push_back("t_b cannot be told from t_s: every sample has " + number(samples.front().bytes) +
                      " bytes (one message size), so the fit reports t_b = 0 and t_s holds both");
    if (!sameHops && !sameBytes) {
        // bytes = a·hops + b for every sample: t_s, t_h and t_b are not all determined.
        const CostSample& p = samples.front();
        const auto q =
            std::find_if(samples.begin(), samples.end(), [&](const CostSample& c) { return c.hops != p.hops; });
        const double a = (q->bytes - p.bytes) / (q->hops - p.hops);
        const bool onLine = std::all_of(samples.begin(), samples.end(), [&](const CostSample& c) {
            return std::abs(c.bytes - (p.bytes + a * (c.hops - p.hops))) <= 1e-9 * std::max(1.0, std::abs(c.bytes));
        });
        if (onLine)
            out.push_back("t_s, t_h and t_b cannot all be told apart: the samples' bytes grow in step with their hops "
                          "(one line), so one of them is reported as 0");
    }
    return out;
}

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
    const NormalEquations ne = normalEquations(samples);
    for (const auto& cols : supports) {
        std::array<double, kConstants> x{};
        if (!solveSubset(ne, cols, x))
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
                            std::to_string(t.step) + ", " + std::to_string(t.from) + " to " + std::to_string(t.to) +
                            ")");
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
    for (StepNo step : steps(schedule))
        for (const Transfer& t : schedule.stepTransfers(step))
            times[step - 1] =
                std::max(times[step - 1],
                         cost.time(schedule.hops(t), static_cast<double>(transferBytes(schedule, t, bytesPerBlock))));
    return times;
}

double wormholeTime(const Schedule& schedule, const LinearCost& cost, std::uint64_t bytesPerBlock)
{
    double total = 0.0;
    for (double t : modelStepTimes(schedule, cost, bytesPerBlock))
        total += t;
    return total;
}

NetworkModel networkFromFit(const LinearCost& cost)
{
    if (!(cost.perByte > 0))
        throw Error(
            "the fit has no cost per byte (t_b = 0: every sample had one message size, or the bytes cost nothing "
            "measurable); measure at two block sizes (topocast-mpi --bytes) to get a network model");
    NetworkModel m;
    m.preset = "measured";
    m.perByte = cost.perByte;
    m.latency = cost.startup;
    m.hopLatency = cost.perHop;
    m.overhead = 0;
    m.gap = 0;
    m.ports = NetworkPorts::One;
    return m;
}

} // namespace topocast
