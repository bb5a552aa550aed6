#include "render_options.h"

#include "topocast/drawing/colour.h"
#include "topocast/io/export.h"
#include "topocast/model/error.h"
#include "topocast/text/numbers.h"

#include <algorithm>
#include <filesystem>

namespace topocast::cli {

const std::vector<std::string>& renderModeNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        for (const colour::ColourMode& m : colour::kColourModes)
            list.emplace_back(m.name);
        return list;
    }();
    return names;
}

std::string chosenModeName(const std::string& flag, const Scenario& scenario)
{
    const std::string name = flag.empty() ? scenarioViewMode(scenario) : flag;
    if (!colour::colourModeIndex(name)) {
        std::string allowed;
        for (const std::string& m : renderModeNames())
            allowed += (allowed.empty() ? "" : ", ") + m;
        throw Error("--mode " + name + " is not one of " + allowed);
    }
    return name;
}

void addScenarioToFileOptions(CLI::App& sub, std::string& scenario, std::string& out, const std::string& outHelp)
{
    sub.add_option("--scenario", scenario, "scenario JSON (resources/scenarios/*.json, or File ▸ Save in the app)")
        ->required();
    sub.add_option("--out,-o", out, outHelp)->required();
}

void addRenderOptions(CLI::App& sub, RenderOptions& o)
{
    addScenarioToFileOptions(sub, o.scenario, o.out,
                             "anim.mp4 | anim.gif | a folder for frame_00001.png, … (written atomically)");
    sub.add_option("--format", o.format, "mp4 | gif | png (default: from --out's extension; a folder is png)");
    sub.add_option("--width", o.width, "frame width in pixels")->capture_default_str()->check(CLI::Range(16, 8192));
    sub.add_option("--height", o.height, "frame height in pixels")->capture_default_str()->check(CLI::Range(16, 8192));
    sub.add_option("--fps", o.fps, "frames per second")->capture_default_str()->check(CLI::Range(1, 240));
    sub.add_option("--frames-per-step,-k", o.framesPerStep,
                   "frames per schedule step (messages move hop by hop; default: 1.5 s of frames at --fps, 45 at "
                   "30 fps)")
        ->check(CLI::Range(1, 1000));
    sub.add_option("--steps", o.steps, "which steps: all | N | A-B | A-")->capture_default_str();
    sub.add_option("--hold-frames", o.holdFrames, "frames the final state is held (default: two seconds)")
        ->check(CLI::Range(0, 100000));
    std::string modes;
    for (const std::string& m : renderModeNames())
        modes += (modes.empty() ? "view: " : " | ") + m;
    sub.add_option("--mode", o.mode,
                   modes + " (default: the scenario's own, its view.mode; plain where it names none)");
    sub.add_option("--heat", o.heat, "heat map load: cumulative | step")->capture_default_str();
    sub.add_flag("--high-contrast", o.highContrast, "the presentation palette (high contrast)");
    sub.add_option("--yaw", o.yaw, "turn the default view about the vertical axis, degrees")->capture_default_str();
    sub.add_option("--pitch", o.pitch, "tilt the default view, degrees")->capture_default_str();
    sub.add_option("--zoom", o.zoom, "zoom factor over the default view (2 = twice as close)")->capture_default_str();
    sub.add_option("--crf", o.crf, "MP4 (H.264) quality: 0 lossless … 51 worst")
        ->capture_default_str()
        ->check(CLI::Range(0, 51));
    sub.add_option("--captions", o.captions,
                   "one caption per step with its narration: on = MP4: NAME.vtt beside the video and a subtitle "
                   "stream in it | off = none | burn = drawn into every frame (MP4, GIF, PNG), subtitle-style at "
                   "the bottom of the view")
        ->capture_default_str()
        ->check(CLI::IsMember({"on", "off", "burn"}));
    sub.add_option("--overlay", o.overlay,
                   "a title line (step number and narration) above the view and the colour mode's legend "
                   "(swatches, colour bar with numbers) below it, in bands of their own: auto = on for MP4 and "
                   "GIF; off for PNG frames, except a source map's legend | on | off")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "on", "off"}));
    sub.add_flag("--timings", o.timings, "print where the time went (render+read-back, convert, encode)");
}

void validateRenderOptions(RenderOptions& o)
{
    o.videoFormat = o.format.empty() ? videoFormatForPath(o.out) : parseVideoFormat(o.format);
    const auto& modes = renderModeNames();
    if (!o.mode.empty() && !colour::colourModeIndex(o.mode)) {
        std::string allowed;
        for (const std::string& m : modes)
            allowed += (allowed.empty() ? "" : ", ") + m; // the names, in renderModeNames' order
        throw Error("--mode " + o.mode + " is not one of " + allowed);
    }
    if (o.heat != "cumulative" && o.heat != "step")
        throw Error("--heat " + o.heat + " is not cumulative or step");
    o.cumulativeHeat = o.heat == "cumulative";
    o.captionsOn = o.captions == "on";
    if (!(o.zoom > 0.01f && o.zoom < 100.0f))
        throw Error("--zoom " + formatFixed(o.zoom, 3) + " is out of range 0.01..100");
    if (o.videoFormat == RenderFormat::Mp4 && (o.width % 2 != 0 || o.height % 2 != 0))
        throw Error("an MP4 needs an even width and height; got " + std::to_string(o.width) + "×" +
                    std::to_string(o.height));
}

RenderOptions parseRenderOptions(const std::vector<std::string>& args)
{
    RenderOptions o;
    CLI::App app{"topocast-cli render"};
    app.name("render");
    addRenderOptions(app, o);
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 parses a vector back to front
    app.parse(reversed);
    validateRenderOptions(o);
    return o;
}

std::pair<std::uint32_t, std::uint32_t> renderStepRange(const RenderOptions& o, std::uint32_t stepCount)
{
    return parseStepRange(o.steps, stepCount);
}

} // namespace topocast::cli
