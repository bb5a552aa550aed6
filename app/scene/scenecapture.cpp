#include "scene/scenecapture.h"

#include "scene/labelinstances.h"
#include "scene/scenecamera.h"

#include <Qt3DCore/QEntity>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QRenderCapture>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QTimer>

#include <algorithm>
#include <cstdint>

namespace topocast::app {

SceneCapture::SceneCapture(SceneContext& scene, QObject* parent) : QObject(parent), m_scene(scene)
{
    // Frame time: Qt3D calls a frame action once per frame with the seconds since the last one.
    auto* frames = new Qt3DLogic::QFrameAction(m_scene.frame.root);
    connect(frames, &Qt3DLogic::QFrameAction::triggered, this, [this](float dt) {
        ++m_frames.drawn;
        if (m_frames.drawn < 2 || !(dt > 0.0f))
            return;
        const double ms = static_cast<double>(dt) * 1000.0;
        m_frames.timeMs = m_frames.timeMs == 0.0 ? ms : 0.8 * m_frames.timeMs + 0.2 * ms;
    });
}

QString SceneCapture::glRenderer()
{
    static const QString name = [] {
        QOffscreenSurface surface;
        surface.create();
        QOpenGLContext context;
        if (!context.create() || !context.makeCurrent(&surface))
            return QString();
        const auto* text = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
        QString result = QString::fromLatin1(text ? text : "");
        context.doneCurrent();
        return result;
    }();
    return name;
}

int SceneCapture::surfaceSamples()
{
    if (qEnvironmentVariableIsSet("TOPOCAST_SAMPLES"))
        return std::clamp(qEnvironmentVariableIntValue("TOPOCAST_SAMPLES"), 0, 16);
    const QString renderer = glRenderer().toLower();
    const bool software = renderer.contains(QLatin1String("llvmpipe")) ||
                          renderer.contains(QLatin1String("softpipe")) || renderer.contains(QLatin1String("swrast")) ||
                          renderer.contains(QLatin1String("software"));
    return software ? 0 : 4;
}

bool SceneCapture::waitUntilLoaded(int timeoutMs)
{
    return renderUntilLoaded(timeoutMs) >= 0;
}

int SceneCapture::renderUntilLoaded(int timeoutMs)
{
    int rendered = 0;
    QElapsedTimer t;
    t.start();
    const auto texts = m_scene.layers.texts();
    while (!std::all_of(texts.begin(), texts.end(), [](const LabelInstances* l) { return l->loaded(); })) {
        if (t.elapsed() > timeoutMs)
            return -1;
        // Each capture request makes Qt3D render (and run its loaders) once.
        Qt3DRender::QRenderCaptureReply* reply = m_scene.frame.capture->requestCapture();
        QEventLoop loop;
        connect(reply, &Qt3DRender::QRenderCaptureReply::completed, &loop, &QEventLoop::quit);
        QTimer::singleShot(std::max(1, timeoutMs - static_cast<int>(t.elapsed())), &loop, &QEventLoop::quit);
        if (!reply->isComplete())
            loop.exec();
        const bool complete = reply->isComplete();
        delete reply;
        if (!complete)
            return -1;
        ++rendered;
    }
    return rendered;
}

QImage SceneCapture::frame(int timeoutMs, bool dropFirst)
{
    m_scene.camera->updateLevelOfDetail(); // the camera may have been set directly (exports)
    // Textures load asynchronously: the first frame after a new label atlas may not show it yet —
    // after the first capture too, where a step's labels change (a large network's receivers).
    std::uint64_t atlases = 0;
    for (const LabelInstances* l : m_scene.layers.texts())
        atlases += l->atlasGeneration();
    const bool settle = dropFirst || atlases != m_scene.labelState.capturedAtlases;
    m_scene.labelState.capturedAtlases = atlases;
    const int rendered = settle ? renderUntilLoaded(timeoutMs) : 0;
    if (rendered < 0)
        return QImage();
    // The first capture after a change may be stale: it is dropped, unless a frame rendered while
    // the atlases loaded was that first one (each page of a large network's handout names its own
    // receivers, so each has a new atlas: one frame less a page).
    const int captures = settle && rendered == 0 ? 2 : 1;
    QImage image;
    for (int attempt = 0; attempt < captures; ++attempt) {
        Qt3DRender::QRenderCaptureReply* reply = m_scene.frame.capture->requestCapture();
        QEventLoop loop;
        QTimer timeout;
        timeout.setSingleShot(true);
        connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
        connect(reply, &Qt3DRender::QRenderCaptureReply::completed, &loop, &QEventLoop::quit);
        timeout.start(timeoutMs);
        if (!reply->isComplete())
            loop.exec();
        image = reply->isComplete() ? reply->image() : QImage();
        delete reply;
        // The RHI backend's captures come back upside down relative to OpenGL's (pinned by the
        // asymmetric-scene test in tests/app/test_render.cpp); return both the right way up.
        if (!image.isNull() && qgetenv("QT3D_RENDERER") == "rhi")
            image = image.mirrored(false, true);
        if (image.isNull())
            return image;
    }
    return image;
}

double SceneCapture::measureFrameMs(int frames)
{
    frame();
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < frames; ++i) {
        m_scene.camera->orbit().orbit(0.5f, 0.0f); // a change per frame so each one is really rendered
        Qt3DRender::QRenderCaptureReply* reply = m_scene.frame.capture->requestCapture();
        QEventLoop loop;
        connect(reply, &Qt3DRender::QRenderCaptureReply::completed, &loop, &QEventLoop::quit);
        QTimer::singleShot(10000, &loop, &QEventLoop::quit);
        if (!reply->isComplete())
            loop.exec();
        delete reply;
    }
    return static_cast<double>(t.elapsed()) / std::max(1, frames);
}

} // namespace topocast::app
