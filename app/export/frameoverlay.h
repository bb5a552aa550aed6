#pragma once

#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "videoencoder.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QRect>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace topocast::app {

/// What an exported frame carries besides the 3-D view, so that a video or a picture shown on its
/// own still says what it shows. The title line, the burned-in captions and the legend strip get
/// bands of their own above and below the view: the view is rendered smaller in the space left, so
/// they never cover the network. The captions are drawn the way subtitles are, in a dark box
/// centred in their band under the view.
struct FrameOverlay {
    bool title = false;    ///< above the view: the step's narration (narrate())
    bool legend = false;   ///< below the view: the colour mode's legend and colour bar with numbers
    bool captions = false; ///< the step's caption burned into the picture
    bool any() const { return title || legend || captions; }
    friend bool operator==(const FrameOverlay&, const FrameOverlay&) = default;
};

/// The overlay an export gets unless it says otherwise: a video or GIF carries its title line and
/// legend; PNG frames are left bare for further editing, except that a source map and the Data
/// held mode keep their colour bar (their colours mean numbers that nothing else in the frame gives).
FrameOverlay defaultOverlay(video::VideoFormat format, ViewMode mode);
/// A single picture (screenshot, File ▸ Export ▸ Picture): a source map or Data held picture
/// carries its colour bar.
FrameOverlay defaultPictureOverlay(ViewMode mode);

/// What the legend strip shows: legendEntries() and legendBar() of the colour mode.
struct LegendStrip {
    std::vector<std::pair<QColor, QString>> entries;
    std::optional<ColourBar> bar;
};
LegendStrip legendStrip(const Snapshot& snap, ViewMode mode, bool cumulativeHeat, const Palette& palette);

/// Where the parts of a frame of `size` go. Type scales with the frame: 24 px at 1280×720.
struct OverlayLayout {
    QSize size;
    int fontPx = 0;   ///< the title's and the captions' type size in pixels
    int legendPx = 0; ///< the legend's
    QRect title;      ///< the title band (empty without a title)
    QRect view;       ///< the 3-D view
    QRect legend;     ///< the legend band (empty without a legend)
    QRect caption;    ///< the burned-in captions' band, under the view, above the legend (empty: none)
};
/// The layout for `overlay` at `size` (the legend band as high as `legend` needs at that width).
/// The bands take at most half the height: smaller type down to 9 px, then a frame too small for
/// them (a thumbnail) goes without the legend, then without the title (their rects empty).
OverlayLayout overlayLayout(QSize size, const FrameOverlay& overlay, const LegendStrip& legend);

/// The words of one frame: the title line and the burned-in caption (either may be empty).
struct FrameText {
    QString title;
    QString caption;
};
/// The words of timeline position `step` for `overlay` at `layout`: the title line is the step's
/// narration, or, when the captions are burned in too, just its heading ("Step 3 of 6"), so the
/// narration is not shown twice; the caption is the narration. A narration too long for its
/// box's two lines spells out fewer transfers ("… and 12 more").
FrameText frameText(const Snapshot& snap, int step, const FrameOverlay& overlay, const OverlayLayout& layout);

/// The narration of timeline position `step` in `font` fitted to `lines` lines of `width` pixels:
/// fewer transfers spelled out ("… and 12 more", at last only their number) until it fits, then
/// cut with an ellipsis.
QString fittedNarrationText(const Snapshot& snap, int step, const QFont& font, int width, int lines);

/// The frame: `view` (the 3-D view rendered at layout.view's size) in its place, the bands and the
/// caption box around it on `palette`'s background. Deterministic: a function of its inputs.
QImage composeFrame(const QImage& view, const OverlayLayout& layout, const FrameText& text, const LegendStrip& legend,
                    const Palette& palette);

} // namespace topocast::app
