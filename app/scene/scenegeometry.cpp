// SceneView: where things are drawn — the network's geometry at the current positions, explode
// and its animation, the slice, the visibility count, the Trees mode's edges and the node labels.
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

#include "topocast/drawing/camera.h"
#include "topocast/drawing/drawing.h"
#include "topocast/drawing/view_labels.h"
#include "topocast/drawing/visibility.h"
#include "topocast/scenario/data_glyphs.h"
#include "topocast/scenario/scenario.h"

#include <Qt3DRender/QDepthTest>

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

namespace {
QColor toQColor(const Rgba& c)
{
    return c.to<QColor>();
}
} // namespace

void SceneView::rebuildGeometry()
{
    const Topology& topo = m_snap->topology();
    m_drawn.channels = drawnChannels(topo, drawsPlanes(topo, m_snap->drawing));
    m_drawn.straightCount = straightCount(m_drawn.channels);
    placeGeometry();

    const std::uint32_t n = topo.nodeCount();
    m_sizes.nodeRadius = drawingNodeRadius(topo, m_snap->drawing);
    m_layers.nodes->setRadius(m_sizes.nodeRadius);
    m_layers.marks->setRadius(m_sizes.nodeRadius * 1.9f);
    m_layers.links->setRadius(n > 4096 ? 0.025f : 0.035f, 0.045f);
    m_layers.arcs->setRadius(0.03f, 0.045f);
    m_layers.stubs->setRadius(0.03f, 0.045f);
    m_layers.treeLinks->setRadius(n > 4096 ? 0.035f : 0.05f, 0.045f);
    m_layers.messages->setRadius(0.11f);
    m_layers.arrows->setSize(m_sizes.nodeRadius * 2.4f, m_sizes.nodeRadius);
    m_layers.nodeLabels->setAnchorLift(m_sizes.nodeRadius * kLabelGap);
    // O(N²) over the positions: only where glyphs can be drawn (a 32³ mesh would take seconds).
    if (n <= kGlyphMaxNodes)
        m_sizes.glyphWidth = glyphWidth(m_positions);
    m_layers.glyphs->setLift(m_sizes.nodeRadius * 1.6f);
    m_labelState.nodeKey.clear();
    m_sizes.linkRadius = n > 4096 ? 0.025f : 0.035f;
}

