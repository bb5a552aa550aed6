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
