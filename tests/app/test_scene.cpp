// The scene's instance data without GL: the spanning-tree overlay, receding
// not-yet-informed nodes, 3-D torus wrap stubs/arcs, partial instance-buffer uploads.
#include "helpers.h"
#include "scene/instancebuffer.h"
#include "scene/linkinstances.h"
#include "scene/nodeinstances.h"
#include "scene/sceneview.h"

#include <catch2/catch.hpp>

#include <tuple>

#include <Qt3DExtras/Qt3DWindow>

#include <QImage>

#include <algorithm>
#include <map>
#include <set>

using namespace topocast;
using namespace topocast::app;

namespace {
Rgba colourOf(const std::vector<float>& data, std::size_t i)
{
    const float* c = &data[i * LinkInstances::kFloatsPerInstance + 9];
    return {c[0], c[1], c[2], c[3]};
}
Vec3 endOf(const std::vector<float>& data, std::size_t i, int end)
{
    const float* p = &data[i * LinkInstances::kFloatsPerInstance + 3 * end];
    return {p[0], p[1], p[2]};
}
} // namespace

TEST_CASE("scene: nESBT on the 4-cube draws 4 edge-disjoint trees of 15 edges in 4 colours", "[app][scene]")
{
    SceneView scene;
    // 4 packets of 1 element: packet q goes down tree q mod n (spec §4.2 table); with the default
    // M = B = 1 only tree 0 would carry data.
    Scenario sc = test::scenario("hypercube:4", "nesbt", NodeId{0});
    sc.params = Params{{"message", "4"}, {"packet", "1"}};
    const SnapshotPtr snap = buildSnapshot(sc);
    REQUIRE(snap->trees.size() == 4);
    scene.setSnapshot(snap);
    CHECK_FALSE(scene.layers().treeLinks->isEnabled()); // only in the Trees mode
    scene.setMode(ViewMode::Trees);
    scene.setStep(static_cast<int>(snap->stepCount()));
    const LinkInstances& trees = *scene.layers().treeLinks;
    CHECK(trees.isEnabled());
    REQUIRE(trees.instanceCount() == 60);
    const std::vector<float>& data = trees.buffer().data();
    REQUIRE(data.size() == 60u * LinkInstances::kFloatsPerInstance);
    // Instances are in snapshot order: tree t's 15 edges, then tree t+1's. nESBT is edge-disjoint
    // (spec §3.5 Thm. 3.1), so each instance lies on exactly its edge's two nodes.
    std::set<std::pair<NodeId, NodeId>> edges;
    for (std::size_t t = 0; t < 4; ++t) {
        for (std::size_t k = 0; k < 15; ++k) {
            const std::size_t i = t * 15 + k;
            const hypercube::TreeEdge& e = snap->trees[t][k];
            edges.insert({e.parent, e.child});
            CHECK(endOf(data, i, 0) == snap->positions[e.parent]);
            CHECK(endOf(data, i, 1) == snap->positions[e.child]);
            // After the last step every tree edge has carried its part: the full tree colour.
            CHECK(colourOf(data, i) == treeColour(static_cast<int>(t), true, scene.choice().palette()));
        }
    }
    CHECK(edges.size() == 60);
    std::set<std::tuple<float, float, float>> colours;
    for (int t = 0; t < 4; ++t)
        colours.insert({treeColour(t, true, scene.choice().palette()).r,
                        treeColour(t, true, scene.choice().palette()).g,
                        treeColour(t, true, scene.choice().palette()).b});
    CHECK(colours.size() == 4);
    // Before the first step nothing has been sent: every edge shows its tree's faded colour.
    scene.setStep(0);
    for (std::size_t i = 0; i < 60; ++i)
        CHECK(colourOf(trees.buffer().data(), i) ==
              treeColour(static_cast<int>(i / 15), false, scene.choice().palette()));
    // The legend names the four members.
    const auto legend = legendEntries(snap.get(), ViewMode::Trees, scene.choice().palette());
    REQUIRE(legend.size() >= 4);
    CHECK(legend[0].second == QStringLiteral("nESBT member 0"));
    CHECK(legend[3].first == treeColour(3, true, scene.choice().palette()).to<QColor>());
}

