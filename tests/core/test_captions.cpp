// Captions of an exported animation: one cue per step on the export's frame
// clock (animationFrames), and the WebVTT text.
#include "topocast/io/captions.h"
#include "topocast/io/export.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

using namespace topocast;

TEST_CASE("caption cues follow the frame clock: k frames a step, the last step keeps the hold", "[captions]")
{
    // 4 steps, 15 frames a step, 30 hold frames: (4·15) + 1 + 30 = 91 frames (animationFrames).
    const std::vector<FrameTime> frames = animationFrames(4, 1, 4, 15, 30);
    REQUIRE(frames.size() == 91);
    const std::vector<CaptionCue> cues = captionCues(frames);
    REQUIRE(cues.size() == 4);
    for (std::uint32_t s = 1; s <= 4; ++s) {
        const CaptionCue& c = cues[s - 1];
        CHECK(c.step == s);
        CHECK(c.firstFrame == (s - 1) * 15);
        CHECK(c.endFrame == (s == 4 ? 91 : s * 15));
        // Every frame of the cue shows its step, and the frame before it does not.
        for (std::size_t f = c.firstFrame; f < c.endFrame; ++f)
            CHECK(frames[f].step == s);
    }
    // A sub-range: steps 2..3, 2 frames a step, no hold: 2·2 + 1 = 5 frames.
    const auto sub = captionCues(animationFrames(4, 2, 3, 2, 0));
    CHECK(sub == std::vector<CaptionCue>{{2, 0, 2, {}}, {3, 2, 5, {}}});
    CHECK(captionCues({}).empty());
}

TEST_CASE("WebVTT: timestamps are frame / fps to the millisecond, texts escaped", "[captions]")
{
    CHECK(vttTimestamp(0, 30) == "00:00:00.000");
    CHECK(vttTimestamp(15, 30) == "00:00:00.500");
    CHECK(vttTimestamp(1, 30) == "00:00:00.033"); // 33.3 ms
    CHECK(vttTimestamp(2, 30) == "00:00:00.067"); // 66.7 ms rounds up
    CHECK(vttTimestamp(91, 30) == "00:00:03.033");
    CHECK(vttTimestamp(30 * 3723, 30) == "01:02:03.000");
    CHECK_THROWS_AS(vttTimestamp(1, 0), Error);

    const std::vector<CaptionCue> cues{{1, 0, 15, "Step 1: (0,0) sends to (2,0), 2 hops — TCD so far 2"},
                                       {2, 15, 31, "a <b> & c --> d\n\nsecond line\n"}};
    CHECK(webVtt(cues, 30) ==
          "WEBVTT\n"
          "\n1\n00:00:00.000 --> 00:00:00.500\nStep 1: (0,0) sends to (2,0), 2 hops — TCD so far 2\n"
          "\n2\n00:00:00.500 --> 00:00:01.033\na &lt;b&gt; &amp; c --&gt; d\nsecond line\n");
    CHECK_THROWS_WITH(webVtt(std::vector<CaptionCue>{{1, 5, 4, "x"}}, 30), Catch::Contains("before it starts"));
    CHECK(captionsPathFor("out/anim.mp4") == "out/anim.vtt");
    CHECK(captionsPathFor("anim") == "anim.vtt");
}
