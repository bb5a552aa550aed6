#include "topocast/model/topology.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdlib>
#include <sstream>

namespace topocast {

namespace {

std::string joinSides(const std::vector<int>& sides, const char* sep)
{
    std::string s;
    for (std::size_t i = 0; i < sides.size(); ++i) {
        if (i)
            s += sep;
        s += std::to_string(sides[i]);
    }
    return s;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

/// Parses a non-negative decimal integer that must fill `s`; false on anything else.
bool parseInt(std::string_view s, long long& value)
{
    s = trim(s);
    if (s.empty())
        return false;
    bool negative = false;
    if (s.front() == '-' || s.front() == '+') {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    if (s.empty() || s.size() > 18 || s.front() < '0' || s.front() > '9')
        return false; // also refuses a second sign ("--4"), which from_chars would accept
    long long v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size())
        return false;
    value = negative ? -v : v;
    return true;
}

const char* kForms = "expected mesh:AxB[xC…] (1..6 sides), torus:AxB[xC…] (sides ≥ 3) or hypercube:N (N = 1..24)";

} // namespace

Topology::Topology(TopologyKind kind, std::vector<int> sides) : m_kind(kind), m_sides(std::move(sides))
{
    m_strides.resize(m_sides.size());
    std::uint64_t n = 1;
    for (std::size_t i = 0; i < m_sides.size(); ++i) {
        m_strides[i] = static_cast<std::uint32_t>(n);
        n *= static_cast<std::uint64_t>(m_sides[i]);
    }
    m_nodeCount = static_cast<std::uint32_t>(n);
}

static void checkSides(const char* what, const std::vector<int>& sides, int minSide)
{
    if (sides.empty() || static_cast<int>(sides.size()) > Topology::kMaxMeshDims)
        throw Error(std::string(what) + " must have 1 to " + std::to_string(Topology::kMaxMeshDims) +
                    " dimensions; got " + std::to_string(sides.size()));
    std::uint64_t n = 1;
    for (std::size_t i = 0; i < sides.size(); ++i) {
        if (sides[i] < minSide)
            throw Error(std::string(what) + " side " + std::to_string(i) + " is " + std::to_string(sides[i]) +
                        "; sides must be at least " + std::to_string(minSide) +
                        (minSide == 3 ? " (a ring of 1 or 2 nodes has no distinct wrap-around link)" : ""));
        n *= static_cast<std::uint64_t>(sides[i]);
        if (n > Topology::kMaxNodes)
            throw Error(std::string(what) + " " + joinSides(sides, "x") + " has more than 2^24 = " +
                        std::to_string(Topology::kMaxNodes) + " nodes, the largest topocast handles");
    }
}

Topology Topology::mesh(std::vector<int> sides)
{
    checkSides("mesh", sides, 1);
    return Topology(TopologyKind::Mesh, std::move(sides));
}

Topology Topology::torus(std::vector<int> sides)
{
    checkSides("torus", sides, 3);
    return Topology(TopologyKind::Torus, std::move(sides));
}

Topology Topology::hypercube(int n)
{
    if (n < 1 || n > kMaxHypercubeDims)
        throw Error("hypercube dimension must be 1 to " + std::to_string(kMaxHypercubeDims) + "; got " +
                    std::to_string(n));
    return Topology(TopologyKind::Hypercube, std::vector<int>(static_cast<std::size_t>(n), 2));
}

Topology Topology::parse(std::string_view text)
{
    const std::string original(text);
    text = trim(text);
    const auto colon = text.find(':');
    if (colon == std::string_view::npos)
        throw Error("topology '" + original + "' has no kind; " + kForms);
    std::string kind(trim(text.substr(0, colon)));
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return std::tolower(c); });
    const std::string_view rest = trim(text.substr(colon + 1));

    if (kind == "hypercube" || kind == "cube") {
        long long n = 0;
        if (!parseInt(rest, n))
            throw Error("hypercube dimension '" + std::string(rest) + "' is not a whole number; " + kForms);
        if (n < 1 || n > kMaxHypercubeDims)
            throw Error("hypercube dimension must be 1 to " + std::to_string(kMaxHypercubeDims) + "; got " +
                        std::string(rest));
        return hypercube(static_cast<int>(n));
    }
    if (kind != "mesh" && kind != "torus")
        throw Error("unknown topology kind '" + kind + "'; " + kForms);

