#include "scene/levelofdetail.h"

#include <catch2/catch.hpp>

using namespace topocast::app;

TEST_CASE("level of detail: pixels per unit, sphere detail and lines by size on screen", "[app][lod]")
{
    // 720 px high, 40° field of view, 10 units away: the view is 2·10·tan 20° = 7.279 units high.
    CHECK(pixelsPerUnit(720.0f, 10.0f, 40.0f) == Approx(720.0 / 7.2794).epsilon(1e-4));
    // A node of radius 0.16 at 98.9 px/unit is 15.8 px: full detail on a small network...
    CHECK(sphereDetail(0.16f * 98.9f, 64) == 2);
    // ... but never more than the node count allows (512+ nodes: 1, 4096+: 0).
    CHECK(sphereDetail(15.8f, 4096) == 1);
    CHECK(sphereDetail(15.8f, 32768) == 0);
    CHECK(sphereDetail(9.9f, 64) == 1);
    CHECK(sphereDetail(3.9f, 64) == 0);
    CHECK(sphereDetail(4.0f, 64) == 1);
    CHECK(sphereDetail(10.0f, 64) == 2);
    // Links: a prism of 1 px radius or more; thinner ones (they would break into dashes without
    // multisampling) and networks above 60000 channels as lines.
    CHECK_FALSE(linkAsLine(1.0f, 100));
    CHECK(linkAsLine(0.99f, 100));
    CHECK(linkAsLine(5.0f, kLineChannels + 1));
    CHECK_FALSE(linkAsLine(5.0f, kLineChannels));
}

TEST_CASE("level of detail: nodes as sphere impostors where the mesh would be the 16-triangle one", "[app][lod]")
{
    // 32×32×32 (32,768 nodes) at any size up to kMaxImpostorRadius; small nodes of any network.
    CHECK(nodeImpostors(1.0f, 32768));
    CHECK(nodeImpostors(kMaxImpostorRadius, 32768));
    CHECK_FALSE(nodeImpostors(kMaxImpostorRadius + 0.1f, 32768)); // a point sprite that big may be capped
    CHECK(nodeImpostors(3.9f, 64));
    CHECK_FALSE(nodeImpostors(4.0f, 64)); // detail 1: a real mesh
    CHECK_FALSE(nodeImpostors(15.8f, 4096));
    // The disc covers what the 4-slice, 3-ring sphere it replaces covers: ~1.7 r² (π·0.75² = 1.77).
    CHECK(3.14159f * kImpostorRadiusScale * kImpostorRadiusScale == Approx(1.7).margin(0.1));
}
