// The legend is the truth: in every colour mode, every colour the frame draws is a legend entry,
// and each node and channel has the colour of the role core's step data gives it.
#include "helpers.h"
#include "mainwindow.h"
#include "scene/linkinstances.h"
#include "scene/picking.h"
#include "scene/sceneview.h"
#include "session/session.h"

#include "topocast/analysis/metrics.h"
#include "topocast/drawing/colour.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QImage>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

using namespace topocast;
using namespace topocast::app;

namespace {
bool same(const Rgba& a, const Rgba& b)
{
    return std::abs(a.r - b.r) < 1e-3f && std::abs(a.g - b.g) < 1e-3f && std::abs(a.b - b.b) < 1e-3f;
}

bool inLegend(const std::vector<std::pair<QColor, QString>>& legend, const Rgba& c)
{
    for (const auto& [colour, text] : legend)
        if (std::abs(colour.redF() - c.r) < 2e-3 && std::abs(colour.greenF() - c.g) < 2e-3 &&
            std::abs(colour.blueF() - c.b) < 2e-3)
            return true;
    return false;
}

/// What core's step data says a channel does at `step`: its uses in this step and in steps 1..step.
ChannelRole roleOf(std::uint32_t now, std::uint32_t cumulative)
{
    return now >= 2         ? ChannelRole::Contended
           : now == 1       ? ChannelRole::InUse
           : cumulative > 0 ? ChannelRole::UsedEarlier
                            : ChannelRole::Idle;
}

/// Mismatches of one frame against core and the legend (0 when the picture tells the truth).
struct Walk {
    int wrongChannelRoles = 0, wrongChannelColours = 0, channelsOffLegend = 0;
    int wrongNodeColours = 0, nodesOffLegend = 0, frames = 0;
};

void checkFrame(const Snapshot& snap, const std::vector<DrawnChannel>& channels, std::uint32_t step, ViewMode mode,
                const std::vector<std::uint32_t>& now, const std::vector<std::uint32_t>& cumulative, Walk& w)
{
    const Palette pal = Palette::normal();
    const FrameStyle f = frameStyle(snap, channels, static_cast<int>(step), mode, true, pal);
    const auto legend = legendEntries(&snap, mode, pal);
    const ChannelColours look = channelColours(mode, pal, snap.topology().nodeCount());
    ++w.frames;
    for (std::size_t i = 0; i < channels.size(); ++i) {
        const ChannelRole role = roleOf(now[channels[i].channel], cumulative[channels[i].channel]);
        w.wrongChannelRoles += f.channelRole[i] != role;
        w.wrongChannelRoles += f.channelInUse[i] != (now[channels[i].channel] > 0);
        if (mode == ViewMode::Heatmap)
            continue; // on the colour bar
        // A hypercube's unused channels in the Plain mode: the colour of their dimension.
        const Rgba want = role == ChannelRole::Idle && colourByDimension(snap, mode)
                              ? dimensionColour(channels[i].dim, snap.topology().dims(), pal)
                              : look.of(role);
        w.wrongChannelColours += !same(f.channelColour[i], want);
        w.channelsOffLegend += !inLegend(legend, f.channelColour[i]);
    }
    if (mode != ViewMode::Plain && mode != ViewMode::Contention && mode != ViewMode::Trees && mode != ViewMode::Heatmap)
        return; // the source map and the layers colour nodes by value (their colour bar, layer entries)
    const NodeId source = snap.schedule.source();
    for (const NodeId v : nodes(snap.topology())) {
        const std::uint32_t at = snap.informedStep[v];
        // A pattern without a source (all-gather, all-reduce, …) paints none.
        const Rgba want = v == source && hasRoot(snap.schedule.pattern()) ? pal.source
                          : at < step || at == 0 ? pal.informed // at 0: its own data (all-gather)
                          : at == step           ? pal.receiving
                                                 : uninformedColour(pal, snap.topology().nodeCount());
        w.wrongNodeColours += !same(f.nodeColour[v], want);
        w.nodesOffLegend += !inLegend(legend, f.nodeColour[v]);
    }
}

/// Every step of `snap` in `mode`, core's loads recounted step by step.
void walkSteps(const Snapshot& snap, ViewMode mode, Walk& w)
{
    const std::vector<DrawnChannel> channels = drawnChannels(snap.topology());
    const Schedule& s = snap.schedule;
    std::vector<std::uint32_t> cumulative(s.topology().channelSlots(), 0), now(cumulative.size(), 0);
    for (std::uint32_t step = 0; step <= s.stepCount(); ++step) {
        if (step >= 1) {
            now = stepChannelLoad(s, StepNo{step});
            for (std::size_t c = 0; c < now.size(); ++c)
                cumulative[c] += now[c];
        }
        checkFrame(snap, channels, step, mode, now, cumulative, w);
    }
}

std::string presetPath(const char* name)
{
    return std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name;
}

/// Every preset's sides (a compare preset's two) as snapshots, with the file they come from.
std::vector<std::pair<std::string, SnapshotPtr>> presetSides()
{
    std::vector<std::pair<std::string, SnapshotPtr>> out;
    for (const QString& file : MainWindow::presetFiles()) {
        const Scenario sc = loadScenario(file.toStdString());
        std::vector<Scenario> sides = {sc};
        if (sc.compare)
            sides.push_back(compareSide(sc));
        for (Scenario side : sides) {
            side.compare.reset();
            out.emplace_back(file.toStdString() + " side " + side.algorithm, buildSnapshot(side));
        }
    }
    return out;
}
} // namespace

