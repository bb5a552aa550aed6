// SceneView: the camera — default framing, projection, level of detail by screen size, and where
// nodes land on the screen (the camera's maths is core's OrbitView, topocast/drawing/camera.h).
#include "scene/sceneview.h"

#include "scene/arrowinstances.h"
#include "scene/labelinstances.h"
#include "scene/levelofdetail.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/picking.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/visibility.h"
#include "topocast/scenario/scenario.h"

#include <Qt3DCore/QEntity>
#include <Qt3DCore/QTransform>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QViewport>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QTimer>
#include <QVariantAnimation>
#include <QWheelEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

namespace topocast::app {

void SceneView::updateLevelOfDetail()
{
    if (!m_snap)
        return;
    const auto height = static_cast<float>(viewportSize().height() * m_frame.window->devicePixelRatio());
    const float ppu = pixelsPerUnit(height, m_orbit->state().distance, m_frame.window->camera()->fieldOfView());
    m_layers.nodes->setDetail(sphereDetail(m_sizes.nodeRadius * ppu, m_positions.size()));
    m_layers.nodes->setImpostors(nodeImpostors(m_sizes.nodeRadius * ppu, m_positions.size()));
    m_layers.nodes->setViewportHeight(height);
    m_layers.messages->setViewportHeight(height);
    // Every label layer places its plates in pixels of this viewport: a stale size (the axis
    // names were the only layer told) stretched node labels and printed them far too large.
    const QSize pixels = (viewportSize() * m_frame.window->devicePixelRatio()).toSize();
    for (LabelInstances* labels : m_layers.texts())
        labels->setViewportSize(pixels);
    m_layers.links->setUseLines(linkAsLine(m_sizes.linkRadius * ppu, m_drawn.channels.size()));
    const bool thin = linkAsLine(0.03f * ppu, 0);
    m_layers.axes->setUseLines(thin);
    m_layers.arcs->setUseLines(thin);
    m_layers.stubs->setUseLines(thin);
}

bool SceneView::showsDefaultFraming() const
{
    if (!m_framed)
        return false;
    const OrbitView now = m_orbit->view();
    const float close = 1e-4f * std::max(1.0f, m_framed->distance);
    return std::abs(now.distance - m_framed->distance) < close && now.yaw == m_framed->yaw &&
           now.pitch == m_framed->pitch &&
           std::hypot(now.centre[0] - m_framed->centre[0], now.centre[1] - m_framed->centre[1],
                      now.centre[2] - m_framed->centre[2]) < close;
}

bool SceneView::flatNetwork() const
{
    if (!m_snap)
        return false;
    const auto bounds = layoutBounds(m_snap->positions);
    return bounds[1][2] - bounds[0][2] < 1e-3f;
}

bool SceneView::orthographic() const
{
    return m_orbit->orthographic();
}

void SceneView::setOrthographic(bool on)
{
    if (m_snap && !flatNetwork())
        m_orthographic3d = on;
    if (on == m_orbit->orthographic())
        return;
    m_orbit->setOrthographic(on);
    updateLevelOfDetail();
    emit orthographicChanged(on);
}

void SceneView::resetView()
{
    if (!m_snap) {
        m_orbit->reset({0, 0, 0}, 5.0f, false);
        return;
    }
    const float aspect = static_cast<float>(viewportSize().width() / viewportSize().height());
    m_orbit->setAspect(aspect);
    layOutPlanesAgain(); // planes side by side: the grid for this shape (a window sized off screen gets no resize
                         // event)
    const bool wasOrthographic = m_orbit->orthographic();
    // 2-D networks top-down and orthographic, x right and y down as in the papers.
    m_orbit->setOrthographic(flatNetwork() || m_orthographic3d);
    // Frames where the nodes are going (an explode animation's end) as core's defaultView, which
    // topocast-cli visibility measures: a flat drawing top-down to the window's shape (its box
    // with the axes at its top left, node labels to the right and numbers below), not a sphere
    // round its diagonal; a 3-D one from 28° round and 22° above.
    const auto pixelHeight = static_cast<int>(viewportSize().height() * m_frame.window->devicePixelRatio());
    m_orbit->setView(
        defaultView(m_snap->topology(), m_explode.target, aspect, planeTitleShare(m_labelState.pixels, pixelHeight)));
    m_framed = m_orbit->view();
    updateLevelOfDetail();
    refreshNodeLabels();
    scheduleVisibility();
    if (wasOrthographic != m_orbit->orthographic())
        emit orthographicChanged(m_orbit->orthographic());
}

QMatrix4x4 SceneView::viewProjection() const
{
    Qt3DRender::QCamera* camera = m_frame.window->camera();
    return camera->projectionMatrix() * camera->viewMatrix();
}

QSizeF SceneView::viewportSize() const
{
    const QSize s = m_frame.window->size();
    return QSizeF(std::max(1, s.width()), std::max(1, s.height()));
}

QPointF SceneView::nodeOnScreen(NodeId v) const
{
    if (!m_snap || v >= m_positions.size())
        return {};
    return projectToScreen(viewProjection(), viewportSize(), m_positions[v]);
}

long long SceneView::nodeAt(const QPointF& pos) const
{
    if (!m_snap)
        return -1;
    return pickAt(viewProjection(), viewportSize(), pos, m_positions, m_sizes.nodeRadius * 1.3f);
}

} // namespace topocast::app
