#pragma once
// The legend of each colour mode as values: its entries (colour, meaning) for exactly the colours
// a frame draws (frameStyle, the Data held glyphs), and the colour bar of the modes that map
// numbers to colours. The window's legend dock, its exports and the web page show these words.

#include "topocast/scenario/frame_style.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topocast {

/// One legend line: a swatch and what it means. A note (not a colour) has the background's swatch.
struct LegendEntry {
    Rgba colour;
    std::string text;
    friend bool operator==(const LegendEntry&, const LegendEntry&) = default;
};

/// The entries of `mode` for `run` (null: the mode's generic entries); `simulated`: the links as
/// simulated time colours them (simulatedLinkEntries) in place of the mode's channel colours.
std::vector<LegendEntry> modeLegend(const ScenarioRun* run, ViewMode mode, const Palette& palette,
                                    bool simulated = false);

/// The link entries in simulated time (the colours simulatedLinkColour draws) and the message's.
std::vector<LegendEntry> simulatedLinkEntries(ViewMode mode, const Palette& palette, std::size_t nodes);

/// A colour bar with numbers: colours at evenly spaced stops from `min` to `max`, and labelled
/// values (the ends and round ticks between them, from sourceMapTicks).
struct LegendBar {
    std::vector<Rgba> stops;
    double min = 0, max = 0;
    std::vector<std::pair<double, std::string>> labels;
    std::string caption;
};
/// The colour bar of a mode that maps numbers to colours (heat map: channel load 0..max; source
/// map: the metric's range; data held without glyphs: 0–100 % in `palette`'s ramp); nullopt for
/// the other modes or without a run.
std::optional<LegendBar> modeLegendBar(const ScenarioRun* run, ViewMode mode, bool cumulativeHeat,
                                       const Palette& palette);

/// The legend's title: the mode's name (`modeText`), and in the heat map its scale, "(scale 0–5)"
/// over the links' loads so far (`cumulativeHeat`) or in the step.
std::string modeLegendTitle(const std::string& modeText, const ScenarioRun* run, ViewMode mode, bool cumulativeHeat);

} // namespace topocast
