#pragma once

#include "topocast/drawing/layout.h"

#include <algorithm>
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

/// The segments' chains regardless of their groups, as links made once for a geometry: next[i]
/// is the segment that continues segment i (kNoChain: none; a segment of group kNoChain is
/// linked to none), heads the segments no other continues, lowest first.
struct ChainLinks {
    std::vector<std::size_t> next;
    std::vector<std::size_t> heads;
};
/// O(n) expected (hashing).
ChainLinks linkCollinear(const std::vector<ChainSegment>& segments);
/// chainCollinear's chains for segments whose groups changed but not their places: the linked
/// runs cut wherever `same(segment, next)` is false, in the order of their lowest segment index.
/// O(n + chains · log chains), no hashing (a view recolouring its links every frame).
template <class Same> std::vector<Chain> splitLinked(const ChainLinks& links, Same same);

template <class Same> std::vector<Chain> splitLinked(const ChainLinks& links, Same same)
{
    struct Run {
        Chain chain;
        std::size_t lowest;
    };
    std::vector<Run> runs;
    for (const std::size_t head : links.heads) {
        Run run{{head, head}, head};
        for (std::size_t i = head; links.next[i] != kNoChain; i = links.next[i]) {
            const std::size_t n = links.next[i];
            if (same(i, n)) {
                run.chain.last = n;
                run.lowest = run.lowest < n ? run.lowest : n;
            } else {
                runs.push_back(run);
                run = {{n, n}, n};
            }
        }
        runs.push_back(run);
    }
    std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.lowest < b.lowest; });
    std::vector<Chain> chains(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        chains[i] = runs[i].chain;
    return chains;
}

} // namespace topocast
