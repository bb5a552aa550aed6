#include "topocast/algorithms/divisible_load.h"

#include "topocast/model/error.h"

#include <Eigen/Dense>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

// The analytic model of Drozdowski & Głazek §3–§5 and Appendix A (eq. (1), Theorem 1, eqs. (4)–(12),
// Theorem 3) and the time diagram of their Fig. 3.

namespace topocast {

namespace {

void requireFinite(const char* name, double v)
{
    if (!std::isfinite(v))
        throw Error(fmt::format("divisible-load: {} = {:.10g} is not a finite number", name, v));
}

// ρ_eff, σ, q and κ of the parameters.
struct Derived {
    double rho, sigma, q, kappa;
};

Derived derive(const DivisibleLoadParams& pr)
{
    const double p = pr.ports;
    const double rho = (1.0 + pr.epsilon) * pr.C / pr.A;
    const double sigma = pr.S / pr.A;
    return {rho, sigma, p + rho + 1.0, sigma / (p + rho)};
}

// α_h of the closed form for h layers: V q^(−h) − κ(1 − q^(−h)).
double lastShare(const DivisibleLoadParams& pr, const Derived& d, int h)
{
    const double qh = std::pow(d.q, -static_cast<double>(h));
    return pr.V * qh - d.kappa * (1.0 - qh);
}

} // namespace

void checkDivisibleLoadParams(const DivisibleLoadParams& pr)
{
    if (pr.ports < 1 || pr.ports > 6)
        throw Error("divisible-load: p = " + std::to_string(pr.ports) +
                    " ports is not allowed; p must be 1..6 (simultaneous sends per processor)");
    if (pr.layers < 0 || pr.layers > kDivisibleMaxLayers)
        throw Error("divisible-load: layers = " + std::to_string(pr.layers) + " is outside 0.." +
                    std::to_string(kDivisibleMaxLayers));
    requireFinite("A", pr.A);
    requireFinite("C", pr.C);
    requireFinite("S", pr.S);
    requireFinite("V", pr.V);
    requireFinite("epsilon", pr.epsilon);
    if (pr.A <= 0)
        throw Error(fmt::format("divisible-load: A = {:.10g} must be > 0 (inverse processing rate, s/byte)", pr.A));
    if (pr.C < 0)
        throw Error(fmt::format("divisible-load: C = {:.10g} must be ≥ 0 (inverse link rate, s/byte)", pr.C));
    if (pr.S < 0)
        throw Error(fmt::format("divisible-load: S = {:.10g} must be ≥ 0 (setup time per message, s)", pr.S));
    if (pr.V <= 0)
        throw Error(fmt::format("divisible-load: V = {:.10g} must be > 0 (total load, bytes)", pr.V));
    if (pr.epsilon < 0)
        throw Error(fmt::format(
            "divisible-load: epsilon = {:.10g} must be ≥ 0 (returned results as a fraction of the data)", pr.epsilon));
}

DivisibleLoadModel solveDivisibleLoad(const DivisibleLoadParams& pr)
{
    checkDivisibleLoadParams(pr);
    const Derived d = derive(pr);
    const int h = pr.layers;
    const double p = pr.ports;
    const auto n = static_cast<std::size_t>(h) + 1;

    DivisibleLoadModel m;
    m.params = pr;
    m.rho = d.rho;
    m.sigma = d.sigma;
    m.q = d.q;
    m.kappa = d.kappa;
    m.cEff = (1.0 + pr.epsilon) * pr.C;

    // Theorem 1 with non-positive exponents only (spec §2.7 step 2).
    m.alpha.resize(n);
    const double qh = std::pow(d.q, -static_cast<double>(h));
    const double scale = (pr.V + d.kappa) / (p + d.rho);
    for (int i = 0; i <= h; ++i) {
        const double qi = std::pow(d.q, static_cast<double>(i - h));
        m.alpha[static_cast<std::size_t>(h - i)] = scale * (p * qh + d.rho * qi) + d.kappa * (i * p - 1.0);
    }
    if (h == 0)
        m.alpha[0] = pr.V;

    m.layerSize.resize(n);
    m.lambda.resize(n);
    m.feasible = true;
    for (std::size_t i = 0; i < n; ++i) {
        m.layerSize[i] = i == 0 ? 1.0 : p * std::pow(p + 1.0, static_cast<double>(i) - 1.0);
        m.lambda[i] = m.layerSize[i] * m.alpha[i] / pr.V;
        if (!(m.alpha[i] > 0))
            m.feasible = false;
    }

    // L_k = α_k + p W_{k+1}, W_k = α_k + (p+1) W_{k+1}, W_{h+1} = 0 (spec §1.4).
    m.messageSize.assign(n, 0.0);
    double w = 0;
    for (int k = h; k >= 0; --k) {
        const auto kk = static_cast<std::size_t>(k);
        m.messageSize[kk] = m.alpha[kk] + p * w;
        w = m.alpha[kk] + (p + 1.0) * w;
    }
    m.messageSize[0] = pr.V;

    m.receiveTime.assign(n, 0.0);
    for (std::size_t k = 1; k < n; ++k)
        m.receiveTime[k] = m.receiveTime[k - 1] + pr.S + m.cEff * m.messageSize[k];

    m.finishTime = pr.A * m.alpha[0];
    m.processors = std::pow(p + 1.0, static_cast<double>(h));
    m.speedup = pr.V / m.alpha[0];
    m.limit = d.rho > 0 ? 1.0 + p / d.rho : std::numeric_limits<double>::infinity();
    m.bound = std::min(m.processors, m.limit);
    return m;
}

std::vector<double> solveDivisibleLoadSystem(const DivisibleLoadParams& pr)
{
    checkDivisibleLoadParams(pr);
    const Derived d = derive(pr);
    const int h = pr.layers;
    const double p = pr.ports;

    // Long double: for infeasible h (α_h < 0) the normalization row cancels heavily and double
    // loses digits. Unknown column c is α_c.
    using Matrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
    using Vector = Eigen::Matrix<long double, Eigen::Dynamic, 1>;
    const long double rho = d.rho, sigma = d.sigma, pl = p;
    const Eigen::Index size = h + 1;
    Matrix a = Matrix::Zero(size, size);
    Vector rhs(size);
    // Equations i = 1..h of system (1), divided by A:
    //   α_{h−i} − (1+ρ) α_{h−i+1} − ρp Σ_{j=2..i} (p+1)^{j−2} α_{h−i+j} = σ.
    for (int i = 1; i <= h; ++i) {
        const Eigen::Index r = i - 1;
        a(r, h - i) = 1.0L;
        a(r, h - i + 1) = -(1.0L + rho);
        for (int j = 2; j <= i; ++j)
            a(r, h - i + j) = -rho * pl * std::pow(pl + 1.0L, static_cast<long double>(j - 2));
        rhs(r) = sigma;
    }
    // Normalization: α₀ + p Σ (p+1)^{i−1} α_i = V.
    const Eigen::Index last = size - 1;
    a(last, 0) = 1.0L;
    for (Eigen::Index i = 1; i < size; ++i)
        a(last, i) = pl * std::pow(pl + 1.0L, static_cast<long double>(i) - 1.0L);
    rhs(last) = pr.V;

    const Eigen::PartialPivLU<Matrix> lu(a);
    if ((lu.matrixLU().diagonal().array() == 0.0L).any())
        throw Error("divisible-load: the linear system is singular (p = " + std::to_string(pr.ports) +
                    ", h = " + std::to_string(h) + ")");
    const Vector x = lu.solve(rhs);
    return {x.begin(), x.end()};
}

std::vector<double> solveDivisibleLoadRecurrence(const DivisibleLoadParams& pr)
{
    checkDivisibleLoadParams(pr);
    const Derived d = derive(pr);
    const int h = pr.layers;
    const auto n = static_cast<std::size_t>(h) + 1;
    const double p = pr.ports;
    // β_j = a_j + b_j β₀ with β₁ = σ + (1+ρ)β₀ and (A.7) β_j = (p+ρ+2)β_{j−1} − (p+ρ+1)β_{j−2} − pσ.
    // Long double for the same reason as the dense solve.
    const long double q = d.q, sigma = d.sigma, pl = p;
    std::vector<long double> a(n, 0.0L), b(n, 0.0L);
    b[0] = 1.0L;
    if (n > 1) {
        a[1] = sigma;
        b[1] = 1.0L + static_cast<long double>(d.rho);
    }
    for (std::size_t j = 2; j < n; ++j) {
        a[j] = (q + 1.0L) * a[j - 1] - q * a[j - 2] - pl * sigma;
        b[j] = (q + 1.0L) * b[j - 1] - q * b[j - 2];
    }
    // V = β_h + p Σ_{k<h} (p+1)^{h−1−k} β_k.
    long double va = a[n - 1], vb = b[n - 1];
    for (std::size_t k = 0; k + 1 < n; ++k) {
        const long double w =
            pl * std::pow(pl + 1.0L, static_cast<long double>(h) - 1.0L - static_cast<long double>(k));
        va += w * a[k];
        vb += w * b[k];
    }
    const long double beta0 = (static_cast<long double>(pr.V) - va) / vb;
    std::vector<double> alpha(n);
    for (std::size_t j = 0; j < n; ++j)
        alpha[n - 1 - j] = static_cast<double>(a[j] + b[j] * beta0);
    return alpha;
}

double divisibleLoadSpeedup(const DivisibleLoadParams& pr)
{
    checkDivisibleLoadParams(pr);
    const Derived d = derive(pr);
    const double p = pr.ports;
    const double h = pr.layers;
    const double denom =
        (1.0 + d.sigma / (pr.V * (p + d.rho))) * (d.rho + p * std::pow(d.q, -h)) + d.sigma / pr.V * (h * p - 1.0);
    return (p + d.rho) / denom;
}

double divisibleLoadSpeedupNoSetup(const DivisibleLoadParams& pr)
{
    checkDivisibleLoadParams(pr);
    const Derived d = derive(pr);
    const double p = pr.ports;
    return (d.rho + p) / (d.rho + p * std::pow(d.q, -static_cast<double>(pr.layers)));
}

namespace {

/// `params` without layers, checked, and the constants derived from them (no layer count enters
/// them): where the questions about the best number of layers start.
std::pair<DivisibleLoadParams, Derived> layerFree(DivisibleLoadParams pr)
{
    pr.layers = 0;
    checkDivisibleLoadParams(pr);
    return {pr, derive(pr)};
}

} // namespace

std::optional<int> divisibleLoadMaxLayers(const DivisibleLoadParams& params)
{
    const auto [pr, d] = layerFree(params);
    if (d.sigma == 0) // no start-up cost: every layer gets load
        return std::nullopt;
    // Condition (5): α_h > 0 ⇔ q^h < V(p+ρ)/σ + 1. Start from the logarithm, then settle the
    // boundary with the closed-form α_h itself (the inequality is strict).
    const double x = pr.V * (pr.ports + d.rho) / d.sigma + 1.0;
    double estimate = std::log(x) / std::log(d.q);
    if (!std::isfinite(estimate))
        estimate = kDivisibleMaxLayers;
    int h = static_cast<int>(std::clamp(std::floor(estimate), 0.0, static_cast<double>(kDivisibleMaxLayers)));
    while (h > 0 && !(lastShare(pr, d, h) > 0))
        --h;
    while (h < kDivisibleMaxLayers && lastShare(pr, d, h + 1) > 0)
        ++h;
    return h;
}

std::optional<double> divisibleLoadOptimalLayersEstimate(const DivisibleLoadParams& params)
{
    const auto [pr, d] = layerFree(params);
    if (d.sigma == 0) // no finite optimum: without start-up cost another layer never hurts
        return std::nullopt;
    const double p = pr.ports;
    const double lq = std::log(d.q);
    return std::log(pr.V * (p + d.rho) / d.sigma + 1.0) / lq - std::log((p + d.rho) / lq) / lq;
}

namespace {

double pascal(int p, int j, int i, bool isG)
{
    if (j < 0 || i < 0 || i > j)
        return 0.0;
    // table[i] holds row j' for j' = 0..j.
    std::vector<double> row(static_cast<std::size_t>(j) + 2, 0.0), next(row.size(), 0.0);
    row[0] = isG ? 0.0 : 1.0; // j' = 0
    for (int jj = 1; jj <= j; ++jj) {
        std::fill(next.begin(), next.end(), 0.0);
        next[0] = isG ? jj : 1.0;
        const int top = isG ? jj - 1 : jj; // g(j,j) = 0
        for (int ii = 1; ii <= top; ++ii) {
            const auto u = static_cast<std::size_t>(ii);
            next[u] = (p + 1.0) * row[u] + row[u - 1];
        }
        std::swap(row, next);
    }
    return row[static_cast<std::size_t>(i)];
}

} // namespace

double divisiblePascalF(int p, int j, int i)
{
    return pascal(p, j, i, false);
}
double divisiblePascalG(int p, int j, int i)
{
    return pascal(p, j, i, true);
}

DivisibleLoadTimeline divisibleLoadTimeline(const DivisibleLoadModel& m)
{
    const DivisibleLoadParams& pr = m.params;
    const int h = pr.layers;
    DivisibleLoadTimeline t;
    t.finishTime = m.finishTime;
    const double th = m.receiveTime.back();
    for (int k = 0; k <= h; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        DivisibleLoadTimelineRow r;
        r.layer = k;
        r.processors = m.layerSize[kk];
        r.alpha = m.alpha[kk];
        r.receiveBegin = k == 0 ? 0.0 : m.receiveTime[kk - 1];
        r.setupEnd = k == 0 ? 0.0 : m.receiveTime[kk - 1] + pr.S;
        r.receiveEnd = m.receiveTime[kk];
        r.receivedBytes = m.messageSize[kk];
        r.computeBegin = m.receiveTime[kk];
        r.computeEnd = m.receiveTime[kk] + pr.A * m.alpha[kk];
        r.sendBegin = m.receiveTime[kk];
        r.sendEnd = th;
        t.rows.push_back(r);
    }
    for (int k = 1; k <= h; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        DivisibleLoadMove mv;
        mv.move = k;
        mv.begin = m.receiveTime[kk - 1];
        mv.setupEnd = mv.begin + pr.S;
        mv.end = m.receiveTime[kk];
        mv.messageSize = m.messageSize[kk];
        mv.resultAllowance = pr.epsilon * pr.C * m.messageSize[kk];
        mv.senders = std::pow(pr.ports + 1.0, k - 1.0);
        mv.messages = m.layerSize[kk];
        t.moves.push_back(mv);
    }
    return t;
}

} // namespace topocast
