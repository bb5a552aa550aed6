// The legend in Qt's types: core's modeLegend and modeLegendBar (topocast/scenario/legend.h),
// the words the window's legend dock and the exports show.
#include "style/scenestyle.h"

namespace topocast::app {
namespace {

std::vector<std::pair<QColor, QString>> toQt(const std::vector<LegendEntry>& entries)
{
    std::vector<std::pair<QColor, QString>> out;
    out.reserve(entries.size());
    for (const LegendEntry& e : entries)
        out.emplace_back(e.colour.to<QColor>(), QString::fromStdString(e.text));
    return out;
}

} // namespace

std::vector<std::pair<QColor, QString>> legendEntries(const Snapshot* snap, ViewMode mode, const Palette& pal,
                                                      bool simulated)
{
    return toQt(modeLegend(snap, mode, pal, simulated));
}

std::optional<ColourBar> legendBar(const Snapshot* snap, ViewMode mode, bool cumulativeHeat, const Palette& pal)
{
    const std::optional<LegendBar> bar = modeLegendBar(snap, mode, cumulativeHeat, pal);
    if (!bar)
        return std::nullopt;
    ColourBar out;
    for (const Rgba& c : bar->stops)
        out.stops.push_back(c.to<QColor>());
    out.min = bar->min;
    out.max = bar->max;
    for (const auto& [value, text] : bar->labels)
        out.labels.emplace_back(value, QString::fromStdString(text));
    out.caption = QString::fromStdString(bar->caption);
    return out;
}

QString legendTitle(const QString& modeText, const Snapshot* snap, ViewMode mode, bool cumulativeHeat)
{
    return QString::fromStdString(modeLegendTitle(modeText.toStdString(), snap, mode, cumulativeHeat));
}

void addSimulatedLinks(std::vector<std::pair<QColor, QString>>& entries, ViewMode mode, const Palette& pal,
                       std::size_t nodes)
{
    for (auto& e : toQt(simulatedLinkEntries(mode, pal, nodes)))
        entries.push_back(std::move(e));
}

} // namespace topocast::app
