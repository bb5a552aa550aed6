#include "topocast/model/routing.h"

#include "topocast/model/error.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace topocast {

DimensionOrder defaultOrder(int dims)
{
    DimensionOrder o(static_cast<std::size_t>(dims));
    std::iota(o.begin(), o.end(), 0);
    return o;
}

static const char kLetters[] = "xyzwvu";

DimensionOrder parseOrder(std::string_view text, int dims)
{
    DimensionOrder order;
    const std::string original(text);
    if (text.find(',') != std::string_view::npos ||
        (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0])))) {
        std::size_t start = 0;
        while (start <= text.size()) {
            const auto end = text.find(',', start);
            const auto part = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
            int v = -1;
            if (part.size() == 1 && std::isdigit(static_cast<unsigned char>(part[0])))
                v = part[0] - '0';
            else if (part.size() == 2 && std::isdigit(static_cast<unsigned char>(part[0])) &&
                     std::isdigit(static_cast<unsigned char>(part[1])))
                v = (part[0] - '0') * 10 + (part[1] - '0');
            order.push_back(v);
            if (end == std::string_view::npos || order.size() > 64)
                break;
            start = end + 1;
        }
    } else {
        for (char c : text) {
            const char* p = std::strchr(kLetters, std::tolower(static_cast<unsigned char>(c)));
            order.push_back(p && *p ? static_cast<int>(p - kLetters) : -1);
        }
    }
    DimensionOrder sorted = order;
    std::sort(sorted.begin(), sorted.end());
    if (static_cast<int>(order.size()) != dims || sorted != defaultOrder(dims)) {
        std::string example;
        for (int i = 0; i < dims && i < 6; ++i)
            example += static_cast<char>(kLetters[i]);
        throw Error("dimension order '" + original + "' is not a permutation of the " + std::to_string(dims) +
                    " dimensions; write it like '" + example + "' or '0,1,…'");
    }
    return order;
}

std::string orderName(const DimensionOrder& order)
{
    std::string s;
    if (order.size() <= 6) {
        for (int d : order)
            s += static_cast<char>(std::toupper(static_cast<unsigned char>(kLetters[d])));
        return s;
    }
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i)
            s += ",";
        s += std::to_string(order[i]);
    }
    return s;
}

std::vector<DimensionOrder> allOrders(int dims)
{
    if (dims < 1 || dims > 6)
        throw Error("allOrders: " + std::to_string(dims) + " dimensions; only 1 to 6 are enumerated");
    std::vector<DimensionOrder> out;
    DimensionOrder o = defaultOrder(dims);
    do
        out.push_back(o);
    while (std::next_permutation(o.begin(), o.end()));
    return out;
}

namespace detail {

void routeLeg(const Topology& topo, NodeId cur, NodeId to, int dim, RouteSpec spec, int& count, int& sign)
{
    if (topo.isHypercube()) {
        count = ((cur ^ to) >> dim) & 1u;
        sign = +1;
        return;
    }
    const int a = topo.coord(cur, dim);
    const int b = topo.coord(to, dim);
    if (a == b) {
        count = 0;
        sign = +1;
        return;
    }
    if (spec.kind == RouteKind::Cyclic) {
        sign = spec.sign < 0 ? -1 : +1;
        const int n = topo.side(dim);
        if (topo.isTorus())
            count = sign > 0 ? ((b - a) % n + n) % n : ((a - b) % n + n) % n;
        else
            count = (sign > 0) == (b > a) ? std::abs(b - a) : n; // n hops cannot exist on a mesh: caller throws
        return;
    }
    // Topology::displacement from the coordinates already read (it would read them again).
    int delta = b - a;
    if (topo.isTorus()) {
        const int side = topo.side(dim);
        delta = ((delta % side) + side) % side; // 0..side-1, going +
        if (delta > side - delta)
            delta -= side; // shorter the other way; ties stay +
    }
    sign = delta < 0 ? -1 : +1;
    count = std::abs(delta);
}

void throwBadCyclicRoute(const Topology& topo, NodeId from, NodeId to, RouteSpec spec)
{
    throw Error("route " + topo.nodeName(from) + "→" + topo.nodeName(to) + " starting in dimension " +
                std::to_string(spec.start) + " with sign " + (spec.sign < 0 ? "−" : "+") + " would leave the " +
                topo.displayName() + " (cyclic single-direction routes need a torus)");
}

} // namespace detail

std::vector<ChannelId> expandRoute(const Topology& topo, NodeId from, NodeId to, RouteSpec spec,
                                   const DimensionOrder& order)
{
    std::vector<ChannelId> out;
    forEachChannel(topo, from, to, spec, order, [&](ChannelId c) { out.push_back(c); });
    return out;
}

int routeLength(const Topology& topo, NodeId from, NodeId to, RouteSpec spec, const DimensionOrder& order)
{
    if (spec.kind == RouteKind::DimensionOrder || topo.isHypercube())
        return topo.distance(from, to);
    (void)order;
    int total = 0;
    for (int dim = 0; dim < topo.dims(); ++dim) {
        int count = 0;
        int sign = +1;
        detail::routeLeg(topo, from, to, dim, spec, count, sign);
        total += count;
    }
    return total;
}

std::vector<NodeId> routeNodes(const Topology& topo, NodeId from, NodeId to, RouteSpec spec,
                               const DimensionOrder& order)
{
    std::vector<NodeId> out{from};
    forEachChannel(topo, from, to, spec, order, [&](ChannelId c) { out.push_back(topo.channelHead(c)); });
    return out;
}

} // namespace topocast
