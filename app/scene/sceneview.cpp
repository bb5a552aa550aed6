#include "scene/sceneview.h"

#include "scene/arrowinstances.h"
#include "scene/labelinstances.h"
#include "scene/levelofdetail.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/picking.h"

#include "topocast/camera.h"
#include "topocast/io/scenario.h"
#include "topocast/visibility.h"

#include <Qt3DCore/QEntity>
#include <Qt3DCore/QTransform>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QViewport>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>

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

namespace {
constexpr std::size_t kMaxMessageHops = 50000;

QColor toQColor(const Rgba& c) { return c.toColor(); }
} // namespace

SceneView::SceneView(QObject* parent) : QObject(parent)
{
    m_window = new Qt3DExtras::Qt3DWindow(nullptr, Qt3DRender::API::OpenGL);
    // Qt3DWindow asks for 4× multisampling, also as the default format its GL context is made
    // with; both must change for the samples to.
    QSurfaceFormat format = m_window->format();
    format.setSamples(surfaceSamples());
    m_window->setFormat(format);
    QSurfaceFormat::setDefaultFormat(format);
    m_window->installEventFilter(this);
    m_root = new Qt3DCore::QEntity;
    // Frame time: Qt3D calls a frame action once per frame with the seconds since the last one.
    auto* frames = new Qt3DLogic::QFrameAction(m_root);
    connect(frames, &Qt3DLogic::QFrameAction::triggered, this, [this](float dt) {
        ++m_framesDrawn;
        if (m_framesDrawn < 2 || !(dt > 0.0f))
            return;
        const double ms = static_cast<double>(dt) * 1000.0;
        m_frameTimeMs = m_frameTimeMs == 0.0 ? ms : 0.8 * m_frameTimeMs + 0.2 * ms;
    });

    m_links = new LinkInstances(1, m_root);
    m_arcs = new LinkInstances(12, m_root);
    m_stubs = new LinkInstances(1, m_root);
    m_treeLinks = new LinkInstances(1, m_root);
    m_treeLinks->setEnabled(false);
    m_axes = new LinkInstances(1, m_root);
    m_nodes = new NodeInstances(m_root);
    m_messages = new MessageInstances(m_root);
    m_marks = new MarkInstances(m_root);
    m_arrows = new ArrowInstances(m_root);
    m_labels = new LabelInstances(m_root);
    m_nodeLabels = new LabelInstances(m_root);
    buildFrameGraph({m_links, m_stubs, m_arcs, m_treeLinks, m_axes, m_nodes, m_messages, m_arrows, m_marks, m_labels,
                     m_nodeLabels});
    m_window->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);

    Qt3DRender::QCamera* camera = m_window->camera();
    camera->lens()->setPerspectiveProjection(40.0f, 16.0f / 9.0f, 0.1f, 1000.0f);
    m_orbit = std::make_unique<OrbitCamera>(camera);
    m_orbit->reset({0, 0, 0}, 5.0f, false);
    m_window->setRootEntity(m_root);

    m_explodeAnimation = new QVariantAnimation(this);
    m_explodeAnimation->setDuration(300);
    m_explodeAnimation->setStartValue(0.0);
    m_explodeAnimation->setEndValue(1.0);
    m_explodeAnimation->setEasingCurve(QEasingCurve::InOutCubic);
    connect(m_explodeAnimation, &QVariantAnimation::valueChanged, this, [this](const QVariant& value) {
        if (m_explodeAnimation->state() != QAbstractAnimation::Running || m_fromPositions.size() != m_targetPositions.size())
            return;
        const float t = value.toFloat();
        std::vector<Vec3> mixed(m_targetPositions.size());
        for (std::size_t i = 0; i < mixed.size(); ++i)
            for (std::size_t a = 0; a < 3; ++a)
                mixed[i][a] = m_fromPositions[i][a] + (m_targetPositions[i][a] - m_fromPositions[i][a]) * t;
        setPositions(std::move(mixed), false);
        if (m_cameraFollows) {
            OrbitView v = m_toView;
            v.distance = m_fromView.distance + (m_toView.distance - m_fromView.distance) * t;
            for (std::size_t a = 0; a < 3; ++a)
                v.centre[a] = m_fromView.centre[a] + (m_toView.centre[a] - m_fromView.centre[a]) * t;
            v.aspect = m_orbit->view().aspect;
            m_orbit->setView(v);
        }
    });
    connect(m_explodeAnimation, &QVariantAnimation::finished, this, [this] {
        setPositions(m_targetPositions, true);
        if (m_cameraFollows) {
            OrbitView v = m_toView;
            v.aspect = m_orbit->view().aspect;
            m_orbit->setView(v);
            updateLevelOfDetail();
        }
    });
    m_visibilityTimer = new QTimer(this);
    m_visibilityTimer->setSingleShot(true);
    m_visibilityTimer->setInterval(100);
    connect(m_visibilityTimer, &QTimer::timeout, this, &SceneView::updateVisibility);
}

