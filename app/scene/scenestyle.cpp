#include "scene/scenestyle.h"

#include "scene/dataglyphs.h"
#include "scene/simulatedframes.h"

#include "topocast/algorithms/figures.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/landscape.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace topocast::app {

QString viewModeName(ViewMode mode)
{
    return QString::fromLatin1(colour::kColourModes[static_cast<std::size_t>(mode)].name);
}

std::optional<ViewMode> parseViewMode(const QString& text)
{
    for (std::size_t i = 0; i < colour::kColourModes.size(); ++i)
        if (text.compare(QLatin1String(colour::kColourModes[i].name), Qt::CaseInsensitive) == 0)
            return static_cast<ViewMode>(i);
    return std::nullopt;
}

Palette Palette::from(const colour::Palette& c)
{
    Palette p;
    p.background = Rgba::from(c.background);
    p.source = Rgba::from(c.source);
    p.informed = Rgba::from(c.informed);
    p.receiving = Rgba::from(c.receiving);
    p.uninformed = Rgba::from(c.uninformed);
    p.link = Rgba::from(c.link);
    p.linkUsed = Rgba::from(c.linkUsed);
    p.inFlight = Rgba::from(c.inFlight);
    p.contention = Rgba::from(c.contention);
    p.message = Rgba::from(c.message);
    p.optimum = Rgba::from(c.optimum);
    return p;
}

Palette Palette::normal() { return from(colour::normalPalette()); }
Palette Palette::highContrast() { return from(colour::highContrastPalette()); }

Rgba categoryColour(int i) { return Rgba::from(colour::categoryColour(i)); }

Rgba layerColour(int layer)
{
    // The category colours no other role of the Layers mode uses (orange is the source,
    // vermillion contention, white and light grey the channels in use and their messages).
    static constexpr std::array<int, kLayerColours> kLayerHues = {0, 1, 2, 3, 4, 8, 9};
    const int k = (((layer - 1) % kLayerColours) + kLayerColours) % kLayerColours;
    return categoryColour(kLayerHues[static_cast<std::size_t>(k)]);
}

Rgba dimensionColour(int dim, const Palette& pal)
{
    // Category 1 is the blue of the channels used earlier: faded it came within ΔE00 8 of it.
    static constexpr std::array<int, kDimensionColours> kDimensionHues = {0, 2, 3, 4, 5, 6, 7, 8, 9};
    return mix(categoryColour(kDimensionHues[static_cast<std::size_t>(std::clamp(dim, 0, kDimensionColours - 1))]),
               pal.background, 0.5f);
}

bool colourByDimension(const Snapshot& snap, ViewMode mode)
{
    return mode == ViewMode::Plain && snap.topology().isHypercube() && snap.topology().dims() <= kDimensionColours;
}

Rgba heatColour(double value, double max)
{
    if (value <= 0 || max <= 0)
        return {0.22f, 0.23f, 0.26f};
    const double t = std::clamp(value / max, 0.0, 1.0);
    return Rgba::from(colour::mapColour(colour::ColourMap::Viridis, 0.15 + 0.85 * t));
}

std::vector<DrawnChannel> drawnChannels(const Topology& topo, bool planes)
{
    std::vector<DrawnChannel> straight, wraps, jumps;
    straight.reserve(static_cast<std::size_t>(topo.channelCount()));
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        for (int p = 0; p < topo.portsPerNode(); ++p) {
            const Port port = topo.portAt(p);
            NodeId next;
            if (!topo.step(v, port.dim, port.sign, next))
                continue;
            const ChannelId ch = topo.channel(v, port.dim, port.sign);
            const DrawnChannel d{ch, v, next, port.dim, topo.isWrapChannel(ch), planes && isPlaneJump(port.dim)};
            (d.jump ? jumps : d.wrap ? wraps : straight).push_back(d);
        }
    }
    straight.insert(straight.end(), wraps.begin(), wraps.end());
    straight.insert(straight.end(), jumps.begin(), jumps.end());
    return straight;
}

std::size_t straightCount(const std::vector<DrawnChannel>& channels)
{
    return static_cast<std::size_t>(
        std::find_if(channels.begin(), channels.end(), [](const DrawnChannel& c) { return c.wrap || c.jump; }) -
        channels.begin());
}

std::size_t stubbedCount(const std::vector<DrawnChannel>& channels)
{
    return static_cast<std::size_t>(
        std::count_if(channels.begin(), channels.end(), [](const DrawnChannel& c) { return c.wrap && !c.jump; }));
}