void SceneView::placeGeometry()
{
    const Topology& topo = m_snap->topology();
    const auto& pos = m_positions;
    const auto bounds = layoutBounds(pos);

    // Tori: drawing every wrap-around arc buries the grid (a 7×7×7 torus has 294; a 2-D torus
    // seen top-down would get a second grid of arcs beside its rows), so each wrap channel shows
    // as a short stub leaving its tail outwards, as in the papers' figures, and only the wrap
    // channels in use in the current step are drawn as whole arcs (refresh()).
    // Planes side by side: the channels between planes likewise show only while in use, as
    // shallow arcs from plane to plane (all of them would cross the picture N times over).
    const bool planes = drawsPlanes(topo, m_snap->drawing);
    m_drawn.wrapStubs = topo.isTorus() || planes;
    std::vector<LinkInstances::Instance> straight, stubs;
    straight.reserve(m_drawn.straightCount);
    m_drawn.arcShapes.clear();
    for (const DrawnChannel& c : m_drawn.channels) {
        LinkInstances::Instance in{pos[c.tail], pos[c.head], {0, 0, 0}, m_palette.link};
        if (!c.wrap && !c.jump) {
            straight.push_back(in);
            continue;
        }
        // Reverse channels bend the same way so both directions of one wrap link run side by side.
        if (c.jump) {
            in.bulge = planeJumpBulge(in.a, in.b);
            m_drawn.arcShapes.push_back(in);
            continue; // no stub: a plane's neighbours are the planes beside it, not off its edge
        }
        in.bulge = wrapArcBulge(topo, planes ? planeBoundsOf(topo, pos, c.tail) : bounds, in.a, in.b, c.dim);
        const QVector3D a(in.a[0], in.a[1], in.a[2]), b(in.b[0], in.b[1], in.b[2]);
        const QVector3D axis = (b - a).normalized();
        m_drawn.arcShapes.push_back(in);
        const QVector3D out = a - axis * 0.45f; // the stub: from the tail away from the grid
        stubs.push_back({in.a, {out.x(), out.y(), out.z()}, {0, 0, 0}, m_palette.link});
    }
    m_layers.links->setInstances(straight);
    m_layers.stubs->setInstances(m_drawn.wrapStubs ? stubs : std::vector<LinkInstances::Instance>{});
    m_layers.arcs->setInstances(m_drawn.wrapStubs ? std::vector<LinkInstances::Instance>{} : m_drawn.arcShapes);
    m_drawn.shownArcs.clear();
    if (m_drawn.wrapStubs && m_shown.style.channelInUse.size() == m_drawn.channels.size()) {
        // Keep the arcs of the step shown (refresh() only re-sends them when the set changes).
        for (std::size_t w = 0; w + m_drawn.straightCount < m_drawn.channels.size(); ++w)
            if (m_shown.style.channelInUse[m_drawn.straightCount + w])
                m_drawn.shownArcs.push_back(w);
        std::vector<LinkInstances::Instance> shown;
        for (std::size_t w : m_drawn.shownArcs)
            shown.push_back(m_drawn.arcShapes[w]);
        m_layers.arcs->setInstances(shown);
    }

    // The axes from the low corner of a mesh or torus (x red, y green, z blue; layout: x → +X,
    // y → −Y, z → +Z); planes side by side are titled instead, and a hypercube's dimensions are
    // not x, y, z. Their names and the titles are placed with the node labels (refreshNodeLabels).
    if (topo.isHypercube() || planes) {
        m_layers.axes->setInstances({});
    } else {
        const AxisGizmo g = axisGizmo(pos);
        const Vec3& o = g.origin;
        const float len = g.length;
        m_layers.axes->setInstances({{o, {o[0] + len, o[1], o[2]}, {0, 0, 0}, {0.9f, 0.2f, 0.2f}},
                                     {o, {o[0], o[1] - len, o[2]}, {0, 0, 0}, {0.2f, 0.85f, 0.2f}},
                                     {o, {o[0], o[1], o[2] + (g.flat ? 0.0f : len)}, {0, 0, 0}, {0.3f, 0.45f, 1.0f}}});
        m_layers.axes->setRadius(0.03f, 0.0f);
    }
}

void SceneView::setPositions(std::vector<Vec3> positions)
{
    m_positions = std::move(positions);
    m_labelState.nodeKey.clear(); // node labels and numbers sit beside the nodes: place them again
    if (!m_snap)
        return;
    placeGeometry();
    rebuildTrees();
    std::vector<MarkInstances::Mark> marks = m_layers.marks->marks();
    for (MarkInstances::Mark& m : marks)
        if (m.node < m_positions.size())
            m.position = m_positions[m.node];
    m_layers.marks->setMarks(std::move(marks));
    refresh();
}

