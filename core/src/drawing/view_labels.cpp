#include "topocast/drawing/view_labels.h"

#include "topocast/analysis/grade.h"
#include "topocast/drawing/layout.h"
#include "topocast/drawing/planes.h"

#include <algorithm>
#include <cmath>

namespace topocast {

AxisGizmo axisGizmo(const std::vector<Vec3>& positions)
{
    const auto [lo, hi] = layoutBounds(positions);
    const float dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    return {{lo[0] - 0.8f, hi[1] + 0.8f, lo[2] - 0.8f},
            std::max(1.5f, 0.25f * std::sqrt(dx * dx + dy * dy + dz * dz)),
            dz < 1e-3f};
}

std::vector<SceneLabel> fixedSceneLabels(const Topology& topo, bool planes, const std::vector<Vec3>& positions,
                                         long long source)
{
    std::vector<SceneLabel> out;
    if (topo.isHypercube() || positions.empty())
        return out; // a hypercube's dimensions are not x, y, z
    if (planes) {
        const std::vector<PlaneTitle> titles = planeTitles(topo, positions);
        for (int k = 0; k < static_cast<int>(titles.size()); ++k) {
            // The plate's left edge a little left of the plane's left column, its foot on the title's point.
            const Vec3& at = titles[static_cast<std::size_t>(k)].position;
            SceneLabel title{titles[static_cast<std::size_t>(k)].text,
                             {at[0] - 0.25f, at[1], at[2]},
                             -1,
                             true,
                             LabelSide::UpRight,
                             0.0f};
            if (source >= 0 && static_cast<std::size_t>(source) < positions.size() &&
                topo.coord(static_cast<NodeId>(source), kPlanesDimension) == k) {
                title.alsoNames = source;
                title.longText = title.text + " · source " + nodeLabel(topo, static_cast<NodeId>(source));
            }
            out.push_back(std::move(title));
        }
        return out;
    }
    const AxisGizmo g = axisGizmo(positions);
    const Vec3& o = g.origin;
    const float end = g.length + 0.35f;
    out.push_back({"x", {o[0] + end, o[1], o[2]}, -1, true, LabelSide::Centre, 0.0f});
    out.push_back({"y", {o[0], o[1] - end, o[2]}, -1, true, LabelSide::Centre, 0.0f});
    if (!g.flat)
        out.push_back({"z", {o[0], o[1], o[2] + end}, -1, true, LabelSide::Centre, 0.0f});
    return out;
}

std::vector<SceneLabel> nodeSceneLabels(const Schedule& schedule, const std::vector<Vec3>& positions,
                                        std::uint32_t step)
{
    const Topology& topo = schedule.topology();
    std::vector<SceneLabel> out;
    const bool root = hasRoot(schedule.pattern());
    const NodeId source = schedule.source();
    if (root && source < positions.size())
        out.push_back({nodeLabel(topo, source), positions[source], static_cast<long long>(source)});
    if (topo.nodeCount() <= kLabelAllNodes) {
        for (NodeId v{}; v < topo.nodeCount() && v < positions.size(); ++v)
            if (!(root && v == source))
                out.push_back({nodeLabel(topo, v), positions[v], static_cast<long long>(v)});
    } else if (step >= 1 && step <= schedule.stepCount()) {
        // Too many to name them all: the ones the step is about, the narration's receivers.
        std::size_t named = 0;
        for (const NodeId v : stepReceivers(schedule, StepNo{step})) {
            if (named++ == kLabelReceivers)
                break;
            if (!(root && v == source) && v < positions.size())
                out.push_back({nodeLabel(topo, v), positions[v], static_cast<long long>(v)});
        }
    }
    return out;
}

namespace {

/// Screen pixels (y down) of `p`; false behind the camera.
bool toScreen(const Mat4& viewProjection, const Vec3& p, int width, int height, float& x, float& y)
{
    const Vec3 q = projectPoint(viewProjection, p);
    if (q[2] > 1.5f)
        return false;
    x = (q[0] * 0.5f + 0.5f) * static_cast<float>(width);
    y = (0.5f - q[1] * 0.5f) * static_cast<float>(height);
    return true;
}

} // namespace

std::vector<ScreenDisc> screenDiscs(const Mat4& viewProjection, const Vec3& cameraRight,
                                    const std::vector<Vec3>& positions, float radius, int width, int height)
{
    std::vector<ScreenDisc> discs;
    discs.reserve(positions.size());
    for (std::size_t v = 0; v < positions.size(); ++v) {
        const Vec3& p = positions[v];
        float x = 0, y = 0, sx = 0, sy = 0;
        const Vec3 side{p[0] + cameraRight[0] * radius, p[1] + cameraRight[1] * radius, p[2] + cameraRight[2] * radius};
        if (toScreen(viewProjection, p, width, height, x, y) && toScreen(viewProjection, side, width, height, sx, sy))
            discs.push_back({x, y, std::hypot(sx - x, sy - y), static_cast<long long>(v)});
    }
    return discs;
}

std::vector<LabelBox> arrowBoxes(const std::vector<SceneArrow>& arrows, const Mat4& viewProjection,
                                 const Vec3& cameraRight, int width, int height)
{
    std::vector<LabelBox> boxes;
    boxes.reserve(arrows.size());
    for (const SceneArrow& a : arrows) {
        float tx = 0, ty = 0, fx = 0, fy = 0, rx = 0, ry = 0;
        const Vec3 aside{a.tip[0] + cameraRight[0], a.tip[1] + cameraRight[1], a.tip[2] + cameraRight[2]};
        if (!toScreen(viewProjection, a.tip, width, height, tx, ty) ||
            !toScreen(viewProjection, a.from, width, height, fx, fy) ||
            !toScreen(viewProjection, aside, width, height, rx, ry))
            continue;
        const float unit = std::hypot(rx - tx, ry - ty); // pixels per scene unit at the tip
        const float d = std::hypot(tx - fx, ty - fy);
        const float dx = d > 1e-4f ? (tx - fx) / d : 1.0f, dy = d > 1e-4f ? (ty - fy) / d : 0.0f;
        const float gap = a.gap * unit, length = a.length * unit, half = 0.55f * length;
        const float px = tx - dx * gap, py = ty - dy * gap;       // the head's point
        const float bx = px - dx * length, by = py - dy * length; // its base
        const float xs[] = {px, bx - dy * half, bx + dy * half}, ys[] = {py, by + dx * half, by - dx * half};
        LabelBox box;
        box.side = LabelSide::UpRight; // shown: an obstacle
        box.x0 = *std::min_element(std::begin(xs), std::end(xs));
        box.x1 = *std::max_element(std::begin(xs), std::end(xs));
        box.y0 = *std::min_element(std::begin(ys), std::end(ys));
        box.y1 = *std::max_element(std::begin(ys), std::end(ys));
        boxes.push_back(box);
    }
    return boxes;
}

PlacedLabels placeSceneLabels(const std::vector<SceneLabel>& labels, const Mat4& viewProjection,
                              const Vec3& cameraRight, const std::vector<Vec3>& positions, float radius, int width,
                              int height, int pixelHeight, const std::vector<LabelBox>& arrows,
                              const std::vector<bool>& soft)
{
    PlacedLabels out;
    out.discs = screenDiscs(viewProjection, cameraRight, positions, radius, width, height);
    for (ScreenDisc& d : out.discs)
        d.soft = static_cast<std::size_t>(d.node) < soft.size() && soft[static_cast<std::size_t>(d.node)];
    std::vector<float> radiusPx(positions.size(), -1.0f);
    for (const ScreenDisc& d : out.discs)
        radiusPx[static_cast<std::size_t>(d.node)] = d.r;
    std::vector<bool> behind(labels.size(), false);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const SceneLabel& l = labels[i];
        LabelRequest r;
        r.plate = labelPlateSize(l.text, pixelHeight);
        r.node = l.node;
        r.fixed = l.fixed;
        r.side = l.side;
        r.gap = l.node >= 0 && static_cast<std::size_t>(l.node) < radiusPx.size()
                    ? kLabelGap * std::max(0.0f, radiusPx[static_cast<std::size_t>(l.node)])
                    : l.gap;
        behind[i] = !toScreen(viewProjection, l.anchor, width, height, r.x, r.y);
        out.requests.push_back(r);
    }
    out.boxes = placeLabels(out.requests, out.discs, width, height, {}, arrows);
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (behind[i])
            out.boxes[i] = {};
    for (const SceneLabel& l : labels)
        out.texts.push_back(l.text);
    // A title names a node whose own label found no room: placed again with its longer text,
    // kept only if that fits without leaving out another label (else the title as it was).
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const SceneLabel& title = labels[i];
        if (title.alsoNames < 0 || out.boxes[i].side == LabelSide::Hidden)
            continue;
        const auto own =
            std::find_if(labels.begin(), labels.end(), [&](const SceneLabel& l) { return l.node == title.alsoNames; });
        if (own == labels.end() || out.boxes[static_cast<std::size_t>(own - labels.begin())].side != LabelSide::Hidden)
            continue;
        std::vector<LabelRequest> again = out.requests;
        again[i].plate = labelPlateSize(title.longText, pixelHeight);
        std::vector<LabelBox> boxes = placeLabels(again, out.discs, width, height, {}, arrows);
        const auto shown = [](const std::vector<LabelBox>& b) {
            return std::count_if(b.begin(), b.end(), [](const LabelBox& x) { return x.side != LabelSide::Hidden; });
        };
        if (boxes[i].side == LabelSide::Hidden || shown(boxes) < shown(out.boxes))
            continue; // no room for the longer title, or it would push another label out
        for (std::size_t j = 0; j < labels.size(); ++j)
            if (behind[j])
                boxes[j] = {};
        out.requests = std::move(again);
        out.boxes = std::move(boxes);
        out.texts[i] = title.longText;
    }
    return out;
}

std::vector<bool> idleNodes(const Schedule& schedule, const std::vector<std::uint32_t>& informedStep,
                            std::uint32_t step)
{
    const std::size_t n = schedule.topology().nodeCount();
    std::vector<bool> idle(n, false);
    if (n <= kLabelAllNodes || informedStep.size() != n)
        return idle;
    for (std::size_t v = 0; v < n; ++v)
        idle[v] = informedStep[v] > step && (!hasRoot(schedule.pattern()) || v != schedule.source());
    if (step >= 1 && step <= schedule.stepCount())
        for (const Transfer& t : schedule.stepTransfers(StepNo{step})) {
            idle[t.from] = false;
            idle[t.to] = false;
        }
    return idle;
}

} // namespace topocast