Rgba mix(const Rgba& a, const Rgba& b, float t)
{
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, 1.0f};
}

std::pair<double, double> landscapeRange(const std::vector<double>& values)
{
    double lo = 0.0, hi = 0.0;
    bool any = false;
    for (double x : values) {
        if (std::isnan(x))
            continue;
        lo = any ? std::min(lo, x) : x;
        hi = any ? std::max(hi, x) : x;
        any = true;
    }
    return {lo, hi};
}

Rgba landscapeColour(std::pair<double, double> range, double value)
{
    const double span = range.second - range.first;
    const double t = span > 0 ? std::clamp((value - range.first) / span, 0.0, 1.0) : 0.0;
    return Rgba::from(colour::mapColour(colour::ColourMap::Cividis, t));
}

float recedeAmount(std::size_t nodes)
{
    if (nodes <= 64)
        return 0.0f;
    return std::clamp(static_cast<float>(std::log2(static_cast<double>(nodes) / 64.0) / 6.0), 0.0f, 1.0f);
}

Rgba uninformedColour(const Palette& palette, std::size_t nodes)
{
    return mix(palette.uninformed, palette.background, static_cast<float>(colour::kMaxUninformedFade) * recedeAmount(nodes));
}

Rgba dataShareColour(const Palette& palette, std::size_t nodes, double share)
{
    // A node that holds any of its data jumps a third of the way at once: on a projector 1 of 4
    // parts must not look like none (the colour bar is drawn with this function, jump included).
    const double s = std::clamp(share, 0.0, 1.0);
    const double t = s > 0.0 ? 0.35 + 0.65 * s : 0.0;
    return mix(uninformedColour(palette, nodes), palette.informed, static_cast<float>(t));
}

// Nearly the background (a not-yet-informed node fades at most 0.6 of the way): a ghost, drawn
// small too, so "needs nothing" never reads as "holds nothing yet".
Rgba dataNotNeededColour(const Palette& palette) { return mix(palette.uninformed, palette.background, 0.85f); }

float uninformedScale(std::size_t nodes) { return 1.0f - 0.55f * recedeAmount(nodes); }

Rgba treeColour(int tree, bool used, const Palette& palette)
{
    // The category colours that no node state and no contention use in the Trees mode (orange is
    // the source, sky blue informed, bluish green receiving, vermillion contention).
    static constexpr std::array<int, 6> kTreeHues = {0, 2, 4, 6, 8, 9};
    const int k = ((tree % 6) + 6) % 6;
    const Rgba c = categoryColour(kTreeHues[static_cast<std::size_t>(k)]);
    return used ? c : mix(c, palette.background, 0.6f);
}

int nodeLayer(const Snapshot& snap, NodeId v)
{
    // Divisible load: layer k is reached in move k (the schedule's step); nodes never reached
    // hold no load. Elsewhere a node's layer is its hop distance from the source.
    if (snap.schedule.figures && snap.schedule.figures->get<DivisibleLoadFigures>()) {
        const std::uint32_t at = snap.informedStep[v];
        return at == kNeverInformed ? -1 : static_cast<int>(at);
    }
    return snap.topology().distance(snap.schedule.source(), v);
}

Rgba ChannelColours::of(ChannelRole role) const
{
    switch (role) {
    case ChannelRole::Idle: return idle;
    case ChannelRole::UsedEarlier: return usedEarlier.value_or(idle);
    case ChannelRole::InUse: return inUse.value_or(idle);
    case ChannelRole::Contended: return contended;
    }
    return idle;
}

ChannelColours channelColours(ViewMode mode, const Palette& pal, std::size_t nodes)
{
    ChannelColours c;
    c.idle = mix(pal.link, pal.background, 0.75f * recedeAmount(nodes));
    c.contended = pal.contention;
    switch (mode) {
    case ViewMode::Plain:
    case ViewMode::DataHeld:  // the nodes' shares use the uninformed → informed ramp, not these
        c.usedEarlier = pal.linkUsed;
        c.inUse = pal.inFlight;
        break;
    case ViewMode::Layers:  // yellow and blue are layers' colours here; white is no layer's
        c.inUse = pal.message;
        break;
    case ViewMode::Contention:
        c.inUse = pal.inFlight;
        break;
    case ViewMode::TcdMap:  // the map colours the nodes: channels in use are blue, never the map's yellow
        c.inUse = pal.linkUsed;
        break;
    case ViewMode::Trees:  // the trees are drawn over the channels; only contention shows here
    case ViewMode::Heatmap:  // the heat scale (heatColour), not these
        break;
    }
    return c;
}

