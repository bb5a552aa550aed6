#include "export/animationexport.h"

#include "scene/sceneview.h"
#include "session/output.h"
#include "words/narration.h"

#include "topocast/io/atomic_file.h"
#include "topocast/io/captions.h"
#include "topocast/model/error.h"

#include <QWindow>

#include <QElapsedTimer>

#include <cmath>
#include <map>
#include <string>

namespace topocast::app {

namespace {

void checkView(const SnapshotPtr& snap, const ViewSettings& view)
{
    if (!snap)
        throw Error("nothing to render: no schedule has been computed");
    if (view.size.width() < 16 || view.size.height() < 16 || view.size.width() > 8192 || view.size.height() > 8192)
        throw Error("picture size " + sizeText(view.size).toStdString() + " is out of range 16..8192 a side");
}

/// One frame as tightly described rows for the encoder: RGBA or BGRA bytes, scaled to `size`
/// when the window system gave a different one (a high-DPI screen).
QImage encoderImage(QImage image, const QSize& size, video::PixelLayout& layout)
{
    if (image.size() != size)
        image = image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    switch (image.format()) {
    case QImage::Format_RGBA8888:
    case QImage::Format_RGBX8888:
    case QImage::Format_RGBA8888_Premultiplied:
        layout = video::PixelLayout::Rgba;
        return image;
    case QImage::Format_ARGB32:
    case QImage::Format_RGB32:
    case QImage::Format_ARGB32_Premultiplied:
        layout = video::PixelLayout::Bgra; // 0xAARRGGBB words: B, G, R, A bytes on x86
        return image;
    default:
        layout = video::PixelLayout::Rgba;
        return image.convertToFormat(QImage::Format_RGBA8888);
    }
}

double elapsedMs(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

const char* noFrameMessage()
{
    return "no frame was rendered (no OpenGL context?); run under xvfb-run -a with QT3D_RENDERER=opengl";
}

/// The title line, legend strip and captions of one export, painted around each rendered view.
class Overlay {
public:
    Overlay(const Snapshot& snap, const ViewSettings& view, const FrameOverlay& overlay, const Palette& palette)
        : m_snap(snap), m_overlay(overlay), m_palette(palette)
    {
        if (overlay.legend)
            m_legend = legendStrip(snap, view.mode, view.cumulativeHeat, palette);
        m_layout = overlayLayout(view.size, overlay, m_legend);
    }
    bool on() const { return m_overlay.any(); }
    /// Where the 3-D view goes: the whole frame without an overlay.
    QSize viewSize() const { return on() ? m_layout.view.size() : m_layout.size; }
    QImage compose(const QImage& view, int step)
    {
        auto it = m_text.find(step);
        if (it == m_text.end())
            it = m_text.emplace(step, frameText(m_snap, step, m_overlay, m_layout)).first;
        return composeFrame(view, m_layout, it->second, m_legend, m_palette);
    }

private:
    const Snapshot& m_snap;
    FrameOverlay m_overlay;
    Palette m_palette;
    LegendStrip m_legend;
    OverlayLayout m_layout;
    std::map<int, FrameText> m_text; // one per step: the words are fitted once
};

} // namespace

int framesPerStepFor(const AnimationSettings& settings)
{
    if (settings.framesPerStep >= 0)
        return settings.framesPerStep;
    return std::max(1, static_cast<int>(std::ceil(kDefaultSecondsPerStep * settings.fps - 1e-9)));
}

int holdFramesFor(const AnimationSettings& settings)
{
    if (settings.holdFrames >= 0)
        return settings.holdFrames;
    return static_cast<int>(std::ceil(kDefaultHoldSeconds * settings.fps - 1e-9));
}

std::vector<FrameTime> exportFrames(const Snapshot& snap, const AnimationSettings& settings)
{
    const std::uint32_t steps = snap.stepCount();
    if (steps == 0)
        throw Error("the schedule has no steps to animate (a single node?)");
    if (settings.fps < 1 || settings.fps > 240)
        throw Error("frame rate " + std::to_string(settings.fps) + " is out of range 1..240");
    const std::uint32_t last = settings.lastStep == 0 ? steps : settings.lastStep;
    return animationFrames(steps, settings.firstStep, last, framesPerStepFor(settings), holdFramesFor(settings));
}

std::optional<video::VideoResult> exportAnimation(const SnapshotPtr& snap, const AnimationSettings& settings,
                                                  const ExportProgress& progress, ExportTimings* timings)
{
    QElapsedTimer total;
    total.start();
    if (!snap)
        throw Error("nothing to export: no schedule has been computed");
    const std::vector<FrameTime> frames = exportFrames(*snap, settings);
    const QSize size = settings.view.size;
    if (settings.format == video::VideoFormat::Mp4 && (size.width() % 2 != 0 || size.height() % 2 != 0))
        throw Error("an MP4 needs an even width and height; got " + sizeText(size).toStdString());

    checkView(snap, settings.view);
    SceneView scene;
    scene.setHighContrast(settings.view.highContrast);
    scene.setPrintTheme(settings.view.print);
    Overlay overlay(*snap, settings.view,
                    settings.view.overlay.value_or(defaultOverlay(settings.format, settings.view.mode)),
                    scene.choice().palette());
    showForExport(scene, snap, settings.view, overlay.viewSize(),
                  QStringLiteral("topocast — rendering %1").arg(sizeText(settings.view.size)));
    const FrameSource source = [&](int i, const FrameTime& f, ExportTimings& spent) {
        QElapsedTimer t;
        t.start();
        scene.setStep(static_cast<int>(f.step));
        scene.setFraction(static_cast<float>(f.fraction));
        const QImage captured = scene.capture().frame(10000, i == 0);
        spent.renderMs += elapsedMs(t);
        if (captured.isNull())
            throw Error(noFrameMessage());
        if (settings.drawn)
            settings.drawn(f, scene.frame());
        t.restart();
        EncoderFrame out;
        if (overlay.on()) // Format_RGB32 words are B, G, R, A bytes on x86
            out = {overlay.compose(captured, static_cast<int>(f.step)), video::PixelLayout::Bgra};
        else
            out.image = encoderImage(captured, size, out.layout);
        spent.convertMs += elapsedMs(t);
        return out;
    };
    const StepCaption caption = [&](std::uint32_t step) {
        return narrate(*snap, static_cast<int>(step)).toStdString();
    };
    return encodeAnimation(frames, settings, source, caption, progress, timings, elapsedMs(total));
}

std::optional<video::VideoResult> encodeAnimation(const std::vector<FrameTime>& frames,
                                                  const AnimationSettings& settings, const FrameSource& source,
                                                  const StepCaption& caption, const ExportProgress& progress,
                                                  ExportTimings* timings, double startedMs)
{
    QElapsedTimer total;
    total.start();
    // Captions: one cue per step on the same frame clock the encoder numbers its frames by.
    std::vector<CaptionCue> cues;
    if (settings.captions && settings.format == video::VideoFormat::Mp4) {
        cues = captionCues(frames);
        for (CaptionCue& c : cues)
            c.text = caption(c.step);
    }
    ExportTimings spent;
    const int count = static_cast<int>(frames.size());
    const QSize size = settings.view.size;
    video::VideoEncoder encoder;
    try {
        for (int i = 0; i < count; ++i) {
            if (progress && !progress(i, count)) {
                encoder.cancel();
                return std::nullopt;
            }
            const EncoderFrame frame = source(i, frames[static_cast<std::size_t>(i)], spent);
            QElapsedTimer t;
            t.start();
            if (!encoder.isOpen()) { // opened at the first frame: its pixel layout is the capture's
                video::VideoOptions options;
                options.input = frame.layout;
                options.crf = settings.crf;
                for (const CaptionCue& c : cues)
                    options.captions.push_back(
                        video::Caption{static_cast<int>(c.firstFrame), static_cast<int>(c.endFrame), c.text});
                encoder.open(settings.output, settings.format, size.width(), size.height(), settings.fps, options);
            }
            encoder.addFrame(frame.image.constBits(), frame.image.bytesPerLine());
            spent.encodeMs += elapsedMs(t);
            ++spent.frames;
        }
        if (progress && !progress(count, count)) {
            encoder.cancel();
            return std::nullopt;
        }
        QElapsedTimer t;
        t.start();
        video::VideoResult result = encoder.finish();
        if (!cues.empty()) // after the video, so a failed encode leaves no captions for it
            writeFileAtomic(captionsPathFor(settings.output), webVtt(cues, settings.fps));
        spent.encodeMs += elapsedMs(t);
        spent.totalMs = startedMs + elapsedMs(total);
        if (timings)
            *timings = spent;
        return result;
    } catch (const video::VideoError& e) {
        encoder.cancel();
        throw Error(e.what());
    } catch (...) {
        encoder.cancel();
        throw;
    }
}

void showForExport(SceneView& scene, const SnapshotPtr& snap, const ViewSettings& view, QSize windowSize,
                   const QString& title)
{
    QWindow* window = scene.window();
    window->setFlags(window->flags() | Qt::WindowDoesNotAcceptFocus);
    window->setTitle(title);
    window->resize(windowSize);
    window->show();
    scene.setHighContrast(view.highContrast);
    scene.setPrintTheme(view.print);
    scene.setSnapshot(snap);
    scene.setCumulativeHeat(view.cumulativeHeat);
    scene.setMode(view.mode);
    if (view.explode)
        scene.shape().setExplode(*view.explode, false);
    scene.camera().resetView();
    if (view.camera)
        scene.camera().orbit().setState(*view.camera);
    if (view.yaw != 0.0f || view.pitch != 0.0f)
        scene.camera().orbit().orbit(view.yaw, view.pitch);
    if (view.zoom != 1.0f)
        scene.camera().orbit().zoom(1.0f / view.zoom);
}

QImage renderPicture(const SnapshotPtr& snap, const ViewSettings& view, int step, float fraction, Frame* drawn)
{
    checkView(snap, view);
    SceneView scene;
    scene.setHighContrast(view.highContrast);
    scene.setPrintTheme(view.print);
    Overlay overlay(*snap, view, view.overlay.value_or(defaultPictureOverlay(view.mode)), scene.choice().palette());
    showForExport(scene, snap, view, overlay.viewSize(),
                  QStringLiteral("topocast — rendering %1").arg(sizeText(view.size)));
    const int steps = static_cast<int>(snap->stepCount());
    if (step < 0 || step > steps)
        throw Error("step " + std::to_string(step) + " is not within the schedule's steps 0.." + std::to_string(steps));
    scene.setStep(step);
    scene.setFraction(fraction);
    QImage image = scene.capture().frame();
    if (image.isNull())
        throw Error(noFrameMessage());
    if (drawn)
        *drawn = scene.frame();
    if (overlay.on())
        return overlay.compose(image, step);
    if (image.size() != view.size)
        image = image.scaled(view.size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return image;
}

} // namespace topocast::app
