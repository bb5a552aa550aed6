#include "scene/scenecamera.h"

#include "scene/arrowinstances.h"
#include "scene/labelinstances.h"
#include "scene/levelofdetail.h"
#include "scene/linkinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/picking.h"
#include "scene/scenelabels.h"
#include "scene/sceneshape.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/view_labels.h"
#include "topocast/drawing/visibility.h"

#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>

#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace topocast::app {

SceneCamera::SceneCamera(SceneContext& scene, QObject* parent) : QObject(parent), m_scene(scene)
{
    Qt3DRender::QCamera* camera = m_scene.frame.window->camera();
    camera->lens()->setPerspectiveProjection(40.0f, 16.0f / 9.0f, 0.1f, 1000.0f);
    m_orbit = std::make_unique<OrbitCamera>(camera);
    m_orbit->reset({0, 0, 0}, 5.0f, false);
    m_visibilityTimer = new QTimer(this);
    m_visibilityTimer->setSingleShot(true);
    m_visibilityTimer->setInterval(100);
    connect(m_visibilityTimer, &QTimer::timeout, this, &SceneCamera::updateVisibility);
}

SceneCamera::~SceneCamera() = default;

void SceneCamera::updateLevelOfDetail()
{
    if (!m_scene.snap)
        return;
    const SceneLayers& layers = m_scene.layers;
    const auto height = static_cast<float>(viewportSize().height() * m_scene.frame.window->devicePixelRatio());
    const float ppu = pixelsPerUnit(height, m_orbit->state().distance, m_scene.frame.window->camera()->fieldOfView());
    layers.nodes->setDetail(sphereDetail(m_scene.sizes.nodeRadius * ppu, m_scene.positions.size()));
    layers.nodes->setImpostors(nodeImpostors(m_scene.sizes.nodeRadius * ppu, m_scene.positions.size()));
    layers.nodes->setViewportHeight(height);
    layers.messages->setViewportHeight(height);
    // Every label layer places its plates in pixels of this viewport: a stale size (the axis
    // names were the only layer told) stretched node labels and printed them far too large.
    const QSize pixels = (viewportSize() * m_scene.frame.window->devicePixelRatio()).toSize();
    for (LabelInstances* labels : layers.texts())
        labels->setViewportSize(pixels);
    layers.links->setUseLines(linkAsLine(m_scene.sizes.linkRadius * ppu, m_scene.drawn.channels.size()));
    const bool thin = linkAsLine(0.03f * ppu, 0);
    layers.axes->setUseLines(thin);
    layers.arcs->setUseLines(thin);
    layers.stubs->setUseLines(thin);
}

bool SceneCamera::showsDefaultFraming() const
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

void SceneCamera::markFramed()
{
    m_framed = m_orbit->view();
}

bool SceneCamera::orthographic() const
{
    return m_orbit->orthographic();
}

void SceneCamera::setOrthographic(bool on)
{
    if (m_scene.snap && !m_scene.shape->flatNetwork())
        m_orthographic3d = on;
    if (on == m_orbit->orthographic())
        return;
    m_orbit->setOrthographic(on);
    updateLevelOfDetail();
    emit orthographicChanged(on);
}

void SceneCamera::resetView()
{
    if (!m_scene.snap) {
        m_orbit->reset({0, 0, 0}, 5.0f, false);
        return;
    }
    const float aspect = static_cast<float>(viewportSize().width() / viewportSize().height());
    m_orbit->setAspect(aspect);
    // Planes side by side: the grid for this shape (a window sized off screen gets no resize event).
    m_scene.shape->layOutPlanesAgain();
    const bool wasOrthographic = m_orbit->orthographic();
    // 2-D networks top-down and orthographic, x right and y down as in the papers.
    m_orbit->setOrthographic(m_scene.shape->flatNetwork() || m_orthographic3d);
    // Frames where the nodes are going (an explode animation's end) as core's defaultView, which
    // topocast-cli visibility measures: a flat drawing top-down to the window's shape (its box
    // with the axes at its top left, node labels to the right and numbers below), not a sphere
    // round its diagonal; a 3-D one from 28° round and 22° above.
    const auto pixelHeight = static_cast<int>(viewportSize().height() * m_scene.frame.window->devicePixelRatio());
    m_orbit->setView(defaultView(m_scene.snap->topology(), m_scene.shape->target(), aspect,
                                 planeTitleShare(m_scene.labelState.pixels, pixelHeight)));
    m_framed = m_orbit->view();
    updateLevelOfDetail();
    m_scene.labels->placeNodeLabels();
    scheduleVisibility();
    if (wasOrthographic != m_orbit->orthographic())
        emit orthographicChanged(m_orbit->orthographic());
}