Rgba messageColour(ViewMode mode, const Palette& pal, int tag, bool severalTags)
{
    if (mode == ViewMode::Trees && severalTags)
        return treeColour(tag, true, pal);  // the tag of a tree schedule's transfer is its tree
    if (mode == ViewMode::TcdMap)
        return pal.linkUsed;  // white is the map's minimum
    return pal.message;
}

FrameStyle frameStyle(const Snapshot& snap, const std::vector<DrawnChannel>& channels, int step, ViewMode mode,
                      bool cumulativeHeat, const Palette& pal)
{
    FrameStyle f;
    const Topology& topo = snap.topology();
    const std::size_t n = topo.nodeCount();
    f.nodeColour.assign(n, uninformedColour(pal, n));
    f.nodeScale.assign(n, uninformedScale(n));
    const auto states = nodeStates(snap, static_cast<std::uint32_t>(std::max(step, 0)));
    for (std::size_t v = 0; v < n; ++v) {
        switch (states[v]) {
        case NodeState::Source: f.nodeColour[v] = pal.source; f.nodeScale[v] = 1.45f; break;
        case NodeState::Informed: f.nodeColour[v] = pal.informed; f.nodeScale[v] = 1.0f; break;
        case NodeState::Receiving: f.nodeColour[v] = pal.receiving; f.nodeScale[v] = 1.2f; break;
        case NodeState::Uninformed: break;
        }
    }
    if (mode == ViewMode::TcdMap && snap.landscape.size() == n) {
        const auto range = landscapeRange(snap.landscape);
        for (std::size_t v = 0; v < n; ++v) {
            const double x = snap.landscape[v];
            f.nodeScale[v] = 1.0f;
            if (std::isnan(x)) {
                f.nodeColour[v] = mix(pal.uninformed, pal.background, 0.5f);  // no schedule from here
                f.nodeScale[v] = uninformedScale(n);
                continue;
            }
            f.nodeColour[v] = landscapeColour(range, x);
            if (x == range.first) {
                f.nodeColour[v] = pal.optimum;
                f.nodeScale[v] = 1.5f;
            }
        }
        f.nodeColour[snap.schedule.source()] = pal.source;
        f.nodeScale[snap.schedule.source()] = 1.45f;
    } else if (mode == ViewMode::DataHeld && snap.holdings) {
        // Each node by the share of its final data it holds (core Holdings); sizes stay the
        // states' (this step's receivers larger).
        // The root of a gather or reduce is where the data ends: it fills up like the others (its
        // label and size say which it is); a source that starts with everything keeps its colour.
        const StepNo k{static_cast<std::uint32_t>(std::max(step, 0))};
        const bool rootGathers = snap.schedule.pattern() == Pattern::Gather || snap.schedule.pattern() == Pattern::Reduce;
        for (NodeId v{}; v < n; ++v) {
            if (states[v] == NodeState::Source && !rootGathers)
                continue;
            if (snap.holdings->requiredCount(v) == 0) {
                f.nodeColour[v] = dataNotNeededColour(pal);
                f.nodeScale[v] = 0.5f * uninformedScale(n);
                continue;
            }
            f.nodeColour[v] = dataShareColour(pal, n, snap.holdings->finalShareAt(v, k));
        }
    } else if (mode == ViewMode::Layers) {
        for (std::size_t v = 0; v < n; ++v) {
            if (states[v] == NodeState::Source)
                continue;
            const int layer = nodeLayer(snap, static_cast<NodeId>(v));
            if (layer < 0) {
                f.nodeColour[v] = mix(pal.uninformed, pal.background, 0.5f);  // outside every layer
                continue;
            }
            f.nodeColour[v] = layerColour(layer);
            if (states[v] == NodeState::Uninformed)
                f.nodeColour[v] = mix(f.nodeColour[v], uninformedColour(pal, n), 0.7f);
        }
    }

    const ChannelLoads loads = snap.channelLoads.at(static_cast<std::uint32_t>(std::max(step, 0)));
    f.contendedNow = loads.contendedNow;
    f.heatMax = cumulativeHeat ? snap.metrics.maxLinkLoad : snap.metrics.maxStepLoad;
    f.channelColour.resize(channels.size());
    f.channelInUse.assign(channels.size(), 0);
    f.channelRole.assign(channels.size(), ChannelRole::Idle);
    const ChannelColours look = channelColours(mode, pal, n);
    for (std::size_t i = 0; i < channels.size(); ++i) {
        const std::uint32_t now = loads.step[channels[i].channel];
        const std::uint32_t cum = loads.cumulative[channels[i].channel];
        f.channelInUse[i] = now > 0 ? 1 : 0;
        const ChannelRole role = now >= 2 ? ChannelRole::Contended
                                 : now == 1 ? ChannelRole::InUse
                                 : cum > 0  ? ChannelRole::UsedEarlier
                                            : ChannelRole::Idle;
        f.channelRole[i] = role;
        f.channelColour[i] = mode == ViewMode::Heatmap ? heatColour(cumulativeHeat ? cum : now, f.heatMax)
                             : role == ChannelRole::Idle && colourByDimension(snap, mode)
                                 ? dimensionColour(channels[i].dim, pal)
                                 : look.of(role);
    }
    if (mode == ViewMode::Trees) {
        for (std::size_t t = 0; t < snap.trees.size(); ++t)
            for (const hypercube::TreeEdge& e : snap.trees[t]) {
                const auto ch = topo.channelBetween(e.parent, e.child);
                f.treeEdgeColour.push_back(treeColour(static_cast<int>(t), ch && loads.cumulative[*ch] > 0, pal));
            }
    }
    return f;
}

