#include "topocast/algorithms/hypercube_cost.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <cmath>

namespace topocast::hypercube {

long long binomial(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    long long r = 1;
    for (int i = 1; i <= k; ++i)
        r = r * (n - k + i) / i;
    return r;
}

namespace {

Rational ceilR(Rational x)
{
    return Rational(x.ceil());
}

/// Pipelined form T = (aQ + b)τ + (aM + bB)t_c with B_opt = sqrt(aMτ/(b t_c)) (§2).
ClosedForm pipelined(const CostParams& p, Rational a, long long b)
{
    ClosedForm f;
    f.available = true;
    const Rational M(p.M), B(p.B);
    f.startups = a * ceilR(M / B) + Rational(b);
    f.transfer = a * M + Rational(b) * B;
    const double av = a.value(), Mv = static_cast<double>(p.M);
    if (b > 0 && p.tc > 0)
        f.packetOpt = std::sqrt(av * Mv * p.tau / (static_cast<double>(b) * p.tc));
    else
        f.packetOpt = Mv;
    f.packetOpt = std::clamp(f.packetOpt, std::min(1.0, Mv), Mv);
    const double bb = std::max<double>(0.0, static_cast<double>(b));
    f.timeMin = std::pow(std::sqrt(av * Mv * p.tc) + std::sqrt(bb * p.tau), 2.0);
    return f;
}

ClosedForm plain(Rational startups, Rational transfer, double packetOpt, double timeMin)
{
    ClosedForm f;
    f.available = true;
    f.startups = startups;
    f.transfer = transfer;
    f.packetOpt = packetOpt;
    f.timeMin = timeMin;
    return f;
}

/// Formulas evaluated on the constructed graph where the paper gives a general theorem only.
ClosedForm fromGraph(GraphKind kind, Pattern pattern, Ports ports, const CostParams& p)
{
    const SpanningGraph g = buildGraph(kind, p.n);
    const Rational M(p.M), B(p.B);
    std::vector<Rational> perCycle;
    std::string source;
    if (ports == Ports::N) {
        const Counters k = computeCounters(g);
        for (int l = 0; l < k.height; ++l)
            perCycle.push_back(M * k.maxOverDims(pattern == Pattern::Allgather ? k.e : k.s, l));
        source =
            pattern == Pattern::Allgather ? "Thm. 6.2 on the graph's counters" : "Thm. 7.3 on the graph's counters";
    } else {
        const auto labels = oneportLabels(g);
        std::vector<Rational> amount;
        for (int t = 0; t < g.trees; ++t) {
            const auto sizes = subtreeSizes(g, t);
            for (std::uint32_t c = 1; c < g.nodeCount(); ++c) {
                const std::uint32_t lab = labels[static_cast<std::size_t>(t)][c];
                if (amount.size() <= lab)
                    amount.resize(lab + 1, Rational(0));
                amount[lab] += Rational(pattern == Pattern::Allgather ? 1 : sizes[c]);
            }
        }
        for (const Rational& a : amount)
            perCycle.push_back(M * a * g.weight());
        source = pattern == Pattern::Allgather ? "§6.2 label amounts a(t) of the graph"
                                               : "§7.1 label amounts b(t) of the graph";
    }
    ClosedForm f;
    f.available = true;
    f.source = source;
    Rational maxD = 0;
    for (const Rational& d : perCycle) {
        f.startups += ceilR(d / B);
        f.transfer += d;
        maxD = std::max(maxD, d);
    }
    f.packetOpt = maxD.value();
    f.timeMin = f.transfer.value() * p.tc + static_cast<double>(perCycle.size()) * p.tau;
    return f;
}

// ---- the paper's tables (§4.4, §5.3, §6.3, §7.3 with the corrections of §10) ------------------
// One row per printed formula: which algorithm, pattern, port models and variant it is for, where
// it is printed, and the formula itself. closedForm takes the first row that matches, so a row
// for "any other port model" follows the rows for particular ones, as in the tables.

/// The symbols of the formulas: exact rationals for start-ups and transfers, doubles for B_opt
/// and T_min (evaluated as the paper writes them).
struct Terms {
    const CostParams& p;
    int n;
    long long N; // 2^n
    Rational M, B, nR, NR;
    double Mv, Nv, nv, tau, tc;

