#pragma once

// Divisible-load scattering in a 3-D mesh (Drozdowski & Głazek 1999).
//
// Three parts:
// * the analytic model: per-layer load shares α₀..α_h (closed form of Theorem 1, and two
//   independent numeric solutions of the linear system for checking), speedup, its limit and
//   upper bound, feasible/optimal depth, and the Gantt timeline of the time diagram (Fig. 3);
// * the SCATTER(p) embedding of the layers onto (x, y, z) nodes (§2.2; our reconstruction of the lost
//   Figs. 1–2);
// * the schedule: the transfers of every move as a topocast Schedule.

#include "topocast/algorithms/param_spec.h"
#include "topocast/model/params.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace topocast {

/// Inputs of the model (spec §1.2). Defaults: the paper's Figure-4 parameters (CRAY T3D:
/// A = 1 µs/byte, C = 3.3 ns/byte, S = 8.57 µs, V = 10⁶ bytes) with p = 3 and h = 6.
struct DivisibleLoadParams {
    int ports = 3;        ///< p: simultaneous sends per processor, 1..6
    int layers = 6;       ///< h: layers after the originator (= moves), ≥ 0
    double A = 1e-6;      ///< inverse processing rate (s/byte), > 0
    double C = 3.3e-9;    ///< inverse link transfer rate (s/byte), ≥ 0
    double S = 8.57e-6;   ///< circuit setup time per message (s), ≥ 0
    double V = 1e6;       ///< total load (bytes), > 0
    double epsilon = 0.0; ///< returned results as a fraction of the data; C_eff = (1+ε)C, ≥ 0
};

/// Largest number of layers the model functions accept (the formal numbers of larger h are
/// meaningless: h_max is far smaller for any σ > 0).
inline constexpr int kDivisibleMaxLayers = 4096;

/// Checks the inputs (spec §2.7 step 1). Throws Error naming the bad value and what is allowed:
/// p ∉ 1..6, h ∉ 0..kDivisibleMaxLayers, A ≤ 0, C < 0, S < 0, V ≤ 0, ε < 0, non-finite numbers.
void checkDivisibleLoadParams(const DivisibleLoadParams& params);

/// The solved model for one (p, h). Vectors are indexed by layer 0..h.
struct DivisibleLoadModel {
    DivisibleLoadParams params;
    double rho = 0;                  ///< ρ_eff = (1+ε)C/A
    double sigma = 0;                ///< σ = S/A (bytes)
    double q = 0;                    ///< p + ρ + 1
    double kappa = 0;                ///< σ/(p+ρ)
    double cEff = 0;                 ///< (1+ε)C
    std::vector<double> alpha;       ///< load per processor of layer i (bytes)
    std::vector<double> layerSize;   ///< n_i = 1, p, p(p+1), … (exact up to 2^53)
    std::vector<double> lambda;      ///< n_i α_i / V: fraction of the load held by layer i
    std::vector<double> messageSize; ///< L_k: size of every message of move k (L_0 = V)
    std::vector<double> receiveTime; ///< T_k: when layer k holds its data (T_0 = 0)
    double finishTime = 0;           ///< T = A α₀: every processor stops then
    double processors = 1;           ///< n = (p+1)^h
    double speedup = 1;              ///< s_h = V/α₀
    double limit = 0;                ///< 1 + p/ρ (+∞ when ρ = 0)
    double bound = 0;                ///< min{n, 1 + p/ρ} (Theorem 3)
    bool feasible = true;            ///< every α_i > 0
};

/// Solves the model by the closed form of Theorem 1 (spec §2.2), with non-positive exponents
/// only, and derives λ, L_k, T_k, speedup, limit and bound. An infeasible h (some α_i ≤ 0) is
/// returned with feasible = false, never silently. O(h). Throws Error on bad params.
DivisibleLoadModel solveDivisibleLoad(const DivisibleLoadParams& params);

/// α₀..α_h by LU with partial pivoting (Eigen, long double) on the spec's linear system (1)
/// (divided by A). An independent check of the closed form. O(h³). Throws Error on bad params.
std::vector<double> solveDivisibleLoadSystem(const DivisibleLoadParams& params);

/// α₀..α_h by "shooting" on the three-term recurrence (A.7): β_j affine in β₀ = α_h, then the
/// normalization gives β₀. O(h). Overflows (inf/nan) for very large h; meant for checks.
std::vector<double> solveDivisibleLoadRecurrence(const DivisibleLoadParams& params);