void SceneView::applySlice()
{
    if (m_slice.dim < 0 || !m_snap || m_slice.dim >= m_snap->topology().dims() || m_snap->topology().isHypercube())
        return;
    if (m_slice.follows) {
        const int plane = busiestPlane(m_snap->schedule, StepNo{std::max(0, m_choice.step)}, m_slice.dim);
        if (plane >= 0 && plane != m_slice.plane) {
            m_slice.plane = plane;
            emit sliceChanged(m_slice.dim, m_slice.plane);
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
    for (NodeId v{}; v < topo.nodeCount(); ++v)
        inPlane[v] = topo.coord(v, m_slice.dim) == m_slice.plane;
    for (NodeId v{}; v < inPlane.size() && v < m_shown.style.nodeColour.size(); ++v)
        if (!inPlane[v]) {
            ghost(m_shown.style.nodeColour[v]);
            m_shown.style.nodeScale[v] *= 0.6f;
        }
    for (std::size_t i = 0; i < m_drawn.channels.size() && i < m_shown.style.channelColour.size(); ++i)
        if (!inPlane[m_drawn.channels[i].tail] || !inPlane[m_drawn.channels[i].head])
            ghost(m_shown.style.channelColour[i]);
}

void SceneView::setSlice(int dim, int plane)
{
    if (!m_snap || m_snap->topology().isHypercube() || dim >= m_snap->topology().dims())
        dim = -1;
    if (dim >= 0)
        plane = std::clamp(plane, 0, m_snap->topology().side(dim) - 1);
    if (dim == m_slice.dim && (dim < 0 || plane == m_slice.plane))
        return;
    m_slice.dim = dim;
    m_slice.plane = dim < 0 ? 0 : plane;
    emit sliceChanged(m_slice.dim, m_slice.plane);
    refresh();
}

void SceneView::setSliceFollowsStep(bool follow)
{
    m_slice.follows = follow;
    refresh();
}

bool SceneView::canExplode() const
{
    // The flat hypercube drawing and planes side by side are planes already: nothing to pull apart.
    return m_snap && explodes(m_snap->topology(), m_snap->drawing);
}

bool SceneView::canLayOutPlanes() const
{
    return m_snap && canDrawPlanes(m_snap->topology());
}

float SceneView::planesAspect() const
{
    return static_cast<float>(viewportSize().width() / viewportSize().height());
}

std::vector<Vec3> SceneView::layoutAt(float explode) const
{
    if (drawsPlanes(m_snap->topology(), m_snap->drawing))
        return planesPositions(m_snap->topology(), planesAspect()); // the grid that fits this view
    if (!canExplode() || explode <= 0.0f)
        return m_snap->positions;
    return nodePositions(m_snap->topology(), explode);
}

bool SceneView::layOutPlanesAgain()
{
    if (!m_snap || !drawsPlanes(m_snap->topology(), m_snap->drawing))
        return false;
    std::vector<Vec3> positions = layoutAt(0.0f);
    if (positions == m_explode.target)
        return false;
    m_explode.target = positions;
    setPositions(std::move(positions));
    return true;
}

void SceneView::setExplode(float explode, bool animate)
{
    if (!canExplode())
        return;
    explode = std::clamp(explode, 0.0f, kMaxExplode);
    if (explode == m_explode.amount && m_explodeAnimation->state() != QAbstractAnimation::Running)
        return;
    m_explodeAnimation->stop();
    const Topology& topo = m_snap->topology();
    // The camera follows the new framing when it shows the default framing of what is drawn now.
    const OrbitView now = m_orbit->view();
    const OrbitView framed = defaultView(topo, m_explode.target, now.aspect);
    m_explode.cameraFollows = std::abs(now.distance - framed.distance) < 1e-3f * framed.distance &&
                              now.yaw == framed.yaw && now.pitch == framed.pitch &&
                              std::hypot(now.centre[0] - framed.centre[0], now.centre[1] - framed.centre[1],
                                         now.centre[2] - framed.centre[2]) < 1e-3f;
    m_explode.amount = explode;
    if (explode > 0.0f)
        m_explode.last = explode;
    m_explode.from = m_positions;
    m_explode.fromView = now;
    m_explode.target = layoutAt(explode);
    m_explode.toView = defaultView(topo, m_explode.target, now.aspect);
    emit explodeChanged(m_explode.amount);
    if (animate) {
        m_explodeAnimation->start();
        return;
    }
    setPositions(m_explode.target);
    if (m_explode.cameraFollows) {
        m_orbit->setView(m_explode.toView);
        m_framed = m_orbit->view();
        updateLevelOfDetail();
    }
}

void SceneView::toggleExplode()
{
    setExplode(m_explode.amount > 0.0f ? 0.0f : m_explode.last);
}

void SceneView::scheduleVisibility()
{
    m_visibilityTimer->start();
}

void SceneView::updateVisibility()
{
    m_visibilityTimer->stop();
    std::size_t receivers = 0, hidden = 0;
    if (m_snap && m_positions.size() <= 4096 && m_choice.step >= 1 &&
        static_cast<std::uint32_t>(m_choice.step) <= m_snap->stepCount()) {
        std::vector<NodeId> to;
        for (const Transfer& t : m_snap->schedule.stepTransfers(StepNo{m_choice.step}))
            to.push_back(t.to);
        std::sort(to.begin(), to.end());
        to.erase(std::unique(to.begin(), to.end()), to.end());
        const std::vector<bool> seen = visibleNodes(m_orbit->view(), m_positions, m_sizes.nodeRadius);
        receivers = to.size();
        hidden = static_cast<std::size_t>(
            std::count_if(to.begin(), to.end(), [&](NodeId v) { return v < seen.size() && !seen[v]; }));
    }
    m_seen.receivers = receivers;
    m_seen.hidden = hidden;
    if (m_snap) { // the camera moved: place the labels again for what it sees
        refreshNodeLabels();
        refreshMessageLabels();
    }
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
                const QVector3D side =
                    QVector3D::crossProduct(d, std::abs(d.y()) < 0.9f ? QVector3D(0, 1, 0) : QVector3D(1, 0, 0))
                        .normalized();
                const QVector3D across = QVector3D::crossProduct(d, side).normalized();
                const QVector3D shift =
                    across * (0.06f * (static_cast<float>(lane) - 0.5f * static_cast<float>(count - 1)));
                a += shift;
                b += shift;
            }
            edges.push_back({{a.x(), a.y(), a.z()},
                             {b.x(), b.y(), b.z()},
                             {0, 0, 0},
                             treeColour(static_cast<int>(t), true, m_palette)});
        }
    m_layers.treeLinks->setInstances(edges);
}