    // Accept "8x8", "8X8", "8*8" and "8×8" (U+00D7).
    std::string body(rest);
    for (std::size_t pos; (pos = body.find("\u00d7")) != std::string::npos;)
        body.replace(pos, 2, "x");
    std::vector<int> sides;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = body.find_first_of("xX*", start);
        const std::string part = body.substr(start, end == std::string::npos ? std::string::npos : end - start);
        long long v = 0;
        if (!parseInt(part, v))
            throw Error(kind + " side '" + part + "' in '" + original + "' is not a whole number; " + kForms);
        if (v < 1 || v > static_cast<long long>(kMaxNodes))
            throw Error(kind + " side " + std::string(trim(part)) + " in '" + original +
                        "' is out of range; sides must be " + (kind == "torus" ? "3" : "1") + " to " +
                        std::to_string(kMaxNodes));
        sides.push_back(static_cast<int>(v));
        if (sides.size() > static_cast<std::size_t>(kMaxMeshDims))
            throw Error(kind + " '" + original + "' has more than " + std::to_string(kMaxMeshDims) + " dimensions");
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return kind == "mesh" ? mesh(std::move(sides)) : torus(std::move(sides));
}

std::string Topology::spec() const
{
    switch (m_kind) {
    case TopologyKind::Mesh:
        return "mesh:" + joinSides(m_sides, "x");
    case TopologyKind::Torus:
        return "torus:" + joinSides(m_sides, "x");
    case TopologyKind::Hypercube:
        return "hypercube:" + std::to_string(dims());
    }
    return {};
}

std::string Topology::displayName() const
{
    switch (m_kind) {
    // One dimension: "8-node line", "8-node ring" ("8 torus" read as a count of tori).
    case TopologyKind::Mesh:
        return m_sides.size() == 1 ? std::to_string(m_sides[0]) + "-node line" : joinSides(m_sides, "×") + " mesh";
    case TopologyKind::Torus:
        return m_sides.size() == 1 ? std::to_string(m_sides[0]) + "-node ring" : joinSides(m_sides, "×") + " torus";
    case TopologyKind::Hypercube:
        return std::to_string(dims()) + "-cube";
    }
    return {};
}

bool Topology::isCubic() const
{
    return std::all_of(m_sides.begin(), m_sides.end(), [&](int s) { return s == m_sides.front(); });
}

int Topology::coord(NodeId node, int dim) const
{
    const auto d = static_cast<std::size_t>(dim);
    return static_cast<int>((node / m_strides[d]) % static_cast<std::uint32_t>(m_sides[d]));
}

Coord Topology::coords(NodeId node) const
{
    Coord c(m_sides.size());
    for (std::size_t i = 0; i < m_sides.size(); ++i)
        c[i] = static_cast<int>((node / m_strides[i]) % static_cast<std::uint32_t>(m_sides[i]));
    return c;
}

NodeId Topology::id(const Coord& c) const
{
    if (c.size() != m_sides.size())
        throw Error("a node of the " + displayName() + " has " + std::to_string(m_sides.size()) + " coordinates; got " +
                    std::to_string(c.size()));
    for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i] < 0 || c[i] >= m_sides[i])
            throw Error("coordinate " + std::to_string(i) + " = " + std::to_string(c[i]) + " is outside the " +
                        displayName() + " (0.." + std::to_string(m_sides[i] - 1) + ")");
    return idUnchecked(c);
}

NodeId Topology::idUnchecked(const Coord& c) const
{
    std::uint32_t id = 0;
    for (std::size_t i = 0; i < c.size(); ++i)
        id += static_cast<std::uint32_t>(c[i]) * m_strides[i];
    return NodeId{id};
}

Port Topology::portAt(int index) const
{
    if (isHypercube())
        return Port{index, +1};
    return Port{index / 2, (index % 2) ? -1 : +1};
}

std::uint64_t Topology::channelCount() const
{
    const std::uint64_t n = m_nodeCount;
    if (isHypercube())
        return n * static_cast<std::uint64_t>(dims());
    std::uint64_t links = 0; // undirected
    for (std::size_t i = 0; i < m_sides.size(); ++i) {
        const std::uint64_t s = static_cast<std::uint64_t>(m_sides[i]);
        const std::uint64_t lines = n / s;
        links += lines * (isTorus() ? s : s - 1);
    }
    return 2 * links;
}

bool Topology::step(NodeId node, int dim, int sign, NodeId& out) const
{
    const auto d = static_cast<std::size_t>(dim);
    const std::uint32_t stride = m_strides[d];
    if (isHypercube()) {
        out = NodeId{node ^ stride};
        return true;
    }
    const int side = m_sides[d];
    const int x = static_cast<int>((node / stride) % static_cast<std::uint32_t>(side));
    int nx = x + (sign < 0 ? -1 : 1);
    if (nx < 0 || nx >= side) {
        if (!isTorus())
            return false;
        nx = (nx + side) % side;
    }
    out = NodeId{node - static_cast<std::uint32_t>(x) * stride + static_cast<std::uint32_t>(nx) * stride};
    return true;
}

NodeId Topology::channelHead(ChannelId ch) const
{
    const Port p = channelPort(ch);
    NodeId out{};
    step(channelTail(ch), p.dim, p.sign, out);
    return out;
}

std::string Topology::channelName(ChannelId ch) const
{
    return nodeName(channelTail(ch)) + "→" + nodeName(channelHead(ch));
}