/// Speedup by formula (6) directly (not through α₀). O(1).
double divisibleLoadSpeedup(const DivisibleLoadParams& params);
/// Speedup by formula (10), i.e. (6) with S = 0: (ρ+p)/(ρ + p q^(−h)). O(1).
double divisibleLoadSpeedupNoSetup(const DivisibleLoadParams& params);

/// h_max: the largest h whose solution is feasible (condition (5), strict inequality), i.e. the
/// best number of layers (the speedup grows strictly up to it and falls after it). params.layers
/// is ignored. nullopt when σ = 0 (every h is feasible). O(1) plus a few checks.
std::optional<int> divisibleLoadMaxLayers(const DivisibleLoadParams& params);

/// The paper's real-valued optimum h_opt of (8): log_q(V(p+ρ)/σ + 1) − log_q((p+ρ)/ln q).
/// Only an estimate: rounding it can miss h_max (spec §2.4 counterexample). nullopt when σ = 0.
std::optional<double> divisibleLoadOptimalLayersEstimate(const DivisibleLoadParams& params);

/// Coefficient f(j, i) / g(j, i) of the generalized Pascal triangles (spec §2.6, Tables 1–2),
/// from the recursion X(j,i) = (p+1)X(j−1,i) + X(j−1,i−1). O(j²). Exact for small j.
double divisiblePascalF(int p, int j, int i);
double divisiblePascalG(int p, int j, int i);

/// One row of the Gantt chart (spec §4): the processors of layer k, identical in time.
struct DivisibleLoadTimelineRow {
    int layer = 0;
    double processors = 1;    ///< n_k
    double alpha = 0;         ///< α_k (bytes per processor)
    double receiveBegin = 0;  ///< T_{k−1} (0 for layer 0: it holds the load from the start)
    double setupEnd = 0;      ///< T_{k−1} + S
    double receiveEnd = 0;    ///< T_k
    double receivedBytes = 0; ///< L_k (V for layer 0)
    double computeBegin = 0;  ///< T_k
    double computeEnd = 0;    ///< T_k + A α_k (= T when the solution is exact)
    double sendBegin = 0;     ///< T_k: first move it sends in is k+1 (equal to sendEnd if k = h)
    double sendEnd = 0;       ///< T_h
};

/// One move (= one Schedule step): every active processor sends p messages of L_k at once.
struct DivisibleLoadMove {
    int move = 1;
    double begin = 0;           ///< T_{k−1}
    double setupEnd = 0;        ///< T_{k−1} + S
    double end = 0;             ///< T_k
    double messageSize = 0;     ///< L_k
    double resultAllowance = 0; ///< ε C L_k: the part of the transfer time reserved for results
    double senders = 0;         ///< (p+1)^(k−1)
    double messages = 0;        ///< n_k
};

struct DivisibleLoadTimeline {
    double finishTime = 0;                      ///< T = A α₀
    std::vector<DivisibleLoadTimelineRow> rows; ///< layers 0..h
    std::vector<DivisibleLoadMove> moves;       ///< moves 1..h
};

/// The Gantt data of spec §4 from a solved model. O(h).
DivisibleLoadTimeline divisibleLoadTimeline(const DivisibleLoadModel& model);

// ---- SCATTER(p): the layers on mesh nodes (spec §1.5) -------------------------------------

using Point3 = std::array<int, 3>;

/// The basic cube of edge p+1 for one p: the originator position, and for every position
/// (index x + (p+1)(y + (p+1)z)) its move number μ ∈ {0,1,2,3} and parent position.
struct ScatterBasicCube {
    int p = 1;
    Point3 origin{};
    std::vector<std::uint8_t> move;    ///< μ(d); 0 only for the origin
    std::vector<std::uint16_t> parent; ///< π(d) as a position index; the origin's own index for it
    int edge() const { return p + 1; }
    int index(const Point3& d) const { return d[0] + edge() * (d[1] + edge() * d[2]); }
    Point3 position(int index) const { return {index % edge(), (index / edge()) % edge(), index / (edge() * edge())}; }
};

/// The basic-cube rules of spec §1.5 for p = 1..6. Throws Error for other p. O((p+1)³).
const ScatterBasicCube& scatterBasicCube(int p);