QMatrix4x4 SceneCamera::viewProjection() const
{
    Qt3DRender::QCamera* camera = m_scene.frame.window->camera();
    return camera->projectionMatrix() * camera->viewMatrix();
}

QSizeF SceneCamera::viewportSize() const
{
    const QSize s = m_scene.frame.window->size();
    return QSizeF(std::max(1, s.width()), std::max(1, s.height()));
}

QPointF SceneCamera::nodeOnScreen(NodeId v) const
{
    if (!m_scene.snap || v >= m_scene.positions.size())
        return {};
    return projectToScreen(viewProjection(), viewportSize(), m_scene.positions[v]);
}

long long SceneCamera::nodeAt(const QPointF& pos) const
{
    if (!m_scene.snap)
        return -1;
    return pickAt(viewProjection(), viewportSize(), pos, m_scene.positions, m_scene.sizes.nodeRadius * 1.3f);
}

long long SceneCamera::messageAt(const QPointF& pos) const
{
    const int step = m_scene.choice.step;
    if (!m_scene.snap || !m_scene.atRest || step < 1 ||
        static_cast<std::uint32_t>(step) > m_scene.snap->schedule.stepCount())
        return -1;
    // The arrows shown (arrow i is the last hop of the step's transfer i): no route is traced again
    // on a mouse move.
    const QMatrix4x4 vp = viewProjection();
    const QSizeF size = viewportSize();
    std::vector<std::pair<QPointF, QPointF>> segments;
    for (const ArrowInstances::Arrow& a : m_scene.layers.arrows->arrows())
        segments.emplace_back(projectToScreen(vp, size, a.from), projectToScreen(vp, size, a.tip));
    // The arrowhead's half of the last hop, clear of the sender's node.
    const long long i = pickSegment(segments, pos, 8.0, 0.45, 0.9);
    return i < 0 ? -1 : static_cast<long long>(m_scene.snap->schedule.stepBegin(StepNo{step})) + i;
}

LabelCamera SceneCamera::labelCamera() const
{
    LabelCamera c;
    const QMatrix4x4 vp = viewProjection();
    std::copy(vp.constData(), vp.constData() + 16, c.viewProjection.begin());
    const QMatrix4x4 view = m_scene.frame.window->camera()->viewMatrix();
    c.right = {view(0, 0), view(0, 1), view(0, 2)};
    c.pixels = (viewportSize() * m_scene.frame.window->devicePixelRatio()).toSize();
    return c;
}

void SceneCamera::scheduleVisibility()
{
    m_visibilityTimer->start();
}

void SceneCamera::updateVisibility()
{
    m_visibilityTimer->stop();
    std::size_t receivers = 0, hidden = 0;
    const int step = m_scene.choice.step;
    const SnapshotPtr& snap = m_scene.snap;
    if (snap && m_scene.positions.size() <= 4096 && step >= 1 &&
        static_cast<std::uint32_t>(step) <= snap->stepCount()) {
        std::vector<NodeId> to;
        for (const Transfer& t : snap->schedule.stepTransfers(StepNo{step}))
            to.push_back(t.to);
        std::sort(to.begin(), to.end());
        to.erase(std::unique(to.begin(), to.end()), to.end());
        const std::vector<bool> seen = visibleNodes(m_orbit->view(), m_scene.positions, m_scene.sizes.nodeRadius);
        receivers = to.size();
        hidden = static_cast<std::size_t>(
            std::count_if(to.begin(), to.end(), [&](NodeId v) { return v < seen.size() && !seen[v]; }));
    }
    m_seen.receivers = receivers;
    m_seen.hidden = hidden;
    if (snap) { // the camera moved: place the labels again for what it sees
        m_scene.labels->placeNodeLabels();
        m_scene.labels->placeMessageLabels();
    }
    emit visibilityChanged();
}

} // namespace topocast::app