int SceneView::axisInstanceCount() const
{
    return m_layers.axes->instanceCount();
}

void SceneView::setCompactLabels(bool on)
{
    if (on == m_labelState.compact)
        return;
    m_labelState.compact = on;
    if (m_snap)
        refreshNodeLabels();
}

float SceneView::labelClearance() const
{
    // Data held glyphs cover the node: labels keep clear of the glyph (a diagonal lift).
    const bool glyphs = m_choice.mode == ViewMode::DataHeld && drawsDataGlyphs(*m_snap);
    return glyphs ? m_sizes.glyphWidth * 0.6f : m_sizes.nodeRadius;
}

SceneView::LabelCamera SceneView::labelCamera() const
{
    LabelCamera c;
    const QMatrix4x4 vp = viewProjection();
    std::copy(vp.constData(), vp.constData() + 16, c.viewProjection.begin());
    const QMatrix4x4 view = m_frame.window->camera()->viewMatrix();
    c.right = {view(0, 0), view(0, 1), view(0, 2)};
    c.pixels = (viewportSize() * m_frame.window->devicePixelRatio()).toSize();
    return c;
}

void SceneView::refreshNodeLabels()
{
    // Node labels say where a node is; the source-map numbers are the map's values, like the
    // papers' tables. Each sits on the first side of its node where it covers no other label and
    // no other node (core placeSceneLabels, as topocast-cli visibility measures the view), or is
    // left out: placed again for every step and camera. The text is drawn once into an atlas, so
    // the labels are rebuilt only when what is shown or where changes.
    refreshGlyphTexts();
    const Topology& topo = m_snap->topology();
    const std::size_t n = topo.nodeCount();
    const bool numbers = !m_labelState.compact && m_choice.mode == ViewMode::SourceMap && n <= kMapNumberNodes &&
                         m_snap->sourceMap.size() == n;
    const float clearance = labelClearance();
    m_layers.nodeLabels->setAnchorLift(kLabelGap * clearance); // the shader moves the plate this far from its node
    const auto& pos = drawnPositions();

    // Fixed first (the axis names or plane titles, drawn by m_layers.labels; the map's numbers below
    // their nodes), then the source's name, then every node's where all are named (up to
    // kLabelAllNodes), or else the step's receivers (core nodeSceneLabels).
    const bool rooted = hasRoot(m_snap->schedule.pattern());
    const long long source = rooted && !m_labelState.compact ? static_cast<long long>(m_snap->schedule.source()) : -1;
    std::vector<SceneLabel> scene = fixedSceneLabels(topo, drawsPlanes(topo, m_snap->drawing), pos, source);
    const std::size_t ownFrom = scene.size();
    std::vector<QColor> colours;
    if (numbers)
        for (NodeId v{}; v < n; ++v)
            if (const double x = m_snap->sourceMap[v]; !std::isnan(x)) {
                scene.push_back({formatSourceMapValue(x, m_snap->sourceMapMetric, m_snap->sourceMapTimeUnit), pos[v],
                                 static_cast<long long>(v), true, LabelSide::Below});
                colours.push_back(toQColor(m_palette.label));
            }
    // Half-width views name the source in their title.
    for (SceneLabel l : m_shown.labels) { // the frame's, at the positions drawn now
        l.anchor = pos[static_cast<std::size_t>(l.node)];
        const bool isSource = rooted && l.node == static_cast<long long>(m_snap->schedule.source());
        if (isSource ? m_labelState.compact : m_labelState.compact || numbers)
            continue;
        scene.push_back(l);
        colours.push_back(toQColor(isSource ? m_palette.source : m_palette.label));
    }
    const LabelCamera camera = labelCamera();
    // The step's arrowheads are obstacles: a label never hides which way a message went.
    std::vector<SceneArrow> heads;
    for (const ArrowInstances::Arrow& a : m_layers.arrows->arrows())
        heads.push_back({a.tip, a.from, m_layers.arrows->length() * a.scale, m_sizes.nodeRadius});
    const std::vector<LabelBox> arrowsOnScreen =
        arrowBoxes(heads, camera.viewProjection, camera.right, camera.pixels.width(), camera.pixels.height());
    const PlacedLabels placed =
        placeSceneLabels(scene, camera.viewProjection, camera.right, pos, clearance, camera.pixels.width(),
                         camera.pixels.height(), m_labelState.pixels, arrowsOnScreen, m_shown.coverable);
    m_labelState.boxes.clear(); // what the message labels keep clear of (refreshMessageLabels)
    for (const LabelBox& b : placed.boxes)
        if (b.side != LabelSide::Hidden)
            m_labelState.boxes.push_back(b);

    std::vector<LabelInstances::Label> fixed, labels;
    std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(m_snap.get())) + "/" +
                      std::to_string(m_choice.highContrast) + std::to_string(m_choice.print) + "/" +
                      std::to_string(m_labelState.pixels) + "/";
    for (std::size_t i = 0; i < ownFrom; ++i) {
        const LabelSide side = placed.boxes[i].side;
        key += static_cast<char>('a' + static_cast<int>(side));
        key += placed.texts[i];
        if (side == LabelSide::Hidden)
            continue; // no room: a title or axis name over the network would hide what it names
        const QString text = QString::fromStdString(placed.texts[i]);
        const QColor colour = placed.texts[i] != scene[i].text ? toQColor(m_palette.source) // it names the source
                              : scene[i].text == "x"           ? QColor(240, 90, 90)
                              : scene[i].text == "y"           ? QColor(90, 225, 90)
                              : scene[i].text == "z"           ? QColor(120, 160, 255)
                                                               : QColor(200, 205, 215);
        const QPointF offset =
            LabelInstances::plateOffset(side, LabelInstances::plateSizeFor(text, m_labelState.pixels));
        fixed.push_back(
            {scene[i].anchor, text, colour, static_cast<float>(offset.x()), static_cast<float>(offset.y())});
    }
    for (std::size_t i = ownFrom; i < scene.size(); ++i) {
        const LabelSide side = placed.boxes[i].side;
        key += static_cast<char>('a' + static_cast<int>(side));
        if (side == LabelSide::Hidden)
            continue;
        const QString text = QString::fromStdString(placed.texts[i]);
        const QPointF offset =
            LabelInstances::plateOffset(side, LabelInstances::plateSizeFor(text, m_labelState.pixels));
        key += placed.texts[i];
        labels.push_back({pos[static_cast<std::size_t>(scene[i].node)], text, colours[i - ownFrom],
                          static_cast<float>(offset.x()), static_cast<float>(offset.y())});
    }
    if (key == m_labelState.nodeKey)
        return;
    m_labelState.nodeKey = std::move(key);
    m_layers.labels->setLabels(std::move(fixed), m_labelState.pixels);
    m_layers.nodeLabels->setLabels(std::move(labels), m_labelState.pixels);
}

} // namespace topocast::app

