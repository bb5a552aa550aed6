#pragma once
// Which labels the view draws and where they land on screen: the axis names or the planes' titles
// (fixed), and the node labels — beside their node on the first free side, or left out
// (label_layout.h). The app places its labels with this; topocast-cli visibility measures the
// default view with it.

#include "topocast/drawing/camera.h"
#include "topocast/drawing/label_layout.h"
#include "topocast/model/schedule.h"

#include <string>
#include <vector>

namespace topocast {

/// Every node is labelled up to this many nodes; above, only the source.
inline constexpr std::size_t kLabelAllNodes = 64;

/// How far a node label's plate starts from its node's centre, along each of its offset axes, in
/// node radii: a little more than one, so a label beside a node in a row clears its neighbours in
/// that row (the 3-D view's label shader, this placement and the web page's player all use it).
inline constexpr float kLabelGap = 1.05f;

/// A label in the scene.
struct SceneLabel {
    std::string text;
    Vec3 anchor{};
    long long node = -1;                 ///< the node it names (−1: an axis name or a title)
    bool fixed = false;                  ///< drawn at `side` always (axis names, titles)
    LabelSide side = LabelSide::UpRight; ///< fixed labels: where the plate sits
    float gap = 0.0f;                    ///< labels of no node: pixels between anchor and plate
    /// A title that also names a node when that node's own label finds no room: its text then
    /// becomes `longText` (the source's plane: "z = 2 · source (2,2,2)").
    long long alsoNames = -1;
    std::string longText;
};

/// The axes drawn from a mesh's or torus's low corner (x red, y green, z blue; no z on a flat
/// drawing): where they start, how long they are, and whether z is left out. O(N).
struct AxisGizmo {
    Vec3 origin{};
    float length = 0;
    bool flat = false;
};
AxisGizmo axisGizmo(const std::vector<Vec3>& positions);

/// The fixed labels of the scene: on a mesh or torus the axis names at the ends of the gizmo's
/// axes, centred; drawn as planes side by side (`planes`) instead each plane's title, its plate's
/// lower-left corner just above the plane's top-left node, the title of `source`'s plane (a node,
/// or −1) naming the source too where its own label finds no room; on a hypercube none. O(N).
std::vector<SceneLabel> fixedSceneLabels(const Topology& topo, bool planes, const std::vector<Vec3>& positions,
                                         long long source = -1);

/// On a network of more than kLabelAllNodes nodes, the receivers of the step shown are labelled,
/// at most this many (the first, lowest id first; placement leaves out those without room).
inline constexpr std::size_t kLabelReceivers = 48;

/// The node labels of the view at timeline position `step`: the source's first (patterns with a
/// root: the one most worth keeping), then every other node's name, lowest id first, when the
/// network has at most kLabelAllNodes nodes; on a larger one the receivers of step `step` (1..the
/// last step; none at 0), at most kLabelReceivers. O(N) (a larger network: O(transfers of the step)).
std::vector<SceneLabel> nodeSceneLabels(const Schedule& schedule, const std::vector<Vec3>& positions,
                                        std::uint32_t step = 0);

/// Every node of `positions` as a disc on a `width` × `height` picture seen through
/// `viewProjection` (pixels, y down; radius: a sphere of `radius` along `cameraRight`); nodes
/// behind the camera are left out. O(N).
std::vector<ScreenDisc> screenDiscs(const Mat4& viewProjection, const Vec3& cameraRight,
                                    const std::vector<Vec3>& positions, float radius, int width, int height);

/// An arrowhead as the 3-D view draws it (the app's notched head, shaders/*/arrows.vert): its tip
/// `gap` short of `tip` along the route's last hop (from `from`), `length` long back along it and
/// 1.1 × `length` wide, in scene units.
struct SceneArrow {
    Vec3 tip{};
    Vec3 from{};
    float length = 0;
    float gap = 0;
};

/// The boxes `arrows` cover on a `width` × `height` picture seen through `viewProjection` (pixels,
/// y down; lengths measured along `cameraRight`, as the shader keeps the head's size whatever
/// the hop's angle), for placeSceneLabels' obstacles: a label never covers the direction of a
/// message. An arrow behind the camera covers nothing. O(arrows).
std::vector<LabelBox> arrowBoxes(const std::vector<SceneArrow>& arrows, const Mat4& viewProjection,
                                 const Vec3& cameraRight, int width, int height);

/// Labels placed for a camera.
struct PlacedLabels {
    std::vector<LabelRequest> requests; ///< parallel to the labels given
    std::vector<LabelBox> boxes;        ///< parallel to the labels given (Hidden: left out)
    std::vector<std::string> texts;     ///< parallel: the text shown (a title's longText, or its text)
    std::vector<ScreenDisc> discs;      ///< every node on screen
};

/// Places `labels` in a `width` × `height` picture seen through `viewProjection` (OpenGL clip
/// space, column-major; `cameraRight` the camera's right in the scene, to measure a node's
/// radius on screen): a label of a node keeps 0.9 of the node's radius (`radius` in the scene)
/// on screen from its centre (the app's label shader), text of `pixelHeight` pixels. Nodes behind the camera are no
/// obstacle and their labels are left out. A title whose node's label is left out names that
/// node itself (SceneLabel::longText) where it still has room. Every label keeps clear of
/// `arrows` (the step's arrowheads: arrowBoxes) where it can, else takes the side least over
/// them (the app draws the arrowheads over the labels). `soft`: per node, whether a label may
/// cover it where no side is clear of it (idleNodes). O(N + L · (L + arrows + nearby nodes)).
PlacedLabels placeSceneLabels(const std::vector<SceneLabel>& labels, const Mat4& viewProjection,
                              const Vec3& cameraRight, const std::vector<Vec3>& positions, float radius, int width,
                              int height, int pixelHeight, const std::vector<LabelBox>& arrows = {},
                              const std::vector<bool>& soft = {});

/// The nodes a receiver's label may cover on a network too dense to label beside a node without
/// covering a neighbour: on more than kLabelAllNodes nodes, those that hold nothing yet and take
/// no part in step `step` (neither send nor receive in it); none on smaller networks, where
/// every node carries its own label. O(N + transfers of the step).
std::vector<bool> idleNodes(const Schedule& schedule, const std::vector<std::uint32_t>& informedStep,
                            std::uint32_t step);

} // namespace topocast