namespace {
using Entries = std::vector<std::pair<QColor, QString>>;

/// The source's entry: "source", "root" where the data flows to it (gather, reduce), none where
/// the pattern has no source (every node starts with data).
void addSourceEntry(Entries& e, const Snapshot* snap, const Palette& pal)
{
    const Pattern p = snap ? snap->schedule.pattern() : Pattern::Broadcast;
    if (!hasRoot(p))
        return;
    e.emplace_back(pal.source.toColor(), p == Pattern::Gather || p == Pattern::Reduce ? QStringLiteral("root (where the data ends)")
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
    if (snap && colourByDimension(*snap, mode)) {  // one colour per dimension
        for (int d = 0; d < snap->topology().dims(); ++d)
            e.emplace_back(dimensionColour(d, pal).toColor(), QStringLiteral("unused channel, dimension %1").arg(d));
    } else {
        e.emplace_back(c.idle.toColor(), c.usedEarlier ? QStringLiteral("unused channel") : QStringLiteral("channel not in use"));
    }
    const bool trees = mode == ViewMode::Trees && snap && snap->channelLoads.severalTags();
    if (c.inUse && *c.inUse == messageColour(mode, pal, 0, false)) {  // one entry names both
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
        e.emplace_back(mix(pal.uninformed, pal.background, 0.5f).toColor(), QStringLiteral("in no layer (holds no load)"));
}

void addSourceMap(Entries& e, const Snapshot* snap, const Palette& pal)
{
    const QString words = QString::fromStdString(metricWords(snap ? snap->landscapeMetric : LandscapeMetric::Tcd));
    QString low, high;
    bool missing = false;
    if (snap && !snap->landscape.empty()) {
        const auto [lo, hi] = landscapeRange(snap->landscape);
        auto text = [&](double v) {
            return QString::fromStdString(formatLandscapeValue(v, snap->landscapeMetric, snap->landscapeTimeUnit));
        };
        low = QStringLiteral(" (%1)").arg(text(lo));
        high = QStringLiteral(" (%1)").arg(text(hi));
        missing = std::any_of(snap->landscape.begin(), snap->landscape.end(), [](double x) { return std::isnan(x); });
    }
    e.emplace_back(pal.optimum.toColor(), QStringLiteral("minimum %1%2").arg(words, low));
    e.emplace_back(landscapeColour({0.0, 1.0}, 0.0).toColor(), QStringLiteral("low %1%2").arg(words, low));
    e.emplace_back(landscapeColour({0.0, 1.0}, 1.0).toColor(), QStringLiteral("high %1%2").arg(words, high));
    e.emplace_back(pal.source.toColor(), QStringLiteral("current source"));
    if (missing)
        e.emplace_back(mix(pal.uninformed, pal.background, 0.5f).toColor(), QStringLiteral("no schedule from this node"));
    if (snap && snap->landscape.empty())
        e.emplace_back(pal.background.toColor(), QStringLiteral("(no source map for this algorithm/size)"));
}

/// The Data held mode: the ends of the share ramp (its colour bar has the steps between).
void addDataHeld(Entries& e, const Snapshot* snap, const Palette& pal)
{
    const std::size_t n = snap ? snap->topology().nodeCount() : 0;
    const Pattern pattern = snap ? snap->schedule.pattern() : Pattern::Broadcast;
    if (pattern == Pattern::Gather || pattern == Pattern::Reduce)  // filled by its share like the rest (frameStyle)
        e.emplace_back(pal.source.toColor(), drawsDataGlyphs(*snap) ? QStringLiteral("root: its glyph framed")
                                                                      : QStringLiteral("root (labelled in this colour, drawn larger)"));
    else
        addSourceEntry(e, snap, pal);
    if (snap && drawsDataGlyphs(*snap)) {  // the glyphs (dataglyphs.h) say what each node holds
        const Schedule& s = snap->schedule;
        const std::uint64_t chunks = chunkCount(s);
        const Pattern p = s.pattern();
        // Short lines: the legend's width is taken from the 3-D view.
        QString owner = QStringLiteral("one colour per chunk");
        if (p == Pattern::Scatter || p == Pattern::ReduceScatter)
            owner = QStringLiteral("coloured by its destination");
        else if (p == Pattern::Allgather || p == Pattern::Gather || p == Pattern::Alltoall)
            owner = QStringLiteral("coloured by its origin");
        e.emplace_back(chunkColour(0, chunks).toColor(), QStringLiteral("square: a chunk held, %1").arg(owner));
        if (combines(p))
            e.emplace_back(chunkColour(chunks / 2, chunks).toColor(),
                           QStringLiteral("bar height: share of %1 contributions").arg(n));
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
    case ViewMode::Contention: addNodeStates(e, snap, pal); break;
    case ViewMode::Heatmap:
        addNodeStates(e, snap, pal);
        if (simulated)
            break;
        e.emplace_back(heatColour(0, 1).toColor(), QStringLiteral("unused channel"));
        e.emplace_back(pal.message.toColor(), QStringLiteral("message"));
        return e;
    case ViewMode::TcdMap: addSourceMap(e, snap, pal); break;
    case ViewMode::Layers: addLayers(e, snap, pal); break;
    case ViewMode::Trees:
        addTrees(e, snap, pal);
        addNodeStates(e, snap, pal);
        break;
    case ViewMode::DataHeld: addDataHeld(e, snap, pal); break;
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
            return std::nullopt;  // the glyphs show each chunk; the nodes' colours are behind them
        const std::size_t n = snap->topology().nodeCount();
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(dataShareColour(pal, n, i / 16.0).toColor());
        bar.max = 100;
        bar.labels = {{0.0, QStringLiteral("0%")}, {50.0, QStringLiteral("50%")}, {100.0, QStringLiteral("100%")}};
        bar.caption = QStringLiteral("share of its final data held");
        return bar;
    }
    LandscapeMetric metric = LandscapeMetric::MaxLinkLoad;  // a count: whole-number ticks
    std::string unit;
    if (mode == ViewMode::Heatmap) {
        bar.max = cumulativeHeat ? snap->metrics.maxLinkLoad : snap->metrics.maxStepLoad;
        if (bar.max <= 0)
            return std::nullopt;
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(heatColour(std::max(1e-9, bar.max * i / 16.0), bar.max).toColor());
        bar.caption = cumulativeHeat ? QStringLiteral("uses of a channel, steps 1 to now")
                                     : QStringLiteral("uses of a channel in this step");
    } else if (mode == ViewMode::TcdMap && !snap->landscape.empty()) {
        std::tie(bar.min, bar.max) = landscapeRange(snap->landscape);
        metric = snap->landscapeMetric;
        unit = snap->landscapeTimeUnit;
        for (int i = 0; i <= 16; ++i)
            bar.stops.push_back(landscapeColour({0.0, 1.0}, i / 16.0).toColor());
        bar.caption = QString::fromStdString(metricWords(metric)) + QStringLiteral(" with this node as source");
    } else {
        return std::nullopt;
    }
    auto text = [&](double v) { return QString::fromStdString(formatLandscapeValue(v, metric, unit)); };
    bar.labels.emplace_back(bar.min, text(bar.min));
    for (double t : landscapeTicks(bar.min, bar.max, metric, 4))
        if (t > bar.min && t < bar.max)
            bar.labels.emplace_back(t, text(t));
    if (bar.max > bar.min)
        bar.labels.emplace_back(bar.max, text(bar.max));
    return bar;
}

} // namespace topocast::app
