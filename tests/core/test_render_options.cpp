// `topocast-cli render`'s options without Qt (cli/render_options.h): the defaults, the
// format from --format or the extension, and every bad value with the message topocast-cli prints
// (the app's tests/app/test_export.cpp runs the same through the real command).
#include "render_options.h"

#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace topocast;
using namespace topocast::cli;

namespace {

std::vector<std::string> withRequired(std::vector<std::string> extra, const std::string& out = "anim.mp4")
{
    std::vector<std::string> args{"--scenario", "s.json", "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

/// The message parseRenderOptions throws (CLI11's or ours), or "" when it accepts the arguments.
std::string refusal(const std::vector<std::string>& args)
{
    try {
        (void)parseRenderOptions(args);
    } catch (const CLI::ParseError& e) {
        return e.what();
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST_CASE("render options: defaults, and every option read into RenderOptions", "[cli][render]")
{
    const RenderOptions d = parseRenderOptions(withRequired({}));
    CHECK(d.scenario == "s.json");
    CHECK(d.out == "anim.mp4");
    CHECK(d.videoFormat == RenderFormat::Mp4);
    CHECK(d.width == 1280);
    CHECK(d.height == 720);
    CHECK(d.fps == 30);
    CHECK(d.framesPerStep == -1); // not given: 1.5 s of frames at --fps (the app resolves it)
    CHECK(d.steps == "all");
    CHECK(d.holdFrames == -1);
    CHECK(d.mode.empty()); // the scenario's own
    CHECK(d.cumulativeHeat);
    CHECK(d.zoom == 1.0f);
    CHECK(d.crf == 20);
    CHECK_FALSE(d.highContrast);
    CHECK_FALSE(d.timings);

    const RenderOptions o = parseRenderOptions(withRequired({"--width",
                                                             "480",
                                                             "--height",
                                                             "320",
                                                             "--fps",
                                                             "12",
                                                             "-k",
                                                             "8",
                                                             "--hold-frames",
                                                             "0",
                                                             "--steps",
                                                             "2-3",
                                                             "--mode",
                                                             "Heatmap",
                                                             "--heat",
                                                             "step",
                                                             "--high-contrast",
                                                             "--yaw",
                                                             "30",
                                                             "--pitch",
                                                             "-12.5",
                                                             "--zoom",
                                                             "1.3",
                                                             "--crf",
                                                             "0",
                                                             "--timings"},
                                                            "anim.gif"));
    CHECK(o.videoFormat == RenderFormat::Gif);
    CHECK(o.width == 480);
    CHECK(o.height == 320);
    CHECK(o.fps == 12);
    CHECK(o.framesPerStep == 8);
    CHECK(o.holdFrames == 0);
    CHECK(o.steps == "2-3");
    CHECK(o.mode == "Heatmap"); // kept as given; the app matches view modes in any case
    CHECK_FALSE(o.cumulativeHeat);
    CHECK(o.highContrast);
    CHECK(o.yaw == 30.0f);
    CHECK(o.pitch == -12.5f);
    CHECK(o.zoom == 1.3f);
    CHECK(o.crf == 0);
    CHECK(o.timings);
    CHECK(renderStepRange(o, 4) == std::pair<std::uint32_t, std::uint32_t>{2, 3});
}

TEST_CASE("render options: the format from --format, else from --out's extension", "[cli][render]")
{
    const std::vector<std::pair<std::vector<std::string>, RenderFormat>> cases = {
        {{"--out", "a/anim.MP4"}, RenderFormat::Mp4},
        {{"--out", "anim.gif"}, RenderFormat::Gif},
        {{"--out", "frames/"}, RenderFormat::PngSequence},
        {{"--out", "frames"}, RenderFormat::PngSequence},
        {{"--out", "anim.webm"}, RenderFormat::PngSequence},
        {{"--out", "anim.mp4", "--format", "png"}, RenderFormat::PngSequence},
        {{"--out", "x", "--format", "frames"}, RenderFormat::PngSequence},
        {{"--out", "x", "--format", "gif"}, RenderFormat::Gif},
        {{"--out", "x", "--format", "mp4"}, RenderFormat::Mp4},
    };
    for (const auto& [extra, format] : cases) {
        std::vector<std::string> args{"--scenario", "s.json"};
        args.insert(args.end(), extra.begin(), extra.end());
        INFO(extra[1]);
        CHECK(parseRenderOptions(args).videoFormat == format);
    }
}

TEST_CASE("render options: bad values name the problem and what is allowed", "[cli][render]")
{
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {withRequired({"--mode", "sparkly"}),
         "--mode sparkly is not one of plain, contention, heatmap, source-map, layers, trees, data"},
        {withRequired({"--format", "avi"}),
         "unknown video format 'avi'; use mp4, gif or png (a numbered PNG sequence)"},
        {withRequired({"--heat", "both"}), "--heat both is not cumulative or step"},
        {withRequired({"--zoom", "0"}), "--zoom 0.000 is out of range 0.01..100"},
        {withRequired({"--zoom", "100"}), "--zoom 100.000 is out of range 0.01..100"},
        {withRequired({"--zoom", "nan"}), "is out of range 0.01..100"},
        {withRequired({"--width", "201", "--height", "150"}), "an MP4 needs an even width and height; got 201×150"},
        {withRequired({"--width", "9000"}), "--width: Value 9000 not in range 16 to 8192"},
        {withRequired({"--height", "15"}), "--height: Value 15 not in range 16 to 8192"},
        {withRequired({"--fps", "0"}), "--fps: Value 0 not in range 1 to 240"},
        {withRequired({"--frames-per-step", "1001"}), "--frames-per-step: Value 1001 not in range 1 to 1000"},
        {withRequired({"--hold-frames", "-1"}), "--hold-frames: Value -1 not in range 0 to 100000"},
        {withRequired({"--crf", "52"}), "--crf: Value 52 not in range 0 to 51"},
        {withRequired({"--width", "wide"}), "--width"},
        {withRequired({"--colour", "red"}), "The following arguments were not expected: red --colour"},
        {{"--out", "anim.mp4"}, "--scenario is required"},
        {{"--scenario", "s.json"}, "--out is required"},
    };
    for (const auto& [args, message] : cases) {
        INFO(args[args.size() - 2] << " " << args.back());
        CHECK_THAT(refusal(args), Catch::Contains(message));
    }
    // What does pass: odd sizes outside MP4, the edges of every range, view modes in any case.
    for (const auto& args : {withRequired({"--width", "201"}, "anim.gif"), withRequired({"--height", "17"}, "frames/"),
                             withRequired({"--width", "16", "--height", "8192", "--fps", "240", "-k", "1", "--crf",
                                           "51", "--hold-frames", "100000", "--zoom", "99.9"}),
                             withRequired({"--mode", "TREES"}), withRequired({"--mode", "tcdmap", "--heat", "step"})}) {
        INFO(args.back());
        CHECK(refusal(args).empty());
    }
    CHECK_THROWS_AS(parseRenderOptions({"--help"}), CLI::CallForHelp);
}

TEST_CASE("render options: --steps against the schedule's step count", "[cli][render]")
{
    auto range = [](const std::string& steps, std::uint32_t count) {
        return renderStepRange(parseRenderOptions(withRequired({"--steps", steps})), count);
    };
    CHECK(range("all", 7) == std::pair<std::uint32_t, std::uint32_t>{1, 7});
    CHECK(range("3", 7) == std::pair<std::uint32_t, std::uint32_t>{3, 3});
    CHECK(range("4-", 7) == std::pair<std::uint32_t, std::uint32_t>{4, 7});
    CHECK_THROWS_WITH(range("3-9", 4), "step range '3-9' is not all, N, A-B or A- within 1..4");
    CHECK_THROWS_WITH(range("1-2-3", 4), Catch::Contains("'1-2-3'"));
    // --steps is checked only against a schedule: parsing alone accepts any text.
    CHECK(parseRenderOptions(withRequired({"--steps", "x"})).steps == "x");
}

TEST_CASE("render options: --captions on (default) or off", "[cli][render][captions]")
{
    CHECK(parseRenderOptions(withRequired({})).captionsOn);
    CHECK(parseRenderOptions(withRequired({"--captions", "on"})).captionsOn);
    CHECK_FALSE(parseRenderOptions(withRequired({"--captions", "off"})).captionsOn);
    CHECK(parseRenderOptions(withRequired({"--captions", "burn"})).captions == "burn");
    CHECK_FALSE(parseRenderOptions(withRequired({"--captions", "burn"})).captionsOn); // in the picture instead
    const std::string msg = refusal(withRequired({"--captions", "maybe"}));
    CHECK(msg.find("--captions") != std::string::npos);
    CHECK(msg.find("maybe") != std::string::npos);
    CHECK(parseRenderOptions(withRequired({})).overlay == "auto");
    CHECK(parseRenderOptions(withRequired({"--overlay", "off"})).overlay == "off");
    const std::string overlay = refusal(withRequired({"--overlay", "sometimes"}));
    CHECK(overlay.find("--overlay") != std::string::npos);
    CHECK(overlay.find("sometimes") != std::string::npos);
}