TEST_CASE("scene: nRSBT members that share an edge are drawn side by side", "[app][scene]")
{
    // In nRSBT every member contains the source's n edges 0 → 2^d (spec §3.4): each of those
    // directed edges carries n = 3 instances, at three distinct offsets across the channel.
    SceneView scene;
    const SnapshotPtr snap = buildSnapshot(test::scenario("hypercube:3", "nrsbt", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::Trees);
    REQUIRE(scene.layers().treeLinks->instanceCount() == 3 * 7);
    const auto& data = scene.layers().treeLinks->buffer().data();
    std::map<std::pair<NodeId, NodeId>, std::set<std::tuple<float, float, float>>> starts;
    for (std::size_t t = 0; t < 3; ++t)
        for (std::size_t k = 0; k < 7; ++k) {
            const auto& e = snap->trees[t][k];
            const Vec3 a = endOf(data, t * 7 + k, 0);
            starts[{e.parent, e.child}].insert({a[0], a[1], a[2]});
        }
    for (NodeId d : {NodeId{1}, NodeId{2}, NodeId{4}})
        CHECK(starts[{NodeId{0}, d}].size() == 3);
}

TEST_CASE("scene: no trees outside hypercube spanning-graph schedules, trees mode name", "[app][scene]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{0}));
    CHECK(snap->trees.empty());
    SceneView scene;
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::Trees);
    CHECK(scene.layers().treeLinks->instanceCount() == 0);
    CHECK(parseViewMode(QStringLiteral("trees")) == ViewMode::Trees);
    CHECK(viewModeName(ViewMode::Trees) == QStringLiteral("trees"));
    // A note that there are no trees (its swatch the background), then what is drawn instead.
    const auto legend = legendEntries(snap.get(), ViewMode::Trees, Palette::normal());
    REQUIRE_FALSE(legend.empty());
    CHECK(legend.front().first == Palette::normal().background.to<QColor>());
    CHECK(legend.front().second.startsWith(QStringLiteral("(no spanning trees")));
}

TEST_CASE("scene: not-yet-informed nodes recede on large networks, the legend shows their colour", "[app][scene]")
{
    const Palette pal = Palette::normal();
    // Up to 64 nodes nothing changes (the [gl] test's 4×4 mesh keeps the palette's grey).
    CHECK(recedeAmount(16) == 0.0f);
    CHECK(recedeAmount(64) == 0.0f);
    CHECK(uninformedColour(pal, 16) == pal.uninformed);
    CHECK(recedeAmount(512) == Approx(0.5)); // log2(512/64)/6
    CHECK(recedeAmount(32768) == 1.0f);
    CHECK(uninformedScale(4096) == Approx(0.45));
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8x8", "cang-wu", NodeId{0}));
    const auto channels = drawnChannels(snap->topology());
    const FrameStyle f = frameStyle(*snap, channels, 1, ViewMode::Plain, true, pal);
    const auto states = nodeStates(*snap, 1);
    const Rgba dim = uninformedColour(pal, 512);
    for (std::size_t v = 0; v < states.size(); ++v) {
        if (states[v] == NodeState::Uninformed) {
            CHECK(f.nodeColour[v] == dim);
            CHECK(f.nodeScale[v] == Approx(1.0 - 0.55 * 0.5));
        }
        if (states[v] == NodeState::Source)
            CHECK(f.nodeColour[v] == pal.source); // the source stays exact
    }
    const auto legend = legendEntries(snap.get(), ViewMode::Plain, pal);
    bool found = false;
    for (const auto& [colour, text] : legend)
        if (text == QStringLiteral("not yet informed")) {
            found = true;
            CHECK(colour == dim.to<QColor>());
        }
    CHECK(found);
}

