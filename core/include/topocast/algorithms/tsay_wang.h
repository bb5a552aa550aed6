#pragma once

#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

/// Which form of the final phase (Tsay & Wang §6, or our DirectFinal variant, which is not in the paper).
enum class TsayWangVariant : std::uint8_t {
    /// The paper's: redistribution step d.0 (d ≥ 3), then r steps that fill every column.
    Paper,
    /// Our verified extension (§3.8): fill the columns straight from B_d; only when n' = (2d+1)^r.
    DirectFinal,
};

/// "paper" / "direct".
std::string toString(TsayWangVariant v);
/// Parses "paper" or "direct" (also "direct-final"). Throws Error naming the value otherwise.
TsayWangVariant parseTsayWangVariant(std::string_view text);

/// Least t ≥ 0 with (2d+1)^t ≥ n^d, i.e. ⌈d·log_{2d+1} n⌉ (spec §2.1), in exact integer
/// arithmetic (no floating point). Requires d ≥ 1, n ≥ 1 (throws Error otherwise). O(d·t) limb ops.
std::uint32_t allPortLowerBound(int d, long long n);

/// Least r ≥ 0 with q^r ≥ m (r(m) of spec §2.2), exactly. Requires q ≥ 2, m ≥ 1; throws Error.
std::uint32_t ceilLogInt(long long q, long long m);

/// True when m = q^r for some r ≥ 1.
bool isPowerOf(long long q, long long m);

/// The paper's bound (spec §2.2): d·r+1 for odd n (incl. n = q^r), d·r(n−1)+⌈d/2⌉+1 for even n.
/// Requires d ≥ 2, n ≥ 3; throws Error otherwise. O(log n).
std::uint32_t tsayWangPaperBound(int d, long long n);

/// Why this spec's schedule does not exist for (d, n, variant), or nullopt when it does:
/// d < 2, n < 3, even n < d, or DirectFinal with n' not a power of 2d+1.
std::optional<std::string> tsayWangUnsupported(int d, long long n, TsayWangVariant v);

/// Exact step count of this spec's schedule (spec §2.3):
/// Paper: d·r(n') + [d ≥ 3] + (n even ? ⌈d/2⌉ : 0); DirectFinal: d·r(n') + (n even ? ⌈d/2⌉ : 0).
/// Throws Error with tsayWangUnsupported's reason when the schedule does not exist.
std::uint32_t tsayWangSteps(int d, long long n, TsayWangVariant v);

/// One row of the comparison table of spec §6.2: the lower bound, the paper's bound, this
/// spec's step counts and the earlier results the paper cites (§6.1), evaluated at (d, n).
/// Entries that do not apply are nullopt (Tseng only for d = 2, Tseng & Wang only for d = 3,
/// Park & Choi only for n = (2d+1)^r, direct only for n' = (2d+1)^r, ours not for even n < d).
struct TorusBroadcastBounds {
    int d = 0;
    long long n = 0;
    long long nPrime = 0;                            ///< n (odd) or n − 1 (even)
    std::uint32_t r = 0;                             ///< r(n') = ⌈log_{2d+1} n'⌉
    std::uint32_t lowerBound = 0;                    ///< ⌈d·log_{2d+1} n⌉ (Lemma 1)
    std::uint32_t paperBound = 0;                    ///< Tsay & Wang's stated bound (§2.2)
    std::optional<std::uint32_t> paperVariantSteps;  ///< ours, Paper variant (§2.3)
    std::optional<std::uint32_t> directVariantSteps; ///< ours, DirectFinal (§3.8)
    std::optional<std::uint32_t> tseng2d;            ///< 2⌈log_5 n⌉ (d = 2)
    std::optional<std::uint32_t> tsengWang3d;        ///< 3⌈log_7 n⌉ + 2 (d = 3)
    std::optional<std::uint32_t> parkChoi;           ///< d·r = LB when n = (2d+1)^r
    std::string note;                                ///< why "ours" is missing, if it is
};

/// The table row for (d, n). Requires d ≥ 2, n ≥ 3 (Error otherwise); d ≤ 1000, n ≤ 10^12.
/// O(d·log n) limb operations.
TorusBroadcastBounds torusBroadcastBounds(int d, long long n);

/// Tsay & Wang's nearly optimal all-port wormhole broadcast on the d-dimensional n×…×n torus
/// (Tsay & Wang §3–§7, with our fills where the paper is silent or wrong), translated from the origin to
/// `source`. Every transfer uses a cyclic-dimension-order route (RouteSpec::cyclic); step labels "1.k",
/// "h.k", "d.0", "d.k", "E.t"; tag = phase (1..d, d+1 for the even-n extra phase); info holds the bounds.
/// Preconditions: a torus with equal sides n ≥ 3, d ≥ 2, even n ≥ d, source inside, and for
/// DirectFinal n' = (2d+1)^r; throws Error naming what is supported otherwise.
/// O(n^d) time and memory (n^d − 1 transfers).
Schedule tsayWangBroadcast(const Topology& topo, NodeId source, TsayWangVariant variant = TsayWangVariant::Paper);

/// Whether the point x of the (sub-)torus Z_{n'}^d, written relative to the source, lies in
/// B_h, the set informed at the start of phase h (spec §3.3 closed form; h = 2..d, B_2 = the main
/// diagonal). n' must be odd. Throws Error on h out of range or x of the wrong size. O(d).
bool tsayWangInBase(int h, int nPrime, const Coord& x);

/// Checks spec §5.1 item 3's part that validate() does not: every Cyclic route's start dimension
/// is one where sender and receiver differ (and every route is Cyclic). Returns one sentence per
/// violation (at most `maxViolations`, the rest counted in the last line). O(transfers · d).
std::vector<std::string> cyclicRouteViolations(const Schedule& schedule, std::size_t maxViolations = 50);

/// Checks spec §5.1 item 5 for a tsay-wang schedule: the step count equals tsayWangSteps(d, n, v)
/// and LB ≤ steps ≤ paperBound; also every step has transfers. Returns the violations found.
std::vector<std::string> tsayWangStepViolations(const Schedule& schedule, TsayWangVariant variant);

} // namespace topocast
