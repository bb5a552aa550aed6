#include "topocast/algorithms/divisible_load.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <mutex>

// SCATTER(p): the layers on (x, y, z) nodes, Drozdowski & Głazek §2.2 (our reconstruction of
// the paper's lost Figs 1–2).

namespace topocast {

namespace {

constexpr std::uint8_t kUnset = 0xFF;

int mod(int a, int m)
{
    return ((a % m) + m) % m;
}

/// Fills a basic cube of side p + 1: every position gets its move μ and parent π exactly once.
class CubeBuilder {
public:
    CubeBuilder(int p, const Point3& origin)
    {
        m_cube.p = p;
        m_cube.origin = origin;
        const int e = m_cube.edge();
        const auto cells = static_cast<std::size_t>(e * e * e);
        m_cube.move.assign(cells, kUnset);
        m_cube.parent.assign(cells, 0);
    }

    void set(const Point3& d, int mu, const Point3& par)
    {
        const auto i = static_cast<std::size_t>(m_cube.index(d));
        assert(m_cube.move[i] == kUnset);
        m_cube.move[i] = static_cast<std::uint8_t>(mu);
        m_cube.parent[i] = static_cast<std::uint16_t>(m_cube.index(par));
    }

    /// f(x, y, z) for every position, x fastest.
    template <class F> void forAll(F&& f) const
    {
        const int e = m_cube.edge();
        for (int z = 0; z < e; ++z)
            for (int y = 0; y < e; ++y)
                for (int x = 0; x < e; ++x)
                    f(x, y, z);
    }