TEST_CASE("scene: a torus shows a stub per wrap channel and whole arcs only for this step's", "[app][scene]")
{
    SceneView scene;
    // Shows `snap` and walks its steps: each step draws one arc per wrap channel in use; true when
    // some step used one.
    auto arcsFollowTheSteps = [&scene](const SnapshotPtr& snap) {
        scene.setSnapshot(snap);
        CHECK(scene.layers().arcs->instanceCount() == 0); // step 0: nothing in use yet
        const auto channels = drawnChannels(snap->topology(), drawsPlanes(snap->topology(), snap->drawing));
        bool someArc = false;
        for (int step = 1; step <= static_cast<int>(snap->stepCount()); ++step) {
            scene.setStep(step);
            int inUse = 0;
            for (std::size_t i = 0; i < channels.size(); ++i)
                inUse += (channels[i].wrap || channels[i].jump) && scene.frame().style.channelInUse[i];
            CHECK(scene.layers().arcs->instanceCount() == inUse);
            someArc |= inUse > 0;
        }
        scene.setStep(0);
        return someArc;
    };
    // 3 dimensions × 16 rings × 2 directions = 96 wrap channels.
    const SnapshotPtr snap = buildSnapshot(test::towerScenario("torus:4x4x4", "bfs", NodeId{0}));
    CHECK(arcsFollowTheSteps(snap)); // bfs from (0,0,0) uses the wrap links to reach coordinate 3
    CHECK(scene.layers().stubs->instanceCount() == 96);
    // A 2-D torus, seen top-down, the same: a stub per wrap channel (2 × 5 rings × 2 directions),
    // whole arcs (in the plane) only for the step's.
    CHECK(arcsFollowTheSteps(buildSnapshot(test::scenario("torus:5x5", "bfs", NodeId{0}))));
    CHECK(scene.layers().stubs->instanceCount() == 20);
    // Planes side by side: the channels between planes (z, its wraps among them) are arcs only
    // while in use too, without stubs: 2 dimensions × 16 rings × 2 directions = 64 stubs.
    const SnapshotPtr planes = buildSnapshot(test::scenario("torus:4x4x4", "bfs", NodeId{0}));
    REQUIRE(drawsPlanes(planes->topology(), planes->drawing));
    CHECK(arcsFollowTheSteps(planes));
    CHECK(scene.layers().stubs->instanceCount() == 64);
    CHECK(scene.layers().axes->instanceCount() == 0); // each plane titled with its z instead
}

TEST_CASE("scene: a timeline step uploads only the changed instances", "[app][scene][gl]")
{
    SceneView scene;
    scene.window()->resize(800, 600);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:8x8x8", "cang-wu", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setStep(1);
    // Until Qt3D has processed a frame after the whole upload, steps upload everything.
    const InstanceBuffer& nodes = scene.layers().nodes->buffer();
    const std::size_t nodeBytes = nodes.data().size() * sizeof(float);
    CHECK(nodes.lastUploadBytes() == nodeBytes);
    REQUIRE_FALSE(scene.capture().frame().isNull());
    scene.setStep(2);
    CHECK(nodes.lastUploadBytes() > 0);
    CHECK(nodes.lastUploadBytes() < nodeBytes / 4);
    CHECK(nodes.lastUploadRanges() >= 1);
    const InstanceBuffer& links = scene.layers().links->buffer();
    CHECK(links.lastUploadBytes() > 0);
    CHECK(links.lastUploadBytes() < links.data().size() * sizeof(float) / 4);
    // The partially updated contents equal a whole rebuild of the same frame ...
    const FrameStyle& f = scene.frame().style;
    for (std::size_t v = 0; v < snap->positions.size(); ++v) {
        const float* d = &nodes.data()[v * 8];
        REQUIRE(Rgba{d[3], d[4], d[5], d[6]} == f.nodeColour[v]);
        REQUIRE(d[7] == f.nodeScale[v]);
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(scene.layers().links->instanceCount()); ++i)
        REQUIRE(colourOf(links.data(), i) == f.channelColour[i]);
    // ... and reach the screen: the source keeps its colour and this step's receivers show.
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    auto near = [](const Rgba& want) {
        return [want](QColor c) {
            return std::abs(c.redF() - want.r) < 0.16 && std::abs(c.greenF() - want.g) < 0.16 &&
                   std::abs(c.blueF() - want.b) < 0.16;
        };
    };
    CHECK(test::pixelNear(img, scene.camera().nodeOnScreen(NodeId{0}), 2, near(scene.choice().palette().source)));
    int receiving = 0;
    const auto isReceiving = near(scene.choice().palette().receiving);
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            receiving += isReceiving(img.pixelColor(x, y));
    CHECK(receiving > 0);
    // Nothing changes: nothing is uploaded.
    scene.setMode(ViewMode::Plain);
    CHECK(nodes.lastUploadBytes() == 0);
    CHECK(links.lastUploadBytes() == 0);
}

