#pragma once

#include "scene/scenestate.h"

#include <cstddef>
#include <cstdint>

namespace topocast::app {

/// The words a SceneView writes over its drawing, placed for the camera of each refresh by core
/// (placeSceneLabels, placeLabels) so that none covers another, a node it does not name or an
/// arrowhead: the axis names or planes' titles, the node labels and source-map numbers, the
/// numbers in the Data held glyphs' cells, and the block counts of the step's messages.
class SceneLabels {
public:
    explicit SceneLabels(SceneContext& scene) : m_scene(scene) {}

    /// Node labels beside the nodes: the source's and, up to kLabelAllNodes nodes, every node's
    /// nodeLabel() (coordinates; binary addresses on hypercubes), above that the step's receivers'
    /// (core nodeSceneLabels); in the source-map mode up to kMapNumberNodes nodes, every node's map
    /// value as a number below it (and the source's label). Each on the first side of its node
    /// where it covers no other label and no other node, or left out; placed again when the step
    /// or the camera changes, rebuilt only when what they say or where changes. The glyphs'
    /// numbers are placed with them.
    void placeNodeLabels();
    /// The block counts of the step's messages ("8 blocks", "1 chunk"), one plate beside each
    /// message's last hop, while the step is at rest: where some message of the schedule carries
    /// more than one block and the step has at most kMessageLabels transfers (not in compact views).
    void placeMessageLabels();
    /// How far (scene units) from a node's centre labels keep: its radius, or its data glyph's half width.
    float clearance() const;

    static constexpr std::size_t kMapNumberNodes = 256;
    /// Up to this many nodes, every node's name is kept in the node labels' atlas.
    static constexpr std::uint32_t kSpareLabelNodes = 512;
    static constexpr std::size_t kMessageLabels = 64;
    /// The smallest text (device pixels) the glyphs' numbers are written at.
    static constexpr int kGlyphTextMinPixels = 8;

private:
    /// Data held: each cell's chunk at its top left and a partial sum's contributions ("13/16")
    /// under it, where a flat drawing shows the cell large enough and the text fits left of the bar.
    void placeGlyphTexts();

    SceneContext& m_scene;
};

} // namespace topocast::app