QString SceneView::glRenderer()
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

int SceneView::surfaceSamples()
{
    if (qEnvironmentVariableIsSet("TOPOCAST_SAMPLES"))
        return std::clamp(qEnvironmentVariableIntValue("TOPOCAST_SAMPLES"), 0, 16);
    const QString renderer = glRenderer().toLower();
    const bool software = renderer.contains(QLatin1String("llvmpipe")) || renderer.contains(QLatin1String("softpipe")) ||
                          renderer.contains(QLatin1String("swrast")) || renderer.contains(QLatin1String("software"));
    return software ? 0 : 4;
}

void SceneView::buildFrameGraph(const std::vector<Qt3DCore::QEntity*>& drawOrder)
{
    // QRenderCapture must be the root of the active frame graph (see STYLE.md). Under it, one
    // clear and then one branch per element type, each drawing only its own layer: the element
    // types are drawn in this fixed order in every frame. Qt3D's default forward renderer draws
    // all entities in one pass in an order that depends on how its parallel jobs ran, so where
    // two surfaces tie in depth (a link meeting a sphere, a tree lane over its channel) a pixel
    // could take either colour from run to run (issue #18: 1–4 pixels per frame).
    auto* surface = new Qt3DRender::QRenderSurfaceSelector;
    surface->setSurface(m_window);
    auto* viewport = new Qt3DRender::QViewport(surface);
    viewport->setNormalizedRect(QRectF(0, 0, 1, 1));
    auto* cameraSelector = new Qt3DRender::QCameraSelector(viewport);
    cameraSelector->setCamera(m_window->camera());
    m_clear = new Qt3DRender::QClearBuffers(cameraSelector);
    m_clear->setBuffers(Qt3DRender::QClearBuffers::ColorDepthBuffer);
    m_clear->setClearColor(toQColor(m_palette.background));
    new Qt3DRender::QNoDraw(m_clear);
    for (Qt3DCore::QEntity* entity : drawOrder) {
        auto* layer = new Qt3DRender::QLayer(entity);
        layer->setRecursive(true);  // LinkInstances draws its line variant from a child entity
        entity->addComponent(layer);
        auto* filter = new Qt3DRender::QLayerFilter(cameraSelector);
        filter->addLayer(layer);
    }
    // The capture is a branch of its own after every drawing branch: it reads the finished frame.
    m_capture = new Qt3DRender::QRenderCapture(cameraSelector);
    new Qt3DRender::QNoDraw(m_capture);
    m_window->setActiveFrameGraph(surface);
}

SceneView::~SceneView()
{
    if (!m_container)
        delete m_window;
}

QWidget* SceneView::widget(QWidget* parent)
{
    if (!m_container) {
        m_container = QWidget::createWindowContainer(m_window, parent);
        m_container->setMinimumSize(320, 240);
        m_container->setFocusPolicy(Qt::StrongFocus);
    }
    return m_container;
}

void SceneView::setSnapshot(SnapshotPtr snap)
{
    const bool newTopology = !m_snap || !snap || !(m_snap->topology() == snap->topology());
    // The same network drawn another way (the flat hypercube drawing) is a new geometry too.
    const SnapshotPtr previous = m_snap;
    m_snap = std::move(snap);
    if (!m_snap)
        return;
    m_step = std::min(m_step, static_cast<int>(m_snap->stepCount()));
    if (newTopology || previous->positions != m_snap->positions) {
        m_explodeAnimation->stop();
        const Topology& topo = m_snap->topology();
        m_explode = canExplode() ? scenarioExplode(m_snap->scenario) : 0.0f;
        m_lastExplode = m_explode > 0.0f ? m_explode : std::max(1.0f, defaultExplode(topo));
        m_targetPositions = layoutAt(m_explode);
        m_positions = m_targetPositions;
        if (m_sliceDim >= topo.dims() || topo.isHypercube()) {
            m_sliceDim = -1;
            emit sliceChanged(-1, 0);
        } else if (m_sliceDim >= 0) {
            m_slicePlane = std::min(m_slicePlane, topo.side(m_sliceDim) - 1);
        }
        rebuildGeometry();
        resetView();
        emit explodeChanged(m_explode);
    }
    rebuildTrees();
    refresh();
}

