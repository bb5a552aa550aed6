// topocast-cli render: the app's 3-D view of a scenario as an MP4, an animated GIF or a numbered
// PNG sequence, rendered frame by frame on a deterministic clock (no window to click; needs
// OpenGL, so a display or xvfb-run).
#include "commands.h"
#include "guiscope.h"
#include "render_options.h"

#include "export/animationexport.h"
#include "export/compareexport.h"
#include "launch/startup.h"
#include "session/snapshot.h"

#include "topocast/io/captions.h"
#include "topocast/io/export.h"
#include "topocast/io/scenario_file.h"
#include "topocast/model/error.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <ostream>

namespace topocast::cli {

namespace {

int render(RenderOptions o, Io& io)
{
    validateRenderOptions(o); // the checks that need no Qt, shared with the fuzzed parser
    app::AnimationSettings settings;
    settings.output = o.out;
    settings.format =
        o.format.empty() ? video::VideoEncoder::formatForPath(o.out) : video::VideoEncoder::parseFormat(o.format);
    settings.view.size = QSize(o.width, o.height);
    const Scenario scenario = loadScenario(o.scenario);
    // The scenario's own colour mode unless --mode says otherwise, as the window opens it.
    if (o.mode.empty())
        o.mode = scenarioViewMode(scenario);
    const auto mode = app::parseViewMode(QString::fromStdString(o.mode));
    if (!mode)
        throw Error("--mode " + o.mode + ": not a view mode of the app"); // renderModeNames lists only the app's
    settings.view.mode = *mode;
    settings.view.cumulativeHeat = o.cumulativeHeat;
    settings.view.highContrast = o.highContrast;
    settings.view.yaw = o.yaw;
    settings.view.pitch = o.pitch;
    settings.view.zoom = o.zoom;
    settings.fps = o.fps;
    settings.framesPerStep = o.framesPerStep;
    settings.holdFrames = o.holdFrames;
    settings.crf = o.crf;
    settings.captions = o.captionsOn;
    app::FrameOverlay overlay = app::defaultOverlay(settings.format, settings.view.mode);
    if (o.overlay != "auto")
        overlay.title = overlay.legend = o.overlay == "on";
    overlay.captions = o.captions == "burn";
    settings.view.overlay = overlay;

    GuiScope gui("render", "OpenGL");
    // A compare scenario renders both sides in one file, over the longer schedule's steps.
    app::SnapshotPtr snap;
    app::CompareSnapshotPtr cmp;
    if (scenario.compare)
        cmp = app::buildCompareSnapshot(scenario);
    else
        snap = app::buildSnapshot(scenario);
    const auto [first, last] = parseStepRange(o.steps, cmp ? cmp->comparison.steps : snap->stepCount());
    settings.firstStep = first;
    settings.lastStep = last;

    app::ExportTimings t;
    const auto result =
        cmp ? app::exportCompareAnimation(cmp, settings, {}, &t) : app::exportAnimation(snap, settings, {}, &t);
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
    .name = "render",
    .help = "render a scenario's animation as MP4 (H.264), animated GIF or PNG frames (needs OpenGL: a display or "
            "xvfb-run)",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<RenderOptions>();
            addRenderOptions(sub, *o);
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
