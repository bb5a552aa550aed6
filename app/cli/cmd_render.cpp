// topocast-cli render: the app's 3-D view of a scenario as an MP4, an animated GIF or a numbered
// PNG sequence, rendered frame by frame on a deterministic clock (no window to click; needs
// OpenGL, so a display or xvfb-run).
#include "commands.h"
#include "guiscope.h"

#include "export/animationexport.h"
#include "export/compareexport.h"
#include "session/snapshot.h"
#include "session/startup.h"

#include "topocast/io/captions.h"
#include "topocast/io/export.h"
#include "topocast/io/scenario.h"
#include "topocast/model/error.h"


#include <fmt/format.h>

#include <memory>
#include <optional>
#include <ostream>

namespace topocast::cli {

namespace {

struct RenderCommand {
    std::string scenario;
    std::string out;
    std::string format;
    int width = 1280;
    int height = 720;
    int fps = 30;
    int framesPerStep = -1;  // −1: app::kDefaultSecondsPerStep at --fps
    std::string steps = "all";
    int holdFrames = -1;
    std::string mode = "plain";
    std::string heat = "cumulative";
    bool highContrast = false;
    float yaw = 0.0f;
    float pitch = 0.0f;
    float zoom = 1.0f;
    int crf = 20;
    std::string captions = "on";
    std::string overlay = "auto";
    bool timings = false;
};

int render(const RenderCommand& o, Io& io)
{
    app::AnimationSettings settings;
    settings.output = o.out;
    settings.format = o.format.empty() ? video::VideoEncoder::formatForPath(o.out)
                                       : video::VideoEncoder::parseFormat(o.format);
    settings.view.size = QSize(o.width, o.height);
    const auto mode = app::parseViewMode(QString::fromStdString(o.mode));
    if (!mode)
        throw Error("--mode " + o.mode + " is not one of plain, contention, heatmap, tcdmap, layers");
    settings.view.mode = *mode;
    if (o.heat != "cumulative" && o.heat != "step")
        throw Error("--heat " + o.heat + " is not cumulative or step");
    settings.view.cumulativeHeat = o.heat == "cumulative";
    settings.view.highContrast = o.highContrast;
    settings.view.yaw = o.yaw;
    settings.view.pitch = o.pitch;
    if (!(o.zoom > 0.01f && o.zoom < 100.0f))
        throw Error(fmt::format("--zoom {:.3f} is out of range 0.01..100", o.zoom));
    settings.view.zoom = o.zoom;
    settings.fps = o.fps;
    settings.framesPerStep = o.framesPerStep;
    settings.holdFrames = o.holdFrames;
    settings.crf = o.crf;
    settings.captions = o.captions == "on";
    app::FrameOverlay overlay = app::defaultOverlay(settings.format, settings.view.mode);
    if (o.overlay != "auto")
        overlay.title = overlay.legend = o.overlay == "on";
    overlay.captions = o.captions == "burn";
    settings.view.overlay = overlay;

    const Scenario scenario = loadScenario(o.scenario);
    GuiScope gui("render", "OpenGL");
    // A compare scenario renders both sides in one file, over the longer schedule's steps.
    app::SnapshotPtr snap;
    app::CompareSnapshotPtr cmp;
    if (scenario.compare)
        cmp = app::buildCompareSnapshot(scenario);
    else
        snap = app::buildSnapshot(scenario, false);
    const auto [first, last] = parseStepRange(o.steps, cmp ? cmp->comparison.steps : snap->stepCount());
    settings.firstStep = first;
    settings.lastStep = last;

    app::ExportTimings t;
    const auto result = cmp ? app::exportCompareAnimation(cmp, settings, {}, &t) : app::exportAnimation(snap, settings, {}, &t);
    if (!result)
        throw Error("render was cancelled");
    io.out << fmt::format("wrote {}: {} frames, {}x{} at {} fps ({:.2f} s), {}; steps {}-{}, {} frames per step, "
                          "mode {}\n",
                          result->path.string(), result->frames, o.width, o.height, o.fps, result->seconds,
                          result->codec, first, last, app::framesPerStepFor(settings), o.mode);
    if (result->captions > 0)
        io.out << fmt::format("wrote {}: {} captions, one per step (and a subtitle stream in the MP4)\n",
                              captionsPathFor(o.out).string(), result->captions);
    if (o.timings && t.frames > 0) {
        const double n = t.frames;
        io.out << fmt::format("time per frame: render+read-back {:.1f} ms, convert {:.2f} ms, encode {:.1f} ms; "
                              "total {:.2f} s = {:.1f} frames per second\n",
                              t.renderMs / n, t.convertMs / n, t.encodeMs / n, t.totalMs / 1000.0,
                              n / (t.totalMs / 1000.0));
    }
    return 0;
}

const CommandRegistrar reg{Command{
    "render",
    "render a scenario's animation as MP4 (H.264), animated GIF or PNG frames (needs OpenGL: a display or xvfb-run)",
    [](CLI::App& sub) {
        auto o = std::make_shared<RenderCommand>();
        sub.add_option("--scenario", o->scenario, "scenario JSON (resources/scenarios/*.json, or File ▸ Save in the app)")
            ->required();
        sub.add_option("--out,-o", o->out,
                       "anim.mp4 | anim.gif | a folder for frame_00001.png, … (written atomically)")
            ->required();
        sub.add_option("--format", o->format, "mp4 | gif | png (default: from --out's extension; a folder is png)");
        sub.add_option("--width", o->width, "frame width in pixels")->capture_default_str()->check(CLI::Range(16, 8192));
        sub.add_option("--height", o->height, "frame height in pixels")->capture_default_str()->check(CLI::Range(16, 8192));
        sub.add_option("--fps", o->fps, "frames per second")->capture_default_str()->check(CLI::Range(1, 240));
        sub.add_option("--frames-per-step,-k", o->framesPerStep,
                       "frames per schedule step (messages move hop by hop; default: 1.5 s of frames at --fps, "
                       "45 at 30 fps)")
            ->check(CLI::Range(1, 1000));
        sub.add_option("--steps", o->steps, "which steps: all | N | A-B | A-")->capture_default_str();
        sub.add_option("--hold-frames", o->holdFrames, "frames the final state is held (default: two seconds)")
            ->check(CLI::Range(0, 100000));
        sub.add_option("--mode", o->mode, "view: plain | contention | heatmap | tcdmap | layers")->capture_default_str();
        sub.add_option("--heat", o->heat, "heat map load: cumulative | step")->capture_default_str();
        sub.add_flag("--high-contrast", o->highContrast, "the presentation palette (high contrast)");
        sub.add_option("--yaw", o->yaw, "turn the default view about the vertical axis, degrees")->capture_default_str();
        sub.add_option("--pitch", o->pitch, "tilt the default view, degrees")->capture_default_str();
        sub.add_option("--zoom", o->zoom, "zoom factor over the default view (2 = twice as close)")->capture_default_str();
        sub.add_option("--crf", o->crf, "MP4 (H.264) quality: 0 lossless … 51 worst")
            ->capture_default_str()
            ->check(CLI::Range(0, 51));
        sub.add_option("--captions", o->captions,
                       "one caption per step with its narration: on = MP4: NAME.vtt beside the video and a "
                       "subtitle stream in it | off = none | burn = drawn into every frame (MP4, GIF, PNG), "
                       "subtitle-style at the bottom of the view")
            ->capture_default_str()
            ->check(CLI::IsMember({"on", "off", "burn"}));
        sub.add_option("--overlay", o->overlay,
                       "a title line (step number and narration) above the view and the colour mode's legend "
                       "(swatches, colour bar with numbers) below it, in bands of their own: auto = on for MP4 and "
                       "GIF; off for PNG frames, except a source map's legend | on | off")
            ->capture_default_str()
            ->check(CLI::IsMember({"auto", "on", "off"}));
        sub.add_flag("--timings", o->timings, "print where the time went (render+read-back, convert, encode)");
        return [o](Io& io) {
            try {
                return render(*o, io);
            } catch (const video::VideoError& e) {
                throw Error(e.what());
            }
        };
    },
}};

} // namespace

} // namespace topocast::cli
