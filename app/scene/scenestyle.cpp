#include "scene/scenestyle.h"

#include "topocast/figures.h"
#include "topocast/landscape.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace topocast::app {

QString viewModeName(ViewMode mode)
{
    switch (mode) {
    case ViewMode::Plain: return QStringLiteral("plain");
    case ViewMode::Contention: return QStringLiteral("contention");
    case ViewMode::Heatmap: return QStringLiteral("heatmap");
    case ViewMode::TcdMap: return QStringLiteral("tcdmap");
    case ViewMode::Layers: return QStringLiteral("layers");
    case ViewMode::Trees: return QStringLiteral("trees");
    }
    return {};
}

std::optional<ViewMode> parseViewMode(const QString& text)
{
    for (ViewMode m : {ViewMode::Plain, ViewMode::Contention, ViewMode::Heatmap, ViewMode::TcdMap, ViewMode::Layers,
                       ViewMode::Trees})
        if (text.compare(viewModeName(m), Qt::CaseInsensitive) == 0)
            return m;
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

Rgba heatColour(double value, double max)
{
    if (value <= 0 || max <= 0)
        return {0.22f, 0.23f, 0.26f};
    const double t = std::clamp(value / max, 0.0, 1.0);
    return Rgba::from(colour::mapColour(colour::ColourMap::Viridis, 0.15 + 0.85 * t));
}

std::vector<DrawnChannel> drawnChannels(const Topology& topo)
{
    std::vector<DrawnChannel> straight, wraps;
    straight.reserve(static_cast<std::size_t>(topo.channelCount()));
    for (NodeId v{}; v < topo.nodeCount(); ++v) {
        for (int p = 0; p < topo.portsPerNode(); ++p) {
            const Port port = topo.portAt(p);
            NodeId next;
            if (!topo.step(v, port.dim, port.sign, next))
                continue;
            const ChannelId ch = topo.channel(v, port.dim, port.sign);
            const DrawnChannel d{ch, v, next, port.dim, topo.isWrapChannel(ch)};
            (d.wrap ? wraps : straight).push_back(d);
        }
    }
    straight.insert(straight.end(), wraps.begin(), wraps.end());
    return straight;
}

namespace {
Rgba mix(const Rgba& a, const Rgba& b, float t)
{
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, 1.0f};
}
} // namespace

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

float uninformedScale(std::size_t nodes) { return 1.0f - 0.55f * recedeAmount(nodes); }

