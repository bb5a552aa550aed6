#include "topocast/algorithms/eyes.h"

#include "topocast/model/error.h"

#include <string>

namespace topocast {

namespace {

void checkLevel(int k)
{
    if (k < 1 || k > 40)
        throw Error("eye level k = " + std::to_string(k) + " is out of range; allowed 1..40");
}

std::int64_t minusOnePow(int k)
{
    return (k % 2 == 0) ? 1 : -1;
}

std::string sidesText(const Topology& t)
{
    std::string s;
    for (std::size_t i = 0; i < t.sides().size(); ++i) {
        if (i != 0)
            s += "×";
        s += std::to_string(t.sides()[i]);
    }
    return s;
}

std::string kindText(const Topology& t)
{
    if (t.isHypercube())
        return std::to_string(t.dims()) + "-cube";
    return sidesText(t) + (t.isTorus() ? " torus" : " mesh");
}

} // namespace

std::int64_t eyeSide(int k)
{
    checkLevel(k);
    return ((std::int64_t{1} << k) - minusOnePow(k)) / 3;
}

std::int64_t eyeLo(int k)
{
    checkLevel(k);
    return ((std::int64_t{1} << (k + 1)) + minusOnePow(k) - 3) / 6;
}

std::int64_t eyeHi(int k)
{
    checkLevel(k);
    return (std::int64_t{1} << k) - 1 - eyeLo(k);
}

std::vector<int> canonicalDimensionOrder(int d)
{
    if (d == 3)
        return {0, 2, 1};
    std::vector<int> order(static_cast<std::size_t>(d));
    for (int i = 0; i < d; ++i)
        order[static_cast<std::size_t>(i)] = i;
    return order;
}

int eyeIndexOfMask(int d, unsigned hiMask)
{
    const std::vector<int> canon = canonicalDimensionOrder(d);
    int index = 0;
    for (int q = 0; q < d; ++q)
        if ((hiMask >> canon[static_cast<std::size_t>(q)]) & 1u)
            index |= 1 << q;
    return index;
}

unsigned eyeMaskOfIndex(int d, int index)
{
    const std::vector<int> canon = canonicalDimensionOrder(d);
    unsigned mask = 0;
    for (int q = 0; q < d; ++q)
        if ((index >> q) & 1)
            mask |= 1u << canon[static_cast<std::size_t>(q)];
    return mask;
}

std::vector<Coord> meshEyes(int d, int k)
{
    if (d < 1 || d > 6 || k < 1 || k > 24)
        throw Error("eyes need 1 ≤ d ≤ 6 and 1 ≤ k ≤ 24; got d = " + std::to_string(d) + ", k = " + std::to_string(k));
    const int lo = static_cast<int>(eyeLo(k));
    const int hi = static_cast<int>(eyeHi(k));
    std::vector<Coord> eyes;
    eyes.reserve(std::size_t{1} << d);
    for (int index = 0; index < (1 << d); ++index) {
        const unsigned mask = eyeMaskOfIndex(d, index);
        Coord c(static_cast<std::size_t>(d));
        for (int i = 0; i < d; ++i)
            c[static_cast<std::size_t>(i)] = ((mask >> i) & 1u) ? hi : lo;
        eyes.push_back(std::move(c));
    }
    return eyes;
}

bool isEyeOfLevel(const Coord& c, int j)
{
    const int side = 1 << j;
    const int lo = static_cast<int>(eyeLo(j));
    const int hi = static_cast<int>(eyeHi(j));
    for (int x : c) {
        const int local = x & (side - 1);
        if (local != lo && local != hi)
            return false;
    }
    return true;
}

int eyeLevel(const Coord& c, int k)
{
    for (int j = k; j >= 2; --j)
        if (isEyeOfLevel(c, j))
            return j;
    return 1;
}

std::vector<EyeLevel> eyesOfSubmeshes(int d, int k)
{
    if (d < 1 || d > 6 || k < 1 || d * k > 24)
        throw Error("eyes need 1 ≤ d ≤ 6, k ≥ 1 and d·k ≤ 24; got d = " + std::to_string(d) +
                    ", k = " + std::to_string(k));
    const std::uint32_t n = 1u << k;
    std::vector<EyeLevel> levels;
    for (int j = k; j >= 1; --j) {
        EyeLevel level;
        level.level = j;
        // Per dimension, the sorted coordinates that are eye coordinates of a level-j box.
        const std::uint32_t side = 1u << j;
        const std::uint32_t lo = static_cast<std::uint32_t>(eyeLo(j));
        const std::uint32_t hi = static_cast<std::uint32_t>(eyeHi(j));
        std::vector<std::uint32_t> axis;
        for (std::uint32_t o = 0; o < n; o += side) {
            axis.push_back(o + lo);
            if (hi != lo)
                axis.push_back(o + hi);
        }
        // Cartesian product, x fastest, which gives ascending node ids.
        const std::size_t m = axis.size();
        std::size_t total = 1;
        for (int i = 0; i < d; ++i)
            total *= m;
        level.eyes.reserve(total);
        std::vector<std::size_t> digit(static_cast<std::size_t>(d), 0);
        for (std::size_t t = 0; t < total; ++t) {
            std::uint32_t id = 0;
            for (int i = d - 1; i >= 0; --i)
                id = id * n + axis[digit[static_cast<std::size_t>(i)]];
            level.eyes.push_back(NodeId{id});
            for (int i = 0; i < d; ++i) {
                if (++digit[static_cast<std::size_t>(i)] < m)
                    break;
                digit[static_cast<std::size_t>(i)] = 0;
            }
        }
        levels.push_back(std::move(level));
    }
    return levels;
}

int cubicPowerOfTwoExponent(const Topology& topology)
{
    const std::string got = "; got " + kindText(topology);
    if (topology.isHypercube()) {
        if (topology.dims() > 6)
            throw Error("cang-wu handles d = 1..6 dimensions (a hypercube of dimension ≤ 6)" + got);
        return 1;
    }
    const std::string need =
        topology.isTorus() ? "cang-wu needs a 2^k × … × 2^k torus (k ≥ 2)" : "cang-wu needs a 2^k × … × 2^k mesh";
    const int d = topology.dims();
    if (d < 1 || d > 6)
        throw Error(need + " with d = 1..6 dimensions" + got);
    const int n = topology.side(0);
    for (int s : topology.sides())
        if (s != n)
            throw Error(need + " (all sides equal)" + got);
    if (n < 2 || (n & (n - 1)) != 0)
        throw Error(need + " (side " + std::to_string(n) + " is not a power of two ≥ 2)" + got);
    int k = 0;
    while ((1 << k) < n)
        ++k;
    if (topology.isTorus() && k < 2)
        throw Error(need + got);
    return k;
}

std::vector<EyeLevel> eyesOfSubmeshes(const Topology& topology)
{
    const int k = cubicPowerOfTwoExponent(topology);
    return eyesOfSubmeshes(topology.dims(), k);
}

} // namespace topocast
