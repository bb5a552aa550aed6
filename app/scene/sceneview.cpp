#include "scene/sceneview.h"

#include "scene/arrowinstances.h"
#include "scene/glyphinstances.h"
#include "scene/labelinstances.h"
#include "scene/levelofdetail.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/picking.h"
#include "scene/simulatedframes.h"

#include "words/narration.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/view_labels.h"
#include "topocast/drawing/visibility.h"
#include "topocast/scenario/data_glyphs.h"
#include "topocast/scenario/scenario.h"

#include <Qt3DCore/QEntity>
#include <Qt3DCore/QTransform>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QRenderStateSet>
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

QWindow* SceneView::window() const
{
    return m_frame.window;
}

namespace {

QColor toQColor(const Rgba& c)
{
    return c.to<QColor>();
}
} // namespace

SceneView::SceneView(QObject* parent) : QObject(parent)
{
    m_frame.window = new Qt3DExtras::Qt3DWindow(nullptr, Qt3DRender::API::OpenGL);
    // Qt3DWindow asks for 4× multisampling, also as the default format its GL context is made
    // with; both must change for the samples to.
    QSurfaceFormat format = m_frame.window->format();
    format.setSamples(surfaceSamples());
    m_frame.window->setFormat(format);
    QSurfaceFormat::setDefaultFormat(format);
    m_frame.window->installEventFilter(this);
    m_frame.root = new Qt3DCore::QEntity;
    // Frame time: Qt3D calls a frame action once per frame with the seconds since the last one.
    auto* frames = new Qt3DLogic::QFrameAction(m_frame.root);
    connect(frames, &Qt3DLogic::QFrameAction::triggered, this, [this](float dt) {
        ++m_frames.drawn;
        if (m_frames.drawn < 2 || !(dt > 0.0f))
            return;
        const double ms = static_cast<double>(dt) * 1000.0;
        m_frames.timeMs = m_frames.timeMs == 0.0 ? ms : 0.8 * m_frames.timeMs + 0.2 * ms;
    });

    m_layers.links = new LinkInstances(1, m_frame.root);
    m_layers.arcs = new LinkInstances(12, m_frame.root);
    m_layers.stubs = new LinkInstances(1, m_frame.root);
    m_layers.treeLinks = new LinkInstances(1, m_frame.root);
    m_layers.treeLinks->setEnabled(false);
    m_layers.axes = new LinkInstances(1, m_frame.root);
    m_layers.nodes = new NodeInstances(m_frame.root);
    m_layers.messages = new MessageInstances(m_frame.root);
    m_layers.marks = new MarkInstances(m_frame.root);
    m_layers.arrows = new ArrowInstances(m_frame.root);
    m_layers.glyphs = new GlyphInstances(m_frame.root);
    m_layers.labels = new LabelInstances(m_frame.root);
    m_layers.nodeLabels = new LabelInstances(m_frame.root);
    m_layers.messageLabels = new LabelInstances(m_frame.root);
    m_layers.glyphTexts = new LabelInstances(m_frame.root);
    m_layers.glyphTexts->setOutlined(true);
    buildFrameGraph({m_layers.links, m_layers.stubs, m_layers.arcs, m_layers.treeLinks, m_layers.axes, m_layers.nodes,
                     m_layers.messages, m_layers.glyphs, m_layers.glyphTexts, m_layers.marks, m_layers.labels,
                     m_layers.nodeLabels, m_layers.messageLabels, m_layers.arrows});
    m_frame.window->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);

    Qt3DRender::QCamera* camera = m_frame.window->camera();
    camera->lens()->setPerspectiveProjection(40.0f, 16.0f / 9.0f, 0.1f, 1000.0f);
    m_orbit = std::make_unique<OrbitCamera>(camera);
    m_orbit->reset({0, 0, 0}, 5.0f, false);
    m_frame.window->setRootEntity(m_frame.root);

    m_explodeAnimation = new QVariantAnimation(this);
    m_explodeAnimation->setDuration(300);
    m_explodeAnimation->setStartValue(0.0);
    m_explodeAnimation->setEndValue(1.0);
    m_explodeAnimation->setEasingCurve(QEasingCurve::InOutCubic);
    connect(m_explodeAnimation, &QVariantAnimation::valueChanged, this, [this](const QVariant& value) {
        if (m_explodeAnimation->state() != QAbstractAnimation::Running ||
            m_explode.from.size() != m_explode.target.size())
            return;
        const float t = value.toFloat();
        std::vector<Vec3> mixed(m_explode.target.size());
        for (std::size_t i = 0; i < mixed.size(); ++i)
            for (std::size_t a = 0; a < 3; ++a)
                mixed[i][a] = m_explode.from[i][a] + (m_explode.target[i][a] - m_explode.from[i][a]) * t;
        setPositions(std::move(mixed));
        if (m_explode.cameraFollows) {
            OrbitView v = m_explode.toView;
            v.distance = m_explode.fromView.distance + (m_explode.toView.distance - m_explode.fromView.distance) * t;
            for (std::size_t a = 0; a < 3; ++a)
                v.centre[a] =
                    m_explode.fromView.centre[a] + (m_explode.toView.centre[a] - m_explode.fromView.centre[a]) * t;
            v.aspect = m_orbit->view().aspect;
            m_orbit->setView(v);
        }
    });
    connect(m_explodeAnimation, &QVariantAnimation::finished, this, [this] {
        setPositions(m_explode.target);
        if (m_explode.cameraFollows) {
            OrbitView v = m_explode.toView;
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
    const bool software = renderer.contains(QLatin1String("llvmpipe")) ||
                          renderer.contains(QLatin1String("softpipe")) || renderer.contains(QLatin1String("swrast")) ||
                          renderer.contains(QLatin1String("software"));
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
    surface->setSurface(m_frame.window);
    auto* viewport = new Qt3DRender::QViewport(surface);
    viewport->setNormalizedRect(QRectF(0, 0, 1, 1));
    auto* cameraSelector = new Qt3DRender::QCameraSelector(viewport);
    cameraSelector->setCamera(m_frame.window->camera());
    m_frame.clear = new Qt3DRender::QClearBuffers(cameraSelector);
    m_frame.clear->setBuffers(Qt3DRender::QClearBuffers::ColorDepthBuffer);
    m_frame.clear->setClearColor(toQColor(m_palette.background));
    new Qt3DRender::QNoDraw(m_frame.clear);
    for (Qt3DCore::QEntity* entity : drawOrder) {
        auto* layer = new Qt3DRender::QLayer(entity);
        layer->setRecursive(true); // LinkInstances draws its line variant from a child entity
        entity->addComponent(layer);
        auto* filter = new Qt3DRender::QLayerFilter(cameraSelector);
        filter->addLayer(layer);
        const auto texts = m_layers.texts();
        if (std::find(texts.begin(), texts.end(), entity) != texts.end() || entity == m_layers.arrows) {
            // Labels are words to read: always on top of the network (the links of an exploded
            // tower ran across them). Node labels keep clear of every node (refreshNodeLabels()),
            // so none needs to hide behind a nearer one. The arrowheads come last, over the
            // labels and glyphs on a flat drawing: the labels keep clear of them where they can,
            // and where one cannot, the direction of the message still shows (on a 3-D drawing
            // a nearer node still hides an arrowhead behind it: setSnapshot).
            auto* states = new Qt3DRender::QRenderStateSet(filter);
            auto* depth = new Qt3DRender::QDepthTest(states);
            depth->setDepthFunction(Qt3DRender::QDepthTest::Always);
            states->addRenderState(depth);
            if (entity == m_layers.arrows)
                m_frame.arrowDepth = depth;
        }
    }
    // The capture is a branch of its own after every drawing branch: it reads the finished frame.
    m_frame.capture = new Qt3DRender::QRenderCapture(cameraSelector);
    new Qt3DRender::QNoDraw(m_frame.capture);
    m_frame.window->setActiveFrameGraph(surface);
}

SceneView::~SceneView()
{
    if (!m_frame.container)
        delete m_frame.window;
}

QWidget* SceneView::widget(QWidget* parent)
{
    if (!m_frame.container) {
        m_frame.container = QWidget::createWindowContainer(m_frame.window, parent);
        m_frame.container->setMinimumSize(240, 180); // two fit side by side in compare on a 1280-px screen
        m_frame.container->setFocusPolicy(Qt::StrongFocus);
    }
    return m_frame.container;
}

void SceneView::setSnapshot(SnapshotPtr snap)
{
    const bool newTopology = !m_snap || !snap || !(m_snap->topology() == snap->topology());
    // The same network drawn another way (the flat hypercube drawing) is a new geometry too.
    const SnapshotPtr previous = m_snap;
    m_snap = std::move(snap);
    if (!m_snap)
        return;
    if (m_snap != previous) { // a simulation and a chosen link belong to the schedule they were made for
        m_simulated.reset();
        m_selected.reset();
    }
    m_choice.step = std::min(m_choice.step, static_cast<int>(m_snap->stepCount()));
    m_transfers.sizes = transferSizes(m_snap->schedule);
    const auto transfers = m_snap->schedule.transfers();
    m_transfers.severalBlocks = std::any_of(transfers.begin(), transfers.end(), [&](const Transfer& t) {
        return m_snap->schedule.payload(t.payload).size() > 1;
    });
    if (newTopology || previous->positions != m_snap->positions) {
        m_explodeAnimation->stop();
        const Topology& topo = m_snap->topology();
        m_explode.amount = canExplode() ? m_snap->drawing.explode : 0.0f;
        m_explode.last = m_explode.amount > 0.0f ? m_explode.amount : std::max(1.0f, defaultExplode(topo));
        m_explode.target = layoutAt(m_explode.amount);
        m_positions = m_explode.target;
        if (m_slice.dim >= topo.dims() || topo.isHypercube()) {
            m_slice.dim = -1;
            emit sliceChanged(-1, 0);
        } else if (m_slice.dim >= 0) {
            m_slice.plane = std::min(m_slice.plane, topo.side(m_slice.dim) - 1);
        }
        rebuildGeometry();
        resetView();
        m_frame.arrowDepth->setDepthFunction(flatNetwork() ? Qt3DRender::QDepthTest::Always
                                                           : Qt3DRender::QDepthTest::Less);
        emit explodeChanged(m_explode.amount);
    }
    rebuildTrees();
    refresh();
}

void SceneView::refresh()
{
    if (!m_snap)
        return;
    m_shown = makeFrame(*m_snap, m_drawn.channels, {m_choice.step, m_choice.mode, m_choice.cumulativeHeat, m_palette});
    if (m_overlay)
        m_overlay(m_shown.style, m_drawn.channels, m_choice.step);
    if (m_simulated)
        restyleSimulated(true);
    applySelection();
    applySlice();
    m_layers.nodes->setNodes(m_positions, m_shown.style.nodeColour, m_shown.style.nodeScale);
    uploadChannelColours();
    m_layers.treeLinks->setEnabled(m_choice.mode == ViewMode::Trees);
    if (m_choice.mode == ViewMode::Trees)
        m_layers.treeLinks->setColours(m_shown.style.treeEdgeColour);

    std::vector<MessageInstances::Hop> hops;
    std::vector<ArrowInstances::Arrow> arrows;
    stepMessages(hops, arrows);
    if (m_simulated)
        hops = simulatedHops();
    m_layers.messages->setHops(hops);
    if (m_choice.mode == ViewMode::DataHeld && drawsDataGlyphs(*m_snap))
        m_layers.glyphs->setCells(dataGlyphCells(*m_snap,
                                                 StepNo{static_cast<std::uint32_t>(std::max(m_choice.step, 0))},
                                                 m_palette, m_sizes.glyphWidth),
                                  m_positions);
    else
        m_layers.glyphs->setCells({}, m_positions);
    scheduleVisibility();
    m_layers.arrows->setArrows(std::move(arrows));
    refreshNodeLabels();
    refreshMessageLabels();
    emit frameStyleChanged();
}

void SceneView::uploadChannelColours(bool everyFrame)
{
    std::vector<Rgba> straight(m_shown.style.channelColour.begin(),
                               m_shown.style.channelColour.begin() +
                                   static_cast<std::ptrdiff_t>(m_drawn.straightCount));
    std::vector<Rgba> arcs(m_shown.style.channelColour.begin() + static_cast<std::ptrdiff_t>(m_drawn.straightCount),
                           m_shown.style.channelColour.end());
    m_layers.links->setColours(straight, everyFrame);
    if (m_drawn.wrapStubs) {
        m_layers.stubs->setColours(
            std::vector<Rgba>(arcs.begin(), arcs.begin() + static_cast<std::ptrdiff_t>(stubbedCount(m_drawn.channels))),
            everyFrame);
        // Whole arcs only for the wrap channels in use in this step.
        std::vector<std::size_t> active;
        for (std::size_t w = 0; w < arcs.size(); ++w)
            if (m_shown.style.channelInUse[m_drawn.straightCount + w])
                active.push_back(w);
        if (active != m_drawn.shownArcs) {
            std::vector<LinkInstances::Instance> shown;
            for (std::size_t w : active)
                shown.push_back(m_drawn.arcShapes[w]);
            m_layers.arcs->setInstances(shown);
            m_drawn.shownArcs = active;
        }
        std::vector<Rgba> shownColours;
        for (std::size_t w : m_drawn.shownArcs)
            shownColours.push_back(arcs[w]);
        m_layers.arcs->setColours(shownColours);
    } else {
        m_layers.arcs->setColours(arcs);
    }
}

void SceneView::setStyleOverlay(StyleOverlay overlay)
{
    m_overlay = std::move(overlay);
    refresh();
}

void SceneView::setStep(int step)
{
    if (step == m_choice.step)
        return;
    m_choice.step = std::max(0, step);
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
    m_layers.marks->setMarks(std::move(marks));
}

void SceneView::setFraction(float fraction)
{
    m_fraction = fraction;
    if (m_simulated)
        restyleSimulated(false);
    m_layers.messages->setFraction(fraction);
    // Arrowheads mark a step at rest; while the messages move hop by hop they would point at
    // where the messages have not arrived yet.
    m_layers.arrows->setShown(fraction >= 1.0f);
    m_atRest = fraction >= 1.0f;
    m_layers.messageLabels->setEnabled(m_atRest && !m_layers.messageLabels->labels().empty());
}

float SceneView::messageScale(double size) const
{
    return topocast::messageScale(m_transfers.sizes, size);
}

void SceneView::refreshMessageLabels()
{
    std::vector<LabelInstances::Label> labels;
    const Schedule& s = m_snap->schedule;
    // The arrows refresh() just placed: arrow i is the last hop of the step's transfer i.
    const auto& arrows = m_layers.arrows->arrows();
    if (m_transfers.severalBlocks && !m_labelState.compact && m_choice.step >= 1 &&
        static_cast<std::uint32_t>(m_choice.step) <= s.stepCount() && arrows.size() <= kMessageLabels) {
        const QMatrix4x4 vp = viewProjection();
        const QSizeF size = viewportSize();
        const auto transfers = s.stepTransfers(StepNo{m_choice.step});
        // Each plate where it is meant to sit, or left out where it would cover a node, a title,
        // a node label or an earlier message's plate (core placeLabels, in device pixels).
        const double dpr = m_frame.window->devicePixelRatio();
        const LabelCamera camera = labelCamera();
        std::vector<LabelRequest> requests;
        for (std::size_t i = 0; i < arrows.size(); ++i) {
            // Beside the middle of the last hop, on the left of the direction of travel as seen on
            // screen: two messages crossing one link in opposite directions keep apart.
            const Vec3 &a = arrows[i].from, &b = arrows[i].tip;
            const Vec3 mid{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
            const QPointF d = projectToScreen(vp, size, b) - projectToScreen(vp, size, a);
            const double len = std::hypot(d.x(), d.y());
            const QString text = transferLabel(s, transfers[i]);
            const QSize plate = LabelInstances::plateSizeFor(text, m_labelState.pixels);
            // Screen y runs down, the label offsets' y up: the left normal of the direction (dx, −dy)
            // is (dy, dx) / len. The sides are taken from the camera of this refresh.
            const double nx = len > 0 ? d.y() / len : 0.0, ny = len > 0 ? d.x() / len : 1.0;
            const double reach = 0.5 * std::abs(nx) * plate.width() + 0.5 * std::abs(ny) * plate.height() + 4.0;
            labels.push_back(
                {mid, text, toQColor(m_palette.label), static_cast<float>(nx * reach), static_cast<float>(ny * reach)});
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
        const auto boxes =
            placeLabels(requests, screenDiscs(camera.viewProjection, camera.right, m_positions, labelClearance(), w, h),
                        w, h, m_labelState.boxes);
        std::vector<LabelInstances::Label> kept;
        for (std::size_t i = 0; i < labels.size(); ++i)
            if (boxes[i].side != LabelSide::Hidden)
                kept.push_back(std::move(labels[i]));
        labels = std::move(kept);
    }
    // The atlas is drawn again only when what the plates say or where they sit changes.
    const auto& shown = m_layers.messageLabels->labels();
    const bool same = m_labelState.messagePixels == m_labelState.pixels && shown.size() == labels.size() &&
                      std::equal(labels.begin(), labels.end(), shown.begin(), [](const auto& x, const auto& y) {
                          return x.anchor == y.anchor && x.text == y.text && x.colour == y.colour &&
                                 x.offsetX == y.offsetX && x.offsetY == y.offsetY;
                      });
    if (!same) {
        m_layers.messageLabels->setLabels(std::move(labels), m_labelState.pixels);
        m_labelState.messagePixels = m_labelState.pixels;
    }
    m_layers.messageLabels->setEnabled(m_atRest && !m_layers.messageLabels->labels().empty());
}

long long SceneView::messageAt(const QPointF& pos) const
{
    if (!m_snap || !m_atRest || m_choice.step < 1 ||
        static_cast<std::uint32_t>(m_choice.step) > m_snap->schedule.stepCount())
        return -1;
    // The arrows shown (arrow i is the last hop of the step's transfer i): no route is traced again
    // on a mouse move.
    const QMatrix4x4 vp = viewProjection();
    const QSizeF size = viewportSize();
    std::vector<std::pair<QPointF, QPointF>> segments;
    for (const ArrowInstances::Arrow& a : m_layers.arrows->arrows())
        segments.emplace_back(projectToScreen(vp, size, a.from), projectToScreen(vp, size, a.tip));
    // The arrowhead's half of the last hop, clear of the sender's node.
    const long long i = pickSegment(segments, pos, 8.0, 0.45, 0.9);
    return i < 0 ? -1 : static_cast<long long>(m_snap->schedule.stepBegin(StepNo{m_choice.step})) + i;
}

void SceneView::setMode(ViewMode mode)
{
    m_choice.mode = mode;
    refresh();
}

void SceneView::setCumulativeHeat(bool cumulative)
{
    m_choice.cumulativeHeat = cumulative;
    refresh();
}

void SceneView::setHighContrast(bool on)
{
    m_choice.highContrast = on;
    m_palette = Palette::of(m_choice.highContrast, m_choice.print);
    m_frame.clear->setClearColor(toQColor(m_palette.background));
    refresh();
}

void SceneView::setPrintTheme(bool on)
{
    m_choice.print = on;
    m_palette = Palette::of(m_choice.highContrast, m_choice.print);
    m_frame.clear->setClearColor(toQColor(m_palette.background));
    refresh();
}

bool SceneView::waitUntilLoaded(int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    const auto texts = m_layers.texts();
    while (!std::all_of(texts.begin(), texts.end(), [](const LabelInstances* l) { return l->loaded(); })) {
        if (t.elapsed() > timeoutMs)
            return false;
        // Each capture request makes Qt3D render (and run its loaders) once.
        Qt3DRender::QRenderCaptureReply* reply = m_frame.capture->requestCapture();
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
    updateLevelOfDetail(); // the camera may have been set directly (exports)
    // Textures load asynchronously: the first frame after a new label atlas may not show it yet —
    // after the first capture too, where a step's labels change (a large network's receivers).
    std::uint64_t atlases = 0;
    for (const LabelInstances* l : m_layers.texts())
        atlases += l->atlasGeneration();
    const bool settle = dropFirst || atlases != m_labelState.capturedAtlases;
    m_labelState.capturedAtlases = atlases;
    if (settle && !waitUntilLoaded(timeoutMs))
        return QImage();
    QImage image;
    for (int attempt = settle ? 0 : 1; attempt < 2; ++attempt) { // the first capture after a change may be stale
        Qt3DRender::QRenderCaptureReply* reply = m_frame.capture->requestCapture();
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
        m_orbit->orbit(0.5f, 0.0f); // a change per frame so each one is really rendered
        Qt3DRender::QRenderCaptureReply* reply = m_frame.capture->requestCapture();
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
