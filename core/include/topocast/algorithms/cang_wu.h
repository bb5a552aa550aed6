#pragma once

#include "topocast/algorithms/eyes.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topocast {

// Time-step-optimal one-port broadcast with minimum total communication distance on
// 2^k × … × 2^k meshes and tori (S. Cang and J. Wu, the 2-D paper and the 3-D paper with its d-D
// extension). d = 1..6.

/// The three generators of spec §3.
enum class CangWuMode : std::uint8_t {
    Optimal, ///< SubmeshOptimal: exact DP over submesh-recursive schedules (default, §3.4)
    EyeBest, ///< EyeBestOrder: eye rules, best dimension order per level (§3.3)
    Paper,   ///< PaperLiteral: Algorithms 1/2/3 and the d-D extension, canonical order (§3.2)
};

/// "optimal", "eye-best", "paper".
std::string toString(CangWuMode mode);
/// Parses "optimal" | "eye-best" | "paper" (also "submesh-optimal", "eye-best-order",
/// "paper-literal"). Throws Error naming the value and the allowed modes.
CangWuMode parseCangWuMode(std::string_view text);

/// One send of a broadcast: step (1-based), sender, receiver (mesh node ids, x fastest), and
/// the level j of the phase it belongs to (its sender and receiver share a level-j box).
struct CangWuSend {
    StepNo step{1};
    NodeId from{};
    NodeId to{};
    std::uint32_t level = 1;
    friend bool operator==(const CangWuSend&, const CangWuSend&) = default;
};

/// The broadcast from `source` on the 2^k × … × 2^k mesh of dimension d in `mode`:
/// N − 1 sends in d·k steps, one-port, every step contention-free under every dimension-ordered
/// routing. Preconditions: 1 ≤ d ≤ 6, k ≥ 1, d·k ≤ 24, source < 2^{dk} (Error otherwise).
/// O(N·d) for the eye modes; O(N·d·k) plus the cached DP tables (§3.4) for Optimal.
std::vector<CangWuSend> cangWuSends(int d, int k, NodeId source, CangWuMode mode);

/// The translated eye schedule on the 2^k × … × 2^k torus (spec §3.2, "Torus"): the eye-mode
/// schedule from E(1) shifted by (source − E(1)) mod n. TCD = OD_k for every source; every
/// send is a straight segment shorter than n/2, so it never needs a wrap link. Same
/// preconditions as cangWuSends (k ≥ 2 for a torus). O(N·d).
std::vector<CangWuSend> cangWuTorusSends(int d, int k, NodeId source);

/// TCD of the `mode` broadcast from `source` without building it: Lemma 2 (OD_k + Σ f_j) for
/// the eye modes (O(d·k)), the DP table for Optimal (O(1) after the cached tables).
std::uint64_t cangWuTcd(int d, int k, NodeId source, CangWuMode mode);

/// TCD of every source (index = node id), for TCD source maps. O(N·d·k) for the eye modes,
/// O(d·N) plus the DP for Optimal (about linear in N). Same preconditions as cangWuSends.
std::vector<std::uint64_t> cangWuTcdSourceMap(int d, int k, CangWuMode mode);

/// Drops the cached SubmeshOptimal tables (they are kept for the last few (d, k) so that
/// clicking through sources is instant; up to ~8·N bytes each). Thread-safe. O(1).
void cangWuReleaseTables();

/// The eye-mode level cost f_j(S) above (2^d − 1)·a_j (spec §4) for the source's level-j box,
/// 2 ≤ j ≤ k, with the mode's dimension order (Optimal is not an eye mode: Error). O(d log d).
std::int64_t cangWuLevelExcess(int d, int k, NodeId source, int j, CangWuMode mode);

/// OD_k by the recursion OD_k = (2^d − 1)·a_k + 2^d·OD_{k−1}, OD_1 = 2^d − 1 (spec §5.1).
/// Error unless 1 ≤ d ≤ 6, 1 ≤ k and the value fits (d·(k+1) ≤ 60). O(k).
std::uint64_t cangWuOptimum(int d, int k);
/// OD_k by the closed forms: eq. 16 for d ≥ 2 (eq. 3 and 13 are its d = 2, 3 cases, also
/// available by `paperForm`), ((3k+1)·2^k − (−1)^k)/9 for d = 1. Same preconditions. O(1).
std::uint64_t cangWuOptimumClosedForm(int d, int k);
/// The 2-D closed form eq. 3 (d = 2) or the 3-D closed form eq. 13 (d = 3). O(1).
std::uint64_t cangWuOptimumPaperForm(int d, int k);
/// MD_k(corner) by the d-D corner recursion of spec §5.2 (same in all three modes). O(k).
std::uint64_t cangWuCornerTcd(int d, int k);
/// The 2-D corner by eq. 8 (recursion) and eq. 9 (closed form, `closedForm` = true). O(k).
std::uint64_t cangWuCornerTcd2d(int k, bool closedForm);

/// Exact minimum TCD over ALL time-step-optimal one-port broadcasts from every source of a
/// 2^k × … × 2^k mesh with at most 16 nodes (2×2, 4×4, 2×2×2, 2^4, paths of 2..16 nodes):
/// a DP over informed sets whose last step is a min-cost assignment (spec §7.2).
/// Index = source node id. Throws Error for more than 16 nodes. Well under a second.
std::vector<std::uint64_t> exhaustiveMinTcdSourceMap(int d, int k);

/// The Cang-Wu broadcast on `topology` (a 2^k × … × 2^k mesh or hypercube, or a torus of side
/// 2^k ≥ 4) from `source` in `mode`, as a finalized one-port Schedule with DOR routes,
/// tag = level, step labels and info {"mode", "optimum", "eyes", "source_tcd", …}. On a torus
/// the translated eye schedule is used whatever the mode. Throws Error naming the requirement
/// for any other topology or a source out of range. Time as cangWuSends.
Schedule cangWuSchedule(const Topology& topology, NodeId source, CangWuMode mode);

/// TCD of every source of `topology` in `mode` (torus: OD_k everywhere). Throws like
/// cangWuSchedule.
std::vector<std::uint64_t> cangWuTcdSourceMap(const Topology& topology, CangWuMode mode);

/// Empty if cang-wu applies to `topology`, else the reason ("cang-wu needs a 2^k × … × 2^k
/// mesh; got 6×6 mesh").
std::string cangWuWhyNot(const Topology& topology);

} // namespace topocast