    ScatterBasicCube finish()
    {
        assert(std::none_of(m_cube.move.begin(), m_cube.move.end(), [](std::uint8_t m) { return m == kUnset; }));
        return std::move(m_cube);
    }

private:
    ScatterBasicCube m_cube;
};

// The rules of spec §1.5, one function per p.

void cubeRulesP1(CubeBuilder& c)
{
    c.forAll([&](int x, int y, int z) {
        if (z == 1)
            c.set({x, y, z}, 3, {x, y, 0});
        else if (y == 1)
            c.set({x, y, z}, 2, {x, 0, 0});
        else if (x == 1)
            c.set({x, y, z}, 1, {0, 0, 0});
        else
            c.set({x, y, z}, 0, {x, y, z});
    });
}

void cubeRulesP2(CubeBuilder& c)
{
    c.forAll([&](int x, int y, int z) {
        const Point3 d{x, y, z};
        int axis = -1;
        for (int a = 0; a < 3; ++a)
            if (d[static_cast<std::size_t>(a)] != 1)
                axis = a;
        if (axis < 0) {
            c.set(d, 0, d);
            return;
        }
        Point3 par = d;
        par[static_cast<std::size_t>(axis)] = 1;
        c.set(d, axis + 1, par);
    });
}

void cubeRulesP3(CubeBuilder& c)
{
    // Pinwheel centres P (y,z) and their arms a1, a2, a3 (spec §1.5 table).
    static constexpr int centres[4][2] = {{0, 1}, {1, 3}, {2, 0}, {3, 2}};
    static constexpr int arms[4][3][2] = {
        {{0, 0}, {0, 2}, {1, 1}}, {{0, 3}, {2, 3}, {1, 2}}, {{1, 0}, {3, 0}, {2, 1}}, {{3, 1}, {3, 3}, {2, 2}}};
    for (int x = 0; x < 4; ++x)
        for (int ci = 0; ci < 4; ++ci) {
            const int cy = centres[ci][0], cz = centres[ci][1];
            if (x == 0)
                c.set({0, cy, cz}, ci == 0 ? 0 : 1, {0, 0, 1});
            else
                c.set({x, cy, cz}, 2, {0, cy, cz});
            for (const auto& arm : arms[ci])
                c.set({x, arm[0], arm[1]}, 3, {x, cy, cz});
        }
}

void cubeRulesP4(CubeBuilder& c)
{
    c.forAll([&](int x, int y, int z) {
        if (x == 2 && y == 2) {
            c.set({x, y, z}, z == 2 ? 0 : 1, {2, 2, 2});
            return;
        }
        const int r = mod(y - 2 * x - 3, 5);
        if (r == 0) {
            c.set({x, y, z}, 2, {2, 2, z});
            return;
        }
        static constexpr int dx[5] = {0, 0, 1, -1, 0};
        static constexpr int dy[5] = {0, -1, 0, 0, 1};
        c.set({x, y, z}, 3, {mod(x + dx[r], 5), mod(y + dy[r], 5), z});
    });
}

void cubeRulesP5(CubeBuilder& c)
{
    c.forAll([&](int x, int y, int z) {
        const bool xType = (z % 2) == 1; // slices 1, 3, 5 use X; 0, 2, 4 use Y
        const bool inX = mod(y - (2 * x - 1), 6) == 0;
        const bool inY = mod(y - (2 * x + 2), 6) == 0;
        const bool own = xType ? inX : inY;
        const bool other = xType ? inY : inX;
        const Point3 leader = xType ? Point3{2, 3, z} : Point3{3, 2, z};
        if (Point3{x, y, z} == leader) {
            c.set({x, y, z}, z == 3 ? 0 : 1, {2, 3, 3});
            return;
        }
        if (own) {
            c.set({x, y, z}, 2, leader);
            return;
        }
        if (other) {
            c.set({x, y, z}, 3, {x, y, z ^ 1});
            return;
        }
        // The unique own-type centre at torus distance 1 inside the slice.
        static constexpr int nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        int found = 0;
        Point3 par{};
        for (const auto& o : nb) {
            const int nx = mod(x + o[0], 6), ny = mod(y + o[1], 6);
            const bool nOwn = xType ? mod(ny - (2 * nx - 1), 6) == 0 : mod(ny - (2 * nx + 2), 6) == 0;
            if (nOwn) {
                ++found;
                par = {nx, ny, z};
            }
        }
        assert(found == 1);
        (void)found;
        c.set({x, y, z}, 3, par);
    });
}

void cubeRulesP6(CubeBuilder& c)
{
    c.forAll([&](int x, int y, int z) {
        const int dx = mod(x - 3, 7), dy = mod(y - 3, 7), dz = mod(z - 3, 7);
        auto at = [](int ox, int oy, int oz) { return Point3{mod(ox + 3, 7), mod(oy + 3, 7), mod(oz + 3, 7)}; };
        if (dx == 0 && dy == 0 && dz == 0) {
            c.set({x, y, z}, 0, {x, y, z});
            return;
        }
        const int r = mod(dx + 2 * dy + 3 * dz, 7);
        if (r == 0) {
            const bool moveOne = dx == mod(2 * dz, 7) && dy == dz;
            if (moveOne)
                c.set({x, y, z}, 1, {3, 3, 3});
            else
                c.set({x, y, z}, 2, at(2 * dz, dz, dz));
            return;
        }
        // Move 3: one hop back along the axis that r names (1/6: x, 2/5: y, 3/4: z).
        static constexpr int back[7][3] = {{0, 0, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1},
                                           {0, 0, 1}, {0, 1, 0},  {1, 0, 0}};
        c.set({x, y, z}, 3, at(dx + back[r][0], dy + back[r][1], dz + back[r][2]));
    });
}

/// Where the originator sits in each basic cube and the rules that fill it, p = 1..6.
struct CubeRules {
    Point3 origin;
    void (*fill)(CubeBuilder&);
};
const CubeRules kCubeRules[6] = {
    {{0, 0, 0}, cubeRulesP1}, {{1, 1, 1}, cubeRulesP2}, {{0, 0, 1}, cubeRulesP3},
    {{2, 2, 2}, cubeRulesP4}, {{2, 3, 3}, cubeRulesP5}, {{3, 3, 3}, cubeRulesP6},
};

ScatterBasicCube makeCube(int p)
{
    if (p < 1 || p > 6)
        throw Error("divisible-load: p = " + std::to_string(p) + " ports is not allowed; p must be 1..6");
    const CubeRules& rules = kCubeRules[p - 1];
    CubeBuilder builder(p, rules.origin);
    rules.fill(builder);
    return builder.finish();
}

void checkPattern(int p, int h)
{
    if (p < 1 || p > 6)
        throw Error("divisible-load: p = " + std::to_string(p) + " ports is not allowed; p must be 1..6");
    if (h < 0 || h > kDivisibleMaxLayers)
        throw Error("divisible-load: layers = " + std::to_string(h) + " is outside 0.." +
                    std::to_string(kDivisibleMaxLayers));
}

// Steps M, strides t_s and moves per step m_s of an h-layer embedding.
struct Steps {
    int count = 0;
    std::vector<long long> stride;
    std::vector<int> moves;
};

Steps stepsOf(int p, int h)
{
    Steps s;
    s.count = (h + 2) / 3;
    for (int i = 0; i < s.count; ++i) {
        long long t = 1;
        for (int k = 0; k < s.count - 1 - i; ++k)
            t *= p + 1;
        s.stride.push_back(t);
        s.moves.push_back(i + 1 < s.count ? 3 : h - 3 * (s.count - 1));
    }
    return s;
}

int toInt(long long v, int p, int h)
{
    if (v > 1'000'000'000LL || v < -1'000'000'000LL)
        throw Error("divisible-load: the p = " + std::to_string(p) + ", " + std::to_string(h) +
                    "-layer pattern is far larger than any topology");
    return static_cast<int>(v);
}

} // namespace

const ScatterBasicCube& scatterBasicCube(int p)
{
    if (p < 1 || p > 6)
        throw Error("divisible-load: p = " + std::to_string(p) + " ports is not allowed; p must be 1..6");
    static std::once_flag once;
    static std::unique_ptr<ScatterBasicCube> cubes[6];
    std::call_once(once, [] {
        for (int q = 1; q <= 6; ++q)
            cubes[q - 1] = std::make_unique<ScatterBasicCube>(makeCube(q));
    });
    return *cubes[p - 1];
}

std::array<Point3, 3> scatterBox(int p, int h)
{
    checkPattern(p, h);
    const ScatterBasicCube& cube = scatterBasicCube(p);
    const Steps st = stepsOf(p, h);
    std::array<long long, 3> lo{}, hi{}, org{};
    for (int s = 0; s < st.count; ++s) {
        std::array<int, 3> mn{99, 99, 99}, mx{-1, -1, -1};
        for (std::size_t i = 0; i < cube.move.size(); ++i) {
            if (cube.move[i] > st.moves[static_cast<std::size_t>(s)])
                continue;
            const Point3 d = cube.position(static_cast<int>(i));
            for (std::size_t a = 0; a < 3; ++a) {
                mn[a] = std::min(mn[a], d[a]);
                mx[a] = std::max(mx[a], d[a]);
            }
        }
        const long long t = st.stride[static_cast<std::size_t>(s)];
        for (std::size_t a = 0; a < 3; ++a) {
            lo[a] += mn[a] * t;
            hi[a] += mx[a] * t;
            org[a] += cube.origin[a] * t;
        }
    }
    std::array<Point3, 3> box{};
    for (std::size_t a = 0; a < 3; ++a) {
        box[0][a] = toInt(lo[a], p, h);
        box[1][a] = toInt(hi[a], p, h);
        box[2][a] = toInt(org[a], p, h);
    }
    return box;
}

ScatterMapping scatterMapping(int p, int h)
{
    checkPattern(p, h);
    double count = 1;
    for (int i = 0; i < h; ++i)
        count *= p + 1;
    if (count > static_cast<double>(Topology::kMaxNodes))
        throw Error("divisible-load: p = " + std::to_string(p) + " with " + std::to_string(h) + " layers needs " +
                    std::to_string(static_cast<long long>(count)) + " processors; at most " +
                    std::to_string(Topology::kMaxNodes) + " nodes are supported");
    const ScatterBasicCube& cube = scatterBasicCube(p);
    const Steps st = stepsOf(p, h);
    const auto M = static_cast<std::size_t>(st.count);
    const auto n = static_cast<std::size_t>(count);
    const int originIndex = cube.index(cube.origin);

    // Allowed positions of each step (μ ≤ m_s) and their ranks; a node is a mixed-radix key.
    std::vector<std::vector<int>> allowed(M);
    std::vector<std::vector<int>> rankOf(M, std::vector<int>(cube.move.size(), -1));
    for (std::size_t s = 0; s < M; ++s)
        for (std::size_t i = 0; i < cube.move.size(); ++i)
            if (cube.move[i] <= st.moves[s]) {
                rankOf[s][i] = static_cast<int>(allowed[s].size());
                allowed[s].push_back(static_cast<int>(i));
            }
    std::vector<std::size_t> radixWeight(M, 1);
    for (std::size_t s = 1; s < M; ++s)
        radixWeight[s] = radixWeight[s - 1] * allowed[s - 1].size();

    std::vector<Point3> coords(n);
    std::vector<std::uint8_t> layer(n);
    std::vector<std::uint32_t> parentKey(n);
    std::vector<int> digit(M);
    for (std::size_t key = 0; key < n; ++key) {
        std::size_t rest = key;
        Point3 c{0, 0, 0};
        int top = -1;
        for (std::size_t s = 0; s < M; ++s) {
            const std::size_t r = rest % allowed[s].size();
            rest /= allowed[s].size();
            digit[s] = allowed[s][r];
            const Point3 d = cube.position(digit[s]);
            const auto t = static_cast<int>(st.stride[s]);
            for (std::size_t a = 0; a < 3; ++a)
                c[a] += d[a] * t;
            if (digit[s] != originIndex)
                top = static_cast<int>(s);
        }
        coords[key] = c;
        if (top < 0) {
            layer[key] = 0;
            parentKey[key] = static_cast<std::uint32_t>(key);
            continue;
        }
        const auto s = static_cast<std::size_t>(top);
        const int mu = cube.move[static_cast<std::size_t>(digit[s])];
        layer[key] = static_cast<std::uint8_t>(3 * top + mu);
        const int par = cube.parent[static_cast<std::size_t>(digit[s])];
        const std::size_t oldRank = static_cast<std::size_t>(rankOf[s][static_cast<std::size_t>(digit[s])]);
        const std::size_t newRank = static_cast<std::size_t>(rankOf[s][static_cast<std::size_t>(par)]);
        parentKey[key] = static_cast<std::uint32_t>(key - oldRank * radixWeight[s] + newRank * radixWeight[s]);
    }

    // Order by layer (counting sort, stable).
    std::vector<std::size_t> start(static_cast<std::size_t>(h) + 2, 0);
    for (std::uint8_t l : layer)
        ++start[static_cast<std::size_t>(l) + 1];
    for (std::size_t i = 1; i < start.size(); ++i)
        start[i] += start[i - 1];
    std::vector<std::uint32_t> newIndex(n);
    for (std::size_t key = 0; key < n; ++key)
        newIndex[key] = static_cast<std::uint32_t>(start[layer[key]]++);

    ScatterMapping m;
    m.p = p;
    m.layers = h;
    m.steps = st.count;
    m.coords.resize(n);
    m.layer.resize(n);
    m.parent.resize(n);
    for (std::size_t key = 0; key < n; ++key) {
        const std::uint32_t i = newIndex[key];
        m.coords[i] = coords[key];
        m.layer[i] = layer[key];
        m.parent[i] = newIndex[parentKey[key]];
    }
    const auto box = scatterBox(p, h);
    m.boxMin = box[0];
    m.boxMax = box[1];
    m.origin = box[2];
    assert(m.coords[0] == m.origin);
    return m;
}

std::vector<Point3> scatterSpecRoute(const ScatterMapping& mapping, std::size_t node)
{
    if (node == 0 || node >= mapping.size())
        throw Error("divisible-load: no route to mapping node " + std::to_string(node));
    const int p = mapping.p;
    const Point3 from = mapping.coords[mapping.parent[node]];
    const Point3 to = mapping.coords[node];
    std::vector<Point3> path{from};
    auto walk = [&](int axis, int sign, long long count) {
        for (long long i = 0; i < count; ++i) {
            Point3 next = path.back();
            next[static_cast<std::size_t>(axis)] += sign;
            path.push_back(next);
        }
    };
    auto straight = [&](const Point3& a, const Point3& b) {
        Point3 cur = a;
        for (int axis = 0; axis < 3; ++axis) {
            const auto u = static_cast<std::size_t>(axis);
            const int diff = b[u] - cur[u];
            walk(axis, diff < 0 ? -1 : 1, std::abs(diff));
            cur[u] = b[u];
        }
    };
    if (p >= 4) {
        straight(from, to);
        return path;
    }

    // The basic-cube digit of the step that activated `node`: its coordinates in base p+1.
    const int layer = mapping.layer[node];
    const int s = (layer - 1) / 3;
    const int mu = layer - 3 * s;
    long long t = 1;
    for (int k = 0; k < mapping.steps - 1 - s; ++k)
        t *= p + 1;
    auto digitOf = [&](const Point3& c) {
        Point3 d{};
        for (std::size_t a = 0; a < 3; ++a)
            d[a] = static_cast<int>((c[a] / t) % (p + 1));
        return d;
    };
    const Point3 dTo = digitOf(to);
    const Point3 dFrom = digitOf(from);
    // A basic-cube hop sequence: (axis, sign) pairs, each repeated t times.
    std::vector<std::pair<int, int>> hops;
    auto addStraight = [&](const Point3& a, const Point3& b) {
        for (int axis = 0; axis < 3; ++axis) {
            const int diff = b[static_cast<std::size_t>(axis)] - a[static_cast<std::size_t>(axis)];
            for (int i = 0; i < std::abs(diff); ++i)
                hops.emplace_back(axis, diff < 0 ? -1 : 1);
        }
    };
    if (p <= 2 || mu == 3) {
        addStraight(dFrom, dTo);
    } else if (mu == 1) {
        // p = 3, move 1 from o = (0,0,1).
        if (dTo[1] == 1 && dTo[2] == 3)
            hops = {{2, 1}, {2, 1}, {1, 1}};
        else if (dTo[1] == 2 && dTo[2] == 0)
            hops = {{2, -1}, {1, 1}, {1, 1}};
        else
            hops = {{1, 1}, {1, 1}, {1, 1}, {2, 1}};
    } else {
        // p = 3, move 2 from (0,c) to (k,c): k = 2, 3 detour through arm a1 / a2 of centre c.
        const int k = dTo[0];
        if (k == 1) {
            hops = {{0, 1}};
        } else {
            static constexpr int centres[4][2] = {{0, 1}, {1, 3}, {2, 0}, {3, 2}};
            static constexpr int arms[4][2][2] = {
                {{0, 0}, {0, 2}}, {{0, 3}, {2, 3}}, {{1, 0}, {3, 0}}, {{3, 1}, {3, 3}}};
            int ci = 0;
            while (ci < 4 && !(centres[ci][0] == dTo[1] && centres[ci][1] == dTo[2]))
                ++ci;
            assert(ci < 4);
            const auto& arm = arms[ci][k - 2];
            const int ay = arm[0] - centres[ci][0], az = arm[1] - centres[ci][1];
            const std::pair<int, int> in = ay != 0 ? std::pair{1, ay} : std::pair{2, az};
            hops.push_back(in);
            for (int i = 0; i < k; ++i)
                hops.emplace_back(0, 1);
            hops.emplace_back(in.first, -in.second);
        }
    }
    for (const auto& [axis, sign] : hops)
        walk(axis, sign, t);
    assert(path.back() == to);
    return path;
}

Point3 ScatterPlacement::place(const Point3& c) const
{
    Point3 r{};
    for (std::size_t a = 0; a < 3; ++a) {
        r[a] = anchor[a] + mirror[a] * (c[a] - origin[a]);
        if (wrap)
            r[a] = mod(r[a], sides[a]);
    }
    return r;
}

} // namespace topocast
