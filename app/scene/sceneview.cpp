#include "scene/sceneview.h"

#include "scene/arrowinstances.h"
#include "scene/labelinstances.h"
#include "scene/levelofdetail.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/picking.h"

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
        rebuildGeometry();
        resetView();
    }
    rebuildTrees();
    refresh();
}

void SceneView::rebuildGeometry()
{
    const Topology& topo = m_snap->topology();
    const auto& pos = m_snap->positions;
    m_channels = drawnChannels(topo);
    m_straightCount = static_cast<std::size_t>(
        std::find_if(m_channels.begin(), m_channels.end(), [](const DrawnChannel& c) { return c.wrap; }) -
        m_channels.begin());

    const auto bounds = layoutBounds(pos);
    const QVector3D lo(bounds[0][0], bounds[0][1], bounds[0][2]);
    const QVector3D hi(bounds[1][0], bounds[1][1], bounds[1][2]);
    const QVector3D centre = (lo + hi) * 0.5f;
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
        const QVector3D a(in.a[0], in.a[1], in.a[2]), b(in.b[0], in.b[1], in.b[2]);
        const QVector3D axis = (b - a).normalized();
        const QVector3D mid = (a + b) * 0.5f;
        QVector3D lift;
        float h = 0;
        if (topo.dims() == 3 && !flat && c.dim < 3) {
            // One outside face per dimension, the faces the default camera sees: x-rings arch
            // over the top, y-rings out of the front (+z), z-rings out of the right side (+x).
            // Every arc of a dimension peaks just outside its face, deeper rows a little further.
            static const QVector3D faces[3] = {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}};
            lift = faces[c.dim];
            const float face = QVector3D::dotProduct(lift, QVector3D(hi.x(), hi.y(), hi.z()));
            const float depth = face - QVector3D::dotProduct(lift, mid);
            h = depth + 0.7f + 0.12f * depth;
        } else {
            // Out of the plane for a 2-D torus, away from the centre across the ring's axis otherwise.
            const QVector3D m = mid - centre;
            lift = m - axis * QVector3D::dotProduct(m, axis);
            if (flat)
                lift = QVector3D(0, 0, 1);
            if (lift.lengthSquared() < 1e-4f)
                lift = QVector3D::crossProduct(axis, std::abs(axis.y()) < 0.9f ? QVector3D(0, 1, 0) : QVector3D(1, 0, 0));
            lift.normalize();
            h = 0.18f * (b - a).length() + 0.6f;
        }
        // Reverse channels bend the same way so both directions of one wrap link run side by side.
        in.bulge = {lift.x() * h, lift.y() * h, lift.z() * h};
        m_arcShapes.push_back(in);
        const QVector3D out = a - axis * 0.45f;  // the stub: from the tail away from the grid
        stubs.push_back({in.a, {out.x(), out.y(), out.z()}, {0, 0, 0}, m_palette.link});
    }
    m_links->setInstances(straight);
    m_stubs->setInstances(m_wrapStubs ? stubs : std::vector<LinkInstances::Instance>{});
    m_arcs->setInstances(m_wrapStubs ? std::vector<LinkInstances::Instance>{} : m_arcShapes);
    m_shownArcs.clear();

    // Axes from the low corner: x red, y green, z blue (layout: x → +X, y → −Y, z → +Z).
    const float len = std::max(1.5f, 0.25f * (hi - lo).length());
    const Vec3 o{lo.x() - 0.8f, hi.y() + 0.8f, lo.z() - 0.8f};
    m_axes->setInstances({{o, {o[0] + len, o[1], o[2]}, {0, 0, 0}, {0.9f, 0.2f, 0.2f}},
                          {o, {o[0], o[1] - len, o[2]}, {0, 0, 0}, {0.2f, 0.85f, 0.2f}},
                          {o, {o[0], o[1], o[2] + (flat ? 0.0f : len)}, {0, 0, 0}, {0.3f, 0.45f, 1.0f}}});
    m_axes->setRadius(0.03f, 0.0f);
    const QVector3D ends[3] = {{o[0] + len + 0.35f, o[1], o[2]}, {o[0], o[1] - len - 0.35f, o[2]}, {o[0], o[1], o[2] + len + 0.35f}};
    const char* names[3] = {"x", "y", "z"};
    const QColor colours[3] = {QColor(240, 90, 90), QColor(90, 225, 90), QColor(120, 160, 255)};
    std::vector<LabelInstances::Label> labels;
    for (int i = 0; i < (flat ? 2 : 3); ++i)
        labels.push_back({{ends[i].x(), ends[i].y(), ends[i].z()}, QString::fromLatin1(names[i]), colours[i], 0.0f, 0.0f});
    m_labels->setLabels(std::move(labels), m_labelPixels);

    const std::uint32_t n = topo.nodeCount();
    m_nodeRadius = n > 4096 ? 0.2f : 0.16f;
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
    const auto& pos = m_snap->positions;
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
    m_nodes->setNodes(m_snap->positions, m_style.nodeColour, m_style.nodeScale);
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
        const auto& pos = drawnPositions();
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
    m_nodes->setDetail(sphereDetail(m_nodeRadius * ppu, m_snap->positions.size()));
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
    const auto bounds = layoutBounds(m_snap->positions);
    const QVector3D lo(bounds[0][0], bounds[0][1], bounds[0][2]);
    const QVector3D hi(bounds[1][0], bounds[1][1], bounds[1][2]);
    const bool flat = (hi.z() - lo.z()) < 1e-3f && !m_snap->topology().isTorus();
    m_orbit->setAspect(static_cast<float>(viewportSize().width() / viewportSize().height()));
    const bool wasOrthographic = m_orbit->orthographic();
    // 2-D networks top-down and orthographic, x right and y down as in the papers.
    m_orbit->setOrthographic(flatNetwork() || m_orthographic3d);
    if (flat) {
        // Top-down: frame the grid's box (with the axes at its top left, node labels to the
        // right and numbers below) to the window's shape, not a sphere round its diagonal.
        const float width = hi.x() - lo.x();
        const QVector3D boxLo(lo.x() - 1.2f, lo.y() - 0.7f, lo.z());
        const QVector3D boxHi(hi.x() + 1.0f + 0.06f * width, hi.y() + 1.3f, hi.z());
        m_orbit->frameTopDown((boxLo + boxHi) * 0.5f, 0.5f * (boxHi.x() - boxLo.x()), 0.5f * (boxHi.y() - boxLo.y()));
    } else {
        m_orbit->reset((lo + hi) * 0.5f, std::max(1.0f, 0.5f * (hi - lo).length() + 0.6f), flat);
    }
    updateLevelOfDetail();
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
    if (!m_snap || v >= m_snap->positions.size())
        return {};
    return projectToScreen(viewProjection(), viewportSize(), m_snap->positions[v]);
}

long long SceneView::nodeAt(const QPointF& pos) const
{
    if (!m_snap)
        return -1;
    return pickAt(viewProjection(), viewportSize(), pos, m_snap->positions, m_nodeRadius * 1.3f);
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
    switch (event->type()) {
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