TEST_CASE("legend truth: every preset, every step, every mode's colours are the legend's and core's roles",
          "[app][legend]")
{
    int sides = 0;
    for (const auto& [name, snap] : presetSides()) {
        std::vector<ViewMode> modes = {ViewMode::Plain,     ViewMode::Contention, ViewMode::Heatmap,
                                       ViewMode::SourceMap, ViewMode::Layers,     ViewMode::DataHeld};
        if (!snap->trees.empty())
            modes.push_back(ViewMode::Trees);
        for (const ViewMode mode : modes) {
            INFO(name << ", mode " << viewModeName(mode).toStdString());
            Walk w;
            walkSteps(*snap, mode, w);
            CHECK(w.frames == static_cast<int>(snap->stepCount()) + 1);
            CHECK(w.wrongChannelRoles == 0);
            CHECK(w.wrongChannelColours == 0);
            CHECK(w.channelsOffLegend == 0);
            CHECK(w.wrongNodeColours == 0);
            CHECK(w.nodesOffLegend == 0);
        }
        ++sides;
    }
    CHECK(sides >= 20);
}

TEST_CASE("legend truth: before step 1 no link of any preset is drawn in a saturated colour, in any mode or palette",
          "[app][legend]")
{
    // Colour on a link means its state: before anything is sent every link is idle, so every link
    // (and every spanning-tree edge) is a pale neutral or tint. The hypercube dimensions' olive
    // (C* 40) and dark blue (C* 30) read as "in use" and "used earlier" on the nESBT handout.
    int sides = 0, links = 0;
    double most = 0;
    for (const auto& [name, snap] : presetSides()) {
        const std::vector<DrawnChannel> channels = drawnChannels(snap->topology());
        for (const Palette& pal : {Palette::normal(), Palette::highContrast()})
            for (std::size_t m = 0; m < colour::kColourModes.size(); ++m) {
                const auto mode = static_cast<ViewMode>(m);
                INFO(name << ", mode " << viewModeName(mode).toStdString());
                const FrameStyle f = frameStyle(*snap, channels, 0, mode, true, pal);
                std::vector<Rgba> drawn = f.channelColour;
                drawn.insert(drawn.end(), f.treeEdgeColour.begin(), f.treeEdgeColour.end());
                for (const Rgba& c : drawn) {
                    const double chroma = colour::chroma(colour::Srgb{c.r, c.g, c.b});
                    most = std::max(most, chroma);
                    CHECK(chroma <= colour::kMaxIdleChroma);
                }
                links += static_cast<int>(drawn.size());
            }
        ++sides;
    }
    CHECK(sides >= 30);
    CHECK(links > 10000);
    CHECK(most > 0); // the dimensions' greys and the trees' tints are drawn
}

TEST_CASE("legend truth: no colour means two things in a legend", "[app][legend]")
{
    const Palette pal = Palette::normal();
    for (const char* name : {"cang-wu-8x8-corner.json", "compare-sbt-vs-nesbt-6cube.json", "divisible-scatter6.json",
                             "hypercube-nesbt-broadcast-4cube.json"}) {
        Scenario sc = loadScenario(presetPath(name));
        sc.compare.reset();
        const SnapshotPtr snap = buildSnapshot(sc);
        for (const ViewMode mode : {ViewMode::Plain, ViewMode::Contention, ViewMode::Heatmap, ViewMode::SourceMap,
                                    ViewMode::Layers, ViewMode::Trees, ViewMode::DataHeld}) {
            INFO(name << ", mode " << viewModeName(mode).toStdString());
            const auto legend = legendEntries(snap.get(), mode, pal);
            for (std::size_t i = 0; i < legend.size(); ++i)
                for (std::size_t j = i + 1; j < legend.size(); ++j) {
                    INFO(legend[i].second.toStdString() << " / " << legend[j].second.toStdString());
                    CHECK(legend[i].first.rgb() != legend[j].first.rgb());
                }
        }
    }
    // In the Trees mode the member trees never take a node state's colour (the 6-cube has 6).
    for (int t = 0; t < 6; ++t)
        for (const Rgba& state : {pal.source, pal.informed, pal.receiving, pal.contention})
            CHECK_FALSE(same(treeColour(t, true, pal), state));
}