    explicit Terms(const CostParams& params)
        : p(params), n(params.n), N(1LL << params.n), M(params.M), B(params.B), nR(params.n), NR(N),
          Mv(static_cast<double>(params.M)), Nv(static_cast<double>(N)), nv(params.n), tau(params.tau), tc(params.tc)
    {
    }
};

/// Σ_{i=lo..hi} term(i).
template <class Term> Rational sum(int lo, int hi, Term term)
{
    Rational s = 0;
    for (int i = lo; i <= hi; ++i)
        s += term(i);
    return s;
}

/// Σ_{j=i..n} C(n, j).
long long binomialTail(int n, int i)
{
    long long t = 0;
    for (int j = i; j <= n; ++j)
        t += binomial(n, j);
    return t;
}

/// Port models as a set (bit per Ports value).
using PortSet = std::uint8_t;
constexpr PortSet portBit(Ports p)
{
    return static_cast<PortSet>(1u << static_cast<unsigned>(p));
}
constexpr PortSet kOnePort = portBit(Ports::One);
constexpr PortSet kSendRecv = portBit(Ports::SendRecv);
constexpr PortSet kHalf = portBit(Ports::Half);
constexpr PortSet kNPort = portBit(Ports::N);
constexpr PortSet kNotOnePort = kSendRecv | kHalf | kNPort;
constexpr PortSet kAnyPorts = kOnePort | kNotOnePort;

struct FormulaRow {
    std::string_view algorithm;
    Pattern pattern;
    PortSet ports;
    std::string_view variant; ///< empty: any variant
    std::string_view source;  ///< where the paper prints it
    bool exact;               ///< false for the paper's "≈" rows
    ClosedForm (*formula)(const Terms&);

