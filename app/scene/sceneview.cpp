#include "scene/sceneview.h"

#include "scene/arrowinstances.h"
#include "scene/glyphinstances.h"
#include "scene/labelinstances.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/scenecamera.h"
#include "scene/scenecapture.h"
#include "scene/sceneinput.h"
#include "scene/scenelabels.h"
#include "scene/scenemessages.h"
#include "scene/sceneshape.h"

#include "topocast/scenario/data_glyphs.h"
#include "topocast/scenario/scenario.h"

#include <Qt3DCore/QEntity>
#include <Qt3DExtras/Qt3DWindow>
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

#include <QSurfaceFormat>
#include <QWidget>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace topocast::app {

namespace {

QColor toQColor(const Rgba& c)
{
    return c.to<QColor>();
}
} // namespace

SceneView::SceneView(QObject* parent) : QObject(parent)
{
    SceneFrame& frame = m_scene.frame;
    frame.window = new Qt3DExtras::Qt3DWindow(nullptr, Qt3DRender::API::OpenGL);
    // Qt3DWindow asks for 4× multisampling, also as the default format its GL context is made
    // with; both must change for the samples to.
    QSurfaceFormat format = frame.window->format();
    format.setSamples(SceneCapture::surfaceSamples());
    frame.window->setFormat(format);
    QSurfaceFormat::setDefaultFormat(format);
    m_input = new SceneInput(m_scene, this);
    frame.root = new Qt3DCore::QEntity;
    m_capture = new SceneCapture(m_scene, this);

    SceneLayers& layers = m_scene.layers;
    layers.links = new LinkInstances(1, frame.root);
    layers.arcs = new LinkInstances(12, frame.root);
    layers.stubs = new LinkInstances(1, frame.root);
    layers.treeLinks = new LinkInstances(1, frame.root);
    layers.treeLinks->setEnabled(false);
    layers.axes = new LinkInstances(1, frame.root);
    layers.nodes = new NodeInstances(frame.root);
    layers.messages = new MessageInstances(frame.root);
    layers.marks = new MarkInstances(frame.root);
    layers.arrows = new ArrowInstances(frame.root);
    layers.glyphs = new GlyphInstances(frame.root);
    layers.labels = new LabelInstances(frame.root);
    layers.nodeLabels = new LabelInstances(frame.root);
    layers.messageLabels = new LabelInstances(frame.root);
    layers.glyphTexts = new LabelInstances(frame.root);
    layers.glyphTexts->setOutlined(true);
    buildFrameGraph({layers.links, layers.stubs, layers.arcs, layers.treeLinks, layers.axes, layers.nodes,
                     layers.messages, layers.glyphs, layers.glyphTexts, layers.marks, layers.labels, layers.nodeLabels,
                     layers.messageLabels, layers.arrows});
    frame.window->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);

    m_camera = new SceneCamera(m_scene, this);
    frame.window->setRootEntity(frame.root);
    m_shape = new SceneShape(m_scene, this);
    m_labels = std::make_unique<SceneLabels>(m_scene);
    m_messages = std::make_unique<SceneMessages>(m_scene);
    m_scene.camera = m_camera;
    m_scene.shape = m_shape;
    m_scene.labels = m_labels.get();
    connect(m_shape, &SceneShape::changed, this, [this] { refresh(); });
}

QWindow* SceneView::window() const
{
    return m_scene.frame.window;
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
    surface->setSurface(m_scene.frame.window);
    auto* viewport = new Qt3DRender::QViewport(surface);
    viewport->setNormalizedRect(QRectF(0, 0, 1, 1));
    auto* cameraSelector = new Qt3DRender::QCameraSelector(viewport);
    cameraSelector->setCamera(m_scene.frame.window->camera());
    m_scene.frame.clear = new Qt3DRender::QClearBuffers(cameraSelector);
    m_scene.frame.clear->setBuffers(Qt3DRender::QClearBuffers::ColorDepthBuffer);
    m_scene.frame.clear->setClearColor(toQColor(m_scene.palette.background));
    new Qt3DRender::QNoDraw(m_scene.frame.clear);
    for (Qt3DCore::QEntity* entity : drawOrder) {
        auto* layer = new Qt3DRender::QLayer(entity);
        layer->setRecursive(true); // LinkInstances draws its line variant from a child entity
        entity->addComponent(layer);
        auto* filter = new Qt3DRender::QLayerFilter(cameraSelector);
        filter->addLayer(layer);
        const auto texts = m_scene.layers.texts();
        if (std::find(texts.begin(), texts.end(), entity) != texts.end() || entity == m_scene.layers.arrows) {
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
            if (entity == m_scene.layers.arrows)
                m_scene.frame.arrowDepth = depth;
        }
    }
    // The capture is a branch of its own after every drawing branch: it reads the finished frame.
    m_scene.frame.capture = new Qt3DRender::QRenderCapture(cameraSelector);
    new Qt3DRender::QNoDraw(m_scene.frame.capture);
    m_scene.frame.window->setActiveFrameGraph(surface);
}

SceneView::~SceneView()
{
    if (!m_scene.frame.container)
        delete m_scene.frame.window;
}

QWidget* SceneView::widget(QWidget* parent)
{
    SceneFrame& frame = m_scene.frame;
    if (!frame.container) {
        frame.container = QWidget::createWindowContainer(frame.window, parent);
        frame.container->setMinimumSize(240, 180); // two fit side by side in compare on a 1280-px screen
        frame.container->setFocusPolicy(Qt::StrongFocus);
    }
    return frame.container;
}