void SceneView::rebuildGeometry()
{
    const Topology& topo = m_snap->topology();
    m_channels = drawnChannels(topo);
    m_straightCount = static_cast<std::size_t>(
        std::find_if(m_channels.begin(), m_channels.end(), [](const DrawnChannel& c) { return c.wrap; }) -
        m_channels.begin());
    placeGeometry(true);

    const std::uint32_t n = topo.nodeCount();
    m_nodeRadius = drawnNodeRadius(n);
    m_nodes->setRadius(m_nodeRadius);
    m_marks->setRadius(m_nodeRadius * 1.9f);
    m_links->setRadius(n > 4096 ? 0.025f : 0.035f, 0.045f);
    m_arcs->setRadius(0.03f, 0.045f);
    m_stubs->setRadius(0.03f, 0.045f);
    m_treeLinks->setRadius(n > 4096 ? 0.035f : 0.05f, 0.045f);
    m_messages->setRadius(0.11f);
    m_arrows->setSize(m_nodeRadius * 2.4f, m_nodeRadius);
    m_nodeLabels->setAnchorLift(m_nodeRadius * 0.9f);
    m_nodeLabelKey.clear();
    m_linkRadius = n > 4096 ? 0.025f : 0.035f;
}

void SceneView::placeGeometry(bool placeLabels)
{
    const Topology& topo = m_snap->topology();
    const auto& pos = m_positions;
    const auto bounds = layoutBounds(pos);
    const QVector3D lo(bounds[0][0], bounds[0][1], bounds[0][2]);
    const QVector3D hi(bounds[1][0], bounds[1][1], bounds[1][2]);
    const bool flat = (hi.z() - lo.z()) < 1e-3f;

    // 3-D tori: drawing every wrap-around arc buries the grid (a 7×7×7 torus has 294), so each
    // wrap channel shows as a short stub leaving its tail outwards, and only the wrap channels
    // in use in the current step are drawn as whole arcs (refresh()). 2-D tori keep all arcs.
    m_wrapStubs = topo.isTorus() && !flat;
    std::vector<LinkInstances::Instance> straight, stubs;
    straight.reserve(m_straightCount);
    m_arcShapes.clear();
    for (const DrawnChannel& c : m_channels) {
        LinkInstances::Instance in{pos[c.tail], pos[c.head], {0, 0, 0}, m_palette.link};
        if (!c.wrap) {
            straight.push_back(in);
            continue;
        }
        // Reverse channels bend the same way so both directions of one wrap link run side by side.
        in.bulge = wrapArcBulge(topo, bounds, in.a, in.b, c.dim);
        const QVector3D a(in.a[0], in.a[1], in.a[2]), b(in.b[0], in.b[1], in.b[2]);
        const QVector3D axis = (b - a).normalized();
        m_arcShapes.push_back(in);
        const QVector3D out = a - axis * 0.45f;  // the stub: from the tail away from the grid
        stubs.push_back({in.a, {out.x(), out.y(), out.z()}, {0, 0, 0}, m_palette.link});
    }
    m_links->setInstances(straight);
    m_stubs->setInstances(m_wrapStubs ? stubs : std::vector<LinkInstances::Instance>{});
    m_arcs->setInstances(m_wrapStubs ? std::vector<LinkInstances::Instance>{} : m_arcShapes);
    m_shownArcs.clear();
    if (m_wrapStubs && m_style.channelInUse.size() == m_channels.size()) {
        // Keep the arcs of the step shown (refresh() only re-sends them when the set changes).
        for (std::size_t w = 0; w + m_straightCount < m_channels.size(); ++w)
            if (m_style.channelInUse[m_straightCount + w])
                m_shownArcs.push_back(w);
        std::vector<LinkInstances::Instance> shown;
        for (std::size_t w : m_shownArcs)
            shown.push_back(m_arcShapes[w]);
        m_arcs->setInstances(shown);
    }

    // Axes from the low corner: x red, y green, z blue (layout: x → +X, y → −Y, z → +Z).
    const float len = std::max(1.5f, 0.25f * (hi - lo).length());
    const Vec3 o{lo.x() - 0.8f, hi.y() + 0.8f, lo.z() - 0.8f};
    m_axes->setInstances({{o, {o[0] + len, o[1], o[2]}, {0, 0, 0}, {0.9f, 0.2f, 0.2f}},
                          {o, {o[0], o[1] - len, o[2]}, {0, 0, 0}, {0.2f, 0.85f, 0.2f}},
                          {o, {o[0], o[1], o[2] + (flat ? 0.0f : len)}, {0, 0, 0}, {0.3f, 0.45f, 1.0f}}});
    m_axes->setRadius(0.03f, 0.0f);
    const QVector3D ends[3] = {{o[0] + len + 0.35f, o[1], o[2]}, {o[0], o[1] - len - 0.35f, o[2]}, {o[0], o[1], o[2] + len + 0.35f}};
    if (!placeLabels)
        return;
    const char* names[3] = {"x", "y", "z"};
    const QColor colours[3] = {QColor(240, 90, 90), QColor(90, 225, 90), QColor(120, 160, 255)};
    std::vector<LabelInstances::Label> labels;
    for (int i = 0; i < (flat ? 2 : 3); ++i)
        labels.push_back({{ends[i].x(), ends[i].y(), ends[i].z()}, QString::fromLatin1(names[i]), colours[i], 0.0f, 0.0f});
    m_labels->setLabels(std::move(labels), m_labelPixels);
}

