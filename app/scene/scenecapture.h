#pragma once

#include "scene/scenestate.h"

#include <QImage>
#include <QObject>
#include <QString>

namespace topocast::app {

/// A SceneView's frames read back: a rendered frame as an image (screenshots, handouts, videos),
/// waiting until every texture is loaded, the frame time the view draws at, and the OpenGL the
/// process draws with.
class SceneCapture : public QObject {
    Q_OBJECT
public:
    SceneCapture(SceneContext& scene, QObject* parent);

    /// Renders and returns one frame (the first capture after a change is dropped); a null
    /// image after `timeoutMs` if nothing came back (no GL).
    /// `dropFirst` false: one capture only (exports that have rendered a warm-up frame already).
    /// Before the first capture, waits until every texture the view uses (the label atlas) has
    /// been loaded, so no frame shows a half-loaded scene.
    QImage frame(int timeoutMs = 10000, bool dropFirst = true);
    /// Renders frames until the label atlases are on the GPU; false after `timeoutMs` or without GL.
    bool waitUntilLoaded(int timeoutMs = 10000);
    /// Milliseconds per frame over `frames` captured frames (benchmark).
    double measureFrameMs(int frames);
    /// The time between the view's last frames, smoothed (ms; 0 before the second frame): what
    /// View ▸ Show frame time reports. Measured from Qt3D's frame callbacks (QFrameAction), so it
    /// is the rate the view actually draws at, render and read-back included.
    double frameTimeMs() const { return m_frames.timeMs; }
    /// Frames drawn since the view was made.
    long long framesDrawn() const { return m_frames.drawn; }

    /// The OpenGL renderer's name (GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"); empty
    /// without GL. Probed once per process.
    static QString glRenderer();
    /// Multisampling of the 3-D window: 4× on a GPU, none on software OpenGL (Mesa llvmpipe,
    /// softpipe), where 4× made a 1280×720 frame 2–3× slower; TOPOCAST_SAMPLES=N overrides.
    static int surfaceSamples();

private:
    /// Renders frames until the label atlases are on the GPU: how many it rendered, or −1 after
    /// `timeoutMs` or without GL.
    int renderUntilLoaded(int timeoutMs);

    SceneContext& m_scene;
    FrameStats m_frames;
};

} // namespace topocast::app