/// The embedding of h layers: (p+1)^h nodes in the pattern's own coordinates (all ≥ 0).
struct ScatterMapping {
    int p = 1;
    int layers = 0;
    int steps = 0;                     ///< M = ⌈h/3⌉
    Point3 origin{};                   ///< the originator's coordinates
    Point3 boxMin{}, boxMax{};         ///< bounding box of all nodes (inclusive)
    std::vector<Point3> coords;        ///< node coordinates; node 0 is the originator
    std::vector<std::uint8_t> layer;   ///< layer of each node (0 only for the originator)
    std::vector<std::uint32_t> parent; ///< index of the sender; the originator's parent is 0
    std::size_t size() const { return coords.size(); }
};

/// The path of the message to mapping node `node` (≥ 1) in pattern coordinates, sender first:
/// for p ≤ 3 the spec's routes (§1.5 "Routes": basic-cube hop sequences, every hop repeated by
/// the step's stride; directed-link-disjoint within every move), for p ≥ 4 the display-only
/// dimension-ordered path (x, then y, then z). O(route length).
std::vector<Point3> scatterSpecRoute(const ScatterMapping& mapping, std::size_t node);

/// Bounding box of the h-layer embedding without building it: {min, max, origin}. O(M (p+1)³).
/// Throws Error for p ∉ 1..6 or h < 0.
std::array<Point3, 3> scatterBox(int p, int h);

/// Builds the embedding. Nodes are ordered by layer. Throws Error for p ∉ 1..6, h < 0 or more
/// than Topology::kMaxNodes nodes. O((p+1)^h).
ScatterMapping scatterMapping(int p, int h);

/// How the pattern sits on a topology: node = anchor + mirror·(pattern coordinate − origin),
/// taken modulo the side on a torus.
struct ScatterPlacement {
    Point3 mirror{1, 1, 1}; ///< +1 or −1 per axis
    Point3 anchor{};        ///< topology coordinates of the originator (= the source)
    Point3 origin{};        ///< the originator's pattern coordinates
    bool wrap = false;      ///< torus: coordinates wrap
    Point3 sides{};         ///< topology sides
    /// Topology coordinates of pattern coordinate `c`.
    Point3 place(const Point3& c) const;
};

/// Places an embedding with box {boxMin, boxMax} and originator `origin` so that the originator
/// is `source`. Rule: translate; on a mesh, if the box sticks out, reflect the pattern in the
/// axes where it does (for p = 3 the y and z axes only together, which keeps its move-1 routes
/// expressible); on a torus, coordinates wrap and every side must be at least the box extent.
/// Throws Error naming the box, the source and the sources that fit when nothing fits.
ScatterPlacement placeScatter(const Topology& topo, NodeId source, int p, int h);

/// The divisible-load schedule on a 3-D mesh or torus (registry entry "divisible-load").
/// Params: "p" (1..6; "ports" is accepted as an alias), "layers" (default: the largest h that is
/// feasible and fits the topology at this source), "A", "C", "S", "V", "epsilon" (defaults: the
/// Figure-4 values). Step k = move k; pattern Scatter; PortModel::MultiPort with
/// maxSendsPerStep = p; Transfer.size = L_k in "load" units (bytes); tag = receiver's layer;
/// payload = the receiver's block plus its future descendants' blocks. schedule.figures holds the
/// model (DivisibleLoadFigures) plus placement, routes and contention notes.
/// Throws Error on bad params, an infeasible h (naming h_max), or a topology too small.
/// O((p+1)^h · h) time and memory.
Schedule divisibleLoadSchedule(const Topology& topo, NodeId source, const ParamValues& params);

/// DivisibleLoadParams from the parameters as parsed ("p" (alias "ports"), "layers", "A", "C",
/// "S", "V", "epsilon"); "layers" not given keeps the default of DivisibleLoadParams. Throws Error
/// when the model refuses them together (checkDivisibleLoadParams).
DivisibleLoadParams divisibleLoadParamsFrom(const ParamValues& params);

/// The parameters of divisible-load besides its pattern, declared once (the registry lists them;
/// divisibleLoadParamsFrom reads them, defaults from DivisibleLoadParams{}): p (alias ports),
/// layers (default: the most that fit around the source), A, C, S, V, epsilon.
std::vector<ParamSpec> divisibleLoadParamSpecs();

} // namespace topocast
