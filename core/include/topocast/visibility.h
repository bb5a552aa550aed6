#pragma once

#include "topocast/camera.h"
#include "topocast/schedule.h"

#include <cstdint>
#include <vector>

namespace topocast {

/// How many of one step's active nodes the default view shows.
struct StepVisibility {
    StepNo step{};
    std::size_t active = 0;   ///< the source, the senders and the receivers of the step (distinct)
    std::size_t visible = 0;  ///< … of which visibleNodes() says the camera sees
};

struct VisibilityReport {
    std::vector<StepVisibility> steps;  ///< steps 1..stepCount
    double minFraction = 1.0;           ///< min over steps of visible / active (1 with no steps)
};

/// The source, the senders and the receivers of step `step` (1-based), ascending, distinct.
/// O(transfers of the step · log).
std::vector<NodeId> activeNodes(const Schedule& schedule, StepNo step);

/// Visibility of every step's active nodes in the app's default view (defaultView) of the layout
/// nodePositions(topology, explode) in a viewport of aspect `aspect` (width / height), nodes as
/// spheres of drawnNodeRadius. Throws Error for a bad explode or aspect. O(N² + transfers).
VisibilityReport measureVisibility(const Schedule& schedule, float explode, float aspect);

/// The same for given positions and camera (the app's current view). O(N² + transfers).
VisibilityReport measureVisibility(const Schedule& schedule, const std::vector<Vec3>& positions, const OrbitView& view);

/// The slice view's "follow the step": the plane across dimension `dim` (its coordinate
/// 0..side−1) holding most of step `step`'s receivers (ties: the lowest), or −1 when the step has
/// no transfers or `dim` is not a mesh/torus dimension. O(transfers of the step + side).
int busiestPlane(const Schedule& schedule, StepNo step, int dim);

} // namespace topocast