void SceneView::setPositions(std::vector<Vec3> positions, bool placeLabels)
{
    m_positions = std::move(positions);
    m_nodeLabelKey.clear();  // node labels and numbers sit beside the nodes: place them again
    if (!m_snap)
        return;
    placeGeometry(placeLabels);
    rebuildTrees();
    std::vector<MarkInstances::Mark> marks = m_marks->marks();
    for (MarkInstances::Mark& m : marks)
        if (m.node < m_positions.size())
            m.position = m_positions[m.node];
    m_marks->setMarks(std::move(marks));
    refresh();
}

void SceneView::applySlice()
{
    if (m_sliceDim < 0 || !m_snap || m_sliceDim >= m_snap->topology().dims() || m_snap->topology().isHypercube())
        return;
    if (m_sliceFollow) {
        const int plane = busiestPlane(m_snap->schedule, static_cast<std::uint32_t>(std::max(0, m_step)), m_sliceDim);
        if (plane >= 0 && plane != m_slicePlane) {
            m_slicePlane = plane;
            emit sliceChanged(m_sliceDim, m_slicePlane);
        }
    }
    // Ghosts: most of the way to the background and smaller, so the plane in full stands out
    // while the rest still shows where it sits.
    const Topology& topo = m_snap->topology();
    const Rgba bg = m_palette.background;
    auto ghost = [&bg](Rgba& c) {
        c = {c.r * 0.22f + bg.r * 0.78f, c.g * 0.22f + bg.g * 0.78f, c.b * 0.22f + bg.b * 0.78f, c.a};
    };
    std::vector<bool> inPlane(topo.nodeCount());
    for (NodeId v = 0; v < topo.nodeCount(); ++v)
        inPlane[v] = topo.coord(v, m_sliceDim) == m_slicePlane;
    for (NodeId v = 0; v < inPlane.size() && v < m_style.nodeColour.size(); ++v)
        if (!inPlane[v]) {
            ghost(m_style.nodeColour[v]);
            m_style.nodeScale[v] *= 0.6f;
        }
    for (std::size_t i = 0; i < m_channels.size() && i < m_style.channelColour.size(); ++i)
        if (!inPlane[m_channels[i].tail] || !inPlane[m_channels[i].head])
            ghost(m_style.channelColour[i]);
}

void SceneView::setSlice(int dim, int plane)
{
    if (!m_snap || m_snap->topology().isHypercube() || dim >= m_snap->topology().dims())
        dim = -1;
    if (dim >= 0)
        plane = std::clamp(plane, 0, m_snap->topology().side(dim) - 1);
    if (dim == m_sliceDim && (dim < 0 || plane == m_slicePlane))
        return;
    m_sliceDim = dim;
    m_slicePlane = dim < 0 ? 0 : plane;
    emit sliceChanged(m_sliceDim, m_slicePlane);
    refresh();
}

void SceneView::setSliceFollowsStep(bool follow)
{
    m_sliceFollow = follow;
    refresh();
}

bool SceneView::canExplode() const
{
    // The flat hypercube drawing is a plane already: nothing to pull apart.
    return m_snap && topocast::canExplode(m_snap->topology()) && drawingOf(m_snap->scenario) != HypercubeDrawing::Flat;
}

std::vector<Vec3> SceneView::layoutAt(float explode) const
{
    if (!canExplode() || explode <= 0.0f)
        return m_snap->positions;
    return nodePositions(m_snap->topology(), explode);
}

void SceneView::setExplode(float explode, bool animate)
{
    if (!canExplode())
        return;
    explode = std::clamp(explode, 0.0f, kMaxExplode);
    if (explode == m_explode && m_explodeAnimation->state() != QAbstractAnimation::Running)
        return;
    m_explodeAnimation->stop();
    const Topology& topo = m_snap->topology();
    // The camera follows the new framing when it shows the default framing of what is drawn now.
    const OrbitView now = m_orbit->view();
    const OrbitView framed = defaultView(topo, m_targetPositions, now.aspect);
    m_cameraFollows = std::abs(now.distance - framed.distance) < 1e-3f * framed.distance && now.yaw == framed.yaw &&
                      now.pitch == framed.pitch &&
                      std::hypot(now.centre[0] - framed.centre[0], now.centre[1] - framed.centre[1],
                                 now.centre[2] - framed.centre[2]) < 1e-3f;
    m_explode = explode;
    if (explode > 0.0f)
        m_lastExplode = explode;
    m_fromPositions = m_positions;
    m_fromView = now;
    m_targetPositions = layoutAt(explode);
    m_toView = defaultView(topo, m_targetPositions, now.aspect);
    emit explodeChanged(m_explode);
    if (animate) {
        m_explodeAnimation->start();
        return;
    }
    setPositions(m_targetPositions, true);
    if (m_cameraFollows) {
        m_orbit->setView(m_toView);
        updateLevelOfDetail();
    }
}

