#pragma once
// One frame of a computed scenario as values: the colour and state of every node and channel at a
// step in a colour mode and palette (FrameStyle, frameStyle), the colours' rules, and the whole
// frame (Frame, makeFrame) — node states and colours, channel roles, the step's arrows, the legend
// of exactly the roles drawn, the Data held glyphs and the node labels to place. The 3-D view,
// its screenshots, handouts and video frames, and the web page all draw this one frame.

#include "topocast/drawing/colour.h"
#include "topocast/drawing/layout_edges.h"
#include "topocast/scenario/run.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace topocast {

/// How the scene colours nodes and channels. Trees: the plain node states with the member trees
/// of a hypercube schedule's spanning graph drawn over the channels, one colour per tree.
/// The colour modes, in the order of colour::kColourModes (their names and menu labels).
enum class ViewMode { Plain, Contention, Heatmap, SourceMap, Layers, Trees, DataHeld };
static_assert(static_cast<std::size_t>(ViewMode::DataHeld) + 1 == colour::kColourModes.size(),
              "one ViewMode per entry of colour::kColourModes, in its order");

struct Rgba {
    float r = 0, g = 0, b = 0, a = 1;
    friend bool operator==(const Rgba&, const Rgba&) = default;
    /// As a toolkit's colour type (Qt's QColor::fromRgbF), without this header knowing it.
    template <class Colour> Colour to() const { return Colour::fromRgbF(r, g, b, a); }
    static Rgba from(const colour::Srgb& c)
    {
        return {static_cast<float>(c.r), static_cast<float>(c.g), static_cast<float>(c.b), 1.0f};
    }
};

/// The fixed colours of the scene: core's colour::normalPalette() / highContrastPalette() (the
/// colour-blind-safe palettes the palette test checks) as floats for the GPU.
/// `label`: the text of the labels on their dark plates (white in every palette: the plates are
/// dark on paper too).
struct Palette {
    Rgba background, source, informed, receiving, uninformed, link, linkUsed, inFlight, contention, message, optimum;
    Rgba label{1, 1, 1, 1};
    static Palette normal();
    static Palette highContrast();
    /// Handouts on paper: colour::printPalette().
    static Palette print();
    /// The print palette where `print`, else the high-contrast or the normal one.
    static Palette of(bool highContrast, bool print);
    static Palette from(const colour::Palette& p);
};

/// a + (b − a)·t per channel, opaque.
Rgba mix(const Rgba& a, const Rgba& b, float t);

/// Colour of `i` in a cycle of distinct hues (trees, dimensions, layers): core's colour-blind-safe
/// colour::categoryColour.
Rgba categoryColour(int i);
/// How many colours the Layers mode cycles through before a colour repeats.
inline constexpr int kLayerColours = 7;
/// The Layers mode's colour of layer `layer` (1-based; cycles with period kLayerColours):
/// category colours that the source, contention and channels in use do not use.
Rgba layerColour(int layer);
/// The Plain mode's colour of a hypercube channel of dimension `dim` (of `dims`) not in use (nor
/// used earlier): a neutral grey, dimension 0 the lightest, dimension dims − 1 the darkest, so
/// that colour on a link always means its state (in use now, used earlier, contended) and no
/// unused link reads as one of them; the legend names each dimension's grey. Hypercubes of up to
/// kDimensionColours dimensions get them; a 10-cube keeps the one unused-channel colour.
Rgba dimensionColour(int dim, int dims, const Palette& pal);
inline constexpr int kDimensionColours = 9;
/// Whether the Plain mode colours `snap`'s unused channels by dimension.
bool colourByDimension(const ScenarioRun& snap, ViewMode mode);
/// Heat-map colour for `value` on the fixed scale 0..`max`: viridis from 15 % (so the lightest
/// load stays visible on the dark background) to 100 % at `max`; grey for an unused channel.
Rgba heatColour(double value, double max);
/// The source map's scale: the smallest and largest value present (NaN skipped; {0, 0} if none).
std::pair<double, double> sourceMapRange(const std::vector<double>& values);
/// The colour of `value` on the scale `range`: cividis, low dark blue to high yellow.
Rgba sourceMapColour(std::pair<double, double> range, double value);
/// How the source map colours its values: the best (the least; `bestCount` sources reach it) in
/// the palette's optimum colour, larger; the others on cividis from `low` (the least value above
/// the best) to `high` (the largest) — the colour bar's range, so that the bar, the legend and
/// the nodes drawn agree. All equal: every source is a best one (low = high = best).
struct SourceMapScale {
    double best = 0, low = 0, high = 0;
    std::size_t bestCount = 0;
};
SourceMapScale sourceMapScale(const std::vector<double>& values);
/// The colour of source-map value `value` (not NaN): pal.optimum for the best, else cividis
/// over [low, high]. O(1).
Rgba sourceMapColour(const SourceMapScale& scale, double value, const Palette& pal);