TEST_CASE("scene: a hypercube's unused channels take their dimension's grey in the Plain mode, named in the legend",
          "[app][scene][legend]")
{
    // Issue: a hypercube's dimensions are not x, y, z, so no axes; a legend of dimension colours
    // says which edges belong together.
    const SnapshotPtr snap = buildSnapshot(test::scenario("hypercube:4", "nesbt", NodeId{0}));
    const auto channels = drawnChannels(snap->topology());
    const Palette pal = Palette::normal();
    const FrameStyle f = frameStyle(*snap, channels, 0, ViewMode::Plain, true, pal);
    std::set<std::tuple<int, int, int>> perDimension[4];
    for (std::size_t i = 0; i < channels.size(); ++i) {
        const QColor c = f.channelColour[i].to<QColor>();
        perDimension[channels[i].dim].insert({c.red(), c.green(), c.blue()});
    }
    for (int d = 0; d < 4; ++d) {
        INFO("dimension " << d);
        CHECK(perDimension[d].size() == 1); // one colour per dimension
        for (int e = d + 1; e < 4; ++e)
            CHECK(perDimension[d] != perDimension[e]); // and each its own
    }
    const auto legend = legendEntries(snap.get(), ViewMode::Plain, pal);
    for (int d = 0; d < 4; ++d) {
        const QString name = QStringLiteral("unused channel, dimension %1").arg(d);
        const auto it = std::find_if(legend.begin(), legend.end(), [&](const auto& e) { return e.second == name; });
        REQUIRE(it != legend.end());
        CHECK(it->first == dimensionColour(d, 4, pal).to<QColor>());
    }
    // Each dimension's colour stays apart from what the Plain mode draws over channels (used
    // earlier, in use, contention) and from the other dimensions', for every dimension coloured.
    auto srgb = [](const Rgba& c) { return colour::Srgb{c.r, c.g, c.b}; };
    // They are pale neutrals (colour on a link means its state), each dimension a lightness of
    // its own: ΔE00 ≥ 6 apart up to the 6-cube, ≥ 3 on the 9-cube.
    for (const Palette& p : {Palette::normal(), Palette::highContrast()})
        for (int dims = 1; dims <= kDimensionColours; ++dims)
            for (int d = 0; d < dims; ++d) {
                INFO(dims << "-cube, dimension " << d);
                const colour::Srgb c = srgb(dimensionColour(d, dims, p));
                CHECK(colour::chroma(c) <= colour::kMaxIdleChroma);
                const Rgba others[] = {p.linkUsed, p.inFlight, p.contention, p.background};
                for (int k = 0; k < 4; ++k) {
                    INFO("against colour " << k << " (used earlier, in use, contention, background)");
                    CHECK(colour::deltaE2000(c, srgb(others[k])) >= 10.0);
                }
                for (int e = d + 1; e < dims; ++e)
                    CHECK(colour::deltaE2000(c, srgb(dimensionColour(e, dims, p))) >= (dims <= 6 ? 6.0 : 3.0));
            }
    // Other networks and modes keep the one unused-channel colour; so does the 10-cube.
    CHECK_FALSE(colourByDimension(*buildSnapshot(test::scenario("hypercube:10", "sbt", NodeId{0})), ViewMode::Plain));
    CHECK_FALSE(colourByDimension(*snap, ViewMode::Contention));
    const auto mesh =
        legendEntries(buildSnapshot(test::scenario("mesh:4x4", "bfs", NodeId{0})).get(), ViewMode::Plain, pal);
    CHECK(std::none_of(mesh.begin(), mesh.end(),
                       [](const auto& e) { return e.second.contains(QStringLiteral("dimension")); }));
}
