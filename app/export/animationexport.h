#pragma once

#include "export/frameoverlay.h"
#include "scene/orbitcamera.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "topocast/io/export.h"
#include "topocast/scenario/frame.h"
#include "videoencoder.h"

#include <QImage>
#include <QSize>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>

namespace topocast::app {

class SceneView;

/// How a picture or an animation frame is viewed: what File ▸ Export copies from the window and
/// what `topocast --screenshot` / `topocast-cli render` set from their options.
struct ViewSettings {
    QSize size{1280, 720};
    ViewMode mode = ViewMode::Plain;
    bool cumulativeHeat = true;
    bool highContrast = false;
    /// The print palette (white paper; handouts by default): SceneView::setPrintTheme.
    bool print = false;
    /// The planes' explode (SceneShape::setExplode); nullopt: the scenario's default.
    std::optional<float> explode;
    /// The camera; nullopt: the default view of the network (SceneCamera::resetView).
    std::optional<OrbitCamera::State> camera;
    /// Turned and zoomed after the camera is placed (the command line's --yaw/--pitch/--zoom).
    float yaw = 0.0f;
    float pitch = 0.0f;
    float zoom = 1.0f;
    /// The title line, legend strip and burned-in captions around the 3-D view (FrameOverlay);
    /// nullopt: defaultOverlay() for an animation's format, defaultPictureOverlay() for a picture.
    std::optional<FrameOverlay> overlay;
};

/// The default pace of an animation export: each step is shown this long (frames per step =
/// ⌈seconds × fps⌉, 45 at 30 fps), so a room can read its narration, and the final state is held
/// this long at the end.
inline constexpr double kDefaultSecondsPerStep = 1.5;
inline constexpr double kDefaultHoldSeconds = 2.0;

/// What an animation export writes.
struct AnimationSettings {
    std::filesystem::path output;
    video::VideoFormat format = video::VideoFormat::Mp4;
    ViewSettings view;
    int fps = 30;
    int framesPerStep = -1; ///< frames per schedule step; −1: kDefaultSecondsPerStep at fps
    std::uint32_t firstStep = 1;
    std::uint32_t lastStep = 0; ///< 0: the schedule's last step
    int holdFrames = -1;        ///< frames the final state is held at the end; −1: kDefaultHoldSeconds
    int crf = 20;               ///< H.264 quality (VideoOptions::crf)
    /// Called with each frame's core frame once it is rendered (what the video shows at that
    /// moment); empty: none.
    std::function<void(const FrameTime& at, const Frame& frame)> drawn;
    /// MP4 only: one caption per step with its narration, timed to the frames (captionCues), as
    /// a WebVTT file beside the video (anim.mp4 → anim.vtt, written atomically after the video) and
    /// as a mov_text subtitle stream in the MP4. False (`render --captions off` or `burn`): neither.
    /// Captions burned into the picture are view.overlay's.
    bool captions = true;
};

/// The frames per step an export uses: settings.framesPerStep, or the default pace at its fps.
int framesPerStepFor(const AnimationSettings& settings);
/// The hold frames an export uses: settings.holdFrames, or the default hold at its fps.
int holdFramesFor(const AnimationSettings& settings);

/// Where an export's time went, summed over its frames (milliseconds of wall time).
struct ExportTimings {
    int frames = 0;
    /// Scene update + Qt3D render + read-back: the QRenderCapture round trip (one per frame, two
    /// for the first: the first capture after the window appears may be stale, so it is dropped;
    /// later frames came out byte-identical with and without the extra capture).
    double renderMs = 0.0;
    /// The captured QImage handed over as RGBA rows (a format conversion only when needed).
    double convertMs = 0.0;
    /// topocast_video: colour conversion (libswscale), compression, muxing.
    double encodeMs = 0.0;
    double totalMs = 0.0;
};

/// (frames done, frames in all); return false to cancel.
using ExportProgress = std::function<bool(int done, int total)>;

/// The frames an animation export would render (topocast::animationFrames over the settings'
/// steps). Throws topocast::Error naming a bad step range, frames per step or hold.
std::vector<FrameTime> exportFrames(const Snapshot& snap, const AnimationSettings& settings);

/// Renders an animation on a deterministic clock (exportFrames: step + fraction per frame, no
/// wall time), so the same scenario and settings give the same frames, and encodes it with
/// topocast_video (MP4, GIF or a PNG sequence). Renders in a window of its own at the export
/// size (a Qt3D window must be exposed to render); runs on the GUI thread and spins the event
/// loop while each frame renders, so a progress dialog stays live. Needs OpenGL (a display, or
/// xvfb-run).
/// With settings.captions an MP4 also gets its captions (see AnimationSettings::captions); the
/// VTT file's path is then captionsPathFor(settings.output) and VideoResult::captions > 0.
/// Returns what was written, or nullopt when `progress` returned false: nothing is written then
/// and an existing file is untouched. Throws topocast::Error naming the problem (bad settings,
/// no frame rendered, encoder failure) — the file is untouched then too.
std::optional<video::VideoResult> exportAnimation(const SnapshotPtr& snap, const AnimationSettings& settings,
                                                  const ExportProgress& progress = {},
                                                  ExportTimings* timings = nullptr);

/// One frame of an export ready for the encoder: its rows in `layout` at the export's size.
struct EncoderFrame {
    QImage image;
    video::PixelLayout layout = video::PixelLayout::Rgba;
};
/// Renders frame `index` (at `frame` of the frame clock), adding its render and conversion times
/// to `spent`.
using FrameSource = std::function<EncoderFrame(int index, const FrameTime& frame, ExportTimings& spent)>;
/// The caption text of `step` (its narration).
using StepCaption = std::function<std::string(std::uint32_t step)>;

/// The encoding loop every animation export shares: each of `frames` from `source` into
/// settings.output (opened at the first frame, with its pixel layout), progress and cancellation
/// between frames, and for an MP4 with settings.captions one caption per step (`caption`) as a
/// subtitle stream and, after the video, as the VTT captionsPathFor(settings.output). `started`
/// is when the export began (ExportTimings::totalMs). Returns nullopt when cancelled (nothing
/// written); throws topocast::Error on failure (nothing written, an existing file untouched).
std::optional<video::VideoResult> encodeAnimation(const std::vector<FrameTime>& frames,
                                                  const AnimationSettings& settings, const FrameSource& source,
                                                  const StepCaption& caption, const ExportProgress& progress,
                                                  ExportTimings* timings, double startedMs = 0.0);

/// Renders one picture of timeline position (step, fraction) at view.size (any size 16..8192).
/// Throws topocast::Error when no frame comes back (no OpenGL) or the step is past the last.
/// `drawn`: where to put the frame the picture shows (core makeFrame), if not null.
QImage renderPicture(const SnapshotPtr& snap, const ViewSettings& view, int step, float fraction = 1.0f,
                     Frame* drawn = nullptr);

/// Shows `scene` in a window of its own, `windowSize` pixels and titled `title` (exports draw off
/// the user's screen but in a real window), with `snap` in the view's colouring, explode and
/// camera: the one set-up of every export, handout and compare picture.
void showForExport(SceneView& scene, const SnapshotPtr& snap, const ViewSettings& view, QSize windowSize,
                   const QString& title);

} // namespace topocast::app
