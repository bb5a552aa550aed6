// The legend of each colour mode: its entries (colour, meaning) for exactly the colours the frame
// draws (frameStyle), and the colour bar of the modes that map numbers to colours.
#include "topocast/scenario/legend.h"

#include "topocast/scenario/data_glyphs.h"

#include "topocast/algorithms/figures.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/source_map.h"

#include <algorithm>
#include <cmath>

namespace topocast {
namespace {
using Entries = std::vector<LegendEntry>;

void add(Entries& e, const Rgba& colour, std::string text)
{
    e.push_back({colour, std::move(text)});
}

std::size_t nodeCount(const ScenarioRun* run)
{
    return run ? run->topology().nodeCount() : 0;
}

/// The source's entry: "source", "root" where the data flows to it (gather, reduce), none where
/// the pattern has no source (every node starts with data).
void addSourceEntry(Entries& e, const ScenarioRun* run, const Palette& pal)
{
    const Pattern p = run ? run->schedule.pattern() : Pattern::Broadcast;
    if (!hasRoot(p))
        return;
    add(e, pal.source, p == Pattern::Gather || p == Pattern::Reduce ? "root (where the data ends)" : "source");
}

void addNodeStates(Entries& e, const ScenarioRun* run, const Palette& pal, bool receiving = true)
{
    addSourceEntry(e, run, pal);
    // Gather, all-gather, all-to-all and the reductions: every node holds data (its own) from the
    // start, so none is "not yet informed"; Data held shows how much of its result each has.
    const bool everyStarts = run && everyNodeStarts(run->schedule.pattern());
    add(e, pal.informed, everyStarts ? "holds data (every node starts with its own)" : "informed");
    if (receiving)
        add(e, pal.receiving, "receiving now");
    if (everyStarts)
        return;
    add(e, uninformedColour(pal, nodeCount(run)), "not yet informed");
}

/// One entry per channel colour the mode draws (channelColours), and the messages' colour.
void addChannels(Entries& e, const ScenarioRun* run, ViewMode mode, const Palette& pal)
{
    const ChannelColours c = channelColours(mode, pal, nodeCount(run));
    if (c.inUse)
        add(e, *c.inUse, "channel in use now");
    if (c.usedEarlier)
        add(e, *c.usedEarlier, "channel used earlier");
    add(e, c.contended, "contention");
    if (run && colourByDimension(*run, mode)) { // one colour per dimension
        for (int d = 0; d < run->topology().dims(); ++d)
            add(e, dimensionColour(d, run->topology().dims(), pal), "unused channel, dimension " + std::to_string(d));
    } else {
        add(e, c.idle, c.usedEarlier ? "unused channel" : "channel not in use");
    }
    const bool trees = mode == ViewMode::Trees && run && run->channelLoads.severalTags();
    if (c.inUse && *c.inUse == messageColour(mode, pal, 0, false)) { // one entry names both
        for (LegendEntry& entry : e)
            if (entry.text == "channel in use now")
                entry.text = "channel in use now, its message";
    } else if (!trees) {
        add(e, messageColour(mode, pal, 0, false), "message");
    }
}

/// The Layers mode: the layer colours that occur (past kLayerColours layers a colour repeats:
/// its entry names every layer drawn in it).
void addLayers(Entries& e, const ScenarioRun* run, const Palette& pal)
{
    int layers = 0, outside = 0;
    if (run)
        for (const NodeId v : nodes(run->topology())) {
            const int l = nodeLayer(*run, v);
            layers = std::max(layers, l);
            outside += l < 0 ? 1 : 0;
        }
    addSourceEntry(e, run, pal);
    const int colours = std::min(layers, kLayerColours);
    for (int i = 0; i < colours; ++i) {
        std::string text = "layer ";
        int named = 0;
        for (int l = i + 1; l <= layers && named < 3; l += kLayerColours, ++named)
            text += (named > 0 ? ", " : "") + std::to_string(l);
        if (i + 1 + 3 * kLayerColours <= layers)
            text += ", …";
        add(e, layerColour(i + 1), text);
    }
    add(e, mix(layerColour(1), uninformedColour(pal, nodeCount(run)), 0.7f), "faded: layer not reached yet");
    if (outside > 0)
        add(e, mix(pal.uninformed, pal.background, 0.5f), "in no layer (holds no load)");
}

void addSourceMap(Entries& e, const ScenarioRun* run, const Palette& pal)
{
    const std::string words = metricWords(run ? run->sourceMapMetric : SourceMapMetric::Tcd);
    if (!run || run->sourceMap.empty()) {
        add(e, pal.optimum, "best " + words);
        add(e, sourceMapColour({0.0, 1.0}, 0.0), "low " + words);
        add(e, sourceMapColour({0.0, 1.0}, 1.0), "high " + words);
        add(e, pal.source, "current source");
        if (run)
            add(e, pal.background, "(no source map for this algorithm/size)");
        return;
    }
    const SourceMapScale scale = sourceMapScale(run->sourceMap);
    auto text = [&](double v) { return formatSourceMapValue(v, run->sourceMapMetric, run->sourceMapTimeUnit); };
    // The same figure as the Source map panel's summary and the metrics table's best sources.
    add(e, pal.optimum,
        "best " + words + " (" + text(scale.best) + "), " +
            (scale.bestCount == 1 ? std::string("1 source") : std::to_string(scale.bestCount) + " sources"));
    if (scale.high > scale.best) {
        add(e, sourceMapColour({0.0, 1.0}, 0.0), "low " + words + " (" + text(scale.low) + ")");
        if (scale.high > scale.low)
            add(e, sourceMapColour({0.0, 1.0}, 1.0), "high " + words + " (" + text(scale.high) + ")");
    }
    add(e, pal.source, "current source");
    if (std::any_of(run->sourceMap.begin(), run->sourceMap.end(), [](double x) { return std::isnan(x); }))
        add(e, mix(pal.uninformed, pal.background, 0.5f), "no schedule from this node");
}

/// The Data held mode: the ends of the share ramp (its colour bar has the steps between).
void addDataHeld(Entries& e, const ScenarioRun* run, const Palette& pal)
{
    const std::size_t n = nodeCount(run);
    const Pattern pattern = run ? run->schedule.pattern() : Pattern::Broadcast;
    const bool glyphs = run && drawsDataGlyphs(*run);
    if (pattern == Pattern::Gather || pattern == Pattern::Reduce) // filled by its share like the rest (frameStyle)
        add(e, pal.source, glyphs ? "root: its glyph framed" : "root (labelled in this colour, drawn larger)");
    else
        addSourceEntry(e, run, pal);
    if (glyphs) { // the glyphs (data_glyphs.h) say what each node holds
        const Schedule& s = run->schedule;
        const std::uint64_t chunks = chunkCount(s);
        const Pattern p = s.pattern();
        // Short lines (at most 33 characters): the dock's legend does not wrap, and its width is
        // what the 3-D view leaves.
        std::string whole = "ringed: a whole chunk";
        if (p == Pattern::Scatter || p == Pattern::ReduceScatter)
            whole = "ringed: a whole chunk, by target";
        else if (p == Pattern::Allgather || p == Pattern::Gather || p == Pattern::Alltoall)
            whole = "ringed: a whole chunk, by origin";
        add(e, chunkColour(0, chunks), whole);
        if (combines(p))
            add(e, chunkColour(chunks / 2, chunks), "bar: partial sum, share of " + std::to_string(n));
        add(e, mix(pal.background, pal.link, 0.45f), "dark square: not held yet");
        return;
    }
    add(e, dataShareColour(pal, n, 1.0), "holds all the data it must end with");
    add(e, dataShareColour(pal, n, 0.0), "holds none of it yet");
    bool idle = false;
    if (run && run->holdings)
        for (const NodeId v : nodes(run->topology()))
            idle = idle || (v != run->schedule.source() && run->holdings->requiredCount(v) == 0);
    if (idle)
        add(e, dataNotNeededColour(pal), "needs no data");
}

void addTrees(Entries& e, const ScenarioRun* run, const Palette& pal)
{
    if (!run || run->trees.empty()) {
        // A note, not a colour: its swatch is the background.
        add(e, pal.background, "(no spanning trees: not a hypercube tree schedule)");
        return;
    }
    const HypercubeFigures* cube = run->schedule.figures ? run->schedule.figures->get<HypercubeFigures>() : nullptr;
    const std::string graph = cube ? cube->graph : std::string("spanning graph");
    const std::size_t trees = run->trees.size();
    for (std::size_t t = 0; t < trees; ++t)
        add(e, treeColour(static_cast<int>(t), true, pal), trees == 1 ? graph : graph + " member " + std::to_string(t));
    add(e, treeColour(0, false, pal), "faded: edge not used yet");
    if (trees > 1 && run->channelLoads.severalTags())
        add(e, pal.background, "(each message in its tree's colour)");
}
} // namespace

std::vector<LegendEntry> modeLegend(const ScenarioRun* run, ViewMode mode, const Palette& pal, bool simulated)
{
    Entries e;
    // What the nodes mean in this mode, then (but on the heat map, whose colour bar says it) what
    // the channels mean; in simulated time the links say how many messages share them.
    switch (mode) {
    case ViewMode::Plain:
    case ViewMode::Contention:
        addNodeStates(e, run, pal);
        break;
    case ViewMode::Heatmap:
        addNodeStates(e, run, pal);
        if (simulated)
            break;
        add(e, heatColour(0, 1), "unused channel");
        add(e, pal.message, "message");
        return e;
    case ViewMode::SourceMap:
        addSourceMap(e, run, pal);
        break;
    case ViewMode::Layers:
        addLayers(e, run, pal);
        break;
    case ViewMode::Trees:
        addTrees(e, run, pal);
        addNodeStates(e, run, pal);
        break;
    case ViewMode::DataHeld:
        addDataHeld(e, run, pal);
        break;
    }
    if (simulated) {
        const Entries links = simulatedLinkEntries(mode, pal, nodeCount(run));
        e.insert(e.end(), links.begin(), links.end());
    } else {
        addChannels(e, run, mode, pal);
    }
    return e;
}

std::optional<LegendBar> modeLegendBar(const ScenarioRun* run, ViewMode mode, bool cumulativeHeat, const Palette& pal)
{
    if (!run)
        return std::nullopt;
    LegendBar bar;
    if (mode == ViewMode::DataHeld) {
        if (drawsDataGlyphs(*run))
            return std::nullopt; // the glyphs show each chunk; the nodes' colours are behind them
        const std::size_t n = run->topology().nodeCount();
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(dataShareColour(pal, n, i / 16.0));
        bar.max = 100;
        bar.labels = {{0.0, "0%"}, {50.0, "50%"}, {100.0, "100%"}};
        bar.caption = "share of its final data held";
        return bar;
    }
    SourceMapMetric metric = SourceMapMetric::MaxLinkLoad; // a count: whole-number ticks
    std::string unit;
    if (mode == ViewMode::Heatmap) {
        bar.max = cumulativeHeat ? run->metrics.maxLinkLoad : run->metrics.maxStepLoad;
        if (bar.max <= 0)
            return std::nullopt;
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(heatColour(std::max(1e-9, bar.max * i / 16.0), bar.max));
        bar.caption = cumulativeHeat ? "uses of a channel, steps 1 to now" : "uses of a channel in this step";
    } else if (mode == ViewMode::SourceMap && !run->sourceMap.empty()) {
        // The values above the best (drawn in the optimum colour, its own legend entry).
        const SourceMapScale scale = sourceMapScale(run->sourceMap);
        if (scale.high <= scale.best)
            return std::nullopt; // every source is a best one
        bar.min = scale.low;
        bar.max = scale.high;
        metric = run->sourceMapMetric;
        unit = run->sourceMapTimeUnit;
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(sourceMapColour({0.0, 1.0}, i / 16.0));
        bar.caption = metricWords(metric) + " with this node as source; the best (" +
                      formatSourceMapValue(scale.best, metric, unit) + ") in a colour of its own";
    } else {
        return std::nullopt;
    }
    auto text = [&](double v) { return formatSourceMapValue(v, metric, unit); };
    bar.labels.emplace_back(bar.min, text(bar.min));
    for (double t : sourceMapTicks(bar.min, bar.max, metric, 4))
        if (t > bar.min && t < bar.max)
            bar.labels.emplace_back(t, text(t));
    if (bar.max > bar.min)
        bar.labels.emplace_back(bar.max, text(bar.max));
    return bar;
}

std::string modeLegendTitle(const std::string& modeText, const ScenarioRun* run, ViewMode mode, bool cumulativeHeat)
{
    if (mode != ViewMode::Heatmap || !run)
        return modeText;
    const auto scale = cumulativeHeat ? run->metrics.maxLinkLoad : run->metrics.maxStepLoad;
    return modeText + " (scale 0–" + std::to_string(scale) + ")";
}

std::vector<LegendEntry> simulatedLinkEntries(ViewMode mode, const Palette& pal, std::size_t nodes)
{
    return {{simulatedLinkColour(pal, nodes, 0, false), "link idle so far"},
            {simulatedLinkColour(pal, nodes, 0, true), "link idle, used earlier"},
            {simulatedLinkColour(pal, nodes, 1, false), "one message: all of the link's bandwidth"},
            {simulatedLinkColour(pal, nodes, 2, false), "two messages share the link: half each"},
            {simulatedLinkColour(pal, nodes, 3, false), "three or more share it: a third or less each"},
            {messageColour(mode, pal, 0, false), "message (moving as simulated)"}};
}

} // namespace topocast
