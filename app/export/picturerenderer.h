#pragma once

#include "export/animationexport.h"
#include "scene/sceneview.h"
#include "session/snapshot.h"

#include "topocast/model/error.h"

#include <QImage>
#include <QSize>

#include <vector>

namespace topocast::app {

/// Renders the pictures of several timeline positions in one off-screen scene (one window).
class PictureRenderer {
public:
    /// Labels as tall at `dpi` as on a 96-dpi screen; `what` names the export in the window title.
    PictureRenderer(const SnapshotPtr& snap, const ViewSettings& view, int dpi,
                    const QString& what = QStringLiteral("a handout"))
        : m_size(view.size)
    {
        m_scene.setLabelPixelHeight(14 * dpi / 96);
        showForExport(m_scene, snap, view, view.size, QStringLiteral("topocast — rendering ") + what);
    }

    /// The picture of timeline position `step` (0: before the first step) at rest, view.size.
    QImage render(int step)
    {
        m_scene.setStep(step);
        m_scene.setFraction(1.0f);
        QImage image = m_scene.capture().frame(10000, m_first);
        m_first = false;
        m_drawn.push_back(m_scene.frame());
        if (image.isNull())
            throw Error("no picture was rendered (no OpenGL context?); run under xvfb-run -a with "
                        "QT3D_RENDERER=opengl");
        if (image.size() != m_size)
            image = image.scaled(m_size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        return image.convertToFormat(QImage::Format_RGB32);
    }

    /// The frame of each picture rendered so far, in order (core makeFrame: what it shows).
    const std::vector<Frame>& drawn() const { return m_drawn; }

private:
    SceneView m_scene;
    std::vector<Frame> m_drawn;
    QSize m_size;
    bool m_first = true;
};

} // namespace topocast::app
