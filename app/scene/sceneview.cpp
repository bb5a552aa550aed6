#include "scene/sceneview.h"

#include "scene/arrowinstances.h"
#include "scene/dataglyphs.h"
#include "scene/glyphinstances.h"
#include "scene/labelinstances.h"
#include "scene/levelofdetail.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/picking.h"

#include "narration.h"

#include "topocast/camera.h"
#include "topocast/io/scenario.h"
#include "topocast/view_labels.h"
#include "topocast/visibility.h"

#include <Qt3DCore/QEntity>
#include <Qt3DCore/QTransform>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QRenderStateSet>
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
    m_glyphs = new GlyphInstances(m_root);
    m_labels = new LabelInstances(m_root);
    m_nodeLabels = new LabelInstances(m_root);
    m_messageLabels = new LabelInstances(m_root);
    buildFrameGraph({m_links, m_stubs, m_arcs, m_treeLinks, m_axes, m_nodes, m_messages, m_arrows, m_glyphs, m_marks, m_labels,
                     m_nodeLabels, m_messageLabels});
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
        setPositions(std::move(mixed));
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
        setPositions(m_targetPositions);
        if (m_cameraFollows) {
            OrbitView v = m_toView;
            v.aspect = m_orbit->view().aspect;
            m_orbit->setView(v);
            m_framed = m_orbit->view();
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
    // could take either colour from run to run (1–4 pixels per frame).
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
        if (entity == m_labels || entity == m_nodeLabels || entity == m_messageLabels) {
            // Labels are words to read: always on top of the network (the links of an exploded
            // tower ran across them). Node labels keep clear of every node (refreshNodeLabels()),
            // so none needs to hide behind a nearer one.
            auto* states = new Qt3DRender::QRenderStateSet(filter);
            auto* depth = new Qt3DRender::QDepthTest(states);
            depth->setDepthFunction(Qt3DRender::QDepthTest::Always);
            states->addRenderState(depth);
        }
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
    {
        const auto transfers = m_snap->schedule.transfers();
        double smallest = transfers.empty() ? 1.0 : transfers.front().size;
        m_largestTransfer = smallest;
        m_severalBlocks = false;
        for (const Transfer& t : transfers) {
            smallest = std::min(smallest, t.size);
            m_largestTransfer = std::max(m_largestTransfer, t.size);
            m_severalBlocks = m_severalBlocks || m_snap->schedule.payload(t.payload).size() > 1;
        }
        m_uniformTransfers = !(m_largestTransfer > smallest) || !(m_largestTransfer > 0);
    }
    if (newTopology || previous->positions != m_snap->positions) {
        m_explodeAnimation->stop();
        const Topology& topo = m_snap->topology();
        m_explode = canExplode() ? m_snap->drawing.explode : 0.0f;
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

void SceneView::refresh()
{
    if (!m_snap)
        return;
    m_style = topocast::app::frameStyle(*m_snap, m_channels, m_step, m_mode, m_cumulativeHeat, m_palette);
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
        m_stubs->setColours(std::vector<Rgba>(arcs.begin(), arcs.begin() + static_cast<std::ptrdiff_t>(stubbedCount(m_channels))));
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
        const bool tags = m_snap->channelLoads.severalTags();
        for (const Transfer& t : s.stepTransfers(StepNo{m_step})) {
            if (hops.size() >= kMaxMessageHops)
                break;
            const auto nodes = routeNodes(s.topology(), t.from, t.to, t.route, s.dimensionOrder);
            const auto count = static_cast<float>(nodes.size() - 1);
            const Rgba colour = messageColour(m_mode, m_palette, static_cast<int>(t.tag), tags);
            const float scale = messageScale(t.size);
            for (std::size_t k = 0; k + 1 < nodes.size(); ++k)
                hops.push_back({pos[nodes[k]], pos[nodes[k + 1]], colour, static_cast<float>(k), count, scale});
            if (nodes.size() >= 2)
                arrows.push_back({pos[nodes.back()], pos[nodes[nodes.size() - 2]], colour, scale});
        }
    }
    m_messages->setHops(hops);
    if (m_mode == ViewMode::DataHeld && drawsDataGlyphs(*m_snap))
        m_glyphs->setCells(dataGlyphCells(*m_snap, StepNo{static_cast<std::uint32_t>(std::max(m_step, 0))}, m_palette,
                                          m_glyphWidth),
                           m_positions);
    else
        m_glyphs->setCells({}, m_positions);
    scheduleVisibility();
    m_arrows->setArrows(std::move(arrows));
    refreshNodeLabels();
    refreshMessageLabels();
    emit frameStyleChanged();
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
    // A solid magenta ring around each node: its own colour (its state) stays visible inside.
    std::vector<MarkInstances::Mark> marks;
    for (const NodeId v : m_highlight)
        if (v < m_positions.size() && (!m_snap || v != m_snap->schedule.source()))
            marks.push_back({v, m_positions[v], kHighlightColour, MarkShape::Right, 1.15f});
    m_marks->setMarks(std::move(marks));
}

void SceneView::setFraction(float fraction)
{
    m_messages->setFraction(fraction);
    // Arrowheads mark a step at rest; while the messages move hop by hop they would point at
    // where the messages have not arrived yet.
    m_arrows->setShown(fraction >= 1.0f);
    m_atRest = fraction >= 1.0f;
    m_messageLabels->setEnabled(m_atRest && !m_messageLabels->labels().empty());
}

float SceneView::messageScale(double size) const
{
    if (m_uniformTransfers)
        return 1.0f;
    return 0.6f + 0.8f * static_cast<float>(std::sqrt(std::max(0.0, size) / m_largestTransfer));
}

void SceneView::refreshMessageLabels()
{
    std::vector<LabelInstances::Label> labels;
    const Schedule& s = m_snap->schedule;
    // The arrows refresh() just placed: arrow i is the last hop of the step's transfer i.
    const auto& arrows = m_arrows->arrows();
    if (m_severalBlocks && !m_compactLabels && m_step >= 1 && static_cast<std::uint32_t>(m_step) <= s.stepCount() &&
        arrows.size() <= kMessageLabels) {
        const QMatrix4x4 vp = viewProjection();
        const QSizeF size = viewportSize();
        const auto transfers = s.stepTransfers(StepNo{m_step});
        // Each plate where it is meant to sit, or left out where it would cover a node, a title,
        // a node label or an earlier message's plate (core placeLabels, in device pixels).
        const double dpr = m_window->devicePixelRatio();
        const LabelCamera camera = labelCamera();
        std::vector<LabelRequest> requests;
        for (std::size_t i = 0; i < arrows.size(); ++i) {
            // Beside the middle of the last hop, on the left of the direction of travel as seen on
            // screen: two messages crossing one link in opposite directions keep apart.
            const Vec3 &a = arrows[i].from, &b = arrows[i].tip;
            const Vec3 mid{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
            const QPointF d = projectToScreen(vp, size, b) - projectToScreen(vp, size, a);
            const double len = std::hypot(d.x(), d.y());
            const QString text = blockCount(s, s.payload(transfers[i].payload).size());
            const QSize plate = LabelInstances::plateSizeFor(text, m_labelPixels);
            // Screen y runs down, the label offsets' y up: the left normal of the direction (dx, −dy)
            // is (dy, dx) / len. The sides are taken from the camera of this refresh.
            const double nx = len > 0 ? d.y() / len : 0.0, ny = len > 0 ? d.x() / len : 1.0;
            const double reach = 0.5 * std::abs(nx) * plate.width() + 0.5 * std::abs(ny) * plate.height() + 4.0;
            labels.push_back({mid, text, toQColor(m_palette.message), static_cast<float>(nx * reach),
                              static_cast<float>(ny * reach)});
            const QPointF at = projectToScreen(vp, size, mid) * dpr;
            LabelRequest r;
            r.x = static_cast<float>(at.x() + nx * reach);
            r.y = static_cast<float>(at.y() - ny * reach);
            r.plate = {plate.width(), plate.height()};
            r.fixed = true;
            r.side = LabelSide::Centre;
            requests.push_back(r);
        }
        const int w = camera.pixels.width(), h = camera.pixels.height();
        const auto boxes = placeLabels(
            requests, screenDiscs(camera.viewProjection, camera.right, m_positions, labelClearance(), w, h), w, h,
            m_labelBoxes);
        std::vector<LabelInstances::Label> kept;
        for (std::size_t i = 0; i < labels.size(); ++i)
            if (boxes[i].side != LabelSide::Hidden)
                kept.push_back(std::move(labels[i]));
        labels = std::move(kept);
    }
    // The atlas is drawn again only when what the plates say or where they sit changes.
    const auto& shown = m_messageLabels->labels();
    const bool same = m_messageLabelPixels == m_labelPixels && shown.size() == labels.size() &&
                      std::equal(labels.begin(), labels.end(), shown.begin(), [](const auto& x, const auto& y) {
                          return x.anchor == y.anchor && x.text == y.text && x.colour == y.colour &&
                                 x.offsetX == y.offsetX && x.offsetY == y.offsetY;
                      });
    if (!same) {
        m_messageLabels->setLabels(std::move(labels), m_labelPixels);
        m_messageLabelPixels = m_labelPixels;
    }
    m_messageLabels->setEnabled(m_atRest && !m_messageLabels->labels().empty());
}

long long SceneView::messageAt(const QPointF& pos) const
{
    if (!m_snap || !m_atRest || m_step < 1 || static_cast<std::uint32_t>(m_step) > m_snap->schedule.stepCount())
        return -1;
    // The arrows shown (arrow i is the last hop of the step's transfer i): no route is traced again
    // on a mouse move.
    const QMatrix4x4 vp = viewProjection();
    const QSizeF size = viewportSize();
    std::vector<std::pair<QPointF, QPointF>> segments;
    for (const ArrowInstances::Arrow& a : m_arrows->arrows())
        segments.emplace_back(projectToScreen(vp, size, a.from), projectToScreen(vp, size, a.tip));
    // The arrowhead's half of the last hop, clear of the sender's node.
    const long long i = pickSegment(segments, pos, 8.0, 0.45, 0.9);
    return i < 0 ? -1 : static_cast<long long>(m_snap->schedule.stepBegin(StepNo{m_step})) + i;
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

} // namespace topocast::app
