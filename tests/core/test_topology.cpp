#include "topocast/model/error.h"
#include "topocast/model/graph.h"
#include "topocast/model/topology.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <set>
#include <string>

using namespace topocast;

TEST_CASE("topology strings parse into meshes, tori and hypercubes", "[topology]")
{
    const Topology m = Topology::parse("mesh:8x8");
    CHECK(m.isMesh());
    CHECK(m.dims() == 2);
    CHECK(m.nodeCount() == 64);
    CHECK(m.spec() == "mesh:8x8");
    CHECK(m.displayName() == "8×8 mesh");

    CHECK(Topology::parse("mesh:4x4x4").nodeCount() == 64);
    CHECK(Topology::parse("mesh:4×3").sides() == std::vector<int>{4, 3});
    CHECK(Topology::parse(" MESH:2X3X4 ").sides() == std::vector<int>{2, 3, 4});
    CHECK(Topology::parse("torus:7x7").isTorus());
    const Topology h = Topology::parse("hypercube:6");
    CHECK(h.isHypercube());
    CHECK(h.nodeCount() == 64);
    CHECK(h.dims() == 6);
    CHECK(Topology::parse("cube:3") == Topology::hypercube(3));
    for (const char* s : {"mesh:8x8", "mesh:1", "torus:3x4x5", "hypercube:24", "mesh:2x2x2x2x2x2"})
        CHECK(Topology::parse(Topology::parse(s).spec()).spec() == s);
}

