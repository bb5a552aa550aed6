#include "topocast/scenario/frame_style.h"

#include "topocast/algorithms/figures.h"
#include "topocast/analysis/holdings.h"
#include "topocast/analysis/source_map.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

namespace topocast {

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

Palette Palette::normal()
{
    return from(colour::normalPalette());
}
Palette Palette::highContrast()
{
    return from(colour::highContrastPalette());
}
Palette Palette::print()
{
    return from(colour::printPalette());
}
Palette Palette::of(bool highContrast, bool print)
{
    return print ? Palette::print() : highContrast ? Palette::highContrast() : Palette::normal();
}

Rgba categoryColour(int i)
{
    return Rgba::from(colour::categoryColour(i));
}

Rgba layerColour(int layer)
{
    // The category colours no other role of the Layers mode uses (orange is the source,
    // vermillion contention, white and light grey the channels in use and their messages).
    static constexpr std::array<int, kLayerColours> kLayerHues = {0, 1, 2, 3, 4, 8, 9};
    const int k = (((layer - 1) % kLayerColours) + kLayerColours) % kLayerColours;
    return categoryColour(kLayerHues[static_cast<std::size_t>(k)]);
}

Rgba dimensionColour(int dim, int dims, const Palette& pal)
{
    // Pale neutrals: a link's colour says what happened on it, so an unused one carries no hue;
    // its dimension is its lightness, dimension 0 the lightest, evenly spaced over the cube's
    // dimensions between two greys that stay apart from the background and from the blue, yellow
    // and vermillion of the states (ΔE00 ≥ 10, the palette test's bound under a deficiency).
    const bool light = colour::toLab(colour::Srgb{pal.background.r, pal.background.g, pal.background.b}).L > 50;
    const double lightest = light ? 78.0 : 72.0, darkest = light ? 40.0 : 34.0;
    const int top = std::max(dims - 1, 1);
    const double t = static_cast<double>(std::clamp(dim, 0, top)) / top;
    return Rgba::from(colour::greyOfLightness(lightest + (darkest - lightest) * t));
}

bool colourByDimension(const ScenarioRun& snap, ViewMode mode)
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

Rgba mix(const Rgba& a, const Rgba& b, float t)
{
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, 1.0f};
}

std::pair<double, double> sourceMapRange(const std::vector<double>& values)
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

Rgba sourceMapColour(std::pair<double, double> range, double value)
{
    const double span = range.second - range.first;
    const double t = span > 0 ? std::clamp((value - range.first) / span, 0.0, 1.0) : 0.0;
    return Rgba::from(colour::mapColour(colour::ColourMap::Cividis, t));
}

SourceMapScale sourceMapScale(const std::vector<double>& values)
{
    SourceMapScale s;
    std::tie(s.best, s.high) = sourceMapRange(values);
    s.low = s.high;
    for (double x : values) {
        if (std::isnan(x))
            continue;
        s.bestCount += x == s.best ? 1 : 0;
        if (x > s.best)
            s.low = std::min(s.low, x);
    }
    return s;
}

Rgba sourceMapColour(const SourceMapScale& scale, double value, const Palette& pal)
{
    return value == scale.best ? pal.optimum : sourceMapColour({scale.low, scale.high}, value);
}

float recedeAmount(std::size_t nodes)
{
    if (nodes <= 64)
        return 0.0f;
    return std::clamp(static_cast<float>(std::log2(static_cast<double>(nodes) / 64.0) / 6.0), 0.0f, 1.0f);
}

Rgba uninformedColour(const Palette& palette, std::size_t nodes)
{
    return mix(palette.uninformed, palette.background,
               static_cast<float>(colour::kMaxUninformedFade) * recedeAmount(nodes));
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
Rgba dataNotNeededColour(const Palette& palette)
{
    return mix(palette.uninformed, palette.background, 0.85f);
}

float uninformedScale(std::size_t nodes)
{
    return 1.0f - 0.55f * recedeAmount(nodes);
}

Rgba treeColour(int tree, bool used, const Palette& palette)
{
    // The category colours that no node state and no contention use in the Trees mode (orange is
    // the source, sky blue informed, bluish green receiving, vermillion contention).
    static constexpr std::array<int, 6> kTreeHues = {0, 2, 4, 6, 8, 9};
    const int k = ((tree % 6) + 6) % 6;
    const Rgba c = categoryColour(kTreeHues[static_cast<std::size_t>(k)]);
    // Not yet used: faded to a pale tint (chroma under kMaxIdleChroma), so only data carried
    // shows in a saturated colour.
    return used ? c : mix(c, palette.background, 0.85f);
}

int nodeLayer(const ScenarioRun& snap, NodeId v)
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
    case ChannelRole::Idle:
        return idle;
    case ChannelRole::UsedEarlier:
        return usedEarlier.value_or(idle);
    case ChannelRole::InUse:
        return inUse.value_or(idle);
    case ChannelRole::Contended:
        return contended;
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
    case ViewMode::DataHeld: // the nodes' shares use the uninformed → informed ramp, not these
        c.usedEarlier = pal.linkUsed;
        c.inUse = pal.inFlight;
        break;
    case ViewMode::Layers: // yellow and blue are layers' colours here; white is no layer's
        c.inUse = pal.message;
        break;
    case ViewMode::Contention:
        c.inUse = pal.inFlight;
        break;
    case ViewMode::SourceMap: // the map colours the nodes: channels in use are blue, never the map's yellow
        c.inUse = pal.linkUsed;
        break;
    case ViewMode::Trees:   // the trees are drawn over the channels; only contention shows here
    case ViewMode::Heatmap: // the heat scale (heatColour), not these
        break;
    }
    return c;
}