Rgba treeColour(int tree, bool used, const Palette& palette)
{
    return used ? categoryColour(tree) : mix(categoryColour(tree), palette.background, 0.6f);
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
    } else if (mode == ViewMode::Layers) {
        for (std::size_t v = 0; v < n; ++v) {
            if (states[v] == NodeState::Source)
                continue;
            const int layer = nodeLayer(snap, static_cast<NodeId>(v));
            if (layer < 0) {
                f.nodeColour[v] = mix(pal.uninformed, pal.background, 0.5f);  // outside every layer
                continue;
            }
            f.nodeColour[v] = categoryColour(layer - 1);
            if (states[v] == NodeState::Uninformed)
                f.nodeColour[v] = mix(f.nodeColour[v], uninformedColour(pal, n), 0.7f);
        }
    }

    const ChannelLoads loads = snap.channelLoads.at(static_cast<std::uint32_t>(std::max(step, 0)));
    f.contendedNow = loads.contendedNow;
    const bool tags = snap.channelLoads.severalTags();
    f.heatMax = cumulativeHeat ? snap.metrics.maxLinkLoad : snap.metrics.maxStepLoad;
    f.channelColour.resize(channels.size());
    f.channelInUse.assign(channels.size(), 0);
    const float linkFade = 0.75f * recedeAmount(n);
    for (std::size_t i = 0; i < channels.size(); ++i) {
        const DrawnChannel& c = channels[i];
        const std::uint32_t now = loads.step[c.channel];
        const std::uint32_t cum = loads.cumulative[c.channel];
        f.channelInUse[i] = now > 0 ? 1 : 0;
        Rgba col = topo.isHypercube() && mode != ViewMode::Trees ? mix(categoryColour(c.dim), pal.link, 0.55f) : pal.link;
        col = mix(col, pal.background, linkFade);
        switch (mode) {
        case ViewMode::Heatmap:
            col = heatColour(cumulativeHeat ? cum : now, f.heatMax);
            break;
        case ViewMode::Contention:
            if (now >= 2)
                col = pal.contention;
            else if (now == 1)
                col = pal.receiving;
            break;
        case ViewMode::TcdMap:  // the map colours the nodes; channels in use stay blue, never the map's yellow
            if (now >= 1)
                col = pal.linkUsed;
            if (now >= 2)
                col = pal.contention;
            break;
        case ViewMode::Trees:  // the trees are drawn over the channels; only contention shows here
            if (now >= 2)
                col = pal.contention;
            break;
        default:
            if (cum > 0)
                col = tags ? categoryColour(loads.lastTag[c.channel]) : pal.linkUsed;
            if (now == 1)
                col = pal.inFlight;
            if (now >= 2)
                col = pal.contention;
            break;
        }
        f.channelColour[i] = col;
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

std::vector<std::pair<QColor, QString>> legendEntries(const Snapshot* snap, ViewMode mode, const Palette& pal)
{
    std::vector<std::pair<QColor, QString>> e;
    switch (mode) {
    case ViewMode::Plain:
    case ViewMode::Contention:
        e.emplace_back(pal.source.toColor(), QStringLiteral("source"));
        e.emplace_back(pal.informed.toColor(), QStringLiteral("informed"));
        e.emplace_back(pal.receiving.toColor(), QStringLiteral("receiving this step"));
        e.emplace_back(uninformedColour(pal, snap ? snap->topology().nodeCount() : 0).toColor(),
                       QStringLiteral("not yet informed"));
        e.emplace_back(pal.inFlight.toColor(), QStringLiteral("channel in use this step"));
        e.emplace_back(pal.contention.toColor(), QStringLiteral("contention (channel shared)"));
        break;
    case ViewMode::Heatmap:
        e.emplace_back(heatColour(0, 1).toColor(), QStringLiteral("unused channel"));
        break;
    case ViewMode::TcdMap: {
        const QString words = QString::fromStdString(metricWords(snap ? snap->landscapeMetric : LandscapeMetric::Tcd));
        QString low, high;
        if (snap && !snap->landscape.empty()) {
            const auto [lo, hi] = landscapeRange(snap->landscape);
            auto text = [&](double v) {
                return QString::fromStdString(formatLandscapeValue(v, snap->landscapeMetric, snap->landscapeTimeUnit));
            };
            low = QStringLiteral(" (%1)").arg(text(lo));
            high = QStringLiteral(" (%1)").arg(text(hi));
        }
        e.emplace_back(pal.optimum.toColor(), QStringLiteral("minimum %1%2").arg(words, low));
        e.emplace_back(landscapeColour({0.0, 1.0}, 0.0).toColor(), QStringLiteral("low %1%2").arg(words, low));
        e.emplace_back(landscapeColour({0.0, 1.0}, 1.0).toColor(), QStringLiteral("high %1%2").arg(words, high));
        e.emplace_back(pal.source.toColor(), QStringLiteral("current source"));
        if (snap && snap->landscape.empty())
            e.emplace_back(pal.uninformed.toColor(), QStringLiteral("(no source map for this algorithm/size)"));
        break;
    }
    case ViewMode::Layers:
        for (int i = 0; i < 6; ++i)
            e.emplace_back(categoryColour(i).toColor(), QStringLiteral("layer %1").arg(i + 1));
        break;
    case ViewMode::Trees: {
        if (!snap || snap->trees.empty()) {
            e.emplace_back(pal.link.toColor(), QStringLiteral("(no spanning trees: not a hypercube tree schedule)"));
            break;
        }
        const HypercubeFigures* cube =
            snap->schedule.figures ? snap->schedule.figures->get<HypercubeFigures>() : nullptr;
        const QString graph = cube ? QString::fromStdString(cube->graph) : QStringLiteral("spanning graph");
        const std::size_t trees = snap->trees.size();
        for (std::size_t t = 0; t < trees; ++t)
            e.emplace_back(treeColour(static_cast<int>(t), true, pal).toColor(),
                           trees == 1 ? graph : QStringLiteral("%1 member %2").arg(graph).arg(t));
        e.emplace_back(treeColour(0, false, pal).toColor(), QStringLiteral("faded: edge not used yet"));
        e.emplace_back(pal.source.toColor(), QStringLiteral("source (trees rooted here)"));
        e.emplace_back(pal.informed.toColor(), QStringLiteral("informed"));
        break;
    }
    }
    return e;
}

std::optional<ColourBar> legendBar(const Snapshot* snap, ViewMode mode, bool cumulativeHeat)
{
    if (!snap)
        return std::nullopt;
    ColourBar bar;
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