TEST_CASE("legend truth: Cang-Wu 8×8 from (0,0), step 5 moves along x only and only its channels are yellow",
          "[app][legend]")
{
    // cang-wu-8x8-corner: Algorithm 1 from the corner (docs/papers/mesh-tcd.md §2); step 5 is 16 one-hop
    // sends along x. Walked 0 → 5 through the scene (partial uploads included), the links'
    // instance data holds the "in use" yellow on exactly those 16 channels.
    SceneView scene;
    Scenario sc = loadScenario(presetPath("cang-wu-8x8-corner.json"));
    const SnapshotPtr snap = buildSnapshot(sc);
    scene.setSnapshot(snap);
    for (int step = 0; step <= 5; ++step)
        scene.setStep(step);
    const auto transfers = snap->schedule.stepTransfers(StepNo{5});
    REQUIRE(transfers.size() == 16);
    const Topology& topo = snap->topology();
    for (const Transfer& t : transfers)
        CHECK(topo.coord(t.from, 1) == topo.coord(t.to, 1)); // along x
    const std::vector<std::uint32_t> now = stepChannelLoad(snap->schedule, StepNo{5});
    const std::vector<DrawnChannel> channels = drawnChannels(topo);
    const std::vector<float>& data = scene.layers().links->buffer().data();
    REQUIRE(data.size() == channels.size() * LinkInstances::kFloatsPerInstance);
    const Rgba yellow = Palette::normal().inFlight;
    int yellowChannels = 0, wrong = 0;
    for (std::size_t i = 0; i < channels.size(); ++i) {
        const float* c = &data[i * LinkInstances::kFloatsPerInstance + 9];
        const bool isYellow = same({c[0], c[1], c[2], c[3]}, yellow);
        yellowChannels += isYellow;
        wrong += isYellow != (now[channels[i].channel] == 1);
    }
    CHECK(yellowChannels == 16);
    CHECK(wrong == 0);
}

TEST_CASE("legend truth: the picture of the 8×8 corner broadcast at step 5 draws step 4's channels in no yellow",
          "[app][legend][gl]")
{
    SceneView scene;
    scene.window()->resize(800, 800);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(loadScenario(presetPath("cang-wu-8x8-corner.json")));
    scene.setSnapshot(snap);
    for (int step = 0; step <= 5; ++step)
        scene.setStep(step);
    scene.setFraction(1.0f);
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    const Topology& topo = snap->topology();
    const auto& pos = scene.shape().positions();
    const Rgba yellow = Palette::normal().inFlight;
    auto isYellow = [&](QColor c) {
        return std::abs(c.redF() - yellow.r) < 0.15 && std::abs(c.greenF() - yellow.g) < 0.15 &&
               std::abs(c.blueF() - yellow.b) < 0.2;
    };
    // A quarter of the way along a link (clear of the arrowheads at the receivers' ends).
    auto along = [&](NodeId a, NodeId b) {
        const Vec3 p = pos[a], q = pos[b];
        return projectToScreen(
            scene.camera().viewProjection(), scene.camera().viewportSize(),
            {p[0] + 0.25f * (q[0] - p[0]), p[1] + 0.25f * (q[1] - p[1]), p[2] + 0.25f * (q[2] - p[2])});
    };
    int shown = 0;
    for (const Transfer& t : snap->schedule.stepTransfers(StepNo{5}))
        shown += test::pixelNear(img, along(t.from, t.to), 4, isYellow);
    CHECK(shown == 16);
    // Step 4's vertical sends (0,0)→(0,2) and (2,0)→(2,2) (routes through (0,1), (2,1)): not yellow now.
    for (const auto& [x, y0, y1] :
         {std::tuple{0, 0, 1}, std::tuple{0, 1, 2}, std::tuple{2, 0, 1}, std::tuple{2, 1, 2}}) {
        INFO("link (" << x << "," << y0 << ")–(" << x << "," << y1 << ")");
        CHECK_FALSE(test::pixelNear(img, along(topo.id({x, y0}), topo.id({x, y1})), 4, isYellow));
    }
}
