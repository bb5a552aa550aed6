#include "topocast/algorithms/hypercube_cost.h"

#include "topocast/error.h"

#include <algorithm>
#include <cmath>

namespace topocast::hypercube {

std::string portsName(Ports p)
{
    switch (p) {
    case Ports::One:
        return "one";
    case Ports::SendRecv:
        return "send-recv";
    case Ports::Half:
        return "half";
    case Ports::N:
        return "n";
    }
    return "?";
}

Ports parsePorts(std::string_view text)
{
    if (text == "one" || text == "one-port")
        return Ports::One;
    if (text == "send-recv")
        return Ports::SendRecv;
    if (text == "half")
        return Ports::Half;
    if (text == "n" || text == "n-port" || text == "all")
        return Ports::N;
    throw Error("unknown port model '" + std::string(text) + "'; use one, send-recv, half or n");
}

PortModel toPortModel(Ports p)
{
    switch (p) {
    case Ports::One:
        return PortModel::OnePortExchange;
    case Ports::SendRecv:
        return PortModel::OnePort;
    case Ports::Half:
        return PortModel::HalfDuplex;
    case Ports::N:
        return PortModel::AllPort;
    }
    return PortModel::AllPort;
}

std::string patternName(Pattern p)
{
    switch (p) {
    case Pattern::Broadcast:
        return "broadcast";
    case Pattern::Scatter:
        return "scatter";
    case Pattern::Allgather:
        return "allgather";
    case Pattern::Alltoall:
        return "alltoall";
    }
    return "?";
}

Pattern parsePatternName(std::string_view text)
{
    for (Pattern p : {Pattern::Broadcast, Pattern::Scatter, Pattern::Allgather, Pattern::Alltoall})
        if (text == patternName(p))
            return p;
    throw Error("unknown pattern '" + std::string(text) + "'; use broadcast, scatter, allgather or alltoall");
}

const std::vector<std::string>& algorithmNames()
{
    static const std::vector<std::string> names = {"hp", "sbt", "tcbt", "nrsbt", "nesbt", "sbnt", "sbntc"};
    return names;
}

namespace {

void requireKnown(std::string_view algorithm)
{
    const auto& names = algorithmNames();
    if (std::find(names.begin(), names.end(), algorithm) == names.end())
        throw Error("unknown hypercube graph '" + std::string(algorithm) +
                    "'; use hp, sbt, tcbt, nrsbt, nesbt, sbnt or sbntc");
}

} // namespace

std::vector<Pattern> servedPatterns(std::string_view a)
{
    requireKnown(a);
    if (a == "sbnt" || a == "sbntc") // SBnT is not analysed for one-to-all broadcast (§4.1)
        return {Pattern::Scatter, Pattern::Allgather, Pattern::Alltoall};
    return {Pattern::Broadcast, Pattern::Scatter, Pattern::Allgather, Pattern::Alltoall};
}

std::vector<Ports> servedPorts(std::string_view a, Pattern p)
{
    const auto pats = servedPatterns(a);
    if (std::find(pats.begin(), pats.end(), p) == pats.end())
        return {};
    if (a == "hp" && (p == Pattern::Broadcast || p == Pattern::Scatter))
        return {Ports::One, Ports::SendRecv, Ports::N};
    if (a == "tcbt") {
        if (p == Pattern::Broadcast)
            return {Ports::One, Ports::SendRecv, Ports::N};
        if (p == Pattern::Scatter)
            return {Ports::One, Ports::N};
        return {Ports::N}; // TCBT one-port all-to-all has no label schedule (§6.2)
    }
    if (a == "nesbt" && p == Pattern::Broadcast)
        return {Ports::One, Ports::Half, Ports::N};
    return {Ports::One, Ports::N};
}

GraphKind graphFor(std::string_view a, Ports ports)
{
    requireKnown(a);
    if (a == "hp")
        return ports == Ports::N ? GraphKind::Nrbrg : GraphKind::Brg;
    if (a == "sbt")
        return GraphKind::Sbt;
    if (a == "tcbt")
        return GraphKind::Tcbt;
    if (a == "nrsbt")
        return GraphKind::Nrsbt;
    if (a == "nesbt")
        return GraphKind::Nesbt;
    if (a == "sbnt")
        return GraphKind::Sbnt;
    return GraphKind::Sbntc;
}

void requireServed(std::string_view a, Pattern pattern, Ports ports)
{
    const auto pats = servedPatterns(a);
    if (std::find(pats.begin(), pats.end(), pattern) == pats.end()) {
        std::string list;
        for (Pattern p : pats)
            list += (list.empty() ? "" : ", ") + patternName(p);
        throw Error(std::string(a) + " does not serve pattern " + patternName(pattern) + " (spec §4–§7); it serves " +
                    list);
    }
    const auto ports2 = servedPorts(a, pattern);
    if (std::find(ports2.begin(), ports2.end(), ports) == ports2.end()) {
        std::string list;
        for (Ports p : ports2)
            list += (list.empty() ? "" : ", ") + portsName(p);
        throw Error(std::string(a) + " " + patternName(pattern) + " has no schedule for --ports " + portsName(ports) +
                    "; allowed: " + list);
    }
}

void checkCostParams(const CostParams& p, Pattern pattern)
{
    if (p.n < 1 || p.n > kMaxDim)
        throw Error("hypercube dimension " + std::to_string(p.n) + " is outside 1.." + std::to_string(kMaxDim));
    if (p.M < 1)
        throw Error("message size M = " + std::to_string(p.M) + " must be ≥ 1 element");
    if (p.B < 1)
        throw Error("packet size B = " + std::to_string(p.B) + " must be ≥ 1 element");
    if (!(p.tau >= 0.0) || !std::isfinite(p.tau))
        throw Error("start-up time tau = " + std::to_string(p.tau) + " must be a finite number ≥ 0");
    if (!(p.tc >= 0.0) || !std::isfinite(p.tc))
        throw Error("transfer time tc = " + std::to_string(p.tc) + " must be a finite number ≥ 0");
    if (pattern == Pattern::Broadcast && p.B > p.M)
        throw Error("packet size B = " + std::to_string(p.B) + " is larger than the message M = " +
                    std::to_string(p.M) + "; a broadcast packet holds at most the whole message");
    if (p.M > (1LL << 30) || p.B > (1LL << 40))
        throw Error("message size M = " + std::to_string(p.M) + " is too large (at most 2^30 elements)");
}

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
ClosedForm pipelined(const CostParams& p, Rational a, long long b, const std::string& source)
{
    ClosedForm f;
    f.available = true;
    f.source = source;
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

ClosedForm plain(Rational startups, Rational transfer, double packetOpt, double timeMin, const std::string& source,
                 bool exact = true)
{
    ClosedForm f;
    f.available = true;
    f.exact = exact;
    f.source = source;
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

} // namespace

ClosedForm closedForm(std::string_view a, Pattern pattern, Ports ports, const CostParams& p, std::string_view variant)
{
    requireServed(a, pattern, ports);
    checkCostParams(p, pattern);
    const int n = p.n;
    const long long N = 1LL << n;
    const Rational M(p.M), B(p.B), nR(n), NR(N);
    const double Mv = static_cast<double>(p.M), Nv = static_cast<double>(N), nv = n;
    const double tau = p.tau, tc = p.tc;
    const bool one = ports == Ports::One;
    auto sum = [](int lo, int hi, auto term) {
        Rational s = 0;
        for (int i = lo; i <= hi; ++i)
            s += term(i);
        return s;
    };
    const std::string A(a);

    switch (pattern) {
    case Pattern::Broadcast:
        if (A == "hp") {
            if (ports == Ports::N)
                return plain(ceilR(M / (nR * B)) * Rational(N - 1), M * Rational(N - 1) / nR, Mv / nv,
                             (Mv * tc / nv + tau) * (Nv - 1), "Table 5");
            if (ports == Ports::SendRecv)
                return pipelined(p, 1, N - 2, "§4.1.1 (one send + one receive)");
            if (variant == "nopipe")
                return plain(ceilR(M / B) * Rational(N - 1), M * Rational(N - 1), Mv, (Mv * tc + tau) * (Nv - 1),
                             "§4.1.1 (no pipelining)");
            return pipelined(p, 2, N - 3, "Table 4");
        }
        if (A == "sbt") {
            if (one)
                return plain(nR * ceilR(M / B), nR * M, Mv, nv * (Mv * tc + tau), "Table 4");
            return pipelined(p, 1, n - 1, "Table 5");
        }
        if (A == "tcbt") {
            if (one)
                return pipelined(p, 3, 2 * n - 5, "Table 4");
            if (ports == Ports::SendRecv)
                return pipelined(p, 2, 2 * n - 4, "§4.1.3 (one send + one receive)");
            return pipelined(p, 1, n - 1, "Table 5 (as SBT)");
        }
        if (A == "nrsbt") {
            if (one)
                return plain(Rational(2) * sum(1, n - 1, [&](int i) { return ceilR(Rational(i) * M / (nR * B)); }) +
                                 ceilR(M / B),
                             nR * M, Mv, nv * Mv * tc + (2 * nv - 1) * tau, "Table 4");
            return plain(nR * ceilR(M / (nR * B)), M, Mv / nv, Mv * tc + nv * tau, "Table 5");
        }
        if (A == "nesbt") {
            if (one)
                return pipelined(p, 1, n, "Table 4 (Thm. 4.2)");
            if (ports == Ports::Half)
                return pipelined(p, 2, n - 1, "Thm. 4.3 (one send or one receive)");
            ClosedForm f = plain(ceilR(M / (nR * B)) + nR, M / nR + nR * B, std::sqrt(Mv * tau / tc) / nv,
                                 std::pow(std::sqrt(Mv * tc / nv) + std::sqrt(nv * tau), 2.0), "Table 5");
            if (!(tc > 0))
                f.packetOpt = Mv / nv;
            f.packetOpt = std::clamp(f.packetOpt, std::min(1.0, Mv / nv), Mv / nv);
            return f;
        }
        break;

    case Pattern::Scatter:
        if (A == "hp") {
            if (ports == Ports::N)
                return plain(sum(1, static_cast<int>(N - 1), [&](int i) { return ceilR(Rational(i) * M / (nR * B)); }),
                             NR * Rational(N - 1) * M / (Rational(2) * nR), (Nv - 1) * Mv / nv,
                             Nv * (Nv - 1) * Mv / (2 * nv) * tc + (Nv - 1) * tau, "Table 7");
            if (ports == Ports::SendRecv)
                return plain(std::max(ceilR(Rational(N - 1) * M / B), Rational(N - 1)), Rational(N - 1) * M, Mv,
                             (Nv - 1) * (Mv * tc + tau), "§5.1.1 (one send + one receive)");
            return plain(
                std::max(Rational(2) * ceilR(Rational(N - 1) * M / B) - Rational((M / B).floor()), Rational(2 * N - 3)),
                Rational(2 * N - 3) * M, Mv, (2 * Nv - 3) * (Mv * tc + tau), "Table 7");
        }
        if (A == "sbt") {
            if (one)
                return plain(sum(0, n - 1, [&](int i) { return ceilR(Rational(1LL << i) * M / B); }),
                             Rational(N - 1) * M, Nv * Mv / 2, (Nv - 1) * Mv * tc + nv * tau, "Table 7");
            return plain(sum(0, n - 1, [&](int i) { return ceilR(Rational(binomial(n - 1, i)) * M / B); }),
                         NR * M / Rational(2), Mv * static_cast<double>(binomial(n - 1, (n - 1) / 2)),
                         Nv * Mv / 2 * tc + nv * tau, "Table 7 (Lem. 5.1)");
        }
        if (A == "nrsbt" && one)
            return plain(sum(1, n - 1, [&](int i) { return ceilR(M * Rational(N - (1LL << i)) / (nR * B)); }) +
                             sum(1, n, [&](int i) { return ceilR(M * Rational((1LL << i) - 1) / (nR * B)); }),
                         M * Rational(N - 1), (Nv - 1) * Mv / nv, (Nv - 1) * Mv * tc + (2 * nv - 1) * tau, "Table 7");
        if ((A == "sbnt" || A == "sbntc") && !one && variant == "streaming")
            return plain(ceilR(Rational(N - 1) * M / (nR * B)), Rational(N - 1) * M / nR, (Nv - 1) * Mv / nv,
                         (Nv - 1) * Mv / nv * tc + tau, "§5.1.5 (streaming; source side only, no schedule)");
        if ((A == "nrsbt" || A == "sbntc") && !one)
            return plain(sum(0, n - 1, [&](int i) { return ceilR(Rational(binomial(n, i)) * M / (nR * B)); }),
                         Rational(N - 1) * M / nR, Mv * static_cast<double>(binomial(n, n / 2)) / nv,
                         (Nv - 1) * Mv / nv * tc + nv * tau, A == "nrsbt" ? "Table 7" : "Table 7 (SBnT = nRSBT)");
        if (A == "tcbt") {
            if (one)
                return plain(Rational(2) *
                                 sum(1, n - 1, [&](int i) { return ceilR(Rational((1LL << i) - 1) * M / B); }),
                             Rational(2 * N - 2 * n - 1) * M, Nv * Mv / 2,
                             (2 * Nv - 2 * nv - 1) * Mv * tc + (2 * nv - 2) * tau, "Table 7 (≈)", false);
            return plain(ceilR(NR * M / (Rational(4) * B)) +
                             sum(2, n, [&](int i) { return ceilR(NR * M / (Rational(1LL << i) * B)); }),
                         (Rational(3) * NR / Rational(4) - Rational(1)) * M, Nv * Mv / 4,
                         (3 * Nv / 4 - 1) * Mv * tc + nv * tau, "Table 7 (≈)", false);
        }
        // sbnt (one-port or n-port), sbntc one-port, nesbt: no closed form in the paper.
        return ClosedForm{};

    case Pattern::Allgather:
        if (A == "hp") {
            if (one)
                return plain(ceilR(M / B) * Rational(N - 1), Rational(N - 1) * M, Mv, (Nv - 1) * (Mv * tc + tau),
                             "Table 11");
            return plain(ceilR(M / (nR * B)) * Rational(N - 1), Rational(N - 1) * M / nR, Mv / nv,
                         (Nv - 1) * Mv / nv * tc + (Nv - 1) * tau, "Table 13");
        }
        if (A == "sbt") {
            if (one)
                return plain(sum(0, n - 1, [&](int i) { return ceilR(Rational(1LL << i) * M / B); }),
                             Rational(N - 1) * M, Nv * Mv / 2, (Nv - 1) * Mv * tc + nv * tau, "Table 11");
            return plain(sum(0, n - 1, [&](int i) { return ceilR(Rational(binomial(n - 1, i)) * M / B); }),
                         NR * M / Rational(2), Mv * static_cast<double>(binomial(n - 1, (n - 1) / 2)),
                         Nv * Mv / 2 * tc + nv * tau, "Table 13");
        }
        if (A == "nrsbt" && one)
            return plain(
                sum(0, n - 1, [&](int i) { return ceilR(Rational((2LL << i) - 1) * M / (nR * B)); }) +
                    sum(n, 2 * n - 2, [&](int i) { return ceilR(Rational(N - (1LL << (i - n + 1))) * M / (nR * B)); }),
                Rational(N - 1) * M, (Nv - 1) * Mv / nv, (Nv - 1) * Mv * tc + (2 * nv - 1) * tau, "Table 11");
        if ((A == "nrsbt" || A == "sbntc") && !one)
            return plain(sum(1, n, [&](int i) { return ceilR(Rational(binomial(n, i)) * M / (nR * B)); }),
                         Rational(N - 1) * M / nR, Mv * static_cast<double>(binomial(n, n / 2)) / nv,
                         (Nv - 1) * Mv / nv * tc + nv * tau, A == "nrsbt" ? "Table 13" : "Table 13 (SBnT = nRSBT)");
        if (A == "nesbt") {
            if (one)
                return plain(sum(0, n - 1, [&](int i) { return ceilR(Rational(1LL << i) * M / (nR * B)); }) +
                                 sum(n, 2 * n - 1,
                                     [&](int i) { return ceilR(Rational(N - 1 - (1LL << (i - n))) * M / (nR * B)); }),
                             Rational(N - 1) * M, (Nv - 2) * Mv / nv, (Nv - 1) * Mv * tc + 2 * nv * tau, "Table 11");
            long long mx = n - 1;
            for (int i = 2; i <= n; ++i)
                mx = std::max(mx, binomial(n, i));
            return plain(sum(2, n, [&](int i) { return ceilR(Rational(binomial(n, i)) * M / (nR * B)); }) +
                             ceilR(M / (nR * B)) + ceilR(Rational(n - 1) * M / (nR * B)),
                         Rational(N - 1) * M / nR, Mv * static_cast<double>(mx) / nv,
                         (Nv - 1) * Mv / nv * tc + (nv + 1) * tau, "Table 13");
        }
        // sbnt, sbntc one-port, tcbt n-port: the general theorems on the graph.
        return fromGraph(graphFor(a, ports), pattern, ports, p);

    case Pattern::Alltoall:
        if (A == "hp") {
            if (one)
                return plain(sum(1, static_cast<int>(N - 1), [&](int i) { return ceilR(Rational(i) * M / B); }),
                             Rational(N - 1) * NR * M / Rational(2), (Nv - 1) * Mv,
                             (Nv - 1) * Nv * Mv / 2 * tc + (Nv - 1) * tau, "Table 15");
            return plain(sum(1, static_cast<int>(N - 1), [&](int i) { return ceilR(Rational(i) * M / (nR * B)); }),
                         Rational(N - 1) * NR * M / (Rational(2) * nR), (Nv - 1) * Mv / nv,
                         (Nv - 1) * Nv * Mv / (2 * nv) * tc + (Nv - 1) * tau, "Table 17");
        }
        if (A == "sbt") {
            if (one)
                return plain(nR * ceilR(NR * M / (Rational(2) * B)), nR * NR * M / Rational(2), Nv * Mv / 2,
                             nv * Nv * Mv / 2 * tc + nv * tau, "Table 15");
            Rational x = 0, s = 0;
            for (int l = 0; l <= n - 1; ++l) {
                const long long Sl = l <= (n - 1) / 2 ? binomial(2 * l, l) << (n - 2 * l - 1) : binomial(n - 1, l);
                x += Rational(Sl) * M;
                s += ceilR(Rational(Sl) * M / B);
            }
            return plain(s, x, Nv * Mv / 2, x.value() * tc + nv * tau, "Table 17");
        }
        if (A == "nrsbt") {
            if (one)
                return plain(
                    sum(0, n - 1, [&](int i) { return ceilR(Rational(i + 1) * NR * M / (Rational(2) * nR * B)); }) +
                        sum(n, 2 * n - 2,
                            [&](int i) { return ceilR(Rational(2 * n - i - 1) * NR * M / (Rational(2) * nR * B)); }),
                    nR * NR * M / Rational(2), Nv * Mv / 2, nv * Nv * Mv / 2 * tc + (2 * nv - 1) * tau, "Table 15");
            return plain(nR * ceilR(NR * M / (Rational(2) * nR * B)), NR * M / Rational(2), Nv * Mv / (2 * nv),
                         Nv * Mv / 2 * tc + nv * tau, "Table 17 (alternative scheme)");
        }
        if (A == "nesbt") {
            if (one)
                return plain(sum(0, n - 1,
                                 [&](int i) {
                                     return ceilR((Rational(i + 2) * NR / Rational(2) - Rational(1)) * M / (nR * B));
                                 }) +
                                 sum(1, n,
                                     [&](int i) {
                                         return ceilR((Rational(i) * NR / Rational(2) - Rational(1)) * M / (nR * B));
                                     }),
                             (nR * NR / Rational(2) + NR - Rational(2)) * M, Mv / nv * ((nv + 1) * Nv / 2 - 1),
                             (nv * Nv / 2 + Nv - 2) * Mv * tc + 2 * nv * tau, "Table 15 (corrected, §10 items 14–15)");
            auto tail = [&](int i) {
                long long t = 0;
                for (int j = i; j <= n; ++j)
                    t += binomial(n, j);
                return t;
            };
            return plain(sum(2, n, [&](int i) { return ceilR(Rational(tail(i)) * M / (nR * B)); }) +
                             ceilR(Rational(N - 2) * M / (nR * B)) + ceilR(Rational(N - 1) * M / (nR * B)),
                         (NR / Rational(2) + Rational(N - 2) / nR) * M, (Nv - 1) * Mv / nv,
                         (Nv / 2 + (Nv - 2) / nv) * Mv * tc + (nv + 1) * tau, "Table 17");
        }
        if (A == "sbntc" && !one) {
            auto tail = [&](int i) {
                long long t = 0;
                for (int j = i; j <= n; ++j)
                    t += binomial(n, j);
                return t;
            };
            return plain(sum(1, n, [&](int i) { return ceilR(Rational(tail(i)) * M / (nR * B)); }),
                         NR * M / Rational(2), (Nv - 1) * Mv / nv, Nv * Mv / 2 * tc + nv * tau, "Table 17");
        }
        return fromGraph(graphFor(a, ports), pattern, ports, p);
    }
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
        if (nport)
            return {nR, Rational(((M / nR).ceil())) + Rational(n - 1)};
        return {nR, M + Rational(n - 1)};
    case Pattern::Scatter:
    case Pattern::Allgather:
        return {nR, nport ? Rational(N - 1) * M / nR : Rational(N - 1) * M};
    case Pattern::Alltoall:
        return {nR, nport ? Rational(N) * M / Rational(2) : nR * Rational(N) * M / Rational(2)};
    }
    return {};
}

} // namespace topocast::hypercube