void SceneView::toggleExplode() { setExplode(m_explode > 0.0f ? 0.0f : m_lastExplode); }

void SceneView::scheduleVisibility() { m_visibilityTimer->start(); }

void SceneView::updateVisibility()
{
    m_visibilityTimer->stop();
    std::size_t receivers = 0, hidden = 0;
    if (m_snap && m_positions.size() <= 4096 && m_step >= 1 && static_cast<std::uint32_t>(m_step) <= m_snap->stepCount()) {
        std::vector<NodeId> to;
        for (const Transfer& t : m_snap->schedule.stepTransfers(static_cast<std::uint32_t>(m_step)))
            to.push_back(t.to);
        std::sort(to.begin(), to.end());
        to.erase(std::unique(to.begin(), to.end()), to.end());
        const std::vector<bool> seen = visibleNodes(m_orbit->view(), m_positions, m_nodeRadius);
        receivers = to.size();
        hidden = static_cast<std::size_t>(
            std::count_if(to.begin(), to.end(), [&](NodeId v) { return v < seen.size() && !seen[v]; }));
    }
    m_receivers = receivers;
    m_hidden = hidden;
    emit visibilityChanged();
}

void SceneView::rebuildTrees()
{
    // One instance per member tree edge (snapshot order: tree 0's edges, then tree 1's, …) on
    // top of its directed channel. Members sharing a directed edge (nRSBT, SBnTc, nRBRG) are
    // drawn side by side in lanes across the channel, so every member's colour shows.
    std::vector<LinkInstances::Instance> edges;
    std::map<std::pair<NodeId, NodeId>, int> lanes;
    for (const auto& tree : m_snap->trees)
        for (const hypercube::TreeEdge& e : tree)
            ++lanes[{e.parent, e.child}];
    std::map<std::pair<NodeId, NodeId>, int> used;
    const auto& pos = m_positions;
    for (std::size_t t = 0; t < m_snap->trees.size(); ++t)
        for (const hypercube::TreeEdge& e : m_snap->trees[t]) {
            if (e.parent >= pos.size() || e.child >= pos.size())
                continue;
            QVector3D a(pos[e.parent][0], pos[e.parent][1], pos[e.parent][2]);
            QVector3D b(pos[e.child][0], pos[e.child][1], pos[e.child][2]);
            const int count = lanes[{e.parent, e.child}];
            const int lane = used[{e.parent, e.child}]++;
            if (count > 1) {
                // Across the channel, perpendicular to the shader's own side offset.
                const QVector3D d = (b - a).normalized();
                const QVector3D side = QVector3D::crossProduct(
                    d, std::abs(d.y()) < 0.9f ? QVector3D(0, 1, 0) : QVector3D(1, 0, 0)).normalized();
                const QVector3D across = QVector3D::crossProduct(d, side).normalized();
                const QVector3D shift = across * (0.06f * (static_cast<float>(lane) - 0.5f * static_cast<float>(count - 1)));
                a += shift;
                b += shift;
            }
            edges.push_back({{a.x(), a.y(), a.z()}, {b.x(), b.y(), b.z()}, {0, 0, 0}, treeColour(static_cast<int>(t), true, m_palette)});
        }
    m_treeLinks->setInstances(edges);
}

