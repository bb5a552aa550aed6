// The arithmetic under Johnsson & Ho's spanning graphs: exact rationals for the counters, and the
// bit operations on relative addresses (rotations, periods, Gray code, the SBnT bases).
#include "topocast/algorithms/hypercube_graphs.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace topocast::hypercube {

// ---- Rational ----------------------------------------------------------------------------------

Rational::Rational(long long n, long long d) : num(n), den(d)
{
    if (den == 0)
        throw Error("internal: rational with denominator 0");
    if (den < 0) {
        num = -num;
        den = -den;
    }
    const long long g = std::gcd(num < 0 ? -num : num, den);
    if (g > 1) {
        num /= g;
        den /= g;
    }
}

long long Rational::floor() const
{
    long long q = num / den;
    if ((num % den != 0) && (num < 0))
        --q;
    return q;
}

long long Rational::ceil() const
{
    long long q = num / den;
    if ((num % den != 0) && (num > 0))
        ++q;
    return q;
}

std::string Rational::str() const
{
    return den == 1 ? std::to_string(num) : std::to_string(num) + "/" + std::to_string(den);
}

Rational operator+(Rational a, Rational b)
{
    const long long g = std::gcd(a.den, b.den);
    return Rational(a.num * (b.den / g) + b.num * (a.den / g), a.den / g * b.den);
}
Rational operator-(Rational a, Rational b)
{
    return a + Rational(-b.num, b.den);
}
Rational operator*(Rational a, Rational b)
{
    const long long g1 = std::gcd(a.num < 0 ? -a.num : a.num, b.den);
    const long long g2 = std::gcd(b.num < 0 ? -b.num : b.num, a.den);
    return Rational((a.num / (g1 ? g1 : 1)) * (b.num / (g2 ? g2 : 1)),
                    (a.den / (g2 ? g2 : 1)) * (b.den / (g1 ? g1 : 1)));
}
Rational operator/(Rational a, Rational b)
{
    if (b.num == 0)
        throw Error("internal: rational division by zero");
    return a * Rational(b.den, b.num);
}
std::strong_ordering operator<=>(const Rational& a, const Rational& b)
{
    __extension__ using Wide = __int128;
    const Wide l = static_cast<Wide>(a.num) * b.den;
    const Wide r = static_cast<Wide>(b.num) * a.den;
    return l < r ? std::strong_ordering::less : (l > r ? std::strong_ordering::greater : std::strong_ordering::equal);
}

// ---- bit utilities -----------------------------------------------------------------------------

std::uint32_t rotateRight(std::uint32_t x, int n, int times)
{
    times = ((times % n) + n) % n;
    x &= lowMask(n);
    if (times == 0)
        return x;
    return ((x >> times) | (x << (n - times))) & lowMask(n);
}

std::uint32_t rotateLeft(std::uint32_t x, int n, int times)
{
    return rotateRight(x, n, -times);
}

int period(std::uint32_t x, int n)
{
    for (int j = 1; j < n; ++j)
        if (n % j == 0 && rotateRight(x, n, j) == (x & lowMask(n)))
            return j;
    return n;
}

int scanK(std::uint32_t c, int j, int n)
{
    for (int t = 1; t <= n; ++t) {
        const int b = ((j - t) % n + n) % n;
        if (c >> b & 1u)
            return b;
    }
    return -1;
}

std::vector<int> mset(int k, int j, int n)
{
    std::vector<int> out;
    for (int m = (k + 1) % n; m != j; m = (m + 1) % n)
        out.push_back(m);
    return out;
}

std::uint32_t grayInverse(std::uint32_t g)
{
    std::uint32_t p = g;
    for (int sh = 1; sh < 32; sh <<= 1)
        p ^= p >> sh;
    return p;
}

int grayStepDim(std::uint32_t p)
{
    return std::countr_one(p);
}

std::vector<int> minimalRotations(std::uint32_t c, int n)
{
    std::vector<int> out;
    std::uint32_t best = ~0u;
    for (int u = 0; u < n; ++u) {
        const std::uint32_t v = rotateRight(c, n, u);
        if (v < best) {
            best = v;
            out.clear();
        }
        if (v == best)
            out.push_back(u);
    }
    return out;
}

int sbntBase(std::uint32_t c, int n)
{
    std::uint32_t best = ~0u;
    int arg = 0;
    for (int u = 0; u < n; ++u) {
        const std::uint32_t v = rotateRight(c, n, u);
        if (v < best) {
            best = v;
            arg = u;
        }
    }
    return arg;
}

int sbntcBase(std::uint32_t c, int r, int n)
{
    int best = -1;
    int bestKey = n;
    for (int j : minimalRotations(c, n)) {
        const int key = (j + r) % n;
        if (key < bestKey) {
            bestKey = key;
            best = j;
        }
    }
    return best;
}

} // namespace topocast::hypercube