TEST_CASE("bad topology strings are refused with a message naming the problem", "[topology][bad-input]")
{
    auto message = [](const char* text) {
        try {
            Topology::parse(text);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message("mesh"), Catch::Contains("has no kind"));
    CHECK_THAT(message("ring:8"), Catch::Contains("unknown topology kind 'ring'"));
    CHECK_THAT(message("mesh:8xa"), Catch::Contains("'a'") && Catch::Contains("not a whole number"));
    CHECK_THAT(message("mesh:0x4"), Catch::Contains("out of range"));
    CHECK_THAT(message("mesh:-3x4"), Catch::Contains("out of range"));
    CHECK_THAT(message("mesh:8x"), Catch::Contains("not a whole number"));
    CHECK_THAT(message("mesh:2x2x2x2x2x2x2"), Catch::Contains("more than 6 dimensions"));
    CHECK_THAT(message("mesh:5000x5000"), Catch::Contains("2^24"));
    CHECK_THAT(message("mesh:99999999999999999999x2"), Catch::Contains("not a whole number"));
    CHECK_THAT(message("torus:2x5"), Catch::Contains("at least 3"));
    CHECK_THAT(message("hypercube:0"), Catch::Contains("1 to 24"));
    CHECK_THAT(message("hypercube:25"), Catch::Contains("1 to 24"));
    CHECK_THAT(message("hypercube:x"), Catch::Contains("not a whole number"));
}

TEST_CASE("node ids are x-fastest and coordinates round-trip", "[topology]")
{
    const Topology t = Topology::mesh({4, 3, 2});
    CHECK(t.id({1, 2, 1}) == 1 + 4 * 2 + 12 * 1);
    for (NodeId v{}; v < t.nodeCount(); ++v)
        CHECK(t.id(t.coords(v)) == v);
    CHECK(t.nodeName(t.id({1, 2, 1})) == "(1,2,1)");
    CHECK(t.parseNode("1,2,1") == t.id({1, 2, 1}));
    CHECK(t.parseNode("(1, 2, 1)") == t.id({1, 2, 1}));
    CHECK_THROWS_WITH(t.parseNode("1,2"), Catch::Contains("has 3 coordinates; got 2"));
    CHECK_THROWS_WITH(t.parseNode("4,0,0"), Catch::Contains("outside the 4×3×2 mesh (0..3)"));
    CHECK_THROWS_WITH(t.parseNode("a,0,0"), Catch::Contains("not a whole number"));
    const Topology h = Topology::hypercube(4);
    CHECK(h.parseNode("5") == 5);
    CHECK(h.parseNode("0b0101") == 5);
    // One notation: a hypercube node is named by its binary address, as the picture labels it,
    // and that name reads back; exactly dims() binary digits are an address, never a decimal.
    CHECK(h.nodeName(NodeId{5}) == "0101");
    CHECK(h.nodeName(NodeId{0}) == "0000");
    CHECK(h.parseNode("0101") == 5);
    CHECK(h.parseNode("0010") == 2);
    CHECK(h.parseNode("10") == 10); // two digits in a 4-cube: the decimal address
    for (const NodeId v : nodes(h))
        CHECK(h.parseNode(h.nodeName(v)) == v);
    CHECK(Topology::hypercube(1).nodeName(NodeId{1}) == "1");
    CHECK_THROWS_WITH(h.parseNode("16"), Catch::Contains("outside the 4-cube (0..15)"));
}

TEST_CASE("neighbours and channels of meshes, tori and hypercubes", "[topology]")
{
    const Topology mesh = Topology::mesh({4, 4});
    CHECK(mesh.neighbours(mesh.id({0, 0})).size() == 2);
    CHECK(mesh.neighbours(mesh.id({1, 0})).size() == 3);
    CHECK(mesh.neighbours(mesh.id({1, 1})).size() == 4);
    CHECK(mesh.channelCount() == 2 * (3 * 4 + 3 * 4)); // 24 links

    const Topology torus = Topology::torus({5, 3});
    CHECK(torus.channelCount() == 2 * (5 * 3 + 3 * 5));
    for (NodeId v{}; v < torus.nodeCount(); ++v)
        CHECK(torus.neighbours(v).size() == 4);
    NodeId next{};
    REQUIRE(torus.step(torus.id({4, 0}), 0, +1, next));
    CHECK(next == torus.id({0, 0}));

    const Topology cube = Topology::hypercube(5);
    CHECK(cube.channelCount() == 5 * 32);
    REQUIRE(cube.step(NodeId{0b10110}, 3, -1, next));
    CHECK(next == 0b11110);

    // Every channel's head is a neighbour of its tail; channel ids round-trip.
    for (const Topology& t : {mesh, torus, cube}) {
        std::uint64_t real = 0;
        for (NodeId v{}; v < t.nodeCount(); ++v)
            t.forEachNeighbour(v, [&](NodeId w, Port p) {
                const ChannelId c = t.channel(v, p.dim, p.sign);
                CHECK(t.channelTail(c) == v);
                CHECK(t.channelHead(c) == w);
                CHECK(t.channelPort(c) == p);
                ++real;
            });
        CHECK(real == t.channelCount());
    }
    CHECK(mesh.channelName(mesh.channel(mesh.id({1, 0}), 0, +1)) == "(1,0)→(2,0)");
}

TEST_CASE("channelBetween: the one directed channel between neighbours, none otherwise", "[topology][channels]")
{
    const auto spec = GENERATE(as<std::string>{}, "mesh:4x4", "mesh:3x2x2", "mesh:5", "torus:3x3", "torus:4x4",
                               "torus:3x4x3", "torus:4", "hypercube:3");
    const Topology t = Topology::parse(spec);
    INFO(spec);
    std::uint64_t found = 0;
    for (NodeId a{}; a < t.nodeCount(); ++a)
        for (NodeId b{}; b < t.nodeCount(); ++b) {
            const auto ch = t.channelBetween(a, b);
            CHECK(ch.has_value() == (t.distance(a, b) == 1));
            if (!ch)
                continue;
            ++found;
            CHECK(t.channelTail(*ch) == a);
            CHECK(t.channelHead(*ch) == b);
        }
    CHECK(found == t.channelCount()); // every directed channel, each once
}

TEST_CASE("channelBetween on rings of 3 and 4: the wrap channel is the one hop", "[topology][channels]")
{
    const Topology ring3 = Topology::torus({3});
    // 2 → 0 is one hop + (the wrap), not two hops −; 0 → 2 is one hop − (the wrap).
    CHECK(ring3.channelBetween(NodeId{2}, NodeId{0}) == ring3.channel(NodeId{2}, 0, +1));
    CHECK(ring3.channelBetween(NodeId{0}, NodeId{2}) == ring3.channel(NodeId{0}, 0, -1));
    CHECK(ring3.channelBetween(NodeId{0}, NodeId{1}) == ring3.channel(NodeId{0}, 0, +1));
    CHECK(ring3.channelBetween(NodeId{1}, NodeId{0}) == ring3.channel(NodeId{1}, 0, -1));
    CHECK_FALSE(ring3.channelBetween(NodeId{1}, NodeId{1}));
    const Topology ring4 = Topology::torus({4});
    CHECK(ring4.channelBetween(NodeId{3}, NodeId{0}) == ring4.channel(NodeId{3}, 0, +1));
    CHECK(ring4.channelBetween(NodeId{0}, NodeId{3}) == ring4.channel(NodeId{0}, 0, -1));
    CHECK_FALSE(ring4.channelBetween(NodeId{0}, NodeId{2}));
    const Topology line = Topology::mesh({4});
    CHECK_FALSE(line.channelBetween(NodeId{3}, NodeId{0}));
    CHECK_FALSE(line.channelBetween(NodeId{0}, NodeId{3}));
}

TEST_CASE("wrap channels: exactly the torus channels that leave side−1 going + or 0 going −", "[topology][channels]")
{
    GIVEN("tori of side 3 and 4 and a mixed 3x4x5 torus")
    {
        for (const char* spec : {"torus:3x3", "torus:4x4", "torus:4x4x4", "torus:3x4x5"}) {
            const Topology t = Topology::parse(spec);
            INFO(spec);
            std::uint64_t wraps = 0;
            for (NodeId v{}; v < t.nodeCount(); ++v)
                t.forEachNeighbour(v, [&](NodeId w, Port p) {
                    const ChannelId ch = t.channel(v, p.dim, p.sign);
                    // A wrap channel is the one whose hop changes the coordinate by side−1.
                    const int jump = std::abs(t.coord(w, p.dim) - t.coord(v, p.dim));
                    CHECK(t.isWrapChannel(ch) == (jump == t.side(p.dim) - 1));
                    wraps += t.isWrapChannel(ch) ? 1 : 0;
                });
            // Two directed wrap channels per ring: 2 · Σ_dims (nodes / side).
            std::uint64_t rings = 0;
            for (int d = 0; d < t.dims(); ++d)
                rings += t.nodeCount() / static_cast<std::uint32_t>(t.side(d));
            THEN("each ring has one wrap link, two directed channels")
            {
                CHECK(wraps == 2 * rings);
            }
        }
    }
    GIVEN("the ring of 3")
    {
        const Topology ring3 = Topology::torus({3});
        THEN("2→0 (+) and 0→2 (−) wrap; the others do not")
        {
            CHECK(ring3.isWrapChannel(ring3.channel(NodeId{2}, 0, +1)));
            CHECK(ring3.isWrapChannel(ring3.channel(NodeId{0}, 0, -1)));
            CHECK_FALSE(ring3.isWrapChannel(ring3.channel(NodeId{0}, 0, +1)));
            CHECK_FALSE(ring3.isWrapChannel(ring3.channel(NodeId{1}, 0, +1)));
            CHECK_FALSE(ring3.isWrapChannel(ring3.channel(NodeId{1}, 0, -1)));
            CHECK_FALSE(ring3.isWrapChannel(ring3.channel(NodeId{2}, 0, -1)));
        }
    }
    GIVEN("meshes and hypercubes")
    {
        for (const char* spec : {"mesh:4x4", "mesh:3x3x3", "hypercube:4"}) {
            const Topology t = Topology::parse(spec);
            bool any = false;
            for (NodeId v{}; v < t.nodeCount(); ++v)
                t.forEachNeighbour(v,
                                   [&](NodeId, Port p) { any = any || t.isWrapChannel(t.channel(v, p.dim, p.sign)); });
            THEN("no channel wraps")
            {
                CHECK_FALSE(any);
            }
        }
    }
}

TEST_CASE("distances agree with Boost.Graph shortest paths", "[topology][graph]")
{
    for (const char* spec : {"mesh:4x4", "mesh:3x4x2", "torus:5x5", "torus:3x4x5", "hypercube:5", "mesh:7"}) {
        const Topology t = Topology::parse(spec);
        INFO(spec);
        for (NodeId s : {NodeId{0}, NodeId{t.nodeCount() / 2}, NodeId{t.nodeCount() - 1}}) {
            const auto bfs = bfsLevels(t, s);
            const auto dij = dijkstraDistances(t, s);
            for (NodeId v{}; v < t.nodeCount(); ++v) {
                CHECK(bfs[v] == static_cast<std::uint32_t>(t.distance(s, v)));
                CHECK(dij[v] == bfs[v]);
            }
        }
        CHECK(connectedComponentCount(t) == 1);
    }
    // Hand values: torus wrap-around and Hamming distance.
    const Topology torus = Topology::torus({7, 7});
    CHECK(torus.distance(torus.id({0, 0}), torus.id({6, 4})) == 1 + 3);
    CHECK(torus.displacement(torus.id({0, 0}), torus.id({6, 0}), 0) == -1);
    const Topology even = Topology::torus({4, 4});
    CHECK(even.displacement(even.id({0, 0}), even.id({2, 0}), 0) == 2); // tie: + direction
    CHECK(Topology::hypercube(6).distance(NodeId{0b101010}, NodeId{0b010101}) == 6);
}

TEST_CASE("BFS tree from Boost.Graph is a shortest-path tree", "[graph]")
{
    const Topology t = Topology::mesh({5, 4, 3});
    std::vector<std::uint32_t> level;
    const auto parent = bfsTree(t, t.id({2, 1, 1}), &level);
    for (NodeId v{}; v < t.nodeCount(); ++v) {
        if (v == t.id({2, 1, 1})) {
            CHECK(parent[v] == v);
            continue;
        }
        CHECK(t.distance(parent[v], v) == 1);
        CHECK(level[v] == level[parent[v]] + 1);
    }
}
