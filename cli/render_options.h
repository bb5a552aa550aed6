#pragma once

// The options of `topocast-cli render` and every check that needs no Qt: the command
// (app/cli/cmd_render.cpp, built with the app) declares them with addRenderOptions and checks them
// with validateRenderOptions before it loads the scenario or opens a window;
// tests/fuzz/fuzz_render_options.cpp fuzzes the same parser without the app.

#include "topocast/io/video_format.h"
#include "topocast/scenario/scenario.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topocast::cli {

/// What render writes: an MP4 (H.264), an animated GIF, or a folder of numbered PNG frames (core's
/// one list of formats).
using RenderFormat = VideoFormat;

/// render's options as given on the command line, plus what validateRenderOptions resolves.
struct RenderOptions {
    std::string scenario;            ///< --scenario FILE (required)
    std::string out;                 ///< --out PATH (required)
    std::string format;              ///< --format as given; empty: from --out's extension
    int width = 1280;                ///< 16..8192 (even for MP4)
    int height = 720;                ///< 16..8192 (even for MP4)
    int fps = 30;                    ///< 1..240
    int framesPerStep = -1;          ///< 1..1000; −1 (not given): 1.5 s of frames at fps
    std::string steps = "all";       ///< all | N | A-B | A- (checked against the schedule: renderStepRange)
    int holdFrames = -1;             ///< 0..100000; −1 (not given): two seconds, 2·fps frames
    std::string mode;                ///< the view mode as given; empty: the scenario's own (view.mode)
    std::string heat = "cumulative"; ///< cumulative | step
    bool highContrast = false;
    float yaw = 0.0f;             ///< degrees
    float pitch = 0.0f;           ///< degrees
    float zoom = 1.0f;            ///< in (0.01, 100)
    int crf = 20;                 ///< 0..51
    std::string captions = "on";  ///< --captions on | off | burn (on: MP4's NAME.vtt and subtitle stream)
    std::string overlay = "auto"; ///< --overlay auto | on | off (title line and legend strip)
    bool timings = false;

    // Set by validateRenderOptions:
    RenderFormat videoFormat = RenderFormat::Mp4;
    bool cumulativeHeat = true;
    bool captionsOn = true; ///< --captions on
};

/// The view modes --mode accepts, in any letter case: plain, contention, heatmap, source-map, layers
/// and trees (the app's parseViewMode accepts the same names).
const std::vector<std::string>& renderModeNames();

/// The colour mode a command that draws `scenario` uses: `flag` (its --mode) when given, else the
/// scenario's own (scenarioViewMode). Throws Error "--mode X is not one of plain, contention, …"
/// for a name that is no mode's (any letter case; a former name such as tcdmap is one). O(1).
std::string chosenModeName(const std::string& flag, const Scenario& scenario);

/// Declares --scenario FILE and --out PATH, both required, on a command that draws one scenario into
/// one file (render, handout, html); `outHelp` says what PATH is.
void addScenarioToFileOptions(CLI::App& sub, std::string& scenario, std::string& out, const std::string& outHelp);

/// Declares render's options on `sub`, bound to `o`, with the checks CLI11 makes while parsing:
/// --scenario and --out required, --width/--height 16..8192, --fps 1..240, --frames-per-step
/// 1..1000, --hold-frames 0..100000, --crf 0..51, --captions on|off|burn, --overlay auto|on|off (a bad value is a
/// CLI::ParseError such as
/// "--width: Value 9000 not in range 16 to 8192"). `o` must outlive `sub`'s parse.
void addRenderOptions(CLI::App& sub, RenderOptions& o);

/// Checks what CLI11 does not, in this order, and fills o.videoFormat and o.cumulativeHeat:
/// the format (--format mp4, gif, png or frames; else --out's extension: .mp4, .gif, anything
/// else a PNG folder), --mode (renderModeNames, or not given: the scenario's), --heat (cumulative or step), --zoom in
/// (0.01, 100), and an even width and height for MP4. Throws Error with the message
/// topocast-cli prints, e.g. "unknown video format 'avi'; use mp4, gif or png (a numbered PNG
/// sequence)", "--mode sparkly is not one of plain, contention, heatmap, source-map, layers",
/// "an MP4 needs an even width and height; got 201×150". O(1).
void validateRenderOptions(RenderOptions& o);

/// Parses render's arguments (without the word "render") as `topocast-cli render` does, then
/// validates them. Throws CLI::ParseError (CLI::CallForHelp for --help) or Error. O(args).
RenderOptions parseRenderOptions(const std::vector<std::string>& args);

/// The first and last step to render: --steps checked against the schedule's `stepCount`
/// (parseStepRange of topocast/io/export.h). Throws Error, e.g. "step range '3-9' is not all, N,
/// A-B or A- within 1..4". O(--steps length).
std::pair<std::uint32_t, std::uint32_t> renderStepRange(const RenderOptions& o, std::uint32_t stepCount);

} // namespace topocast::cli
