// Captions of an MP4 export: `topocast-cli render` writes anim.vtt beside
// anim.mp4 with one cue per step, timed to the export's frame clock, and the same text as a
// mov_text stream in the MP4; --captions off writes neither.
#include "cli_runner.h"
#include "commands.h"
#include "decode.h"

#include "topocast/io/captions.h"
#include "topocast/io/export.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

using namespace topocast;
using topocast::testing::TempDir;

namespace {

struct VttCue {
    std::string start, end, text;
};

std::vector<VttCue> readVtt(const std::filesystem::path& path, std::string& header)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    header = text.substr(0, text.find('\n'));
    std::vector<VttCue> cues;
    const std::regex cue(R"((\d+)\n(\d\d:\d\d:\d\d\.\d\d\d) --> (\d\d:\d\d:\d\d\.\d\d\d)\n([^\n]+)\n)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), cue); it != std::sregex_iterator(); ++it)
        cues.push_back({(*it)[2], (*it)[3], (*it)[4]});
    return cues;
}

std::vector<std::string> renderArgs(const std::string& out)
{
    return {"render",
            "--scenario",
            std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/cang-wu-4x4.json",
            "--out",
            out,
            "--width",
            "160",
            "--height",
            "120",
            "--fps",
            "10",
            "--frames-per-step",
            "3",
            "--hold-frames",
            "2"};
}

} // namespace

TEST_CASE("captions: the VTT of a rendered scenario has one cue per step, in order, on the frame clock",
          "[app][export][captions][gl]")
{
    TempDir dir;
    const std::string out = (dir.path / "anim.mp4").string();
    const auto r = testing::runCli(renderArgs(out));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto vtt = dir.path / "anim.vtt";
    CHECK_THAT(r.out, Catch::Contains("wrote " + vtt.string() + ": 4 captions"));
    REQUIRE(std::filesystem::exists(vtt));

    // The frame clock: cang-wu-4x4 has 4 steps; 3 frames a step + 1 + 2 hold = 15 frames at 10 fps.
    const auto frames = animationFrames(4, 1, 4, 3, 2);
    REQUIRE(frames.size() == 15);
    std::string header;
    const auto cues = readVtt(vtt, header);
    CHECK(header == "WEBVTT");
    REQUIRE(cues.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
        INFO("cue " << i + 1 << ": " << cues[i].text);
        // Step s shows frames 3(s−1) .. 3s (the last one to the end, frame 15): 0.0, 0.3, 0.6, 0.9 s.
        CHECK(cues[i].start == vttTimestamp(3 * i, 10));
        CHECK(cues[i].end == vttTimestamp(i == 3 ? 15 : 3 * (i + 1), 10));
        CHECK(frames[3 * i].step == i + 1);
        CHECK_THAT(cues[i].text, Catch::StartsWith("Step " + std::to_string(i + 1))); // the narration
    }
    CHECK(cues[3].end == "00:00:01.500");

    // The same text as a subtitle stream in the MP4 (read with libavformat, as ffprobe would).
    const auto track = testing::readSubtitles(out, 10);
    CHECK(track.streams == 2);
    CHECK(track.codec == "mov_text");
    std::vector<std::string> texts;
    for (const auto& p : track.packets)
        if (!p.text.empty())
            texts.push_back(p.text);
    REQUIRE(texts.size() == 4);
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(texts[i] == cues[i].text);
}

TEST_CASE("captions: render --captions off writes no VTT and no subtitle stream", "[app][export][captions][gl]")
{
    TempDir dir;
    const std::string out = (dir.path / "anim.mp4").string();
    auto args = renderArgs(out);
    args.insert(args.end(), {"--captions", "off"});
    const auto r = testing::runCli(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(dir.names() == std::set<std::string>{"anim.mp4"});
    CHECK(testing::readSubtitles(out, 10).streams == 1);
    CHECK(r.out.find("captions") == std::string::npos);
    // A GIF has no captions either.
    const auto gif = testing::runCli(renderArgs((dir.path / "anim.gif").string()));
    REQUIRE(gif.status == 0);
    CHECK_FALSE(std::filesystem::exists(dir.path / "anim.vtt"));
}