void SceneView::refresh()
{
    if (!m_snap)
        return;
    m_style = topocast::app::frameStyle(*m_snap, m_channels, m_step, m_mode, m_cumulativeHeat, m_palette);
    for (NodeId v : m_highlight) {
        if (v >= m_style.nodeColour.size() || v == m_snap->schedule.source())
            continue;
        Rgba& c = m_style.nodeColour[v];
        c = {c.r * 0.4f + 0.6f * 1.0f, c.g * 0.4f + 0.6f * 0.2f, c.b * 0.4f + 0.6f * 0.85f, c.a};
        m_style.nodeScale[v] = std::max(m_style.nodeScale[v], 1.0f) * 1.35f;
    }
    if (m_overlay)
        m_overlay(m_style, m_channels, m_step);
    applySlice();
    m_nodes->setNodes(m_positions, m_style.nodeColour, m_style.nodeScale);
    std::vector<Rgba> straight(m_style.channelColour.begin(),
                               m_style.channelColour.begin() + static_cast<std::ptrdiff_t>(m_straightCount));
    std::vector<Rgba> arcs(m_style.channelColour.begin() + static_cast<std::ptrdiff_t>(m_straightCount),
                           m_style.channelColour.end());
    m_links->setColours(straight);
    if (m_wrapStubs) {
        m_stubs->setColours(arcs);
        // Whole arcs only for the wrap channels in use in this step.
        std::vector<std::size_t> active;
        for (std::size_t w = 0; w < arcs.size(); ++w)
            if (m_style.channelInUse[m_straightCount + w])
                active.push_back(w);
        if (active != m_shownArcs) {
            std::vector<LinkInstances::Instance> shown;
            for (std::size_t w : active)
                shown.push_back(m_arcShapes[w]);
            m_arcs->setInstances(shown);
            m_shownArcs = active;
        }
        std::vector<Rgba> shownColours;
        for (std::size_t w : m_shownArcs)
            shownColours.push_back(arcs[w]);
        m_arcs->setColours(shownColours);
    } else {
        m_arcs->setColours(arcs);
    }
    m_treeLinks->setEnabled(m_mode == ViewMode::Trees);
    if (m_mode == ViewMode::Trees)
        m_treeLinks->setColours(m_style.treeEdgeColour);

    // Messages of the current step: one instance per hop along the actual route; an arrowhead
    // per transfer at the receiving end of its route, along its last hop.
    std::vector<MessageInstances::Hop> hops;
    std::vector<ArrowInstances::Arrow> arrows;
    const Schedule& s = m_snap->schedule;
    if (m_step >= 1 && static_cast<std::uint32_t>(m_step) <= s.stepCount()) {
        const auto& pos = m_positions;
        const bool tags = !s.transfers().empty() &&
                          std::any_of(s.transfers().begin(), s.transfers().end(),
                                      [&](const Transfer& t) { return t.tag != s.transfers().front().tag; });
        for (const Transfer& t : s.stepTransfers(static_cast<std::uint32_t>(m_step))) {
            if (hops.size() >= kMaxMessageHops)
                break;
            const auto nodes = routeNodes(s.topology(), t.from, t.to, t.route, s.dimensionOrder);
            const auto count = static_cast<float>(nodes.size() - 1);
            const Rgba colour = tags ? categoryColour(static_cast<int>(t.tag)) : m_palette.message;
            for (std::size_t k = 0; k + 1 < nodes.size(); ++k)
                hops.push_back({pos[nodes[k]], pos[nodes[k + 1]], colour, static_cast<float>(k), count});
            if (nodes.size() >= 2)
                arrows.push_back({pos[nodes.back()], pos[nodes[nodes.size() - 2]], colour});
        }
    }
    m_messages->setHops(hops);
    scheduleVisibility();
    m_arrows->setArrows(std::move(arrows));
    refreshNodeLabels();
    emit frameStyleChanged();
}

void SceneView::refreshNodeLabels()
{
    // Node labels say where a node is; the source-map numbers are the map's values, like the
    // papers' tables. The text is drawn once into an atlas, so rebuild only when it changes.
    const Topology& topo = m_snap->topology();
    const std::size_t n = topo.nodeCount();
    const NodeId source = m_snap->schedule.source();
    const bool numbers = m_mode == ViewMode::TcdMap && n <= kMapNumberNodes && m_snap->landscape.size() == n;
    const bool all = n <= kLabelAllNodes;
    std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(m_snap.get())) + "/" + std::to_string(source) + "/" +
                      std::to_string(numbers) + std::to_string(all) + std::to_string(m_highContrast) + "/" +
                      std::to_string(m_labelPixels);
    if (key == m_nodeLabelKey)
        return;
    m_nodeLabelKey = std::move(key);
    const auto& pos = drawnPositions();
    std::vector<LabelInstances::Label> labels;
    // Beside the node, up and to the right (the shader adds the gap to the sphere); the
    // numbers below it, centred.
    auto beside = [&](NodeId v, const QColor& colour) {
        const QString text = QString::fromStdString(nodeLabel(topo, v));
        const QSize plate = LabelInstances::plateSizeFor(text, m_labelPixels);
        labels.push_back({pos[v], text, colour, 0.5f * static_cast<float>(plate.width()), 0.5f * static_cast<float>(plate.height())});
    };
    for (NodeId v = 0; v < n; ++v) {
        if (numbers) {
            const double x = m_snap->landscape[v];
            if (!std::isnan(x))
                labels.push_back({pos[v],
                                  QString::fromStdString(formatLandscapeValue(x, m_snap->landscapeMetric, m_snap->landscapeTimeUnit)),
                                  toQColor(m_palette.message), 0.0f,
                                  -0.5f * static_cast<float>(LabelInstances::plateSizeFor(QStringLiteral("0"), m_labelPixels).height())});
        }
        if (v == source)
            beside(v, toQColor(m_palette.source));
        else if (all && !numbers)
            beside(v, toQColor(m_palette.message));
    }
    m_nodeLabels->setLabels(std::move(labels), m_labelPixels);
}

