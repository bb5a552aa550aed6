#pragma once

#include "session/snapshot.h"

#include "topocast/scenario/frame_style.h"
#include "topocast/scenario/legend.h"

#include <QColor>
#include <QString>

#include <optional>
#include <vector>

namespace topocast::app {

/// "plain", "contention", …, "data" (colour::kColourModes).
QString viewModeName(ViewMode mode);
/// The mode named `text` (any case); nullopt otherwise.
std::optional<ViewMode> parseViewMode(const QString& text);

/// The legend's title: the mode's name (`modeText`), and in the heat map its scale, "(scale 0–5)"
/// over the links' loads so far (`cumulativeHeat`) or in the step.
QString legendTitle(const QString& modeText, const Snapshot* snap, ViewMode mode, bool cumulativeHeat);

/// The legend's link entries in simulated time (the colours simulatedLinkColour draws).
void addSimulatedLinks(std::vector<std::pair<QColor, QString>>& entries, ViewMode mode, const Palette& palette,
                       std::size_t nodes);

/// Core's modeLegend as (colour, text) in Qt's types; `simulated`: the links as simulated time
/// colours them in place of the mode's channel colours.
std::vector<std::pair<QColor, QString>> legendEntries(const Snapshot* snap, ViewMode mode, const Palette& palette,
                                                      bool simulated = false);

/// Core's LegendBar in Qt's types (modeLegendBar).
struct ColourBar {
    std::vector<QColor> stops;
    double min = 0, max = 0;
    std::vector<std::pair<double, QString>> labels;
    QString caption;
};
/// The colour bar of a mode that maps numbers to colours (heat map: channel load 0..max; source
/// map: the metric's range; data held: 0–100 % in `palette`'s ramp); nullopt for the other modes
/// or without a snapshot.
std::optional<ColourBar> legendBar(const Snapshot* snap, ViewMode mode, bool cumulativeHeat,
                                   const Palette& palette = Palette::normal());

} // namespace topocast::app
