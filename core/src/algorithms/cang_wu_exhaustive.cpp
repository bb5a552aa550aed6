// Exact minimum TCD over all time-step-optimal one-port broadcasts on tiny meshes (spec §7.2):
// a DP over informed sets. From an informed set I (|I| = m) every node of I sends to a distinct
// uninformed node; the cheapest way to pick the m receivers R and pair them with I is a min-cost
// assignment, and the last step (m = N/2) is one assignment onto the whole complement.

#include "topocast/algorithms/cang_wu.h"

#include "cang_wu_internal.h"
#include "topocast/model/error.h"

#include <bit>
#include <cstdlib>
#include <limits>
#include <unordered_map>

namespace topocast {

namespace {

class ExhaustiveSearch {
public:
    ExhaustiveSearch(int d, int k) : m_n(1 << (d * k)), m_full((1u << m_n) - 1)
    {
        m_dist.resize(static_cast<std::size_t>(m_n * m_n));
        for (int a = 0; a < m_n; ++a) {
            const auto pa = cangwu_detail::decode(static_cast<NodeId>(a), d, k);
            for (int b = 0; b < m_n; ++b) {
                const auto pb = cangwu_detail::decode(static_cast<NodeId>(b), d, k);
                int dist = 0;
                for (int i = 0; i < d; ++i)
                    dist += std::abs(pa[static_cast<std::size_t>(i)] - pb[static_cast<std::size_t>(i)]);
                m_dist[static_cast<std::size_t>(a * m_n + b)] = dist;
            }
        }
    }

    /// Least cost to finish the broadcast from informed set `informed` (a power-of-two size).
    std::uint32_t finish(std::uint32_t informed)
    {
        const int m = std::popcount(informed);
        if (m == m_n)
            return 0;
        if (auto it = m_memo.find(informed); it != m_memo.end())
            return it->second;
        const std::uint32_t free = m_full & ~informed;
        std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
        if (2 * m == m_n) {
            best = assign(informed, free);
        } else {
            // Every subset of the free nodes with m members is a possible set of receivers.
            for (std::uint32_t r = free;; r = (r - 1) & free) {
                if (std::popcount(r) == m) {
                    const std::uint32_t cost = assign(informed, r);
                    if (cost < best) {
                        const std::uint32_t rest = finish(informed | r);
                        best = std::min(best, cost + rest);
                    }
                }
                if (r == 0)
                    break;
            }
        }
        m_memo.emplace(informed, best);
        return best;
    }

private:
    /// Min-cost perfect assignment of the senders to the receivers (equal sizes ≤ 8): DP over
    /// the subsets of receivers already used, senders taken in order.
    std::uint32_t assign(std::uint32_t senders, std::uint32_t receivers)
    {
        int s[16], r[16];
        int ns = 0, nr = 0;
        for (int v = 0; v < m_n; ++v) {
            if ((senders >> v) & 1u)
                s[ns++] = v;
            if ((receivers >> v) & 1u)
                r[nr++] = v;
        }
        const std::size_t states = std::size_t{1} << nr;
        m_dp.assign(states, std::numeric_limits<std::uint32_t>::max());
        m_dp[0] = 0;
        for (std::size_t used = 0; used + 1 < states; ++used) {
            const std::uint32_t base = m_dp[used];
            if (base == std::numeric_limits<std::uint32_t>::max())
                continue;
            const int sender = s[std::popcount(static_cast<std::uint32_t>(used))];
            for (int i = 0; i < nr; ++i) {
                if ((used >> i) & 1u)
                    continue;
                const std::size_t next = used | (std::size_t{1} << i);
                const std::uint32_t val =
                    base + static_cast<std::uint32_t>(m_dist[static_cast<std::size_t>(sender * m_n + r[i])]);
                if (val < m_dp[next])
                    m_dp[next] = val;
            }
        }
        return m_dp[states - 1];
    }

    int m_n;
    std::uint32_t m_full;
    std::vector<int> m_dist;
    std::vector<std::uint32_t> m_dp;
    std::unordered_map<std::uint32_t, std::uint32_t> m_memo;
};

} // namespace

std::vector<std::uint64_t> exhaustiveMinTcdSourceMap(int d, int k)
{
    cangwu_detail::checkShape(d, k);
    if (d * k > 4)
        throw Error("the exhaustive search handles meshes of at most 16 nodes; got 2^" + std::to_string(d * k) +
                    " nodes");
    ExhaustiveSearch search(d, k);
    const int n = 1 << (d * k);
    std::vector<std::uint64_t> map(static_cast<std::size_t>(n));
    for (int s = 0; s < n; ++s)
        map[static_cast<std::size_t>(s)] = search.finish(1u << s);
    return map;
}

} // namespace topocast
