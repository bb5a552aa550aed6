#pragma once

#include "topocast/model/topology.h"

#include <cstdint>
#include <vector>

namespace topocast {

// Eyes of a 2^k × … × 2^k mesh (Cang & Wu, 3-D paper §2.1, §3.1 and §4: Definitions 1, 2 and 7). All
// functions here are pure arithmetic on (d, k); node ids follow Topology: x0 + n·x1 + n²·x2 + … with n = 2^k.

/// a_k = (2^k − (−1)^k)/3, the side of the eye cube of a level-k box (Jacobsthal numbers
/// 1, 1, 3, 5, 11, 21, …). Precondition 1 ≤ k ≤ 40. O(1). Throws Error outside that range.
std::int64_t eyeSide(int k);
/// lo(k) = (2^{k+1} + (−1)^k − 3)/6: the low eye coordinate of a level-k box. O(1).
/// Throws Error unless 1 ≤ k ≤ 40.
std::int64_t eyeLo(int k);
/// hi(k) = 2^k − 1 − lo(k) = lo(k) + a_k: the high eye coordinate. O(1). Throws like eyeLo.
std::int64_t eyeHi(int k);

/// The canonical dimension order of the papers: 2-D (x, y), 3-D (x, z, y), otherwise 0..d−1.
/// Precondition 1 ≤ d ≤ 6. O(d).
std::vector<int> canonicalDimensionOrder(int d);

/// Eye index (0-based) of the eye whose coordinate in dimension i is hi when bit i of `hiMask`
/// is set: Σ_q b[canon[q]]·2^q (spec §2.3). Add 1 for the papers' labels E(1)..E(2^d) in
/// 2-D and 3-D. O(d).
int eyeIndexOfMask(int d, unsigned hiMask);
/// Inverse of eyeIndexOfMask: which dimensions are hi for eye `index` (0-based). O(d).
unsigned eyeMaskOfIndex(int d, int index);

/// The 2^d eyes of the whole 2^k × … × 2^k mesh as coordinates, ordered by eye index (so
/// eyes(2,3)[0] = (2,2) = E(1), [1] = (5,2) = E(2), …). Throws Error unless 1 ≤ d ≤ 6 and
/// 1 ≤ k ≤ 24. O(2^d·d).
std::vector<Coord> meshEyes(int d, int k);

/// The eyes of every submesh at one level, for drawing.
struct EyeLevel {
    int level = 0;            ///< j: the boxes have side 2^j
    std::vector<NodeId> eyes; ///< eye node ids of every level-j box, ascending
};

/// Eyes of every submesh at every level j = k, k−1, …, 1 (index 0 = the whole mesh; the last
/// entry, level 1, holds every node). For a mesh, torus or hypercube whose sides are all 2^k
/// (k ≥ 1, d ≤ 6); on a torus the geometry of the mesh is used (there every node is an eye
/// of a translated eye cube). O(N·k) time and output. Throws Error for other topologies.
std::vector<EyeLevel> eyesOfSubmeshes(const Topology& topology);
/// The same for a 2^k × … × 2^k mesh given by (d, k).
std::vector<EyeLevel> eyesOfSubmeshes(int d, int k);

/// Eye level of a node: the largest j for which it is an eye of its level-j box (every node is
/// an eye of its level-1 box, so ≥ 1). `c` has d entries in 0..2^k−1. O(d·k).
int eyeLevel(const Coord& c, int k);

/// True when `c` is an eye of its level-j box (1 ≤ j ≤ k). O(d).
bool isEyeOfLevel(const Coord& c, int j);

/// Checks that `topology` is a mesh, torus or hypercube with d = 1..6 equal sides 2^k, k ≥ 1,
/// and returns k; otherwise throws Error naming the requirement and the topology
/// ("cang-wu needs a 2^k × … × 2^k mesh; got 6×6 mesh").
int cubicPowerOfTwoExponent(const Topology& topology);

} // namespace topocast
