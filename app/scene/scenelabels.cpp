#include "scene/scenelabels.h"

#include "scene/arrowinstances.h"
#include "scene/labelinstances.h"
#include "scene/picking.h"
#include "scene/scenecamera.h"
#include "scene/sceneshape.h"

#include "words/narration.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/layout.h"
#include "topocast/drawing/view_labels.h"
#include "topocast/scenario/data_glyphs.h"
#include "topocast/scenario/scenario.h"

#include <Qt3DExtras/Qt3DWindow>

#include <QMatrix4x4>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace topocast::app {

namespace {
QColor toQColor(const Rgba& c)
{
    return c.to<QColor>();
}
} // namespace

float SceneLabels::clearance() const
{
    // Data held glyphs cover the node: labels keep clear of the glyph (a diagonal lift).
    const bool glyphs = m_scene.choice.mode == ViewMode::DataHeld && drawsDataGlyphs(*m_scene.snap);
    return glyphs ? m_scene.sizes.glyphWidth * 0.6f : m_scene.sizes.nodeRadius;
}

void SceneLabels::placeNodeLabels()
{
    // Node labels say where a node is; the source-map numbers are the map's values, like the
    // papers' tables. Each sits on the first side of its node where it covers no other label and
    // no other node (core placeSceneLabels, as topocast-cli visibility measures the view), or is
    // left out: placed again for every step and camera. The text is drawn once into an atlas, so
    // the labels are rebuilt only when what is shown or where changes.
    placeGlyphTexts();
    const Topology& topo = m_scene.snap->topology();
    const std::size_t n = topo.nodeCount();
    const bool numbers = !m_scene.labelState.compact && m_scene.choice.mode == ViewMode::SourceMap &&
                         n <= kMapNumberNodes && m_scene.snap->sourceMap.size() == n;
    const float keep = clearance();
    m_scene.layers.nodeLabels->setAnchorLift(kLabelGap * keep); // the shader moves the plate this far from its node
    const auto& pos = m_scene.positions;

    // Fixed first (the axis names or plane titles, drawn by m_scene.layers.labels; the map's numbers below
    // their nodes), then the source's name, then every node's where all are named (up to
    // kLabelAllNodes), or else the step's receivers (core nodeSceneLabels).
    const bool rooted = hasRoot(m_scene.snap->schedule.pattern());
    const long long source =
        rooted && !m_scene.labelState.compact ? static_cast<long long>(m_scene.snap->schedule.source()) : -1;
    std::vector<SceneLabel> scene = fixedSceneLabels(topo, drawsPlanes(topo, m_scene.snap->drawing), pos, source);
    const std::size_t ownFrom = scene.size();
    std::vector<QColor> colours;
    if (numbers)
        for (NodeId v{}; v < n; ++v)
            if (const double x = m_scene.snap->sourceMap[v]; !std::isnan(x)) {
                scene.push_back(
                    {formatSourceMapValue(x, m_scene.snap->sourceMapMetric, m_scene.snap->sourceMapTimeUnit), pos[v],
                     static_cast<long long>(v), true, LabelSide::Below});
                colours.push_back(toQColor(m_scene.palette.label));
            }
    // Half-width views name the source in their title.
    for (SceneLabel l : m_scene.shown.labels) { // the frame's, at the positions drawn now
        l.anchor = pos[static_cast<std::size_t>(l.node)];
        const bool isSource = rooted && l.node == static_cast<long long>(m_scene.snap->schedule.source());
        if (isSource ? m_scene.labelState.compact : m_scene.labelState.compact || numbers)
            continue;
        scene.push_back(l);
        colours.push_back(toQColor(isSource ? m_scene.palette.source : m_scene.palette.label));
    }
    const LabelCamera camera = m_scene.camera->labelCamera();
    // The step's arrowheads are obstacles: a label never hides which way a message went.
    std::vector<SceneArrow> heads;
    for (const ArrowInstances::Arrow& a : m_scene.layers.arrows->arrows())
        heads.push_back({a.tip, a.from, m_scene.layers.arrows->length() * a.scale, m_scene.sizes.nodeRadius});
    const std::vector<LabelBox> arrowsOnScreen =
        arrowBoxes(heads, camera.viewProjection, camera.right, camera.pixels.width(), camera.pixels.height());
    const PlacedLabels placed =
        placeSceneLabels(scene, camera.viewProjection, camera.right, pos, keep, camera.pixels.width(),
                         camera.pixels.height(), m_scene.labelState.pixels, arrowsOnScreen, m_scene.shown.coverable);
    m_scene.labelState.boxes.clear(); // what the message labels keep clear of (refreshMessageLabels)
    for (const LabelBox& b : placed.boxes)
        if (b.side != LabelSide::Hidden)
            m_scene.labelState.boxes.push_back(b);

    std::vector<LabelInstances::Label> fixed, labels;
    std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(m_scene.snap.get())) + "/" +
                      std::to_string(m_scene.choice.highContrast) + std::to_string(m_scene.choice.print) + "/" +
                      std::to_string(m_scene.labelState.pixels) + "/";
    for (std::size_t i = 0; i < ownFrom; ++i) {
        const LabelSide side = placed.boxes[i].side;
        key += static_cast<char>('a' + static_cast<int>(side));
        key += placed.texts[i];
        if (side == LabelSide::Hidden)
            continue; // no room: a title or axis name over the network would hide what it names
        const QString text = QString::fromStdString(placed.texts[i]);
        const QColor colour = placed.texts[i] != scene[i].text ? toQColor(m_scene.palette.source) // it names the source
                              : scene[i].text == "x"           ? QColor(240, 90, 90)
                              : scene[i].text == "y"           ? QColor(90, 225, 90)
                              : scene[i].text == "z"           ? QColor(120, 160, 255)
                                                               : QColor(200, 205, 215);
        const QPointF offset =
            LabelInstances::plateOffset(side, LabelInstances::plateSizeFor(text, m_scene.labelState.pixels));
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
            LabelInstances::plateOffset(side, LabelInstances::plateSizeFor(text, m_scene.labelState.pixels));
        key += placed.texts[i];
        labels.push_back({pos[static_cast<std::size_t>(scene[i].node)], text, colours[i - ownFrom],
                          static_cast<float>(offset.x()), static_cast<float>(offset.y())});
    }
    if (key == m_scene.labelState.nodeKey)
        return;
    m_scene.labelState.nodeKey = std::move(key);
    m_scene.layers.labels->setLabels(std::move(fixed), m_scene.labelState.pixels);
    // Every node's name stays in the atlas (up to kSpareLabelNodes nodes): the next step's
    // receivers, or a label back from where it found no room, need no new atlas, and a handout's
    // or a video's next page costs one frame, not two.
    std::vector<LabelInstances::PlateKey> spare;
    if (n <= kSpareLabelNodes && !numbers)
        for (NodeId v{}; v < n; ++v)
            spare.emplace_back(QString::fromStdString(nodeLabel(topo, v)), toQColor(m_scene.palette.label).rgba());
    m_scene.layers.nodeLabels->setLabels(std::move(labels), m_scene.labelState.pixels, spare);
}

