#include "scene/sceneshape.h"

#include "scene/arrowinstances.h"
#include "scene/glyphinstances.h"
#include "scene/labelinstances.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/scenecamera.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/drawing.h"
#include "topocast/drawing/view_labels.h"
#include "topocast/drawing/visibility.h"
#include "topocast/scenario/data_glyphs.h"
#include "topocast/scenario/scenario.h"

#include <Qt3DRender/QDepthTest>

#include <QVariantAnimation>
#include <QVector3D>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>

namespace topocast::app {

SceneShape::SceneShape(SceneContext& scene, QObject* parent) : QObject(parent), m_scene(scene)
{
    m_explodeAnimation = new QVariantAnimation(this);
    m_explodeAnimation->setDuration(300);
    m_explodeAnimation->setStartValue(0.0);
    m_explodeAnimation->setEndValue(1.0);
    m_explodeAnimation->setEasingCurve(QEasingCurve::InOutCubic);
    connect(m_explodeAnimation, &QVariantAnimation::valueChanged, this,
            [this](const QVariant& value) { animateExplode(value.toFloat()); });
    connect(m_explodeAnimation, &QVariantAnimation::finished, this, [this] {
        setPositions(m_explode.target);
        if (m_explode.cameraFollows) {
            OrbitCamera& orbit = m_scene.camera->orbit();
            OrbitView v = m_explode.toView;
            v.aspect = orbit.view().aspect;
            orbit.setView(v);
            m_scene.camera->markFramed();
            m_scene.camera->updateLevelOfDetail();
        }
    });
}

void SceneShape::animateExplode(float t)
{
    if (m_explodeAnimation->state() != QAbstractAnimation::Running || m_explode.from.size() != m_explode.target.size())
        return;
    std::vector<Vec3> mixed(m_explode.target.size());
    for (std::size_t i = 0; i < mixed.size(); ++i)
        for (std::size_t a = 0; a < 3; ++a)
            mixed[i][a] = m_explode.from[i][a] + (m_explode.target[i][a] - m_explode.from[i][a]) * t;
    setPositions(std::move(mixed));
    if (m_explode.cameraFollows) {
        OrbitCamera& orbit = m_scene.camera->orbit();
        OrbitView v = m_explode.toView;
        v.distance = m_explode.fromView.distance + (m_explode.toView.distance - m_explode.fromView.distance) * t;
        for (std::size_t a = 0; a < 3; ++a)
            v.centre[a] =
                m_explode.fromView.centre[a] + (m_explode.toView.centre[a] - m_explode.fromView.centre[a]) * t;
        v.aspect = orbit.view().aspect;
        orbit.setView(v);
    }
}

void SceneShape::adopt()
{
    m_explodeAnimation->stop();
    const Topology& topo = m_scene.snap->topology();
    m_explode.amount = canExplode() ? m_scene.snap->drawing.explode : 0.0f;
    m_explode.last = m_explode.amount > 0.0f ? m_explode.amount : std::max(1.0f, defaultExplode(topo));
    m_explode.target = layoutAt(m_explode.amount);
    m_scene.positions = m_explode.target;
    if (m_slice.dim >= topo.dims() || topo.isHypercube()) {
        m_slice.dim = -1;
        emit sliceChanged(-1, 0);
    } else if (m_slice.dim >= 0) {
        m_slice.plane = std::min(m_slice.plane, topo.side(m_slice.dim) - 1);
    }
    rebuildGeometry();
    m_scene.camera->resetView();
    m_scene.frame.arrowDepth->setDepthFunction(flatNetwork() ? Qt3DRender::QDepthTest::Always
                                                             : Qt3DRender::QDepthTest::Less);
    emit explodeChanged(m_explode.amount);
}

void SceneShape::sizeGlyphs()
{
    // O(N²) over the positions: only where glyphs can be drawn (a 32³ mesh would take seconds).
    if (m_scene.snap && m_scene.snap->topology().nodeCount() <= kGlyphMaxNodes)
        m_scene.sizes.glyphWidth =
            glyphWidth(m_scene.positions, m_scene.labelState.compact ? kGlyphShareHalfView : kGlyphShare);
}

bool SceneShape::animating() const
{
    return m_explodeAnimation->state() == QAbstractAnimation::Running;
}

void SceneShape::rebuildGeometry()
{
    const Topology& topo = m_scene.snap->topology();
    m_scene.drawn.channels = drawnChannels(topo, drawsPlanes(topo, m_scene.snap->drawing));
    m_scene.drawn.straightCount = straightCount(m_scene.drawn.channels);
    placeGeometry();

    const std::uint32_t n = topo.nodeCount();
    m_scene.sizes.nodeRadius = drawingNodeRadius(topo, m_scene.snap->drawing);
    m_scene.layers.nodes->setRadius(m_scene.sizes.nodeRadius);
    m_scene.layers.marks->setRadius(m_scene.sizes.nodeRadius * 1.9f);
    m_scene.layers.links->setRadius(n > 4096 ? 0.025f : 0.035f, 0.045f);
    m_scene.layers.arcs->setRadius(0.03f, 0.045f);
    m_scene.layers.stubs->setRadius(0.03f, 0.045f);
    m_scene.layers.treeLinks->setRadius(n > 4096 ? 0.035f : 0.05f, 0.045f);
    m_scene.layers.messages->setRadius(0.11f);
    m_scene.layers.arrows->setSize(m_scene.sizes.nodeRadius * 2.4f, m_scene.sizes.nodeRadius);
    m_scene.layers.nodeLabels->setAnchorLift(m_scene.sizes.nodeRadius * kLabelGap);
    sizeGlyphs();
    m_scene.layers.glyphs->setLift(m_scene.sizes.nodeRadius * 1.6f);
    m_scene.labelState.nodeKey.clear();
    m_scene.sizes.linkRadius = n > 4096 ? 0.025f : 0.035f;
}

void SceneShape::placeGeometry()
{
    const Topology& topo = m_scene.snap->topology();
    const auto& pos = m_scene.positions;
    const auto bounds = layoutBounds(pos);

    // Tori: drawing every wrap-around arc buries the grid (a 7×7×7 torus has 294; a 2-D torus
    // seen top-down would get a second grid of arcs beside its rows), so each wrap channel shows
    // as a short stub leaving its tail outwards, as in the papers' figures, and only the wrap
    // channels in use in the current step are drawn as whole arcs (refresh()).
    // Planes side by side: the channels between planes likewise show only while in use, as
    // shallow arcs from plane to plane (all of them would cross the picture N times over).
    const bool planes = drawsPlanes(topo, m_scene.snap->drawing);
    m_scene.drawn.wrapStubs = topo.isTorus() || planes;
    std::vector<LinkInstances::Instance> straight, stubs;
    straight.reserve(m_scene.drawn.straightCount);
    m_scene.drawn.arcShapes.clear();
    for (const DrawnChannel& c : m_scene.drawn.channels) {
        LinkInstances::Instance in{pos[c.tail], pos[c.head], {0, 0, 0}, m_scene.palette.link};
        if (!c.wrap && !c.jump) {
            straight.push_back(in);
            continue;
        }
        // Reverse channels bend the same way so both directions of one wrap link run side by side.
        if (c.jump) {
            in.bulge = planeJumpBulge(in.a, in.b);
            m_scene.drawn.arcShapes.push_back(in);
            continue; // no stub: a plane's neighbours are the planes beside it, not off its edge
        }
        in.bulge = wrapArcBulge(topo, planes ? planeBoundsOf(topo, pos, c.tail) : bounds, in.a, in.b, c.dim);
        const QVector3D a(in.a[0], in.a[1], in.a[2]), b(in.b[0], in.b[1], in.b[2]);
        const QVector3D axis = (b - a).normalized();
        m_scene.drawn.arcShapes.push_back(in);
        const QVector3D out = a - axis * 0.45f; // the stub: from the tail away from the grid
        stubs.push_back({in.a, {out.x(), out.y(), out.z()}, {0, 0, 0}, m_scene.palette.link});
    }
    m_scene.layers.links->setInstances(straight);
    m_scene.layers.stubs->setInstances(m_scene.drawn.wrapStubs ? stubs : std::vector<LinkInstances::Instance>{});
    m_scene.layers.arcs->setInstances(m_scene.drawn.wrapStubs ? std::vector<LinkInstances::Instance>{}
                                                              : m_scene.drawn.arcShapes);
    m_scene.drawn.shownArcs.clear();
    if (m_scene.drawn.wrapStubs && m_scene.shown.style.channelInUse.size() == m_scene.drawn.channels.size()) {
        // Keep the arcs of the step shown (refresh() only re-sends them when the set changes).
        for (std::size_t w = 0; w + m_scene.drawn.straightCount < m_scene.drawn.channels.size(); ++w)
            if (m_scene.shown.style.channelInUse[m_scene.drawn.straightCount + w])
                m_scene.drawn.shownArcs.push_back(w);
        std::vector<LinkInstances::Instance> shown;
        for (std::size_t w : m_scene.drawn.shownArcs)
            shown.push_back(m_scene.drawn.arcShapes[w]);
        m_scene.layers.arcs->setInstances(shown);
    }

    // The axes from the low corner of a mesh or torus (x red, y green, z blue; layout: x → +X,
    // y → −Y, z → +Z); planes side by side are titled instead, and a hypercube's dimensions are
    // not x, y, z. Their names and the titles are placed with the node labels (refreshNodeLabels).
    if (topo.isHypercube() || planes) {
        m_scene.layers.axes->setInstances({});
    } else {
        const AxisGizmo g = axisGizmo(pos);
        const Vec3& o = g.origin;
        const float len = g.length;
        m_scene.layers.axes->setInstances(
            {{o, {o[0] + len, o[1], o[2]}, {0, 0, 0}, {0.9f, 0.2f, 0.2f}},
             {o, {o[0], o[1] - len, o[2]}, {0, 0, 0}, {0.2f, 0.85f, 0.2f}},
             {o, {o[0], o[1], o[2] + (g.flat ? 0.0f : len)}, {0, 0, 0}, {0.3f, 0.45f, 1.0f}}});
        m_scene.layers.axes->setRadius(0.03f, 0.0f);
    }
}

void SceneShape::setPositions(std::vector<Vec3> positions)
{
    m_scene.positions = std::move(positions);
    m_scene.labelState.nodeKey.clear(); // node labels and numbers sit beside the nodes: place them again
    if (!m_scene.snap)
        return;
    placeGeometry();
    rebuildTrees();
    std::vector<MarkInstances::Mark> marks = m_scene.layers.marks->marks();
    for (MarkInstances::Mark& m : marks)
        if (m.node < m_scene.positions.size())
            m.position = m_scene.positions[m.node];
    m_scene.layers.marks->setMarks(std::move(marks));
    emit changed();
}

void SceneShape::applySlice()
{
    if (m_slice.dim < 0 || !m_scene.snap || m_slice.dim >= m_scene.snap->topology().dims() ||
        m_scene.snap->topology().isHypercube())
        return;
    if (m_slice.follows) {
        const int plane = busiestPlane(m_scene.snap->schedule, StepNo{std::max(0, m_scene.choice.step)}, m_slice.dim);
        if (plane >= 0 && plane != m_slice.plane) {
            m_slice.plane = plane;
            emit sliceChanged(m_slice.dim, m_slice.plane);
        }
    }
    // Ghosts: most of the way to the background and smaller, so the plane in full stands out
    // while the rest still shows where it sits.
    const Topology& topo = m_scene.snap->topology();
    const Rgba bg = m_scene.palette.background;
    auto ghost = [&bg](Rgba& c) {
        c = {c.r * 0.22f + bg.r * 0.78f, c.g * 0.22f + bg.g * 0.78f, c.b * 0.22f + bg.b * 0.78f, c.a};
    };
    std::vector<bool> inPlane(topo.nodeCount());
    for (NodeId v{}; v < topo.nodeCount(); ++v)
        inPlane[v] = topo.coord(v, m_slice.dim) == m_slice.plane;
    for (NodeId v{}; v < inPlane.size() && v < m_scene.shown.style.nodeColour.size(); ++v)
        if (!inPlane[v]) {
            ghost(m_scene.shown.style.nodeColour[v]);
            m_scene.shown.style.nodeScale[v] *= 0.6f;
        }
    for (std::size_t i = 0; i < m_scene.drawn.channels.size() && i < m_scene.shown.style.channelColour.size(); ++i)
        if (!inPlane[m_scene.drawn.channels[i].tail] || !inPlane[m_scene.drawn.channels[i].head])
            ghost(m_scene.shown.style.channelColour[i]);
}

void SceneShape::setSlice(int dim, int plane)
{
    if (!m_scene.snap || m_scene.snap->topology().isHypercube() || dim >= m_scene.snap->topology().dims())
        dim = -1;
    if (dim >= 0)
        plane = std::clamp(plane, 0, m_scene.snap->topology().side(dim) - 1);
    if (dim == m_slice.dim && (dim < 0 || plane == m_slice.plane))
        return;
    m_slice.dim = dim;
    m_slice.plane = dim < 0 ? 0 : plane;
    emit sliceChanged(m_slice.dim, m_slice.plane);
    emit changed();
}

void SceneShape::setSliceFollowsStep(bool follow)
{
    m_slice.follows = follow;
    emit changed();
}

bool SceneShape::canExplode() const
{
    // The flat hypercube drawing and planes side by side are planes already: nothing to pull apart.
    return m_scene.snap && explodes(m_scene.snap->topology(), m_scene.snap->drawing);
}

bool SceneShape::canLayOutPlanes() const
{
    return m_scene.snap && canDrawPlanes(m_scene.snap->topology());
}

std::vector<Vec3> SceneShape::layoutAt(float explode) const
{
    if (drawsPlanes(m_scene.snap->topology(), m_scene.snap->drawing)) { // the grid that fits this view
        const QSizeF size = m_scene.camera->viewportSize();
        return planesPositions(m_scene.snap->topology(), static_cast<float>(size.width() / size.height()));
    }
    if (!canExplode() || explode <= 0.0f)
        return m_scene.snap->positions;
    return nodePositions(m_scene.snap->topology(), explode);
}

bool SceneShape::layOutPlanesAgain()
{
    if (!m_scene.snap || !drawsPlanes(m_scene.snap->topology(), m_scene.snap->drawing))
        return false;
    std::vector<Vec3> positions = layoutAt(0.0f);
    if (positions == m_explode.target)
        return false;
    m_explode.target = positions;
    setPositions(std::move(positions));
    return true;
}

void SceneShape::setExplode(float explode, bool animate)
{
    if (!canExplode())
        return;
    explode = std::clamp(explode, 0.0f, kMaxExplode);
    if (explode == m_explode.amount && m_explodeAnimation->state() != QAbstractAnimation::Running)
        return;
    m_explodeAnimation->stop();
    const Topology& topo = m_scene.snap->topology();
    // The camera follows the new framing when it shows the default framing of what is drawn now.
    OrbitCamera& orbit = m_scene.camera->orbit();
    const OrbitView now = orbit.view();
    const OrbitView framed = defaultView(topo, m_explode.target, now.aspect);
    m_explode.cameraFollows = std::abs(now.distance - framed.distance) < 1e-3f * framed.distance &&
                              now.yaw == framed.yaw && now.pitch == framed.pitch &&
                              std::hypot(now.centre[0] - framed.centre[0], now.centre[1] - framed.centre[1],
                                         now.centre[2] - framed.centre[2]) < 1e-3f;
    m_explode.amount = explode;
    if (explode > 0.0f)
        m_explode.last = explode;
    m_explode.from = m_scene.positions;
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
        orbit.setView(m_explode.toView);
        m_scene.camera->markFramed();
        m_scene.camera->updateLevelOfDetail();
    }
}