void SceneView::setStyleOverlay(StyleOverlay overlay)
{
    m_overlay = std::move(overlay);
    refresh();
}

void SceneView::setStep(int step)
{
    if (step == m_step)
        return;
    m_step = std::max(0, step);
    refresh();
}

void SceneView::setHighlight(std::vector<NodeId> nodes)
{
    if (nodes == m_highlight)
        return;
    m_highlight = std::move(nodes);
    refresh();
}

void SceneView::setFraction(float fraction)
{
    m_messages->setFraction(fraction);
    // Arrowheads mark a step at rest; while the messages move hop by hop they would point at
    // where the messages have not arrived yet.
    m_arrows->setShown(fraction >= 1.0f);
}

void SceneView::setMode(ViewMode mode)
{
    m_mode = mode;
    refresh();
}

void SceneView::setCumulativeHeat(bool cumulative)
{
    m_cumulativeHeat = cumulative;
    refresh();
}

void SceneView::setHighContrast(bool on)
{
    m_highContrast = on;
    m_palette = on ? Palette::highContrast() : Palette::normal();
    m_clear->setClearColor(toQColor(m_palette.background));
    refresh();
}

void SceneView::updateLevelOfDetail()
{
    if (!m_snap)
        return;
    const float ppu = pixelsPerUnit(static_cast<float>(viewportSize().height() * m_window->devicePixelRatio()),
                                    m_orbit->state().distance, m_window->camera()->fieldOfView());
    m_nodes->setDetail(sphereDetail(m_nodeRadius * ppu, m_positions.size()));
    m_links->setUseLines(linkAsLine(m_linkRadius * ppu, m_channels.size()));
    const bool thin = linkAsLine(0.03f * ppu, 0);
    m_axes->setUseLines(thin);
    m_arcs->setUseLines(thin);
    m_stubs->setUseLines(thin);
}

bool SceneView::flatNetwork() const
{
    if (!m_snap)
        return false;
    const auto bounds = layoutBounds(m_snap->positions);
    return bounds[1][2] - bounds[0][2] < 1e-3f;
}

bool SceneView::orthographic() const { return m_orbit->orthographic(); }

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
    const bool wasOrthographic = m_orbit->orthographic();
    // 2-D networks top-down and orthographic, x right and y down as in the papers.
    m_orbit->setOrthographic(flatNetwork() || m_orthographic3d);
    const auto bounds = layoutBounds(m_targetPositions);
    const QVector3D lo(bounds[0][0], bounds[0][1], bounds[0][2]);
    const QVector3D hi(bounds[1][0], bounds[1][1], bounds[1][2]);
    const bool flat = (hi.z() - lo.z()) < 1e-3f && !m_snap->topology().isTorus();
    if (flat) {
        // Top-down: frame the grid's box (with the axes at its top left, node labels to the
        // right and numbers below) to the window's shape, not a sphere round its diagonal.
        const float width = hi.x() - lo.x();
        const QVector3D boxLo(lo.x() - 1.2f, lo.y() - 0.7f, lo.z());
        const QVector3D boxHi(hi.x() + 1.0f + 0.06f * width, hi.y() + 1.3f, hi.z());
        m_orbit->frameTopDown((boxLo + boxHi) * 0.5f, 0.5f * (boxHi.x() - boxLo.x()), 0.5f * (boxHi.y() - boxLo.y()));
    } else {
        // Frames where the nodes are going (an explode animation's end), as core's defaultView.
        m_orbit->setView(defaultView(m_snap->topology(), m_targetPositions, aspect));
    }
    updateLevelOfDetail();
    scheduleVisibility();
    if (wasOrthographic != m_orbit->orthographic())
        emit orthographicChanged(m_orbit->orthographic());
}

QMatrix4x4 SceneView::viewProjection() const
{
    Qt3DRender::QCamera* camera = m_window->camera();
    return camera->projectionMatrix() * camera->viewMatrix();
}

QSizeF SceneView::viewportSize() const
{
    const QSize s = m_window->size();
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
    return pickAt(viewProjection(), viewportSize(), pos, m_positions, m_nodeRadius * 1.3f);
}

bool SceneView::waitUntilLoaded(int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!m_labels->loaded()) {
        if (t.elapsed() > timeoutMs)
            return false;
        // Each capture request makes Qt3D render (and run its loaders) once.
        Qt3DRender::QRenderCaptureReply* reply = m_capture->requestCapture();
        QEventLoop loop;
        connect(reply, &Qt3DRender::QRenderCaptureReply::completed, &loop, &QEventLoop::quit);
        QTimer::singleShot(std::max(1, timeoutMs - static_cast<int>(t.elapsed())), &loop, &QEventLoop::quit);
        if (!reply->isComplete())
            loop.exec();
        const bool rendered = reply->isComplete();
        delete reply;
        if (!rendered)
            return false;
    }
    return true;
}

