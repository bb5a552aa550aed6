// The legend of each colour mode: its entries (colour, meaning) for exactly the colours the frame
// draws (frameStyle), and the colour bar of the modes that map numbers to colours.
#include "style/scenestyle.h"

#include "style/dataglyphs.h"

#include "topocast/algorithms/figures.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/source_map.h"

#include <algorithm>
#include <cmath>

namespace topocast::app {
namespace {
using Entries = std::vector<std::pair<QColor, QString>>;

/// The source's entry: "source", "root" where the data flows to it (gather, reduce), none where
/// the pattern has no source (every node starts with data).
void addSourceEntry(Entries& e, const Snapshot* snap, const Palette& pal)
{
    const Pattern p = snap ? snap->schedule.pattern() : Pattern::Broadcast;
    if (!hasRoot(p))
        return;
    e.emplace_back(pal.source.toColor(), p == Pattern::Gather || p == Pattern::Reduce
                                             ? QStringLiteral("root (where the data ends)")
                                             : QStringLiteral("source"));
}

void addNodeStates(Entries& e, const Snapshot* snap, const Palette& pal, bool receiving = true)
{
    addSourceEntry(e, snap, pal);
    // Gather, all-gather, all-to-all and the reductions: every node holds data (its own) from the
    // start, so none is "not yet informed"; Data held shows how much of its result each has.
    const bool everyStarts = snap && everyNodeStarts(snap->schedule.pattern());
    e.emplace_back(pal.informed.toColor(), everyStarts ? QStringLiteral("holds data (every node starts with its own)")
                                                       : QStringLiteral("informed"));
    if (receiving)
        e.emplace_back(pal.receiving.toColor(), QStringLiteral("receiving now"));
    if (everyStarts)
        return;
    e.emplace_back(uninformedColour(pal, snap ? snap->topology().nodeCount() : 0).toColor(),
                   QStringLiteral("not yet informed"));
}

/// One entry per channel colour the mode draws (channelColours), and the messages' colour.
void addChannels(Entries& e, const Snapshot* snap, ViewMode mode, const Palette& pal)
{
    const ChannelColours c = channelColours(mode, pal, snap ? snap->topology().nodeCount() : 0);
    if (c.inUse)
        e.emplace_back(c.inUse->toColor(), QStringLiteral("channel in use now"));
    if (c.usedEarlier)
        e.emplace_back(c.usedEarlier->toColor(), QStringLiteral("channel used earlier"));
    e.emplace_back(c.contended.toColor(), QStringLiteral("contention"));
    if (snap && colourByDimension(*snap, mode)) { // one colour per dimension
        for (int d = 0; d < snap->topology().dims(); ++d)
            e.emplace_back(dimensionColour(d, snap->topology().dims(), pal).toColor(),
                           QStringLiteral("unused channel, dimension %1").arg(d));
    } else {
        e.emplace_back(c.idle.toColor(),
                       c.usedEarlier ? QStringLiteral("unused channel") : QStringLiteral("channel not in use"));
    }
    const bool trees = mode == ViewMode::Trees && snap && snap->channelLoads.severalTags();
    if (c.inUse && *c.inUse == messageColour(mode, pal, 0, false)) { // one entry names both
        for (auto& [colour, text] : e)
            if (text == QStringLiteral("channel in use now"))
                text = QStringLiteral("channel in use now, its message");
    } else if (!trees) {
        e.emplace_back(messageColour(mode, pal, 0, false).toColor(), QStringLiteral("message"));
    }
}

/// The Layers mode: the layer colours that occur (past kLayerColours layers a colour repeats:
/// its entry names every layer drawn in it).
void addLayers(Entries& e, const Snapshot* snap, const Palette& pal)
{
    int layers = 0, outside = 0;
    if (snap)
        for (const NodeId v : nodes(snap->topology())) {
            const int l = nodeLayer(*snap, v);
            layers = std::max(layers, l);
            outside += l < 0 ? 1 : 0;
        }
    addSourceEntry(e, snap, pal);
    const int colours = std::min(layers, kLayerColours);
    for (int i = 0; i < colours; ++i) {
        QStringList which;
        for (int l = i + 1; l <= layers && which.size() < 3; l += kLayerColours)
            which << QString::number(l);
        QString text = QStringLiteral("layer %1").arg(which.join(QStringLiteral(", ")));
        if (i + 1 + 3 * kLayerColours <= layers)
            text += QStringLiteral(", …");
        e.emplace_back(layerColour(i + 1).toColor(), text);
    }
    e.emplace_back(mix(layerColour(1), uninformedColour(pal, snap ? snap->topology().nodeCount() : 0), 0.7f).toColor(),
                   QStringLiteral("faded: layer not reached yet"));
    if (outside > 0)
        e.emplace_back(mix(pal.uninformed, pal.background, 0.5f).toColor(),
                       QStringLiteral("in no layer (holds no load)"));
}

void addSourceMap(Entries& e, const Snapshot* snap, const Palette& pal)
{
    const QString words = QString::fromStdString(metricWords(snap ? snap->sourceMapMetric : SourceMapMetric::Tcd));
    if (!snap || snap->sourceMap.empty()) {
        e.emplace_back(pal.optimum.toColor(), QStringLiteral("best %1").arg(words));
        e.emplace_back(sourceMapColour({0.0, 1.0}, 0.0).toColor(), QStringLiteral("low %1").arg(words));
        e.emplace_back(sourceMapColour({0.0, 1.0}, 1.0).toColor(), QStringLiteral("high %1").arg(words));
        e.emplace_back(pal.source.toColor(), QStringLiteral("current source"));
        if (snap)
            e.emplace_back(pal.background.toColor(), QStringLiteral("(no source map for this algorithm/size)"));
        return;
    }
    const SourceMapScale scale = sourceMapScale(snap->sourceMap);
    auto text = [&](double v) {
        return QString::fromStdString(formatSourceMapValue(v, snap->sourceMapMetric, snap->sourceMapTimeUnit));
    };
    // The same figure as the Source map panel's summary and the metrics table's best sources.
    e.emplace_back(pal.optimum.toColor(),
                   scale.bestCount == 1
                       ? QStringLiteral("best %1 (%2), 1 source").arg(words, text(scale.best))
                       : QStringLiteral("best %1 (%2), %3 sources").arg(words, text(scale.best)).arg(scale.bestCount));
    if (scale.high > scale.best) {
        e.emplace_back(sourceMapColour({0.0, 1.0}, 0.0).toColor(),
                       QStringLiteral("low %1 (%2)").arg(words, text(scale.low)));
        if (scale.high > scale.low)
            e.emplace_back(sourceMapColour({0.0, 1.0}, 1.0).toColor(),
                           QStringLiteral("high %1 (%2)").arg(words, text(scale.high)));
    }
    e.emplace_back(pal.source.toColor(), QStringLiteral("current source"));
    if (std::any_of(snap->sourceMap.begin(), snap->sourceMap.end(), [](double x) { return std::isnan(x); }))
        e.emplace_back(mix(pal.uninformed, pal.background, 0.5f).toColor(),
                       QStringLiteral("no schedule from this node"));
}

/// The Data held mode: the ends of the share ramp (its colour bar has the steps between).
void addDataHeld(Entries& e, const Snapshot* snap, const Palette& pal)
{
    const std::size_t n = snap ? snap->topology().nodeCount() : 0;
    const Pattern pattern = snap ? snap->schedule.pattern() : Pattern::Broadcast;
    if (pattern == Pattern::Gather || pattern == Pattern::Reduce) // filled by its share like the rest (frameStyle)
        e.emplace_back(pal.source.toColor(), drawsDataGlyphs(*snap)
                                                 ? QStringLiteral("root: its glyph framed")
                                                 : QStringLiteral("root (labelled in this colour, drawn larger)"));
    else
        addSourceEntry(e, snap, pal);
    if (snap && drawsDataGlyphs(*snap)) { // the glyphs (dataglyphs.h) say what each node holds
        const Schedule& s = snap->schedule;
        const std::uint64_t chunks = chunkCount(s);
        const Pattern p = s.pattern();
        // Short lines (at most 33 characters): the dock's legend does not wrap, and its width is
        // what the 3-D view leaves.
        QString whole = QStringLiteral("ringed: a whole chunk");
        if (p == Pattern::Scatter || p == Pattern::ReduceScatter)
            whole = QStringLiteral("ringed: a whole chunk, by target");
        else if (p == Pattern::Allgather || p == Pattern::Gather || p == Pattern::Alltoall)
            whole = QStringLiteral("ringed: a whole chunk, by origin");
        e.emplace_back(chunkColour(0, chunks).toColor(), whole);
        if (combines(p))
            e.emplace_back(chunkColour(chunks / 2, chunks).toColor(),
                           QStringLiteral("bar: partial sum, share of %1").arg(n));
        e.emplace_back(mix(pal.background, pal.link, 0.45f).toColor(), QStringLiteral("dark square: not held yet"));
        return;
    }
    e.emplace_back(dataShareColour(pal, n, 1.0).toColor(), QStringLiteral("holds all the data it must end with"));
    e.emplace_back(dataShareColour(pal, n, 0.0).toColor(), QStringLiteral("holds none of it yet"));
    bool idle = false;
    if (snap && snap->holdings)
        for (const NodeId v : nodes(snap->topology()))
            idle = idle || (v != snap->schedule.source() && snap->holdings->requiredCount(v) == 0);
    if (idle)
        e.emplace_back(dataNotNeededColour(pal).toColor(), QStringLiteral("needs no data"));
}

void addTrees(Entries& e, const Snapshot* snap, const Palette& pal)
{
    if (!snap || snap->trees.empty()) {
        // A note, not a colour: its swatch is the background.
        e.emplace_back(pal.background.toColor(), QStringLiteral("(no spanning trees: not a hypercube tree schedule)"));
        return;
    }
    const HypercubeFigures* cube = snap->schedule.figures ? snap->schedule.figures->get<HypercubeFigures>() : nullptr;
    const QString graph = cube ? QString::fromStdString(cube->graph) : QStringLiteral("spanning graph");
    const std::size_t trees = snap->trees.size();
    for (std::size_t t = 0; t < trees; ++t)
        e.emplace_back(treeColour(static_cast<int>(t), true, pal).toColor(),
                       trees == 1 ? graph : QStringLiteral("%1 member %2").arg(graph).arg(t));
    e.emplace_back(treeColour(0, false, pal).toColor(), QStringLiteral("faded: edge not used yet"));
    if (trees > 1 && snap->channelLoads.severalTags())
        e.emplace_back(pal.background.toColor(), QStringLiteral("(each message in its tree's colour)"));
}
} // namespace

std::vector<std::pair<QColor, QString>> legendEntries(const Snapshot* snap, ViewMode mode, const Palette& pal,
                                                      bool simulated)
{
    Entries e;
    // What the nodes mean in this mode, then (but on the heat map, whose colour bar says it) what
    // the channels mean; in simulated time the links say how many messages share them.
    switch (mode) {
    case ViewMode::Plain:
    case ViewMode::Contention:
        addNodeStates(e, snap, pal);
        break;
    case ViewMode::Heatmap:
        addNodeStates(e, snap, pal);
        if (simulated)
            break;
        e.emplace_back(heatColour(0, 1).toColor(), QStringLiteral("unused channel"));
        e.emplace_back(pal.message.toColor(), QStringLiteral("message"));
        return e;
    case ViewMode::SourceMap:
        addSourceMap(e, snap, pal);
        break;
    case ViewMode::Layers:
        addLayers(e, snap, pal);
        break;
    case ViewMode::Trees:
        addTrees(e, snap, pal);
        addNodeStates(e, snap, pal);
        break;
    case ViewMode::DataHeld:
        addDataHeld(e, snap, pal);
        break;
    }
    if (simulated)
        addSimulatedLinks(e, mode, pal, snap ? snap->topology().nodeCount() : 0);
    else
        addChannels(e, snap, mode, pal);
    return e;
}

std::optional<ColourBar> legendBar(const Snapshot* snap, ViewMode mode, bool cumulativeHeat, const Palette& pal)
{
    if (!snap)
        return std::nullopt;
    ColourBar bar;
    if (mode == ViewMode::DataHeld) {
        if (drawsDataGlyphs(*snap))
            return std::nullopt; // the glyphs show each chunk; the nodes' colours are behind them
        const std::size_t n = snap->topology().nodeCount();
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(dataShareColour(pal, n, i / 16.0).toColor());
        bar.max = 100;
        bar.labels = {{0.0, QStringLiteral("0%")}, {50.0, QStringLiteral("50%")}, {100.0, QStringLiteral("100%")}};
        bar.caption = QStringLiteral("share of its final data held");
        return bar;
    }
    SourceMapMetric metric = SourceMapMetric::MaxLinkLoad; // a count: whole-number ticks
    std::string unit;
    if (mode == ViewMode::Heatmap) {
        bar.max = cumulativeHeat ? snap->metrics.maxLinkLoad : snap->metrics.maxStepLoad;
        if (bar.max <= 0)
            return std::nullopt;
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(heatColour(std::max(1e-9, bar.max * i / 16.0), bar.max).toColor());
        bar.caption = cumulativeHeat ? QStringLiteral("uses of a channel, steps 1 to now")
                                     : QStringLiteral("uses of a channel in this step");
    } else if (mode == ViewMode::SourceMap && !snap->sourceMap.empty()) {
        // The values above the best (drawn in the optimum colour, its own legend entry).
        const SourceMapScale scale = sourceMapScale(snap->sourceMap);
        if (scale.high <= scale.best)
            return std::nullopt; // every source is a best one
        bar.min = scale.low;
        bar.max = scale.high;
        metric = snap->sourceMapMetric;
        unit = snap->sourceMapTimeUnit;
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(sourceMapColour({0.0, 1.0}, i / 16.0).toColor());
        bar.caption = QString::fromStdString(metricWords(metric)) +
                      QStringLiteral(" with this node as source; the best (%1) in a colour of its own")
                          .arg(QString::fromStdString(formatSourceMapValue(scale.best, metric, unit)));
    } else {
        return std::nullopt;
    }
    auto text = [&](double v) { return QString::fromStdString(formatSourceMapValue(v, metric, unit)); };
    bar.labels.emplace_back(bar.min, text(bar.min));
    for (double t : sourceMapTicks(bar.min, bar.max, metric, 4))
        if (t > bar.min && t < bar.max)
            bar.labels.emplace_back(t, text(t));
    if (bar.max > bar.min)
        bar.labels.emplace_back(bar.max, text(bar.max));
    return bar;
}

QString legendTitle(const QString& modeText, const Snapshot* snap, ViewMode mode, bool cumulativeHeat)
{
    if (mode != ViewMode::Heatmap || !snap)
        return modeText;
    return modeText +
           QStringLiteral(" (scale 0–%1)").arg(cumulativeHeat ? snap->metrics.maxLinkLoad : snap->metrics.maxStepLoad);
}

void addSimulatedLinks(std::vector<std::pair<QColor, QString>>& e, ViewMode mode, const Palette& pal, std::size_t nodes)
{
    e.emplace_back(simulatedLinkColour(pal, nodes, 0, false).toColor(), QStringLiteral("link idle so far"));
    e.emplace_back(simulatedLinkColour(pal, nodes, 0, true).toColor(), QStringLiteral("link idle, used earlier"));
    e.emplace_back(simulatedLinkColour(pal, nodes, 1, false).toColor(),
                   QStringLiteral("one message: all of the link's bandwidth"));
    e.emplace_back(simulatedLinkColour(pal, nodes, 2, false).toColor(),
                   QStringLiteral("two messages share the link: half each"));
    e.emplace_back(simulatedLinkColour(pal, nodes, 3, false).toColor(),
                   QStringLiteral("three or more share it: a third or less each"));
    e.emplace_back(messageColour(mode, pal, 0, false).toColor(), QStringLiteral("message (moving as simulated)"));
}

} // namespace topocast::app
