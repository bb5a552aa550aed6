#pragma once

#include "topocast/drawing/layout.h"

#include <cstddef>
#include <limits>
#include <vector>

namespace topocast {

/// A straight segment from `a` to `b` of one look (`group`: e.g. an index of its colour).
/// Segments of group kNoChain are never joined.
struct ChainSegment {
    Vec3 a{}, b{};
    std::size_t group = 0;
};

inline constexpr std::size_t kNoChain = std::numeric_limits<std::size_t>::max();

/// A run of segments drawn as one: from segments[first].a to segments[last].b.
struct Chain {
    std::size_t first = 0;
    std::size_t last = 0;
};

/// Joins segments that continue one another — the next starts exactly where the previous ends
/// (bit-equal points), points the same way (unit directions within 1e-5) and has the same group —
/// into chains (a mesh's rows of unused links become one line each: software OpenGL pays per
/// line). Every segment lies in exactly one chain; a segment that continues none
/// stays a chain of its own. Chains come in the order of their lowest segment index, so equal
/// input gives equal output. O(n) expected (hashing).
std::vector<Chain> chainCollinear(const std::vector<ChainSegment>& segments);

} // namespace topocast