namespace topocast::app {

void SceneView::refreshGlyphTexts()
{
    // Data held: each cell names its chunk at its top left, so "(0,0) sends chunk 8" can be found
    // without counting squares, and a partial sum says how many contributions it combines under
    // it where there is room. Only on a flat drawing (nothing stands in front of a glyph) and
    // where the text fits left of the bar at kGlyphTextMinPixels or more; the text grows with the
    // cell up to the labels' size.
    std::vector<LabelInstances::Label> out;
    std::string key;
    if (m_choice.mode == ViewMode::DataHeld && flatNetwork() && drawsDataGlyphs(*m_snap)) {
        const auto texts =
            dataGlyphTexts(*m_snap, StepNo{static_cast<std::uint32_t>(std::max(m_choice.step, 0))}, m_sizes.glyphWidth);
        const LabelCamera camera = labelCamera();
        const auto& pos = drawnPositions();
        auto screenX = [&](const Vec3& p) {
            const auto& m = camera.viewProjection; // column-major
            const float w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
            return (m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12]) / w * 0.5f * camera.pixels.width();
        };
        const Vec3 p = pos.front(), q{p[0] + camera.right[0], p[1] + camera.right[1], p[2] + camera.right[2]};
        const float scale = std::abs(screenX(q) - screenX(p)); // device pixels per scene unit
        const float cell = texts.empty() ? 0.0f : texts.front().side * scale;
        const float inset = std::max(1.0f, 0.04f * cell);
        const float room = cell * (1 - kGlyphBarMargin - kGlyphBarWidth) - inset; // left of the bar
        const QString widest = QString::number(chunkCount(m_snap->schedule) - 1);
        int pixels = std::min(m_labelState.pixels, static_cast<int>(cell * 0.45f));
        while (pixels >= kGlyphTextMinPixels && LabelInstances::outlinedSizeFor(widest, pixels).width() > room)
            --pixels;
        const QColor colour = toQColor(m_palette.label);
        for (const GlyphCellText& t : pixels >= kGlyphTextMinPixels ? texts : std::vector<GlyphCellText>{}) {
            const QString number = QString::number(t.chunk), count = QString::fromStdString(t.count);
            const QSize a = LabelInstances::outlinedSizeFor(number, pixels);
            const float left = t.x * scale + inset, top = (t.y + t.side) * scale - inset;
            out.push_back({pos[t.node], number, colour, left + a.width() / 2.0f, top - a.height() / 2.0f});
            const QSize b = LabelInstances::outlinedSizeFor(count, pixels);
            if (!count.isEmpty() && b.width() <= room && a.height() + b.height() + 2 * inset <= cell)
                out.push_back(
                    {pos[t.node], count, colour, left + b.width() / 2.0f, top - a.height() - b.height() / 2.0f});
        }
        key = std::to_string(pixels) + "/" + std::to_string(reinterpret_cast<std::uintptr_t>(m_snap.get()));
        for (const LabelInstances::Label& l : out)
            key += l.text.toStdString() + "@" + std::to_string(l.anchor[0]) + "," + std::to_string(l.anchor[1]) + "+" +
                   std::to_string(std::lround(l.offsetX)) + "," + std::to_string(std::lround(l.offsetY)) + ";";
        if (key == m_labelState.glyphKey)
            return;
        m_labelState.glyphKey = key;
        m_layers.glyphTexts->setLabels(std::move(out), pixels);
        return;
    }
    if (!m_labelState.glyphKey.empty() || !m_layers.glyphTexts->labels().empty()) {
        m_labelState.glyphKey.clear();
        m_layers.glyphTexts->setLabels({}, m_labelState.pixels);
    }
}

} // namespace topocast::app