void SceneLabels::placeGlyphTexts()
{
    // Data held: each cell names its chunk at its top left, so "(0,0) sends chunk 8" can be found
    // without counting squares, and a partial sum says how many contributions it combines under
    // it where there is room. Only on a flat drawing (nothing stands in front of a glyph) and
    // where the text fits left of the bar at kGlyphTextMinPixels or more; the text grows with the
    // cell up to the labels' size.
    std::vector<LabelInstances::Label> out;
    std::string key;
    if (m_scene.choice.mode == ViewMode::DataHeld && m_scene.shape->flatNetwork() && drawsDataGlyphs(*m_scene.snap)) {
        const auto texts =
            dataGlyphTexts(*m_scene.snap, StepNo{static_cast<std::uint32_t>(std::max(m_scene.choice.step, 0))},
                           m_scene.sizes.glyphWidth);
        const LabelCamera camera = m_scene.camera->labelCamera();
        const auto& pos = m_scene.positions;
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
        const QString widest = QString::number(chunkCount(m_scene.snap->schedule) - 1);
        int pixels = std::min(m_scene.labelState.pixels, static_cast<int>(cell * 0.45f));
        while (pixels >= kGlyphTextMinPixels && LabelInstances::outlinedSizeFor(widest, pixels).width() > room)
            --pixels;
        const QColor colour = toQColor(m_scene.palette.label);
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
        key = std::to_string(pixels) + "/" + std::to_string(reinterpret_cast<std::uintptr_t>(m_scene.snap.get()));
        for (const LabelInstances::Label& l : out)
            key += l.text.toStdString() + "@" + std::to_string(l.anchor[0]) + "," + std::to_string(l.anchor[1]) + "+" +
                   std::to_string(std::lround(l.offsetX)) + "," + std::to_string(std::lround(l.offsetY)) + ";";
        if (key == m_scene.labelState.glyphKey)
            return;
        m_scene.labelState.glyphKey = key;
        m_scene.layers.glyphTexts->setLabels(std::move(out), pixels);
        return;
    }
    if (!m_scene.labelState.glyphKey.empty() || !m_scene.layers.glyphTexts->labels().empty()) {
        m_scene.labelState.glyphKey.clear();
        m_scene.layers.glyphTexts->setLabels({}, m_scene.labelState.pixels);
    }
}