Rgba messageColour(ViewMode mode, const Palette& pal, int tag, bool severalTags)
{
    if (mode == ViewMode::Trees && severalTags)
        return treeColour(tag, true, pal); // the tag of a tree schedule's transfer is its tree
    if (mode == ViewMode::SourceMap)
        return pal.linkUsed; // white is the map's minimum
    return pal.message;
}

FrameStyle frameStyle(const ScenarioRun& snap, const std::vector<DrawnChannel>& channels, int step, ViewMode mode,
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
        case NodeState::Source:
            f.nodeColour[v] = pal.source;
            f.nodeScale[v] = 1.45f;
            break;
        case NodeState::Informed:
            f.nodeColour[v] = pal.informed;
            f.nodeScale[v] = 1.0f;
            break;
        case NodeState::Receiving:
            f.nodeColour[v] = pal.receiving;
            f.nodeScale[v] = 1.2f;
            break;
        case NodeState::Uninformed:
            break;
        }
    }
    if (mode == ViewMode::SourceMap && snap.sourceMap.size() == n) {
        const SourceMapScale scale = sourceMapScale(snap.sourceMap);
        for (std::size_t v = 0; v < n; ++v) {
            const double x = snap.sourceMap[v];
            f.nodeScale[v] = 1.0f;
            if (std::isnan(x)) {
                f.nodeColour[v] = mix(pal.uninformed, pal.background, 0.5f); // no schedule from here
                f.nodeScale[v] = uninformedScale(n);
                continue;
            }
            f.nodeColour[v] = sourceMapColour(scale, x, pal);
            f.nodeScale[v] = x == scale.best ? 1.5f : 1.0f;
        }
        f.nodeColour[snap.schedule.source()] = pal.source;
        f.nodeScale[snap.schedule.source()] = 1.45f;
    } else if (mode == ViewMode::DataHeld && snap.holdings) {
        // Each node by the share of its final data it holds (core Holdings); sizes stay the
        // states' (this step's receivers larger).
        // The root of a gather or reduce is where the data ends: it fills up like the others (its
        // label and size say which it is); a source that starts with everything keeps its colour.
        const StepNo k{static_cast<std::uint32_t>(std::max(step, 0))};
        const bool rootGathers =
            snap.schedule.pattern() == Pattern::Gather || snap.schedule.pattern() == Pattern::Reduce;
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
                f.nodeColour[v] = mix(pal.uninformed, pal.background, 0.5f); // outside every layer
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
        const ChannelRole role = now >= 2   ? ChannelRole::Contended
                                 : now == 1 ? ChannelRole::InUse
                                 : cum > 0  ? ChannelRole::UsedEarlier
                                            : ChannelRole::Idle;
        f.channelRole[i] = role;
        f.channelColour[i] = mode == ViewMode::Heatmap ? heatColour(cumulativeHeat ? cum : now, f.heatMax)
                             : role == ChannelRole::Idle && colourByDimension(snap, mode)
                                 ? dimensionColour(channels[i].dim, topo.dims(), pal)
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

Rgba simulatedLinkColour(const Palette& pal, std::size_t nodes, std::uint32_t messages, bool usedBefore)
{
    if (messages == 0)
        return usedBefore ? pal.linkUsed : channelColours(ViewMode::Plain, pal, nodes).idle;
    if (messages == 1)
        return pal.inFlight;
    if (messages == 2)
        return mix(pal.inFlight, pal.contention, 0.5f);
    return pal.contention;
}

std::vector<NodeState> nodeStates(const ScenarioRun& run, std::uint32_t step)
{
    std::vector<NodeState> out(run.informedStep.size(), NodeState::Uninformed);
    for (std::size_t v = 0; v < out.size(); ++v) {
        const std::uint32_t at = run.informedStep[v];
        // at == 0: it holds data before step 1 (every node of an all-gather or all-to-all).
        if (at < step || at == 0)
            out[v] = NodeState::Informed;
        else if (at == step && step > 0)
            out[v] = NodeState::Receiving;
    }
    // Allgather, alltoall, reduce-scatter, allreduce: every node starts with data, none is the source.
    if (run.schedule.source() < out.size() && hasRoot(run.schedule.pattern()))
        out[run.schedule.source()] = NodeState::Source;
    return out;
}

} // namespace topocast