/// How far not-yet-informed nodes (and unused channels) recede for a network of `nodes` nodes:
/// 0 up to 64 nodes, rising with log2 of the count to 1 at 4096 and more, so that on a large
/// mesh the informed nodes and the messages stand out.
float recedeAmount(std::size_t nodes);
/// The colour a not-yet-informed node is drawn in (the palette's, faded toward the background by
/// recedeAmount); the legend shows the same colour.
Rgba uninformedColour(const Palette& palette, std::size_t nodes);
/// The Data held mode's colour of a node holding `share` (0..1) of the data it must end with:
/// the not-yet-informed colour at 0, then from a third of the way to the informed colour just above
/// 0 up to the informed colour at 1. A node that needs no data
/// (a scatter's source, a node outside a divisible-load scatter) is dataNotNeededColour, a ghost
/// drawn at half the not-yet-informed size.
Rgba dataShareColour(const Palette& palette, std::size_t nodes, double share);
Rgba dataNotNeededColour(const Palette& palette);
/// Drawn size of a not-yet-informed node relative to an informed one (1 − 0.55·recede).
float uninformedScale(std::size_t nodes);

/// Colour of member tree `tree` in the Trees mode: its category colour once its edge has carried
/// data (steps 1..step), faded 85 % toward the background (a pale tint, chroma under
/// colour::kMaxIdleChroma) while not yet.
Rgba treeColour(int tree, bool used, const Palette& palette);

/// A node's layer for the Layers mode: the move that reaches it for a divisible-load schedule
/// (−1 if none does), otherwise its hop distance from the source.
int nodeLayer(const ScenarioRun& snap, NodeId v);

/// What a channel is doing at a step, from core's channel loads: no transfer has used it yet,
/// one used it in an earlier step, one transfer uses it now, two or more share it now.
enum class ChannelRole : std::uint8_t { Idle, UsedEarlier, InUse, Contended };

/// The colour of each channel role in a mode (the heat map colours by load instead). A role
/// without a colour of its own (nullopt) is drawn as idle, so the legend names exactly the
/// colours drawn.
struct ChannelColours {
    Rgba idle, contended;
    std::optional<Rgba> usedEarlier, inUse;
    Rgba of(ChannelRole role) const;
};
ChannelColours channelColours(ViewMode mode, const Palette& palette, std::size_t nodes);

/// The colour of a transfer's message and its arrowhead: white, the tree's colour in the Trees
/// mode (a tree schedule's tag is its tree), blue on the source map (white is its minimum).
Rgba messageColour(ViewMode mode, const Palette& palette, int tag, bool severalTags);

/// What one frame shows: node colours/scales and channel colours, a pure function of
/// (snapshot, step, mode), so stepping back reproduces exactly the earlier picture.
struct FrameStyle {
    std::vector<Rgba> nodeColour;
    std::vector<float> nodeScale;
    std::vector<Rgba> channelColour;        ///< parallel to drawnChannels()
    std::vector<std::uint8_t> channelInUse; ///< parallel to drawnChannels(): 1 if used in step `step`
    std::vector<ChannelRole> channelRole;   ///< parallel to drawnChannels()
    /// Trees mode: one colour per member tree edge, parallel to snap.trees flattened (tree 0's
    /// edges, then tree 1's, …); empty in the other modes.
    std::vector<Rgba> treeEdgeColour;
    double heatMax = 0; ///< the heat map's fixed scale maximum
    std::uint32_t contendedNow = 0;
};
FrameStyle frameStyle(const ScenarioRun& snap, const std::vector<DrawnChannel>& channels, int step, ViewMode mode,
                      bool cumulativeHeat, const Palette& palette);

/// A link's colour in simulated time, by how many messages share it now: none (idle so far, or
/// used earlier), one (in flight: all of its bandwidth), two (half each), three or more
/// (contention).
Rgba simulatedLinkColour(const Palette& palette, std::size_t nodes, std::uint32_t messages, bool usedBefore);

/// A node's state at timeline position `step` (0..stepCount): the view shows the network after
/// step `step`, whose receivers are "receiving"; a node holding data before step 1 (an
/// all-gather's every node) is informed from step 0.
enum class NodeState : std::uint8_t { Uninformed, Informed, Receiving, Source };
std::vector<NodeState> nodeStates(const ScenarioRun& run, std::uint32_t step);

} // namespace topocast