void SceneShape::toggleExplode()
{
    setExplode(m_explode.amount > 0.0f ? 0.0f : m_explode.last);
}

void SceneShape::rebuildTrees()
{
    // One instance per member tree edge (snapshot order: tree 0's edges, then tree 1's, …) on
    // top of its directed channel. Members sharing a directed edge (nRSBT, SBnTc, nRBRG) are
    // drawn side by side in lanes across the channel, so every member's colour shows.
    std::vector<LinkInstances::Instance> edges;
    std::map<std::pair<NodeId, NodeId>, int> lanes;
    for (const auto& tree : m_scene.snap->trees)
        for (const hypercube::TreeEdge& e : tree)
            ++lanes[{e.parent, e.child}];
    std::map<std::pair<NodeId, NodeId>, int> used;
    const auto& pos = m_scene.positions;
    for (std::size_t t = 0; t < m_scene.snap->trees.size(); ++t)
        for (const hypercube::TreeEdge& e : m_scene.snap->trees[t]) {
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
                             treeColour(static_cast<int>(t), true, m_scene.palette)});
        }
    m_scene.layers.treeLinks->setInstances(edges);
}

bool SceneShape::flatNetwork() const
{
    if (!m_scene.snap)
        return false;
    const auto bounds = layoutBounds(m_scene.snap->positions);
    return bounds[1][2] - bounds[0][2] < 1e-3f;
}

