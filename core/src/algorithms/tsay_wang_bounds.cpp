// Bounds for all-port broadcast on the d-dimensional torus (Tsay & Wang: Lemma 1 in §2, Theorems 4–6, and
// the prior results cited in §1). Everything is exact integer arithmetic: in doubles
// 2·log(125)/log(5) = 6.000000000000001, which would ceil Lemma 1's bound to 7.
#include "topocast/algorithms/tsay_wang.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace topocast {

namespace {

/// A small unsigned big integer (base 2^32 limbs, least significant first): enough to compare
/// q^t with n^d for any d and n the bounds table accepts.
class BigUnsigned {
public:
    explicit BigUnsigned(std::uint64_t v)
    {
        do {
            m_limbs.push_back(static_cast<std::uint32_t>(v & 0xFFFFFFFFu));
            v >>= 32;
        } while (v != 0);
    }

    void multiply(std::uint32_t factor)
    {
        std::uint64_t carry = 0;
        for (auto& limb : m_limbs) {
            const std::uint64_t p = std::uint64_t{limb} * factor + carry;
            limb = static_cast<std::uint32_t>(p & 0xFFFFFFFFu);
            carry = p >> 32;
        }
        if (carry != 0)
            m_limbs.push_back(static_cast<std::uint32_t>(carry));
    }

    /// Multiplies by a factor below 2^63 (split into two 32-bit multiplications when needed).
    void multiplyWide(std::uint64_t factor)
    {
        if (factor <= 0xFFFFFFFFu) {
            multiply(static_cast<std::uint32_t>(factor));
            return;
        }
        BigUnsigned high = *this;
        high.multiply(static_cast<std::uint32_t>(factor >> 32));
        high.shiftLimbs(1);
        multiply(static_cast<std::uint32_t>(factor & 0xFFFFFFFFu));
        add(high);
    }

    friend bool operator<(const BigUnsigned& a, const BigUnsigned& b)
    {
        const std::size_t na = a.significant(), nb = b.significant();
        if (na != nb)
            return na < nb;
        for (std::size_t i = na; i-- > 0;)
            if (a.m_limbs[i] != b.m_limbs[i])
                return a.m_limbs[i] < b.m_limbs[i];
        return false;
    }

private:
    std::size_t significant() const
    {
        std::size_t n = m_limbs.size();
        while (n > 1 && m_limbs[n - 1] == 0)
            --n;
        return n;
    }
    void shiftLimbs(std::size_t count) { m_limbs.insert(m_limbs.begin(), count, 0u); }
    void add(const BigUnsigned& other)
    {
        if (m_limbs.size() < other.m_limbs.size())
            m_limbs.resize(other.m_limbs.size(), 0u);
        std::uint64_t carry = 0;
        for (std::size_t i = 0; i < m_limbs.size(); ++i) {
            const std::uint64_t s =
                std::uint64_t{m_limbs[i]} + (i < other.m_limbs.size() ? other.m_limbs[i] : 0u) + carry;
            m_limbs[i] = static_cast<std::uint32_t>(s & 0xFFFFFFFFu);
            carry = s >> 32;
        }
        if (carry != 0)
            m_limbs.push_back(static_cast<std::uint32_t>(carry));
    }

    std::vector<std::uint32_t> m_limbs;
};

constexpr int kMaxBoundsDims = 1000;
constexpr long long kMaxBoundsSide = 1'000'000'000'000LL;

void requireTorusSize(int d, long long n, const char* what)
{
    if (d < 2 || d > kMaxBoundsDims)
        throw Error(std::string(what) + " needs d ≥ 2 dimensions (at most " + std::to_string(kMaxBoundsDims) +
                    "); got d = " + std::to_string(d));
    if (n < 3 || n > kMaxBoundsSide)
        throw Error(std::string(what) + " needs a torus side n ≥ 3 (at most 10^12); got n = " + std::to_string(n));
}

} // namespace

std::string toString(TsayWangVariant v)
{
    return v == TsayWangVariant::Paper ? "paper" : "direct";
}

TsayWangVariant parseTsayWangVariant(std::string_view text)
{
    if (text == "paper" || text.empty())
        return TsayWangVariant::Paper;
    if (text == "direct" || text == "direct-final")
        return TsayWangVariant::DirectFinal;
    throw Error("unknown tsay-wang variant '" + std::string(text) + "'; allowed: paper, direct");
}

std::uint32_t allPortLowerBound(int d, long long n)
{
    if (d < 1 || n < 1)
        throw Error("the all-port lower bound needs d ≥ 1 and n ≥ 1; got d = " + std::to_string(d) +
                    ", n = " + std::to_string(n));
    BigUnsigned target(1);
    for (int i = 0; i < d; ++i)
        target.multiplyWide(static_cast<std::uint64_t>(n));
    const auto q = static_cast<std::uint64_t>(2 * d + 1);
    BigUnsigned reach(1);
    std::uint32_t t = 0;
    while (reach < target) {
        reach.multiplyWide(q);
        ++t;
    }
    return t;
}

