#pragma once
// Labels that never collide: where each of a view's labels goes on screen — beside its node, on
// the first side where its plate overlaps no other plate and no other node — or that it is left
// out where there is no room. In pixels, for a picture of any size: the app places its labels
// with it, topocast-cli visibility measures the app's default view with it.

#include "topocast/model/ids.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace topocast {

/// The plate a label is drawn on, in pixels: the app's label font (DejaVu Sans Bold at
/// `pixelHeight` pixels, full hinting) with a padding of max(2, pixelHeight / 4) round the text
/// and 2 more across. Measured from the font's advance widths (digits 0.696 em, "(" 0.457 em, …;
/// each rounded up to a whole pixel) and line height (1.164 em, rounded up), so never smaller
/// than the app's own measure and at most about a pixel per character larger. O(text).
struct PlateSize {
    int width = 0;
    int height = 0;
};
PlateSize labelPlateSize(std::string_view utf8, int pixelHeight);

/// The label text height for a picture: 14 px at 96 dpi (a screen), as tall on paper at `dpi`
/// (a 300-dpi handout page: 43 px). O(1).
int labelPixelHeight(int dpi = 96);

/// Where a plate sits beside its anchor (Centre: on it, for fixed labels); Hidden: left out,
/// there was no room.
enum class LabelSide : std::uint8_t { UpRight, UpLeft, DownRight, DownLeft, Right, Left, Above, Below, Centre, Hidden };

/// One label to place. Screen pixels, y down.
struct LabelRequest {
    float x = 0; ///< the anchor (a node's centre on screen)
    float y = 0;
    float gap = 0; ///< how far the plate keeps from the anchor along each offset axis
    PlateSize plate;
    long long node = -1; ///< the node it names: its own disc is no obstacle (−1: none)
    /// Only ever at `side` (plane titles, axis names, values below their node), else left out.
    bool fixed = false;
    LabelSide side = LabelSide::UpRight;
};

/// A node as an obstacle on screen: centre and radius in pixels.
struct ScreenDisc {
    float x = 0;
    float y = 0;
    float r = 0;
    long long node = -1;
    /// A node a label may cover where no side is clear of it (an idle node of a dense drawing,
    /// drawn under the labels): placement avoids it like an arrowhead, checkLabels does not count it.
    bool soft = false;
};

/// A placed plate: its side and box (x0, y0 top left, x1, y1 bottom right; empty when Hidden).
struct LabelBox {
    LabelSide side = LabelSide::Hidden;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// The box of `request`'s plate on `side`: beside the anchor, `gap` away along each offset
/// axis (UpRight: its lower-left corner at (x + gap, y − gap)). O(1).
LabelBox labelBoxAt(const LabelRequest& request, LabelSide side);

/// Places `requests` in order (the first the most important), each on the first side — its own
/// for a fixed one, else UpRight, UpLeft, DownRight, DownLeft, Right, Left, Above, Below — whose
/// plate lies inside the `width` × `height` viewport and overlaps no placed plate and no disc of
/// a node it does not name; Hidden when no side is free. Never two plates over each other, never
/// a plate over another node (but a soft one). `obstacles`: plates placed before (another
/// layer's), which every new plate keeps clear of too. `avoid`: what a plate keeps clear of where
/// it can (the step's arrowheads, drawn over the labels): of the sides that fit, the first clear of
/// them and of soft discs, else the one least over the arrowheads, then over the fewest soft discs. O(L · (L +
/// obstacles + avoid + discs near the label)) with a grid of the discs.
std::vector<LabelBox> placeLabels(const std::vector<LabelRequest>& requests, const std::vector<ScreenDisc>& nodes,
                                  int width, int height, const std::vector<LabelBox>& obstacles = {},
                                  const std::vector<LabelBox>& avoid = {});

/// What a placement shows: pairs of shown plates that overlap, plates over the disc of a node
/// they do not name, and how many were left out. An independent count (all pairs), for tests
/// and topocast-cli visibility. O(L² + L · N).
struct LabelCheck {
    std::size_t overlaps = 0;
    std::size_t hidden = 0;
    std::size_t shown = 0;
};
LabelCheck checkLabels(const std::vector<LabelBox>& boxes, const std::vector<LabelRequest>& requests,
                       const std::vector<ScreenDisc>& nodes);

} // namespace topocast
