#include "topocast/model/error.h"
#include "topocast/model/routing.h"

#include <catch2/catch.hpp>

using namespace topocast;

namespace {
std::vector<std::string> names(const Topology& t, const std::vector<ChannelId>& route)
{
    std::vector<std::string> out;
    for (ChannelId c : route)
        out.push_back(t.channelName(c));
    return out;
}
} // namespace

TEST_CASE("dimension-ordered routes on a mesh follow the order", "[routing]")
{
    const Topology t = Topology::mesh({4, 4});
    const NodeId a = t.id({0, 0}), b = t.id({2, 1});
    CHECK(names(t, expandRoute(t, a, b, {}, parseOrder("xy", 2))) ==
          std::vector<std::string>{"(0,0)→(1,0)", "(1,0)→(2,0)", "(2,0)→(2,1)"});
    CHECK(names(t, expandRoute(t, a, b, {}, parseOrder("yx", 2))) ==
          std::vector<std::string>{"(0,0)→(0,1)", "(0,1)→(1,1)", "(1,1)→(2,1)"});
    CHECK(routeLength(t, a, b, {}, defaultOrder(2)) == 3);
    CHECK(routeNodes(t, b, a, {}, defaultOrder(2)) ==
          std::vector<NodeId>{t.id({2, 1}), t.id({1, 1}), t.id({0, 1}), t.id({0, 0})});
}

TEST_CASE("torus dimension-ordered routes take the shorter way round", "[routing]")
{
    const Topology t = Topology::torus({5, 5});
    const auto r = expandRoute(t, t.id({0, 0}), t.id({4, 3}), {}, defaultOrder(2));
    CHECK(names(t, r) == std::vector<std::string>{"(0,0)→(4,0)", "(4,0)→(4,4)", "(4,4)→(4,3)"});
}

TEST_CASE("cyclic dimension order routes wrap in one direction (docs/papers/torus-allport.md §1.3)", "[routing]")
{
    const Topology t = Topology::torus({5, 5});
    // Start in dimension 1 going +: y first from 3 to 1 wraps (3→4→0→1), then x 0→2.
    const auto r = expandRoute(t, t.id({0, 3}), t.id({2, 1}), RouteSpec::cyclic(1, +1), defaultOrder(2));
    CHECK(names(t, r) ==
          std::vector<std::string>{"(0,3)→(0,4)", "(0,4)→(0,0)", "(0,0)→(0,1)", "(0,1)→(1,1)", "(1,1)→(2,1)"});
    CHECK(routeLength(t, t.id({0, 3}), t.id({2, 1}), RouteSpec::cyclic(1, +1), defaultOrder(2)) == 5);
    // The − direction to a larger coordinate wraps the other way: x 0→2 going − is 0→4→3→2.
    CHECK(routeLength(t, t.id({0, 0}), t.id({2, 0}), RouteSpec::cyclic(0, -1), defaultOrder(2)) == 3);
    // d = 2, n = 25: a + route to a smaller coordinate is long (spec §1.3: 20 hops in step 1).
    const Topology big = Topology::torus({25, 25});
    CHECK(routeLength(big, big.id({5, 0}), big.id({0, 0}), RouteSpec::cyclic(0, +1), defaultOrder(2)) == 20);
}

TEST_CASE("a cyclic route that would leave a mesh is an error", "[routing][bad-input]")
{
    const Topology t = Topology::mesh({4, 4});
    CHECK_THROWS_AS(expandRoute(t, t.id({2, 0}), t.id({1, 0}), RouteSpec::cyclic(0, +1), defaultOrder(2)), Error);
    CHECK(expandRoute(t, t.id({1, 0}), t.id({2, 0}), RouteSpec::cyclic(0, +1), defaultOrder(2)).size() == 1);
}

TEST_CASE("hypercube routes are e-cube, rotated by the cyclic start", "[routing]")
{
    const Topology t = Topology::hypercube(4);
    CHECK(names(t, expandRoute(t, NodeId{0b0000}, NodeId{0b1011}, {}, defaultOrder(4))) ==
          std::vector<std::string>{"0000→0001", "0001→0011", "0011→1011"});
    CHECK(names(t, expandRoute(t, NodeId{0b0000}, NodeId{0b1011}, RouteSpec::cyclic(2, +1), defaultOrder(4))) ==
          std::vector<std::string>{"0000→1000", "1000→1001", "1001→1011"});
}

TEST_CASE("dimension orders parse and enumerate", "[routing]")
{
    CHECK(parseOrder("zyx", 3) == DimensionOrder{2, 1, 0});
    CHECK(parseOrder("1,0", 2) == DimensionOrder{1, 0});
    CHECK(orderName({1, 0, 2}) == "YXZ");
    CHECK_THROWS_WITH(parseOrder("xx", 2), Catch::Contains("not a permutation"));
    CHECK_THROWS_WITH(parseOrder("xy", 3), Catch::Contains("not a permutation of the 3 dimensions"));
    CHECK(allOrders(3).size() == 6);
    CHECK(allOrders(6).size() == 720);
}
