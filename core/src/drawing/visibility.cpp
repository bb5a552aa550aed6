#include "topocast/drawing/visibility.h"

#include "topocast/drawing/layout.h"
#include "topocast/drawing/view_labels.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace topocast {

std::vector<NodeId> activeNodes(const Schedule& schedule, StepNo step)
{
    std::vector<NodeId> nodes{schedule.source()};
    for (const Transfer& t : schedule.stepTransfers(step)) {
        nodes.push_back(t.from);
        nodes.push_back(t.to);
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
}

VisibilityReport measureVisibility(const Schedule& schedule, const std::vector<Vec3>& positions, const OrbitView& view,
                                   float radius)
{
    const std::vector<bool> seen =
        visibleNodes(view, positions, radius > 0.0f ? radius : drawnNodeRadius(positions.size()));
    VisibilityReport report;
    for (StepNo k : steps(schedule)) {
        StepVisibility sv;
        sv.step = k;
        for (NodeId v : activeNodes(schedule, k)) {
            ++sv.active;
            if (v < seen.size() && seen[v])
                ++sv.visible;
        }
        if (sv.active > 0)
            report.minFraction =
                std::min(report.minFraction, static_cast<double>(sv.visible) / static_cast<double>(sv.active));
        report.steps.push_back(sv);
    }
    return report;
}

int busiestPlane(const Schedule& schedule, StepNo step, int dim)
{
    const Topology& topo = schedule.topology();
    if (topo.isHypercube() || dim < 0 || dim >= topo.dims() || step < 1 || step > schedule.stepCount())
        return -1;
    std::vector<NodeId> receivers;
    for (const Transfer& t : schedule.stepTransfers(step))
        receivers.push_back(t.to);
    std::sort(receivers.begin(), receivers.end());
    receivers.erase(std::unique(receivers.begin(), receivers.end()), receivers.end());
    if (receivers.empty())
        return -1;
    std::vector<std::size_t> count(static_cast<std::size_t>(topo.side(dim)), 0);
    for (NodeId v : receivers)
        ++count[static_cast<std::size_t>(topo.coord(v, dim))];
    return static_cast<int>(std::max_element(count.begin(), count.end()) - count.begin());
}

VisibilityReport measureVisibility(const Schedule& schedule, float explode, float aspect)
{
    if (!std::isfinite(aspect) || aspect <= 0.0f)
        throw Error("viewport aspect " + std::to_string(aspect) + " must be positive (width / height)");
    const std::vector<Vec3> positions = nodePositions(schedule.topology(), explode);
    return measureVisibility(schedule, positions, defaultView(schedule.topology(), positions, aspect));
}

double sphereDiameterPx(const OrbitView& view, const Vec3& p, float radius, int width)
{
    // One radius along the camera's right (the view matrix's first row): both points lie at the
    // sphere's depth, so their distance on screen is its projected radius.
    const Mat4 m = view.viewMatrix();
    const Vec3 right{m[0], m[4], m[8]};
    const Vec3 side{p[0] + right[0] * radius, p[1] + right[1] * radius, p[2] + right[2] * radius};
    const Mat4 vp = view.viewProjection();
    const Vec3 a = projectPoint(vp, p), b = projectPoint(vp, side);
    if (a[2] > 1.5f || b[2] > 1.5f)
        return 0.0;
    return 2.0 * std::hypot(b[0] - a[0], b[1] - a[1]) * 0.5 * width;
}

VisibilityReport measureView(const Schedule& schedule, const DrawingSettings& drawing, int width, int height,
                             int labelPixels)
{
    if (width <= 0 || height <= 0)
        throw Error("a viewport of " + std::to_string(width) + "×" + std::to_string(height) +
                    " pixels: the width and height must be positive");
    const Topology& topo = schedule.topology();
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    const std::vector<Vec3> positions = drawingPositions(topo, drawing, aspect);
    const OrbitView view = defaultView(topo, positions, aspect, planeTitleShare(labelPixels, height));
    const float radius = drawingNodeRadius(topo, drawing);
    VisibilityReport report = measureVisibility(schedule, positions, view, radius);

    std::vector<double> diameters;
    for (StepNo k : steps(schedule))
        for (NodeId v : activeNodes(schedule, k))
            diameters.push_back(sphereDiameterPx(view, positions[v], radius, width));
    if (!diameters.empty()) {
        const auto mid = diameters.begin() + static_cast<std::ptrdiff_t>(diameters.size() / 2);
        std::nth_element(diameters.begin(), mid, diameters.end());
        report.nodePx = *mid;
    }
    const Mat4 vp = view.viewProjection();
    float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
    for (const Vec3& p : positions) {
        const Vec3 q = projectPoint(vp, p);
        if (q[2] > 1.5f)
            continue;
        for (int i = 0; i < 2; ++i) {
            lo[i] = std::min(lo[i], std::clamp(q[i], -1.0f, 1.0f));
            hi[i] = std::max(hi[i], std::clamp(q[i], -1.0f, 1.0f));
        }
    }
    if (hi[0] >= lo[0]) {
        report.spanX = 0.5 * (hi[0] - lo[0]);
        report.spanY = 0.5 * (hi[1] - lo[1]);
    }

    const long long source = hasRoot(schedule.pattern()) ? static_cast<long long>(schedule.source()) : -1;
    std::vector<SceneLabel> labels = fixedSceneLabels(topo, drawsPlanes(topo, drawing), positions, source);
    const std::vector<SceneLabel> nodes = nodeSceneLabels(schedule, positions);
    labels.insert(labels.end(), nodes.begin(), nodes.end());
    const Mat4 m = view.viewMatrix();
    const PlacedLabels placed =
        placeSceneLabels(labels, vp, {m[0], m[4], m[8]}, positions, radius, width, height, labelPixels);
    const LabelCheck check = checkLabels(placed.boxes, placed.requests, placed.discs);
    report.labelOverlaps = check.overlaps;
    report.labelsShown = check.shown;
    report.labelsHidden = check.hidden;
    report.labelPx = check.shown > 0 ? labelPixels : 0;
    return report;
}

} // namespace topocast