    bool matches(std::string_view a, Pattern pat, Ports po, std::string_view v) const
    {
        return algorithm == a && pattern == pat && (ports & portBit(po)) != 0 && (variant.empty() || variant == v);
    }
};

// Formulas that more than one row prints.

ClosedForm sbtScatterOnePort(const Terms& t)
{
    return plain(sum(0, t.n - 1, [&](int i) { return ceilR(Rational(1LL << i) * t.M / t.B); }), Rational(t.N - 1) * t.M,
                 t.Nv * t.Mv / 2, (t.Nv - 1) * t.Mv * t.tc + t.nv * t.tau);
}

ClosedForm sbtScatterNPort(const Terms& t)
{
    return plain(sum(0, t.n - 1, [&](int i) { return ceilR(Rational(binomial(t.n - 1, i)) * t.M / t.B); }),
                 t.NR * t.M / Rational(2), t.Mv * static_cast<double>(binomial(t.n - 1, (t.n - 1) / 2)),
                 t.Nv * t.Mv / 2 * t.tc + t.nv * t.tau);
}

ClosedForm streamingScatter(const Terms& t)
{
    return plain(ceilR(Rational(t.N - 1) * t.M / (t.nR * t.B)), Rational(t.N - 1) * t.M / t.nR,
                 (t.Nv - 1) * t.Mv / t.nv, (t.Nv - 1) * t.Mv / t.nv * t.tc + t.tau);
}

ClosedForm nrsbtScatterNPort(const Terms& t)
{
    return plain(sum(0, t.n - 1, [&](int i) { return ceilR(Rational(binomial(t.n, i)) * t.M / (t.nR * t.B)); }),
                 Rational(t.N - 1) * t.M / t.nR, t.Mv * static_cast<double>(binomial(t.n, t.n / 2)) / t.nv,
                 (t.Nv - 1) * t.Mv / t.nv * t.tc + t.nv * t.tau);
}

ClosedForm nrsbtAllgatherNPort(const Terms& t)
{
    return plain(sum(1, t.n, [&](int i) { return ceilR(Rational(binomial(t.n, i)) * t.M / (t.nR * t.B)); }),
                 Rational(t.N - 1) * t.M / t.nR, t.Mv * static_cast<double>(binomial(t.n, t.n / 2)) / t.nv,
                 (t.Nv - 1) * t.Mv / t.nv * t.tc + t.nv * t.tau);
}

ClosedForm nesbtBroadcastNPort(const Terms& t)
{
    ClosedForm f =
        plain(ceilR(t.M / (t.nR * t.B)) + t.nR, t.M / t.nR + t.nR * t.B, std::sqrt(t.Mv * t.tau / t.tc) / t.nv,
              std::pow(std::sqrt(t.Mv * t.tc / t.nv) + std::sqrt(t.nv * t.tau), 2.0));
    if (!(t.tc > 0))
        f.packetOpt = t.Mv / t.nv;
    f.packetOpt = std::clamp(f.packetOpt, std::min(1.0, t.Mv / t.nv), t.Mv / t.nv);
    return f;
}

ClosedForm sbtAlltoallNPort(const Terms& t)
{
    Rational x = 0, s = 0;
    for (int l = 0; l <= t.n - 1; ++l) {
        const long long Sl = l <= (t.n - 1) / 2 ? binomial(2 * l, l) << (t.n - 2 * l - 1) : binomial(t.n - 1, l);
        x += Rational(Sl) * t.M;
        s += ceilR(Rational(Sl) * t.M / t.B);
    }
    return plain(s, x, t.Nv * t.Mv / 2, x.value() * t.tc + t.nv * t.tau);
}

ClosedForm nesbtAllgatherNPort(const Terms& t)
{
    long long mx = t.n - 1;
    for (int i = 2; i <= t.n; ++i)
        mx = std::max(mx, binomial(t.n, i));
    return plain(sum(2, t.n, [&](int i) { return ceilR(Rational(binomial(t.n, i)) * t.M / (t.nR * t.B)); }) +
                     ceilR(t.M / (t.nR * t.B)) + ceilR(Rational(t.n - 1) * t.M / (t.nR * t.B)),
                 Rational(t.N - 1) * t.M / t.nR, t.Mv * static_cast<double>(mx) / t.nv,
                 (t.Nv - 1) * t.Mv / t.nv * t.tc + (t.nv + 1) * t.tau);
}

ClosedForm nesbtAlltoallOnePort(const Terms& t)
{
    return plain(
        sum(0, t.n - 1,
            [&](int i) { return ceilR((Rational(i + 2) * t.NR / Rational(2) - Rational(1)) * t.M / (t.nR * t.B)); }) +
            sum(1, t.n,
                [&](int i) { return ceilR((Rational(i) * t.NR / Rational(2) - Rational(1)) * t.M / (t.nR * t.B)); }),
        (t.nR * t.NR / Rational(2) + t.NR - Rational(2)) * t.M, t.Mv / t.nv * ((t.nv + 1) * t.Nv / 2 - 1),
        (t.nv * t.Nv / 2 + t.Nv - 2) * t.Mv * t.tc + 2 * t.nv * t.tau);
}

ClosedForm nesbtAlltoallNPort(const Terms& t)
{
    return plain(sum(2, t.n, [&](int i) { return ceilR(Rational(binomialTail(t.n, i)) * t.M / (t.nR * t.B)); }) +
                     ceilR(Rational(t.N - 2) * t.M / (t.nR * t.B)) + ceilR(Rational(t.N - 1) * t.M / (t.nR * t.B)),
                 (t.NR / Rational(2) + Rational(t.N - 2) / t.nR) * t.M, (t.Nv - 1) * t.Mv / t.nv,
                 (t.Nv / 2 + (t.Nv - 2) / t.nv) * t.Mv * t.tc + (t.nv + 1) * t.tau);
}

constexpr FormulaRow kFormulas[] = {
    // ---- one-to-all broadcast (Tables 4 and 5) ----
    {"hp", Pattern::Broadcast, kNPort, "", "Table 5", true,
     [](const Terms& t) {
         return plain(ceilR(t.M / (t.nR * t.B)) * Rational(t.N - 1), t.M * Rational(t.N - 1) / t.nR, t.Mv / t.nv,
                      (t.Mv * t.tc / t.nv + t.tau) * (t.Nv - 1));
     }},
    {"hp", Pattern::Broadcast, kSendRecv, "", "§4.1.1 (one send + one receive)", true,
     [](const Terms& t) { return pipelined(t.p, 1, t.N - 2); }},
    {"hp", Pattern::Broadcast, kAnyPorts, "nopipe", "§4.1.1 (no pipelining)", true,
     [](const Terms& t) {
         return plain(ceilR(t.M / t.B) * Rational(t.N - 1), t.M * Rational(t.N - 1), t.Mv,
                      (t.Mv * t.tc + t.tau) * (t.Nv - 1));
     }},
    {"hp", Pattern::Broadcast, kAnyPorts, "", "Table 4", true,
     [](const Terms& t) { return pipelined(t.p, 2, t.N - 3); }},
    {"sbt", Pattern::Broadcast, kOnePort, "", "Table 4", true,
     [](const Terms& t) { return plain(t.nR * ceilR(t.M / t.B), t.nR * t.M, t.Mv, t.nv * (t.Mv * t.tc + t.tau)); }},
    {"sbt", Pattern::Broadcast, kAnyPorts, "", "Table 5", true,
     [](const Terms& t) { return pipelined(t.p, 1, t.n - 1); }},
    {"tcbt", Pattern::Broadcast, kOnePort, "", "Table 4", true,
     [](const Terms& t) { return pipelined(t.p, 3, 2 * t.n - 5); }},
    {"tcbt", Pattern::Broadcast, kSendRecv, "", "§4.1.3 (one send + one receive)", true,
     [](const Terms& t) { return pipelined(t.p, 2, 2 * t.n - 4); }},
    {"tcbt", Pattern::Broadcast, kAnyPorts, "", "Table 5 (as SBT)", true,
     [](const Terms& t) { return pipelined(t.p, 1, t.n - 1); }},
    {"nrsbt", Pattern::Broadcast, kOnePort, "", "Table 4", true,
     [](const Terms& t) {
         return plain(Rational(2) * sum(1, t.n - 1, [&](int i) { return ceilR(Rational(i) * t.M / (t.nR * t.B)); }) +
                          ceilR(t.M / t.B),
                      t.nR * t.M, t.Mv, t.nv * t.Mv * t.tc + (2 * t.nv - 1) * t.tau);
     }},
    {"nrsbt", Pattern::Broadcast, kAnyPorts, "", "Table 5", true,
     [](const Terms& t) {
         return plain(t.nR * ceilR(t.M / (t.nR * t.B)), t.M, t.Mv / t.nv, t.Mv * t.tc + t.nv * t.tau);
     }},
    {"nesbt", Pattern::Broadcast, kOnePort, "", "Table 4 (Thm. 4.2)", true,
     [](const Terms& t) { return pipelined(t.p, 1, t.n); }},
    {"nesbt", Pattern::Broadcast, kHalf, "", "Thm. 4.3 (one send or one receive)", true,
     [](const Terms& t) { return pipelined(t.p, 2, t.n - 1); }},
    {"nesbt", Pattern::Broadcast, kAnyPorts, "", "Table 5", true, nesbtBroadcastNPort},

    // ---- one-to-all personalized (Table 7) ----
    {"hp", Pattern::Scatter, kNPort, "", "Table 7", true,
     [](const Terms& t) {
         return plain(sum(1, static_cast<int>(t.N - 1), [&](int i) { return ceilR(Rational(i) * t.M / (t.nR * t.B)); }),
                      t.NR * Rational(t.N - 1) * t.M / (Rational(2) * t.nR), (t.Nv - 1) * t.Mv / t.nv,
                      t.Nv * (t.Nv - 1) * t.Mv / (2 * t.nv) * t.tc + (t.Nv - 1) * t.tau);
     }},
    {"hp", Pattern::Scatter, kSendRecv, "", "§5.1.1 (one send + one receive)", true,
     [](const Terms& t) {
         return plain(std::max(ceilR(Rational(t.N - 1) * t.M / t.B), Rational(t.N - 1)), Rational(t.N - 1) * t.M, t.Mv,
                      (t.Nv - 1) * (t.Mv * t.tc + t.tau));
     }},
    {"hp", Pattern::Scatter, kAnyPorts, "", "Table 7", true,
     [](const Terms& t) {
         return plain(std::max(Rational(2) * ceilR(Rational(t.N - 1) * t.M / t.B) - Rational((t.M / t.B).floor()),
                               Rational(2 * t.N - 3)),
                      Rational(2 * t.N - 3) * t.M, t.Mv, (2 * t.Nv - 3) * (t.Mv * t.tc + t.tau));
     }},
    {"sbt", Pattern::Scatter, kOnePort, "", "Table 7", true, sbtScatterOnePort},
    {"sbt", Pattern::Scatter, kAnyPorts, "", "Table 7 (Lem. 5.1)", true, sbtScatterNPort},
    {"nrsbt", Pattern::Scatter, kOnePort, "", "Table 7", true,
     [](const Terms& t) {
         return plain(sum(1, t.n - 1, [&](int i) { return ceilR(t.M * Rational(t.N - (1LL << i)) / (t.nR * t.B)); }) +
                          sum(1, t.n, [&](int i) { return ceilR(t.M * Rational((1LL << i) - 1) / (t.nR * t.B)); }),
                      t.M * Rational(t.N - 1), (t.Nv - 1) * t.Mv / t.nv,
                      (t.Nv - 1) * t.Mv * t.tc + (2 * t.nv - 1) * t.tau);
     }},
    {"sbnt", Pattern::Scatter, kNotOnePort, "streaming", "§5.1.5 (streaming; source side only, no schedule)", true,
     streamingScatter},
    {"sbntc", Pattern::Scatter, kNotOnePort, "streaming", "§5.1.5 (streaming; source side only, no schedule)", true,
     streamingScatter},
    {"nrsbt", Pattern::Scatter, kNotOnePort, "", "Table 7", true, nrsbtScatterNPort},
    {"sbntc", Pattern::Scatter, kNotOnePort, "", "Table 7 (SBnT = nRSBT)", true, nrsbtScatterNPort},
    {"tcbt", Pattern::Scatter, kOnePort, "", "Table 7 (≈)", false,
     [](const Terms& t) {
         return plain(Rational(2) * sum(1, t.n - 1, [&](int i) { return ceilR(Rational((1LL << i) - 1) * t.M / t.B); }),
                      Rational(2 * t.N - 2 * t.n - 1) * t.M, t.Nv * t.Mv / 2,
                      (2 * t.Nv - 2 * t.nv - 1) * t.Mv * t.tc + (2 * t.nv - 2) * t.tau);
     }},
    {"tcbt", Pattern::Scatter, kAnyPorts, "", "Table 7 (≈)", false,
     [](const Terms& t) {
         return plain(ceilR(t.NR * t.M / (Rational(4) * t.B)) +
                          sum(2, t.n, [&](int i) { return ceilR(t.NR * t.M / (Rational(1LL << i) * t.B)); }),
                      (Rational(3) * t.NR / Rational(4) - Rational(1)) * t.M, t.Nv * t.Mv / 4,
                      (3 * t.Nv / 4 - 1) * t.Mv * t.tc + t.nv * t.tau);
     }},

    // ---- all-to-all broadcast (Tables 11 and 13) ----
    {"hp", Pattern::Allgather, kOnePort, "", "Table 11", true,
     [](const Terms& t) {
         return plain(ceilR(t.M / t.B) * Rational(t.N - 1), Rational(t.N - 1) * t.M, t.Mv,
                      (t.Nv - 1) * (t.Mv * t.tc + t.tau));
     }},
    {"hp", Pattern::Allgather, kAnyPorts, "", "Table 13", true,
     [](const Terms& t) {
         return plain(ceilR(t.M / (t.nR * t.B)) * Rational(t.N - 1), Rational(t.N - 1) * t.M / t.nR, t.Mv / t.nv,
                      (t.Nv - 1) * t.Mv / t.nv * t.tc + (t.Nv - 1) * t.tau);
     }},
    {"sbt", Pattern::Allgather, kOnePort, "", "Table 11", true, sbtScatterOnePort},
    {"sbt", Pattern::Allgather, kAnyPorts, "", "Table 13", true, sbtScatterNPort},
    {"nrsbt", Pattern::Allgather, kOnePort, "", "Table 11", true,
     [](const Terms& t) {
         return plain(
             sum(0, t.n - 1, [&](int i) { return ceilR(Rational((2LL << i) - 1) * t.M / (t.nR * t.B)); }) +
                 sum(t.n, 2 * t.n - 2,
                     [&](int i) { return ceilR(Rational(t.N - (1LL << (i - t.n + 1))) * t.M / (t.nR * t.B)); }),
             Rational(t.N - 1) * t.M, (t.Nv - 1) * t.Mv / t.nv, (t.Nv - 1) * t.Mv * t.tc + (2 * t.nv - 1) * t.tau);
     }},
    {"nrsbt", Pattern::Allgather, kNotOnePort, "", "Table 13", true, nrsbtAllgatherNPort},
    {"sbntc", Pattern::Allgather, kNotOnePort, "", "Table 13 (SBnT = nRSBT)", true, nrsbtAllgatherNPort},
    {"nesbt", Pattern::Allgather, kOnePort, "", "Table 11", true,
     [](const Terms& t) {
         return plain(
             sum(0, t.n - 1, [&](int i) { return ceilR(Rational(1LL << i) * t.M / (t.nR * t.B)); }) +
                 sum(t.n, 2 * t.n - 1,
                     [&](int i) { return ceilR(Rational(t.N - 1 - (1LL << (i - t.n))) * t.M / (t.nR * t.B)); }),
             Rational(t.N - 1) * t.M, (t.Nv - 2) * t.Mv / t.nv, (t.Nv - 1) * t.Mv * t.tc + 2 * t.nv * t.tau);
     }},
    {"nesbt", Pattern::Allgather, kAnyPorts, "", "Table 13", true, nesbtAllgatherNPort},

    // ---- all-to-all personalized (Tables 15 and 17) ----
    {"hp", Pattern::Alltoall, kOnePort, "", "Table 15", true,
     [](const Terms& t) {
         return plain(sum(1, static_cast<int>(t.N - 1), [&](int i) { return ceilR(Rational(i) * t.M / t.B); }),
                      Rational(t.N - 1) * t.NR * t.M / Rational(2), (t.Nv - 1) * t.Mv,
                      (t.Nv - 1) * t.Nv * t.Mv / 2 * t.tc + (t.Nv - 1) * t.tau);
     }},
    {"hp", Pattern::Alltoall, kAnyPorts, "", "Table 17", true,
     [](const Terms& t) {
         return plain(sum(1, static_cast<int>(t.N - 1), [&](int i) { return ceilR(Rational(i) * t.M / (t.nR * t.B)); }),
                      Rational(t.N - 1) * t.NR * t.M / (Rational(2) * t.nR), (t.Nv - 1) * t.Mv / t.nv,
                      (t.Nv - 1) * t.Nv * t.Mv / (2 * t.nv) * t.tc + (t.Nv - 1) * t.tau);
     }},
    {"sbt", Pattern::Alltoall, kOnePort, "", "Table 15", true,
     [](const Terms& t) {
         return plain(t.nR * ceilR(t.NR * t.M / (Rational(2) * t.B)), t.nR * t.NR * t.M / Rational(2), t.Nv * t.Mv / 2,
                      t.nv * t.Nv * t.Mv / 2 * t.tc + t.nv * t.tau);
     }},
    {"sbt", Pattern::Alltoall, kAnyPorts, "", "Table 17", true, sbtAlltoallNPort},
    {"nrsbt", Pattern::Alltoall, kOnePort, "", "Table 15", true,
     [](const Terms& t) {
         return plain(
             sum(0, t.n - 1, [&](int i) { return ceilR(Rational(i + 1) * t.NR * t.M / (Rational(2) * t.nR * t.B)); }) +
                 sum(t.n, 2 * t.n - 2,
                     [&](int i) { return ceilR(Rational(2 * t.n - i - 1) * t.NR * t.M / (Rational(2) * t.nR * t.B)); }),
             t.nR * t.NR * t.M / Rational(2), t.Nv * t.Mv / 2, t.nv * t.Nv * t.Mv / 2 * t.tc + (2 * t.nv - 1) * t.tau);
     }},
    {"nrsbt", Pattern::Alltoall, kAnyPorts, "", "Table 17 (alternative scheme)", true,
     [](const Terms& t) {
         return plain(t.nR * ceilR(t.NR * t.M / (Rational(2) * t.nR * t.B)), t.NR * t.M / Rational(2),
                      t.Nv * t.Mv / (2 * t.nv), t.Nv * t.Mv / 2 * t.tc + t.nv * t.tau);
     }},
    {"nesbt", Pattern::Alltoall, kOnePort, "", "Table 15 (corrected: docs/glossary.md, corrections)", true,
     nesbtAlltoallOnePort},
    {"nesbt", Pattern::Alltoall, kAnyPorts, "", "Table 17", true, nesbtAlltoallNPort},
    {"sbntc", Pattern::Alltoall, kNotOnePort, "", "Table 17", true,
     [](const Terms& t) {
         return plain(sum(1, t.n, [&](int i) { return ceilR(Rational(binomialTail(t.n, i)) * t.M / (t.nR * t.B)); }),
                      t.NR * t.M / Rational(2), (t.Nv - 1) * t.Mv / t.nv, t.Nv * t.Mv / 2 * t.tc + t.nv * t.tau);
     }},
};

} // namespace

ClosedForm closedForm(std::string_view a, Pattern pattern, Ports ports, const CostParams& p, std::string_view variant)
{
    requireServed(a, pattern, ports);
    checkCostParams(p, pattern);
    for (const FormulaRow& row : kFormulas) {
        if (!row.matches(a, pattern, ports, variant))
            continue;
        ClosedForm f = row.formula(Terms(p));
        f.source = row.source;
        f.exact = row.exact;
        return f;
    }
    // No printed formula: the general theorems on the graph for the all-to-all patterns (SBnT,
    // SBnT-C one-port, TCBT n-port, …); none for broadcast and personalized one-to-all (SBnT,
    // SBnT-C one-port, nESBT).
    if (pattern == Pattern::Allgather || pattern == Pattern::Alltoall)
        return fromGraph(graphFor(a, ports), pattern, ports, p);
    return ClosedForm{};
}

Bound lowerBound(Pattern pattern, Ports ports, const CostParams& p)
{
    const int n = p.n;
    const long long N = 1LL << n;
    const Rational M(p.M), nR(n);
    const bool nport = ports == Ports::N;
    switch (pattern) {
    case Pattern::Broadcast:
        // §4, first paragraph: the tree's height gives n start-ups and the source's fan-out n sends
        // every element over one of n ports, so at least M/n crosses one of them. The paper's
        // ⌈M/n⌉ + n − 1 counts whole elements (the last one to leave the source still has n − 1
        // hops to go); topocast's schedules cut a message into rational parts (nRSBT puts M/n on
        // each tree, §4.1.4), which that reading does not bound: with M < n the paper's bound
        // stood above the time of nRSBT's own schedule (the 6-cube, M = 1: 7 against 12).
        if (nport)
            return {nR, M / nR};
        return {nR, M + Rational(n - 1)};
    case Pattern::Scatter:
    case Pattern::Allgather:
        return {nR, nport ? Rational(N - 1) * M / nR : Rational(N - 1) * M};
    case Pattern::Alltoall:
        return {nR, nport ? Rational(N) * M / Rational(2) : nR * Rational(N) * M / Rational(2)};
    default:
        break; // not analysed by the paper
    }
    return {};
}

} // namespace topocast::hypercube