QImage SceneView::captureFrame(int timeoutMs, bool dropFirst)
{
    updateLevelOfDetail();  // the camera may have been set directly (exports)
    // Textures load asynchronously: the first frame after a new label atlas may not show it yet.
    if (dropFirst && !waitUntilLoaded(timeoutMs))
        return QImage();
    QImage image;
    for (int attempt = dropFirst ? 0 : 1; attempt < 2; ++attempt) {  // the first capture after a change may be stale
        Qt3DRender::QRenderCaptureReply* reply = m_capture->requestCapture();
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

double SceneView::measureFrameMs(int frames)
{
    captureFrame();
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < frames; ++i) {
        m_orbit->orbit(0.5f, 0.0f);  // a change per frame so each one is really rendered
        Qt3DRender::QRenderCaptureReply* reply = m_capture->requestCapture();
        QEventLoop loop;
        connect(reply, &Qt3DRender::QRenderCaptureReply::completed, &loop, &QEventLoop::quit);
        QTimer::singleShot(10000, &loop, &QEventLoop::quit);
        if (!reply->isComplete())
            loop.exec();
        delete reply;
    }
    return static_cast<double>(t.elapsed()) / std::max(1, frames);
}

bool SceneView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_window)
        return QObject::eventFilter(watched, event);
    const QEvent::Type type = event->type();
    if (type == QEvent::Resize || type == QEvent::Wheel || type == QEvent::KeyPress ||
        (type == QEvent::MouseMove && static_cast<QMouseEvent*>(event)->buttons() != Qt::NoButton))
        scheduleVisibility();  // the camera may have moved
    switch (type) {
    case QEvent::Resize:
        m_orbit->setAspect(static_cast<float>(viewportSize().width() / viewportSize().height()));
        m_labels->setViewportSize((viewportSize() * m_window->devicePixelRatio()).toSize());
        updateLevelOfDetail();
        break;
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick: {
        auto* e = static_cast<QMouseEvent*>(event);
        m_pressPos = m_lastPos = e->position().toPoint();
        m_buttons = e->buttons();
        m_dragged = false;
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        const QPoint p = e->position().toPoint();
        const QPoint d = p - m_lastPos;
        m_lastPos = p;
        if (e->buttons() == Qt::NoButton) {
            emit nodeHovered(nodeAt(e->position()), e->globalPosition().toPoint());
            return true;
        }
        if ((p - m_pressPos).manhattanLength() > 4)
            m_dragged = true;
        const QSizeF size = viewportSize();
        if (e->buttons() & Qt::LeftButton && !(e->modifiers() & Qt::ShiftModifier))
            m_orbit->orbit(-static_cast<float>(d.x()) * 0.4f, static_cast<float>(d.y()) * 0.4f);
        else
            m_orbit->pan(static_cast<float>(2.0 * d.x() / size.width()), static_cast<float>(2.0 * d.y() / size.height()));
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (!m_dragged && e->button() == Qt::LeftButton) {
            const long long v = nodeAt(e->position());
            if (v >= 0)
                emit nodeClicked(static_cast<NodeId>(v));
        }
        return true;
    }
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        m_orbit->zoom(std::pow(0.999f, static_cast<float>(e->angleDelta().y())));
        updateLevelOfDetail();
        return true;
    }
    case QEvent::KeyPress: {
        auto* e = static_cast<QKeyEvent*>(event);
        switch (e->key()) {
        case Qt::Key_Space: case Qt::Key_Left: case Qt::Key_Right: case Qt::Key_Home: case Qt::Key_End:
            emit timelineKey(e->key());
            return true;
        case Qt::Key_Plus: case Qt::Key_Equal: m_orbit->zoom(0.85f); updateLevelOfDetail(); return true;
        case Qt::Key_Minus: m_orbit->zoom(1.0f / 0.85f); updateLevelOfDetail(); return true;
        case Qt::Key_A: m_orbit->orbit(-5, 0); return true;
        case Qt::Key_D: m_orbit->orbit(5, 0); return true;
        case Qt::Key_W: m_orbit->orbit(0, 5); return true;
        case Qt::Key_S: m_orbit->orbit(0, -5); return true;
        case Qt::Key_Up: m_orbit->pan(0, 0.1f); return true;
        case Qt::Key_Down: m_orbit->pan(0, -0.1f); return true;
        case Qt::Key_R: resetView(); return true;
        case Qt::Key_E:  // View ▸ Explode planes when the window system gives the key to this window
            if (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
                break;
            toggleExplode();
            return true;
        default: break;
        }
        break;
    }
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace topocast::app