std::uint32_t ceilLogInt(long long q, long long m)
{
    if (q < 2 || m < 1)
        throw Error("⌈log_q m⌉ needs q ≥ 2 and m ≥ 1; got q = " + std::to_string(q) + ", m = " + std::to_string(m));
    const auto mu = static_cast<std::uint64_t>(m), qu = static_cast<std::uint64_t>(q);
    std::uint64_t p = 1;
    std::uint32_t r = 0;
    while (p < mu) {
        ++r;
        if (p > (mu - 1) / qu)
            break; // p·q ≥ m without computing it (no overflow)
        p *= qu;
    }
    return r;
}

bool isPowerOf(long long q, long long m)
{
    if (q < 2 || m < q)
        return false;
    const auto mu = static_cast<std::uint64_t>(m), qu = static_cast<std::uint64_t>(q);
    std::uint64_t p = qu;
    while (p < mu && p <= mu / qu)
        p *= qu; // stays ≤ m: no overflow
    return p == mu;
}

std::uint32_t tsayWangPaperBound(int d, long long n)
{
    requireTorusSize(d, n, "tsay-wang");
    const long long q = 2LL * d + 1;
    if (n % 2 != 0)
        return static_cast<std::uint32_t>(d) * ceilLogInt(q, n) + 1;
    return static_cast<std::uint32_t>(d) * ceilLogInt(q, n - 1) + static_cast<std::uint32_t>((d + 1) / 2) + 1;
}

std::optional<std::string> tsayWangUnsupported(int d, long long n, TsayWangVariant v)
{
    if (d < 2)
        return "tsay-wang needs a torus of d ≥ 2 dimensions (Tsay & Wang §2); got d = " + std::to_string(d);
    if (n < 3)
        return "tsay-wang needs a torus side n ≥ 3 (Tsay & Wang §2); got n = " + std::to_string(n);
    if (n % 2 == 0 && n < d)
        return "even n=" + std::to_string(n) + " < d=" + std::to_string(d) +
               ": the even-n extra phase needs n ≥ d (Tsay & Wang §3)";
    const long long nPrime = n % 2 != 0 ? n : n - 1;
    if (v == TsayWangVariant::DirectFinal && !isPowerOf(2LL * d + 1, nPrime))
        return "the direct variant of tsay-wang needs n' = " + std::to_string(nPrime) +
               " (n, or n−1 for even n) to be a power of 2d+1 = " + std::to_string(2 * d + 1) +
               " (README: Where the papers are wrong); use --variant paper";
    return std::nullopt;
}

std::uint32_t tsayWangSteps(int d, long long n, TsayWangVariant v)
{
    if (auto why = tsayWangUnsupported(d, n, v))
        throw Error(*why);
    const long long nPrime = n % 2 != 0 ? n : n - 1;
    const std::uint32_t r = ceilLogInt(2LL * d + 1, nPrime);
    std::uint32_t steps = static_cast<std::uint32_t>(d) * r;
    if (v == TsayWangVariant::Paper && d >= 3)
        ++steps; // step d.0 (§3.5); empty for d = 2
    if (n % 2 == 0)
        steps += static_cast<std::uint32_t>((d + 1) / 2); // extra phase E.1 … (§3.7)
    return steps;
}

TorusBroadcastBounds torusBroadcastBounds(int d, long long n)
{
    requireTorusSize(d, n, "the torus broadcast bounds");
    TorusBroadcastBounds b;
    b.d = d;
    b.n = n;
    b.nPrime = n % 2 != 0 ? n : n - 1;
    const long long q = 2LL * d + 1;
    b.r = ceilLogInt(q, b.nPrime);
    b.lowerBound = allPortLowerBound(d, n);
    b.paperBound = tsayWangPaperBound(d, n);
    if (auto why = tsayWangUnsupported(d, n, TsayWangVariant::Paper))
        b.note = *why;
    else
        b.paperVariantSteps = tsayWangSteps(d, n, TsayWangVariant::Paper);
    if (!tsayWangUnsupported(d, n, TsayWangVariant::DirectFinal))
        b.directVariantSteps = tsayWangSteps(d, n, TsayWangVariant::DirectFinal);
    if (d == 2)
        b.tseng2d = 2 * ceilLogInt(5, n);
    if (d == 3)
        b.tsengWang3d = 3 * ceilLogInt(7, n) + 2;
    if (isPowerOf(q, n))
        b.parkChoi = static_cast<std::uint32_t>(d) * ceilLogInt(q, n);
    return b;
}

} // namespace topocast
