#pragma once
// The Data held mode's glyphs: on a small network each node carries a grid of
// its data, one cell per chunk of the pattern, so a student sees which blocks a node holds after
// each step — an all-gather's nodes turn many-coloured, a scatter's relays hold their subtrees'
// blocks, an all-reduce's bars grow as contributions are combined.

#include "topocast/scenario/frame_style.h"

#include <cstdint>
#include <string>
#include <vector>

namespace topocast {

/// The largest network and the most chunks drawn as glyphs; beyond either, the nodes' colours
/// alone show the share of their final data (the cells would be too small to read).
inline constexpr std::uint32_t kGlyphMaxNodes = 64;
inline constexpr std::uint64_t kGlyphMaxChunks = 64;
/// A complete chunk's ring (a share of its cell's side on each edge) and a partial result's bar
/// width (a share of the side): the bar stands at the cell's right, so its left keeps room for
/// the chunk's number (dataGlyphTexts).
inline constexpr float kGlyphRim = 0.14f;
inline constexpr float kGlyphBarWidth = 0.25f;
inline constexpr float kGlyphBarMargin = 0.06f; ///< between the bar and its cell's right edge

/// Whether the Data held mode draws glyphs for `snap`: holdings computed, at most kGlyphMaxNodes
/// nodes and kGlyphMaxChunks chunks.
bool drawsDataGlyphs(const ScenarioRun& snap);

/// One rectangle of a glyph, in scene units from its node's centre along the screen's axes
/// (x right, y up): drawn facing the camera in front of the node.
struct GlyphCell {
    NodeId node{};
    float x = 0, y = 0, width = 0, height = 0;
    Rgba colour;
    int layer = 0; ///< −1: the plate under the grid; 0: a cell's backing; 1: what is held, drawn over it
};

/// The colour of chunk `chunk` of `chunks`: core's colour-blind-safe category colours up to
/// their count, else evenly spaced hues (chunk order is the origin's order for an all-gather and
/// a gather, the destination's for a scatter and a reduce-scatter).
Rgba chunkColour(std::uint64_t chunk, std::uint64_t chunks);

/// The glyphs of every node at the end of `step` (0: before step 1): a grid of ⌈√C⌉ columns, one
/// cell per chunk id in row order from the top left, at most `width` scene units wide. A chunk
/// not held is a dark square; a chunk complete (held whole, or a partial result combining all N
/// contributions) a square of its colour in a ring of the palette's message colour; a partial
/// result of a reduction a narrow bar of its colour at the right of the dark square, from the bottom up by the
/// share of the N contributions it combines — shape, not only height, tells complete from partial. A plate lies
/// under each grid, hiding the node's sphere: the source's (a gather's or reduce's root's) in its
/// colour, a frame round its glyph. Empty where
/// drawsDataGlyphs is false. O(N · C).
std::vector<GlyphCell> dataGlyphCells(const ScenarioRun& snap, StepNo step, const Palette& pal, float width);

/// What a glyph's cell can say in words where it is drawn large enough: its chunk's number, and for
/// a partial result of a reduction the contributions it combines ("13/16").
struct GlyphCellText {
    NodeId node{};
    /// The cell's lower-left corner and side, as dataGlyphCells draws its backing (scene units from
    /// the node's centre, x right, y up).
    float x = 0, y = 0, side = 0;
    std::uint64_t chunk = 0;
    /// "k/N" for a partial result (0 < k < N contributions); empty for a chunk held whole or not held.
    std::string count;
};
/// One GlyphCellText per cell of every node's glyph at the end of `step`, in dataGlyphCells' order;
/// empty where drawsDataGlyphs is false. O(N · C).
std::vector<GlyphCellText> dataGlyphTexts(const ScenarioRun& snap, StepNo step, float width);

/// How wide a glyph is, as a share of the smallest distance between two drawn nodes: in a full
/// view 60 %, so most of each arrowhead at rest stays visible between the glyphs; in a half-width
/// view (compare's two sides) 85 %, where 60 % left cells of 8 px on a 1280×800 screen and a
/// partial sum's bar 2 px wide.
inline constexpr float kGlyphShare = 0.6f;
inline constexpr float kGlyphShareHalfView = 0.85f;
/// The width to give a node's glyph: `share` of the smallest distance between two drawn nodes.
/// O(N²): for networks that draw glyphs (at most kGlyphMaxNodes nodes).
float glyphWidth(const std::vector<Vec3>& positions, float share = kGlyphShare);

} // namespace topocast
