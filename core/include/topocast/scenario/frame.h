#pragma once
// One frame of a computed scenario, the one picture every output draws: the 3-D view and its
// screenshots, the handout's pages, the video's frames and the web page. For a timeline position
// and a colour mode: each node's state and colour, each drawn channel's role and colour, the
// step's arrows (one per transfer, along its last hop), the node labels to place and the legend
// of exactly the colours drawn. Placement (where labels and glyphs land on a picture of a given
// size) is the renderer's; what is drawn is decided here, once.

#include "topocast/drawing/view_labels.h"
#include "topocast/scenario/frame_style.h"
#include "topocast/scenario/legend.h"

#include <cstddef>
#include <vector>

namespace topocast {

/// What an output asks of a frame.
struct FrameRequest {
    int step = 0; ///< timeline position 0..stepCount (0: before step 1)
    ViewMode mode = ViewMode::Plain;
    bool cumulativeHeat = true;
    Palette palette = Palette::normal();
};

/// One arrowhead: the step's transfer `transfer` (index into the schedule's transfers) arriving
/// at `to` from `from`, the last hop of its route.
struct FrameArrow {
    std::size_t transfer = 0;
    NodeId from{};
    NodeId to{};
    Rgba colour;
    float scale = 1.0f;  ///< messageScale of its transfer's size
    bool twoWay = false; ///< the step also sends to → from over this link: the two lie side by side
    friend bool operator==(const FrameArrow&, const FrameArrow&) = default;
};

struct Frame {
    FrameRequest request;
    std::vector<NodeState> states; ///< nodeStates at the step
    FrameStyle style;              ///< node and channel colours (parallel to the drawn channels)
    std::vector<FrameArrow> arrows;
    /// The node labels the step shows (nodeSceneLabels: the source's, every node's up to
    /// kLabelAllNodes, else the step's receivers'), anchored at the run's positions.
    std::vector<SceneLabel> labels;
    /// Per node: whether a label may cover it where no side is clear of it (idleNodes: on a dense
    /// network, a node that holds nothing yet and takes no part in the step).
    std::vector<bool> coverable;
    std::vector<LegendEntry> legend; ///< modeLegend of the mode (steps, not simulated time)
};

/// The sizes of a schedule's transfers, for messageScale: the largest, and whether all are equal.
struct TransferSizes {
    double largest = 1.0;
    bool uniform = true;
};
TransferSizes transferSizes(const Schedule& schedule);
/// How thick a message of `size` is drawn (arrowheads and moving messages): 1 where every
/// transfer has the same size, else 0.6 + 0.8·√(size / largest), so twice the data looks about
/// twice as heavy. O(1).
float messageScale(const TransferSizes& sizes, double size);

/// The frame of `run` at `request` over `channels` (drawnChannels as the output draws them).
/// O(N + C + T) and the legend's O(N).
Frame makeFrame(const ScenarioRun& run, const std::vector<DrawnChannel>& channels, const FrameRequest& request);

} // namespace topocast
