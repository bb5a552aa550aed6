// Joining link lines that continue one another (software OpenGL pays per line).
#include "topocast/drawing/line_chains.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

using namespace topocast;

namespace {
std::size_t covered(const std::vector<Chain>& chains, const std::vector<ChainSegment>& s)
{
    // Walking each chain from first to last through segments that continue one another.
    std::size_t n = 0;
    for (const Chain& c : chains) {
        std::size_t i = c.first;
        ++n;
        while (i != c.last) {
            const auto next = std::find_if(s.begin(), s.end(), [&](const ChainSegment& t) {
                return t.a == s[i].b && t.group == s[i].group && t.b[0] - t.a[0] == s[i].b[0] - s[i].a[0] &&
                       t.b[1] - t.a[1] == s[i].b[1] - s[i].a[1] && t.b[2] - t.a[2] == s[i].b[2] - s[i].a[2];
            });
            REQUIRE(next != s.end());
            i = static_cast<std::size_t>(next - s.begin());
            ++n;
        }
    }
    return n;
}
} // namespace

TEST_CASE("line chains: a mesh n×n's unit links join into 2n rows and columns", "[chains]")
{
    const int n = GENERATE(2, 4, 8, 32);
    std::vector<ChainSegment> s;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x + 1 < n; ++x) {
            const auto fx = static_cast<float>(x), fy = static_cast<float>(y);
            s.push_back({{fx, fy, 0}, {fx + 1, fy, 0}, 0}); // x links
            s.push_back({{fy, fx, 0}, {fy, fx + 1, 0}, 0}); // y links
        }
    std::reverse(s.begin(), s.end()); // any order
    const std::vector<Chain> chains = chainCollinear(s);
    REQUIRE(chains.size() == static_cast<std::size_t>(2 * n));
    for (const Chain& c : chains) {
        // Each chain spans its whole row: from coordinate 0 to n − 1.
        const Vec3 a = s[c.first].a, b = s[c.last].b;
        CHECK(std::max(std::abs(b[0] - a[0]), std::abs(b[1] - a[1])) == Approx(n - 1));
        CHECK((a[0] == 0.0f || a[1] == 0.0f));
    }
    CHECK(covered(chains, s) == s.size());
}

TEST_CASE("line chains: a colour change, a bend, a reversal, a gap or an arc ends a chain", "[chains]")
{
    std::vector<ChainSegment> s{
        {{0, 0, 0}, {1, 0, 0}, 0},        // 0: row start
        {{1, 0, 0}, {2, 0, 0}, 0},        // 1: continues 0
        {{2, 0, 0}, {3, 0, 0}, 1},        // 2: another colour
        {{3, 0, 0}, {3, 1, 0}, 1},        // 3: bends at (3,0,0)
        {{3, 1, 0}, {3, 0, 0}, 1},        // 4: 3 reversed
        {{3.5f, 1, 0}, {4.5f, 1, 0}, 0},  // 5: no segment ends at its start
        {{2, 0, 0}, {3, 0, 0}, kNoChain}, // 6: an arc's segment, never joined
        {{0, 0, 5}, {-0.0f, 0, 6}, 2},    // 7: −0 is 0: 8 continues 7 ...
        {{0, 0, 6}, {0, 0, 7}, 2},        // 8
    };
    const std::vector<Chain> chains = chainCollinear(s);
    const std::vector<std::pair<std::size_t, std::size_t>> want{{0, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 8}};
    REQUIRE(chains.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(chains[i].first == want[i].first);
        CHECK(chains[i].last == want[i].second);
    }
    CHECK(chainCollinear({}).empty());
}

TEST_CASE("line chains: equal input gives equal chains, each segment in exactly one", "[chains]")
{
    // A 3-D mesh 5×5×5's links in three groups by direction parity: a brute-force count.
    std::vector<ChainSegment> s;
    for (int z = 0; z < 5; ++z)
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < 5; ++x)
                for (int d = 0; d < 3; ++d) {
                    Vec3 a{static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
                    Vec3 b = a;
                    b[static_cast<std::size_t>(d)] += 1.0f;
                    if (b[static_cast<std::size_t>(d)] > 4.0f)
                        continue;
                    s.push_back({a, b, static_cast<std::size_t>((x + y + z) % 2 == 0 && d == 0 ? 1 : 0)});
                }
    const auto chains = chainCollinear(s);
    const auto again = chainCollinear(s);
    REQUIRE(chains.size() == again.size());
    for (std::size_t i = 0; i < chains.size(); ++i)
        CHECK((chains[i].first == again[i].first && chains[i].last == again[i].last));
    CHECK(covered(chains, s) == s.size());
    // y and z rows: 25 each, whole; x rows alternate colours link by link: 4 pieces each.
    CHECK(chains.size() == 25 + 25 + 25 * 4);
}

TEST_CASE("line chains: links made once and split by group give chainCollinear's chains", "[chains]")
{
    // Both directions of a 6×6×6 mesh's links, regrouped at random many times (a view recolouring
    // its links every frame), plus arcs that are never joined.
    std::vector<ChainSegment> s;
    for (int z = 0; z < 6; ++z)
        for (int y = 0; y < 6; ++y)
            for (int x = 0; x < 6; ++x)
                for (int d = 0; d < 3; ++d)
                    for (const float sign : {1.0f, -1.0f}) {
                        Vec3 a{static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
                        Vec3 b = a;
                        b[static_cast<std::size_t>(d)] += sign;
                        if (b[static_cast<std::size_t>(d)] > 5.0f || b[static_cast<std::size_t>(d)] < 0.0f)
                            continue;
                        s.push_back({a, b, 0});
                    }
    for (int k = 0; k < 30; ++k)
        s.push_back({{0.0f, 0.0f, 0.0f}, {5.0f, 0.0f, 0.0f}, kNoChain});
    const ChainLinks links = linkCollinear(s);
    std::mt19937 rng(11);
    for (int round = 0; round < 20; ++round) {
        std::uniform_int_distribution<int> colours(0, round % 4 == 0 ? 0 : 1 + round % 3);
        for (ChainSegment& seg : s)
            if (seg.group != kNoChain)
                seg.group = static_cast<std::size_t>(colours(rng));
        const auto want = chainCollinear(s);
        const auto got = splitLinked(links, [&](std::size_t a, std::size_t b) { return s[a].group == s[b].group; });
        INFO("round " << round);
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            CHECK((got[i].first == want[i].first && got[i].last == want[i].last));
    }
}