void SceneShape::uploadChannelColours(bool everyFrame)
{
    std::vector<Rgba> straight(m_scene.shown.style.channelColour.begin(),
                               m_scene.shown.style.channelColour.begin() +
                                   static_cast<std::ptrdiff_t>(m_scene.drawn.straightCount));
    std::vector<Rgba> arcs(m_scene.shown.style.channelColour.begin() +
                               static_cast<std::ptrdiff_t>(m_scene.drawn.straightCount),
                           m_scene.shown.style.channelColour.end());
    m_scene.layers.links->setColours(straight, everyFrame);
    if (m_scene.drawn.wrapStubs) {
        m_scene.layers.stubs->setColours(
            std::vector<Rgba>(arcs.begin(),
                              arcs.begin() + static_cast<std::ptrdiff_t>(stubbedCount(m_scene.drawn.channels))),
            everyFrame);
        // Whole arcs only for the wrap channels in use in this step.
        std::vector<std::size_t> active;
        for (std::size_t w = 0; w < arcs.size(); ++w)
            if (m_scene.shown.style.channelInUse[m_scene.drawn.straightCount + w])
                active.push_back(w);
        if (active != m_scene.drawn.shownArcs) {
            std::vector<LinkInstances::Instance> shown;
            for (std::size_t w : active)
                shown.push_back(m_scene.drawn.arcShapes[w]);
            m_scene.layers.arcs->setInstances(shown);
            m_scene.drawn.shownArcs = active;
        }
        std::vector<Rgba> shownColours;
        for (std::size_t w : m_scene.drawn.shownArcs)
            shownColours.push_back(arcs[w]);
        m_scene.layers.arcs->setColours(shownColours);
    } else {
        m_scene.layers.arcs->setColours(arcs);
    }
}

} // namespace topocast::app
