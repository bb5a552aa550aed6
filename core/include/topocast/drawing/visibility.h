#pragma once

#include "topocast/drawing/camera.h"
#include "topocast/drawing/drawing.h"
#include "topocast/drawing/label_layout.h"
#include "topocast/model/schedule.h"

#include <cstdint>
#include <vector>

namespace topocast {

/// How many of one step's active nodes the default view shows.
struct StepVisibility {
    StepNo step{};
    std::size_t active = 0;  ///< the source, the senders and the receivers of the step (distinct)
    std::size_t visible = 0; ///< … of which visibleNodes() says the camera sees
};

struct VisibilityReport {
    std::vector<StepVisibility> steps; ///< steps 1..stepCount
    double minFraction = 1.0;          ///< min over steps of visible / active (1 with no steps)
    /// measureView only: the median on-screen diameter (pixels) of the active nodes over all steps
    /// (each step's active nodes counted once per step; 0 with no steps).
    double nodePx = 0.0;
    /// measureView only: how much of the viewport's width and height the bounding box of the
    /// drawn nodes covers (0..1 each; a drawing that fills the window reaches 1 in one of them).
    double spanX = 0.0;
    double spanY = 0.0;
    /// measureView only: the labels the view draws (view_labels.h) as placed: the text height of
    /// the shown ones in pixels (0 when none is shown), pairs that overlap or cover a node they
    /// do not name (checkLabels), and how many were shown and left out for want of room.
    int labelPx = 0;
    std::size_t labelOverlaps = 0;
    std::size_t labelsShown = 0;
    std::size_t labelsHidden = 0;
};

/// The source, the senders and the receivers of step `step` (1-based), ascending, distinct.
/// O(transfers of the step · log).
std::vector<NodeId> activeNodes(const Schedule& schedule, StepNo step);

/// Visibility of every step's active nodes in the app's default view (defaultView) of the layout
/// nodePositions(topology, explode) in a viewport of aspect `aspect` (width / height), nodes as
/// spheres of drawnNodeRadius. Throws Error for a bad explode or aspect. O(N² + transfers).
VisibilityReport measureVisibility(const Schedule& schedule, float explode, float aspect);

/// The same for given positions and camera (the app's current view), nodes of `radius` (default:
/// drawnNodeRadius). O(N² + transfers).
VisibilityReport measureVisibility(const Schedule& schedule, const std::vector<Vec3>& positions, const OrbitView& view,
                                   float radius = 0.0f);

/// The app's default view of `schedule` drawn as `drawing` says (drawingPositions, defaultView,
/// drawingNodeRadius) in a viewport of `width` × `height` pixels: visibility per step as above,
/// how large it draws them (nodePx, spanX, spanY) and its labels placed with text of
/// `labelPixels` (labelPx, labelOverlaps, labelsShown, labelsHidden). The app measures and places
/// its own view with the same functions. Throws Error for a viewport without pixels.
/// O(N² + transfers).
VisibilityReport measureView(const Schedule& schedule, const DrawingSettings& drawing, int width, int height,
                             int labelPixels = labelPixelHeight());

/// The on-screen diameter in pixels of a sphere of `radius` at `p` under `view` in a viewport
/// `width` pixels wide (0 behind the camera). O(1).
double sphereDiameterPx(const OrbitView& view, const Vec3& p, float radius, int width);

/// The slice view's "follow the step": the plane across dimension `dim` (its coordinate
/// 0..side−1) holding most of step `step`'s receivers (ties: the lowest), or −1 when the step has
/// no transfers or `dim` is not a mesh/torus dimension. O(transfers of the step + side).
int busiestPlane(const Schedule& schedule, StepNo step, int dim);

} // namespace topocast