std::optional<ChannelId> Topology::channelBetween(NodeId a, NodeId b) const
{
    const int ports = portsPerNode();
    for (int p = 0; p < ports; ++p) {
        const Port port = portAt(p);
        NodeId next;
        if (step(a, port.dim, port.sign, next) && next == b)
            return channel(a, port.dim, port.sign);
    }
    return std::nullopt;
}

bool Topology::isWrapChannel(ChannelId ch) const
{
    if (!isTorus())
        return false;
    const Port port = channelPort(ch);
    const int c = coord(channelTail(ch), port.dim);
    return port.sign > 0 ? c == side(port.dim) - 1 : c == 0;
}

std::vector<NodeId> Topology::neighbours(NodeId node) const
{
    std::vector<NodeId> out;
    forEachNeighbour(node, [&](NodeId n, Port) { out.push_back(n); });
    return out;
}

int Topology::displacement(NodeId a, NodeId b, int dim) const
{
    const int xa = coord(a, dim);
    const int xb = coord(b, dim);
    int delta = xb - xa;
    if (isTorus()) {
        const int side = m_sides[static_cast<std::size_t>(dim)];
        delta = ((delta % side) + side) % side; // 0..side-1, going +
        if (delta > side - delta)
            delta -= side; // shorter the other way; ties stay +
    }
    return delta;
}

int Topology::distance(NodeId nodeA, NodeId nodeB) const
{
    std::uint32_t a = nodeA;
    std::uint32_t b = nodeB;
    if (isHypercube())

        return std::popcount(a ^ b);
    // One division per node and dimension (x fastest: coordinate i is the remainder after the
    // lower dimensions are divided out), instead of coord()'s two per call.
    const bool torus = isTorus();
    int dist = 0;
    for (const int side : m_sides) {
        const auto s = static_cast<std::uint32_t>(side);
        int delta = static_cast<int>(b % s) - static_cast<int>(a % s);
        a /= s;
        b /= s;
        if (torus) {
            delta = delta < 0 ? -delta : delta;
            delta = std::min(delta, side - delta);
        }
        dist += std::abs(delta);
    }
    return dist;
}

std::string Topology::nodeName(NodeId node) const
{
    if (isHypercube()) { // the binary address, highest dimension first, as the picture labels it
        std::string bits;
        for (int k = dims() - 1; k >= 0; --k)
            bits += (node >> k) & 1 ? '1' : '0';
        return bits;
    }
    std::string s = "(";
    for (int i = 0; i < dims(); ++i) {
        if (i)
            s += ",";
        s += std::to_string(coord(node, i));
    }
    return s + ")";
}

NodeId Topology::parseNode(std::string_view text) const
{
    const std::string original(text);
    text = trim(text);
    if (!text.empty() && (text.front() == '(' || text.front() == '[')) {
        text.remove_prefix(1);
        if (!text.empty() && (text.back() == ')' || text.back() == ']'))
            text.remove_suffix(1);
    }
    if (isHypercube() && text.find(',') == std::string_view::npos) {
        long long v = 0;
        bool ok = false;
        // A string of exactly dims() binary digits is an address as nodeName() writes it: no
        // decimal address of a d-cube (d >= 2) has d digits, so "0110" cannot mean 110.
        const bool bare = dims() >= 2 && text.size() == static_cast<std::size_t>(dims()) &&
                          text.find_first_not_of("01") == std::string_view::npos;
        if (bare || (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B'))) {
            v = 0;
            ok = text.size() <= 2 + 24; // longer strings would overflow v
            for (char c : text.substr(bare ? 0 : 2)) {
                if (!ok || (c != '0' && c != '1')) {
                    ok = false;
                    break;
                }
                v = v * 2 + (c - '0');
            }
        } else {
            ok = parseInt(text, v);
        }
        if (!ok) {
            const std::string example = nodeName(NodeId{static_cast<std::uint32_t>(0x55555555u & (m_nodeCount - 1))});
            throw Error("node '" + original + "' is not a hypercube address; expected 0.." +
                        std::to_string(m_nodeCount - 1) + " or " + std::to_string(dims()) + " binary digits like " +
                        example + " (or 0b" + example + ")");
        }
        if (v < 0 || v >= static_cast<long long>(m_nodeCount))
            throw Error("node " + original + " is outside the " + displayName() + " (0.." +
                        std::to_string(m_nodeCount - 1) + ")");
        return static_cast<NodeId>(v);
    }
    Coord c;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find(',', start);
        const std::string_view part =
            text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        long long v = 0;
        if (!parseInt(part, v) || v < -(1LL << 30) || v > (1LL << 30))
            throw Error("node '" + original + "': '" + std::string(trim(part)) + "' is not a whole number; expected " +
                        std::to_string(dims()) + " comma-separated coordinates like " +
                        nodeName(NodeId{0}).substr(1, nodeName(NodeId{0}).size() - 2));
        c.push_back(static_cast<int>(v));
        if (c.size() > 64)
            break;
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return id(c);
}

} // namespace topocast
