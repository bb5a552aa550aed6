#include "topocast/drawing/line_chains.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace topocast {

namespace {

struct PointKey {
    std::uint32_t x, y, z;
    std::size_t group;
    bool operator==(const PointKey&) const = default;
};

struct PointHash {
    std::size_t operator()(const PointKey& k) const
    {
        std::uint64_t h = k.x * 0x9E3779B97F4A7C15ull;
        h ^= (k.y + 0x7F4A7C15ull + (h << 6) + (h >> 2)) * 0xBF58476D1CE4E5B9ull;
        h ^= (k.z + 0x94D049BBull + (h << 6) + (h >> 2)) * 0x94D049BB133111EBull;
        return static_cast<std::size_t>(h ^ (k.group + (h >> 31)));
    }
};

PointKey key(const Vec3& p, std::size_t group)
{
    // +0.0f: -0 and +0 are the same point
    return {std::bit_cast<std::uint32_t>(p[0] + 0.0f), std::bit_cast<std::uint32_t>(p[1] + 0.0f),
            std::bit_cast<std::uint32_t>(p[2] + 0.0f), group};
}

Vec3 unitDirection(const ChainSegment& s)
{
    const Vec3 d{s.b[0] - s.a[0], s.b[1] - s.a[1], s.b[2] - s.a[2]};
    const float n = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    return n > 0.0f ? Vec3{d[0] / n, d[1] / n, d[2] / n} : Vec3{0.0f, 0.0f, 0.0f};
}

bool sameDirection(const Vec3& u, const Vec3& v)
{
    return std::abs(u[0] - v[0]) < 1e-5f && std::abs(u[1] - v[1]) < 1e-5f && std::abs(u[2] - v[2]) < 1e-5f &&
           (u[0] != 0.0f || u[1] != 0.0f || u[2] != 0.0f);
}

using PointIndex = std::unordered_multimap<PointKey, std::size_t, PointHash>;

/// The unused segment of `index` at `at` continuing direction `dir` (or n: none).
std::size_t follow(const PointIndex& index, const PointKey& at, const Vec3& dir, const std::vector<Vec3>& dirs,
                   const std::vector<bool>& used)
{
    const auto [lo, hi] = index.equal_range(at);
    for (auto it = lo; it != hi; ++it)
        if (!used[it->second] && sameDirection(dirs[it->second], dir))
            return it->second;
    return dirs.size();
}

} // namespace

std::vector<Chain> chainCollinear(const std::vector<ChainSegment>& segments)
{
    const std::size_t n = segments.size();
    std::vector<Vec3> dirs(n);
    PointIndex starts, ends;
    starts.reserve(n);
    ends.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        dirs[i] = unitDirection(segments[i]);
        if (segments[i].group == kNoChain)
            continue;
        starts.emplace(key(segments[i].a, segments[i].group), i);
        ends.emplace(key(segments[i].b, segments[i].group), i);
    }
    std::vector<bool> used(n, false);
    std::vector<Chain> chains;
    for (std::size_t i = 0; i < n; ++i) {
        if (used[i])
            continue;
        used[i] = true;
        Chain c{i, i};
        if (segments[i].group != kNoChain) {
            const std::size_t g = segments[i].group;
            for (std::size_t p; (p = follow(ends, key(segments[c.first].a, g), dirs[i], dirs, used)) < n;) {
                used[p] = true;
                c.first = p;
            }
            for (std::size_t q; (q = follow(starts, key(segments[c.last].b, g), dirs[i], dirs, used)) < n;) {
                used[q] = true;
                c.last = q;
            }
        }
        chains.push_back(c);
    }
    return chains;
}

ChainLinks linkCollinear(const std::vector<ChainSegment>& segments)
{
    const std::size_t n = segments.size();
    std::vector<Vec3> dirs(n);
    PointIndex starts;
    starts.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        dirs[i] = unitDirection(segments[i]);
        if (segments[i].group != kNoChain)
            starts.emplace(key(segments[i].a, 0), i);
    }
    ChainLinks links;
    links.next.assign(n, kNoChain);
    std::vector<std::size_t> previous(n, kNoChain);
    std::vector<bool> continued(n, false);
    for (std::size_t i = 0; i < n; ++i) {
        if (segments[i].group == kNoChain)
            continue;
        const std::size_t q = follow(starts, key(segments[i].b, 0), dirs[i], dirs, continued);
        if (q < n && q != i) {
            links.next[i] = q;
            previous[q] = i;
            continued[q] = true;
        }
    }
    // Every segment on a walk from a head; a closed loop (no head) is cut before its lowest segment.
    std::vector<bool> reached(n, false);
    auto walk = [&](std::size_t head) {
        for (std::size_t i = head; i != kNoChain && !reached[i]; i = links.next[i])
            reached[i] = true;
    };
    for (std::size_t i = 0; i < n; ++i)
        if (!continued[i])
            walk(i);
    for (std::size_t i = 0; i < n; ++i)
        if (!reached[i]) {
            links.next[previous[i]] = kNoChain;
            continued[i] = false;
            walk(i);
        }
    for (std::size_t i = 0; i < n; ++i)
        if (!continued[i])
            links.heads.push_back(i);
    return links;
}

} // namespace topocast