void SceneView::setSnapshot(SnapshotPtr snap)
{
    const SnapshotPtr previous = m_scene.snap;
    // The same network drawn another way (the flat hypercube drawing) is a new geometry too.
    const bool newTopology = !previous || !snap || !(previous->topology() == snap->topology());
    m_scene.snap = std::move(snap);
    if (!m_scene.snap)
        return;
    const Snapshot& s = *m_scene.snap;
    if (m_scene.snap != previous) // a simulation and a chosen link belong to the schedule they were made for
        m_messages->reset();
    m_scene.choice.step = std::min(m_scene.choice.step, static_cast<int>(s.stepCount()));
    m_scene.transfers.sizes = transferSizes(s.schedule);
    const auto transfers = s.schedule.transfers();
    m_scene.transfers.severalBlocks = std::any_of(transfers.begin(), transfers.end(), [&](const Transfer& t) {
        return s.schedule.payload(t.payload).size() > 1;
    });
    if (newTopology || previous->positions != s.positions)
        m_shape->adopt();
    m_shape->rebuildTrees();
    refresh();
}

void SceneView::refresh()
{
    if (!m_scene.snap)
        return;
    const ViewChoice& c = m_scene.choice;
    SceneLayers& layers = m_scene.layers;
    m_scene.shown =
        makeFrame(*m_scene.snap, m_scene.drawn.channels, {c.step, c.mode, c.cumulativeHeat, m_scene.palette});
    if (m_overlay)
        m_overlay(m_scene.shown.style, m_scene.drawn.channels, c.step);
    if (m_messages->simulating())
        m_messages->restyleSimulated(true);
    m_messages->applySelection();
    m_shape->applySlice();
    layers.nodes->setNodes(m_scene.positions, m_scene.shown.style.nodeColour, m_scene.shown.style.nodeScale);
    m_shape->uploadChannelColours();
    layers.treeLinks->setEnabled(c.mode == ViewMode::Trees);
    if (c.mode == ViewMode::Trees)
        layers.treeLinks->setColours(m_scene.shown.style.treeEdgeColour);

    std::vector<MessageInstances::Hop> hops;
    std::vector<ArrowInstances::Arrow> arrows;
    m_messages->stepMessages(hops, arrows);
    if (m_messages->simulating())
        hops = m_messages->simulatedHops();
    layers.messages->setHops(hops);
    uploadGlyphs();
    m_camera->scheduleVisibility();
    layers.arrows->setArrows(std::move(arrows));
    m_labels->placeNodeLabels();
    m_labels->placeMessageLabels();
    emit frameStyleChanged();
}

void SceneView::uploadGlyphs()
{
    const Snapshot& s = *m_scene.snap;
    if (m_scene.choice.mode == ViewMode::DataHeld && drawsDataGlyphs(s))
        m_scene.layers.glyphs->setCells(
            dataGlyphCells(s, StepNo{static_cast<std::uint32_t>(std::max(m_scene.choice.step, 0))}, m_scene.palette,
                           m_scene.sizes.glyphWidth),
            m_scene.positions);
    else
        m_scene.layers.glyphs->setCells({}, m_scene.positions);
}

void SceneView::setStyleOverlay(SceneStyleOverlay overlay)
{
    m_overlay = std::move(overlay);
    refresh();
}

void SceneView::setStep(int step)
{
    if (step == m_scene.choice.step)
        return;
    m_scene.choice.step = std::max(0, step);
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
        if (v < m_scene.positions.size() && (!m_scene.snap || v != m_scene.snap->schedule.source()))
            marks.push_back({v, m_scene.positions[v], kHighlightColour, MarkShape::Right, 1.15f});
    m_scene.layers.marks->setMarks(std::move(marks));
}

void SceneView::setFraction(float fraction)
{
    SceneLayers& layers = m_scene.layers;
    m_scene.fraction = fraction;
    if (m_messages->simulating())
        m_messages->restyleSimulated(false);
    layers.messages->setFraction(fraction);
    // Arrowheads mark a step at rest; while the messages move hop by hop they would point at
    // where the messages have not arrived yet.
    layers.arrows->setShown(fraction >= 1.0f);
    m_scene.atRest = fraction >= 1.0f;
    layers.messageLabels->setEnabled(m_scene.atRest && !layers.messageLabels->labels().empty());
}

void SceneView::setMode(ViewMode mode)
{
    m_scene.choice.mode = mode;
    refresh();
}

void SceneView::setCumulativeHeat(bool cumulative)
{
    m_scene.choice.cumulativeHeat = cumulative;
    refresh();
}

void SceneView::setHighContrast(bool on)
{
    m_scene.choice.highContrast = on;
    setPalette();
}

void SceneView::setPrintTheme(bool on)
{
    m_scene.choice.print = on;
    setPalette();
}

void SceneView::setPalette()
{
    m_scene.palette = m_scene.choice.palette();
    m_scene.frame.clear->setClearColor(toQColor(m_scene.palette.background));
    refresh();
}

void SceneView::setCompactLabels(bool on)
{
    if (on == m_scene.labelState.compact)
        return;
    m_scene.labelState.compact = on; // refresh() places the labels for it
    m_shape->sizeGlyphs();           // a half-width view's glyphs are wider
    refresh();
}

void SceneView::setSimulation(std::shared_ptr<const SimulatedPlayback> playback)
{
    m_messages->simulate(std::move(playback));
    refresh();
    m_scene.layers.messages->setFraction(m_scene.fraction);
}

std::shared_ptr<const SimulatedPlayback> SceneView::simulation() const
{
    return m_messages->simulation();
}

double SceneView::simulatedTime() const
{
    return m_messages->simulatedTime();
}

void SceneView::setSelectedChannel(std::optional<ChannelId> channel)
{
    if (m_messages->select(channel))
        refresh();
}

std::optional<ChannelId> SceneView::selectedChannel() const
{
    return m_messages->selected();
}

} // namespace topocast::app