void SceneLabels::placeMessageLabels()
{
    std::vector<LabelInstances::Label> labels;
    const Schedule& s = m_scene.snap->schedule;
    // The arrows refresh() just placed: arrow i is the last hop of the step's transfer i.
    const auto& arrows = m_scene.layers.arrows->arrows();
    if (m_scene.transfers.severalBlocks && !m_scene.labelState.compact && m_scene.choice.step >= 1 &&
        static_cast<std::uint32_t>(m_scene.choice.step) <= s.stepCount() && arrows.size() <= kMessageLabels) {
        const QMatrix4x4 vp = m_scene.camera->viewProjection();
        const QSizeF size = m_scene.camera->viewportSize();
        const auto transfers = s.stepTransfers(StepNo{m_scene.choice.step});
        // Each plate where it is meant to sit, or left out where it would cover a node, a title,
        // a node label or an earlier message's plate (core placeLabels, in device pixels).
        const double dpr = m_scene.frame.window->devicePixelRatio();
        const LabelCamera camera = m_scene.camera->labelCamera();
        std::vector<LabelRequest> requests;
        for (std::size_t i = 0; i < arrows.size(); ++i) {
            // Beside the middle of the last hop, on the left of the direction of travel as seen on
            // screen: two messages crossing one link in opposite directions keep apart.
            const Vec3 &a = arrows[i].from, &b = arrows[i].tip;
            const Vec3 mid{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
            const QPointF d = projectToScreen(vp, size, b) - projectToScreen(vp, size, a);
            const double len = std::hypot(d.x(), d.y());
            const QString text = transferLabel(s, transfers[i]);
            const QSize plate = LabelInstances::plateSizeFor(text, m_scene.labelState.pixels);
            // Screen y runs down, the label offsets' y up: the left normal of the direction (dx, −dy)
            // is (dy, dx) / len. The sides are taken from the camera of this refresh.
            const double nx = len > 0 ? d.y() / len : 0.0, ny = len > 0 ? d.x() / len : 1.0;
            const double reach = 0.5 * std::abs(nx) * plate.width() + 0.5 * std::abs(ny) * plate.height() + 4.0;
            labels.push_back({mid, text, toQColor(m_scene.palette.label), static_cast<float>(nx * reach),
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
            requests, screenDiscs(camera.viewProjection, camera.right, m_scene.positions, clearance(), w, h), w, h,
            m_scene.labelState.boxes);
        std::vector<LabelInstances::Label> kept;
        for (std::size_t i = 0; i < labels.size(); ++i)
            if (boxes[i].side != LabelSide::Hidden)
                kept.push_back(std::move(labels[i]));
        labels = std::move(kept);
    }
    // The atlas is drawn again only when what the plates say or where they sit changes.
    const auto& shown = m_scene.layers.messageLabels->labels();
    const bool same = m_scene.labelState.messagePixels == m_scene.labelState.pixels && shown.size() == labels.size() &&
                      std::equal(labels.begin(), labels.end(), shown.begin(), [](const auto& x, const auto& y) {
                          return x.anchor == y.anchor && x.text == y.text && x.colour == y.colour &&
                                 x.offsetX == y.offsetX && x.offsetY == y.offsetY;
                      });
    if (!same) {
        m_scene.layers.messageLabels->setLabels(std::move(labels), m_scene.labelState.pixels);
        m_scene.labelState.messagePixels = m_scene.labelState.pixels;
    }
    m_scene.layers.messageLabels->setEnabled(m_scene.atRest && !m_scene.layers.messageLabels->labels().empty());
}

} // namespace topocast::app
