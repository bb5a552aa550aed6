// The Data held glyphs: on a network of at most 64 nodes and 64 chunks each
// node carries a grid of its chunks — held ones in their chunk's colour, the rest dark — checked
// against core Holdings at every step, a complete chunk a ringed square, the partial sums of an
// all-reduce narrow bars by share,
// the legend that explains them, and real frames that show the colours where the cells are.
#include "helpers.h"
#include "scene/arrowinstances.h"
#include "scene/glyphinstances.h"
#include "scene/labelinstances.h"
#include "scene/picking.h"
#include "scene/sceneview.h"
#include "session/snapshot.h"
#include "words/narration.h"

#include "topocast/analysis/holdings.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/routing.h"
#include "topocast/scenario/data_glyphs.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include <Qt3DExtras/Qt3DWindow>

#include <cmath>
#include <map>
#include <set>

using namespace topocast;
using namespace topocast::app;

namespace {

std::string glyphPreset(const char* name)
{
    return std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name;
}

bool sameColour(const Rgba& a, const Rgba& b)
{
    return std::abs(a.r - b.r) < 1e-4f && std::abs(a.g - b.g) < 1e-4f && std::abs(a.b - b.b) < 1e-4f;
}

/// The held (layer 1) cells of node v.
std::vector<GlyphCell> heldCells(const std::vector<GlyphCell>& cells, NodeId v)
{
    std::vector<GlyphCell> out;
    for (const GlyphCell& c : cells)
        if (c.node == v && c.layer == 1)
            out.push_back(c);
    return out;
}

} // namespace

TEST_CASE("data glyphs: on the ring of 8 all-gather every node starts with its own chunk and ends with all eight, "
          "each in its origin's colour",
          "[app][data-held][glyphs]")
{
    const SnapshotPtr snap = buildSnapshot(loadScenario(glyphPreset("ring-allgather-8.json")));
    REQUIRE(drawsDataGlyphs(*snap));
    const Palette pal = Palette::normal();
    const std::uint32_t n = snap->topology().nodeCount();
    const float width = glyphWidth(snap->positions);
    std::set<std::tuple<float, float, float>> colours;
    for (std::uint64_t c = 0; c < n; ++c) {
        const Rgba col = chunkColour(c, n);
        colours.insert({col.r, col.g, col.b});
    }
    CHECK(colours.size() == n); // eight distinct colours
    for (std::uint32_t k = 0; k <= snap->stepCount(); ++k) {
        CAPTURE(k);
        const std::vector<GlyphCell> cells = dataGlyphCells(*snap, StepNo{k}, pal, width);
        for (NodeId v{}; v < n; ++v) {
            const auto held = heldCells(cells, v);
            CHECK(held.size() == snap->holdings->countAt(v, StepNo{k}));
            auto blocks = snap->holdings->blocksAt(snap->schedule, v, StepNo{k});
            std::sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.chunk < b.chunk; });
            REQUIRE(blocks.size() == held.size());
            for (std::size_t i = 0; i < held.size(); ++i) {
                CHECK(sameColour(held[i].colour, chunkColour(blocks[i].chunk, n)));
                CHECK(blocks[i].sources == std::vector<NodeId>{NodeId{static_cast<std::uint32_t>(blocks[i].chunk)}});
                CHECK(held[i].height == held[i].width); // a block is whole
            }
        }
        if (k == 0)
            for (NodeId v{}; v < n; ++v) {
                REQUIRE(heldCells(cells, v).size() == 1);
                CHECK(sameColour(heldCells(cells, v)[0].colour, chunkColour(v, n)));
            }
    }
    const std::vector<GlyphCell> last = dataGlyphCells(*snap, StepNo{snap->stepCount()}, pal, width);
    for (NodeId v{}; v < n; ++v)
        CHECK(heldCells(last, v).size() == n);
    // Every cell lies inside its node's glyph, 60 % of the spacing wide, and the plate a little
    // beyond it: glyphs never meet.
    for (const GlyphCell& c : last) {
        const float margin = c.layer < 0 ? 0.1f * width : 1e-5f;
        CHECK(c.x >= -width / 2 - margin);
        CHECK(c.x + c.width <= width / 2 + margin);
    }
    // 8 backing cells per node, under the held ones, on one dark plate each (an all-gather has no
    // source to frame).
    CHECK(std::count_if(last.begin(), last.end(), [](const GlyphCell& c) { return c.layer == 0; }) == 64);
    CHECK(std::count_if(last.begin(), last.end(),
                        [&](const GlyphCell& c) { return c.layer == -1 && !sameColour(c.colour, pal.source); }) == 8);
}

TEST_CASE("data glyphs: an all-reduce's partial sums are bars as tall as the share of contributions they combine",
          "[app][data-held][glyphs]")
{
    Scenario sc = test::scenario("torus:4x4", "ring");
    sc.params.set("pattern", "allreduce");
    const SnapshotPtr snap = buildSnapshot(sc);
    REQUIRE(drawsDataGlyphs(*snap));
    const std::uint32_t n = 16;
    const std::uint64_t chunks = chunkCount(snap->schedule);
    const float width = glyphWidth(snap->positions);
    int partial = 0;
    for (std::uint32_t k = 0; k <= snap->stepCount(); ++k) {
        const auto cells = dataGlyphCells(*snap, StepNo{k}, Palette::normal(), width);
        for (NodeId v{}; v < n; ++v) {
            const auto held = heldCells(cells, v);
            REQUIRE(held.size() == chunks); // a partial of every chunk from the start
            std::vector<GlyphCell> backing;
            for (const GlyphCell& b : cells)
                if (b.node == v && b.layer == 0)
                    backing.push_back(b);
            REQUIRE(backing.size() == chunks);
            for (std::uint64_t c = 0; c < chunks; ++c) {
                const auto& cell = held[c];
                const float side = backing[c].width;
                const std::uint32_t combined = snap->holdings->partialSizeAt(v, c, StepNo{k});
                // Complete: a square in a ring of the message colour. Partial: a narrow bar on the
                // dark square, as tall as its share — never a near-square, whatever the share.
                const bool complete = combined == n;
                CHECK(sameColour(backing[c].colour, Palette::normal().message) == complete);
                if (complete) {
                    CHECK(cell.height == Approx(cell.width));
                    CHECK(cell.width == Approx(side * (1 - 2 * kGlyphRim)));
                } else {
                    CHECK(cell.width == Approx(side * kGlyphBarWidth));
                    CHECK(cell.height == Approx(side * static_cast<float>(combined) / n));
                    CHECK(cell.width < 0.6f * (side * (1 - 2 * kGlyphRim)));
                }
                partial += combined > 1 && combined < n ? 1 : 0;
                if (k == 0)
                    CHECK(combined == 1);
                if (k == snap->stepCount())
                    CHECK(combined == n);
            }
        }
    }
    CHECK(partial > 0);
}

TEST_CASE("data glyphs: the legend explains the squares, with no colour bar, and large networks keep the share colours",
          "[app][data-held][glyphs]")
{
    const Palette pal = Palette::normal();
    const SnapshotPtr ring = buildSnapshot(loadScenario(glyphPreset("ring-allgather-8.json")));
    const auto legend = legendEntries(ring.get(), ViewMode::DataHeld, pal);
    auto says = [&](const auto& entries, const QString& text) {
        return std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.second == text; });
    };
    CHECK(says(legend, QStringLiteral("ringed: a whole chunk, by origin")));
    for (const auto& entry : legend) // the dock's legend does not wrap
        CHECK(entry.second.size() <= 33);
    CHECK(says(legend, QStringLiteral("dark square: not held yet")));
    CHECK_FALSE(says(legend, QStringLiteral("holds none of it yet")));
    CHECK_FALSE(legendBar(ring.get(), ViewMode::DataHeld, true, pal));

    Scenario sc = test::scenario("hypercube:4", "sbnt");
    sc.params.set("pattern", "scatter");
    const SnapshotPtr scatter = buildSnapshot(sc);
    REQUIRE(drawsDataGlyphs(*scatter));
    const auto cells = dataGlyphCells(*scatter, StepNo{0}, pal, glyphWidth(scatter->positions));
    CHECK(heldCells(cells, NodeId{0}).size() == 15); // the source holds every other node's block
    CHECK(heldCells(cells, NodeId{5}).empty());
    // The source's plate is in its colour, a frame round its glyph; the others' are dark.
    for (const GlyphCell& c : cells)
        if (c.layer == -1)
            CHECK(sameColour(c.colour, pal.source) == (c.node == NodeId{0}));
    CHECK(std::count_if(cells.begin(), cells.end(), [](const GlyphCell& c) { return c.layer == -1; }) == 16);
    CHECK(says(legendEntries(scatter.get(), ViewMode::DataHeld, pal),
               QStringLiteral("ringed: a whole chunk, by target")));

    // 128 nodes: no glyphs, the nodes' share colours and their colour bar.
    Scenario big = test::scenario("hypercube:7", "sbnt");
    big.params.set("pattern", "allgather");
    const SnapshotPtr large = buildSnapshot(big);
    CHECK_FALSE(drawsDataGlyphs(*large));
    CHECK(dataGlyphCells(*large, StepNo{1}, pal, 0.5f).empty());
    CHECK(legendBar(large.get(), ViewMode::DataHeld, true, pal));
    // Plain mode on an all-pattern: every node holds data from the start; none is "not yet informed".
    const auto plain = legendEntries(ring.get(), ViewMode::Plain, pal);
    CHECK(says(plain, QStringLiteral("holds data (every node starts with its own)")));
    CHECK_FALSE(says(plain, QStringLiteral("not yet informed")));
}

TEST_CASE("render: the data glyphs show each held chunk's colour where its cell is drawn", "[app][gl][glyphs]")
{
    SceneView scene;
    scene.window()->resize(1200, 700);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(loadScenario(glyphPreset("ring-allgather-8.json")));
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::DataHeld);
    REQUIRE(scene.camera().orbit().view().yaw == 0.0f); // a flat network, seen top-down: screen axes are x and y
    REQUIRE(scene.camera().orbit().view().pitch == 0.0f);
    const std::uint32_t n = snap->topology().nodeCount();
    const float width = glyphWidth(snap->positions);
    // Sampled in the lower right of each rectangle: the chunk's number sits at the cell's top left.
    auto centreOf = [&](const GlyphCell& c) {
        const Vec3& p = snap->positions[c.node];
        return projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                               {p[0] + c.x + c.width * 0.7f, p[1] + c.y + c.height * 0.3f, p[2]});
    };
    for (std::uint32_t k : {0u, snap->stepCount()}) {
        CAPTURE(k);
        scene.setStep(static_cast<int>(k));
        scene.setFraction(1.0f);
        CHECK(scene.layers().glyphs->instanceCount() > 0);
        const QImage img = scene.capture().frame();
        REQUIRE_FALSE(img.isNull());
        const auto cells = dataGlyphCells(*snap, StepNo{k}, scene.choice().palette(), width);
        // The step's arrowheads are drawn over everything (a glyph never hides the direction of a
        // message): a cell under one shows the arrowhead's colour instead, at most one cell an arrow.
        int shown = 0, held = 0, underArrows = 0;
        for (const GlyphCell& c : cells) {
            if (c.layer != 1)
                continue;
            ++held;
            if (test::pixelNear(img, centreOf(c), 1, [&](QColor col) { return test::colourNear(col, c.colour); }))
                ++shown;
            else if (test::pixelNear(img, centreOf(c), 1, [&](QColor col) {
                         return test::colourNear(col, scene.choice().palette().message);
                     }))
                ++underArrows;
        }
        CHECK(held == (k == 0 ? 8 : 64));
        CHECK(shown + underArrows == held);
        CHECK(underArrows <= static_cast<int>(scene.layers().arrows->arrows().size()));
        if (k == 0) { // node 3's first cell is dark: chunk 0 has not reached it yet
            const auto backing = std::find_if(cells.begin(), cells.end(),
                                              [](const GlyphCell& c) { return c.node == NodeId{3} && c.layer == 0; });
            REQUIRE(backing != cells.end());
            CHECK(test::pixelNear(img, centreOf(*backing), 1,
                                  [&](QColor col) { return test::colourNear(col, backing->colour); }));
            CHECK_FALSE(test::pixelNear(img, centreOf(*backing), 1,
                                        [&](QColor col) { return test::colourNear(col, chunkColour(0, n), 25); }));
        }
    }
    scene.setMode(ViewMode::Plain);
    CHECK(scene.layers().glyphs->instanceCount() == 0);
}

TEST_CASE("render: a half-width view draws wider glyphs, each held chunk's colour where its cell is",
          "[app][gl][glyphs]")
{
    // Compare's two sides: the glyphs take 85% of the node spacing (60% in a full view), so at half
    // width their cells stay about as large as a full view's.
    SceneView scene;
    scene.window()->resize(600, 500);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(loadScenario(glyphPreset("ring-allgather-8.json")));
    scene.setCompactLabels(true);
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::DataHeld);
    scene.setStep(static_cast<int>(snap->stepCount()));
    scene.setFraction(1.0f);
    const float wide = glyphWidth(snap->positions, kGlyphShareHalfView);
    CHECK(wide == Approx(glyphWidth(snap->positions) * kGlyphShareHalfView / kGlyphShare));
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    int shown = 0, held = 0;
    double cellPixels = 0;
    for (const GlyphCell& c : dataGlyphCells(*snap, StepNo{snap->stepCount()}, scene.choice().palette(), wide)) {
        if (c.layer != 1)
            continue;
        ++held;
        const Vec3& p = snap->positions[c.node];
        const auto at = [&](float fx, float fy) {
            return projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                                   {p[0] + c.x + c.width * fx, p[1] + c.y + c.height * fy, p[2]});
        };
        cellPixels = at(1, 0).x() - at(0, 0).x();
        shown += test::pixelNear(img, at(0.7f, 0.3f), 1, [&](QColor col) { return test::colourNear(col, c.colour); });
    }
    CHECK(held == 64);
    CHECK(shown >= held - static_cast<int>(scene.layers().arrows->arrows().size()));
    CHECK(cellPixels >= 10.0); // 60% of the spacing drew them under 8 px wide in this view
}

TEST_CASE("data glyphs: every cell names its chunk and a partial sum its contributions, left of the bar",
          "[app][data-held][glyphs]")
{
    const SnapshotPtr snap = buildSnapshot(loadScenario(glyphPreset("ring-allreduce-torus-4x4.json")));
    const std::uint32_t n = snap->topology().nodeCount();
    const std::uint64_t chunks = chunkCount(snap->schedule);
    const float width = glyphWidth(snap->positions);
    int counted = 0;
    for (std::uint32_t k : {0u, 8u, 15u, snap->stepCount()}) {
        CAPTURE(k);
        const auto texts = dataGlyphTexts(*snap, StepNo{k}, width);
        const auto cells = dataGlyphCells(*snap, StepNo{k}, Palette::normal(), width);
        REQUIRE(texts.size() == n * chunks);
        std::vector<GlyphCell> backing, bars;
        for (const GlyphCell& c : cells)
            (c.layer == 0 ? backing : bars).push_back(c);
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const GlyphCellText& t = texts[i];
            CHECK(t.node == NodeId{static_cast<std::uint32_t>(i / chunks)});
            CHECK(t.chunk == i % chunks);
            // The text's cell is the backing square dataGlyphCells draws.
            CHECK(t.x == backing[i].x);
            CHECK(t.y == backing[i].y);
            CHECK(t.side == backing[i].width);
            const std::uint32_t combined = snap->holdings->partialSizeAt(t.node, t.chunk, StepNo{k});
            CHECK(t.count == (combined > 0 && combined < n ? std::to_string(combined) + "/16" : std::string()));
            counted += t.count.empty() ? 0 : 1;
        }
        // A partial sum's bar stands at the right of its cell: its left keeps the number's room.
        for (const GlyphCell& b : bars)
            if (b.layer == 1 && b.height < b.width * 2.5f && b.width < 0.5f * width)
                for (const GlyphCell& c : backing)
                    if (c.node == b.node && b.x >= c.x && b.x < c.x + c.width && b.y == c.y)
                        CHECK(b.x - c.x >= c.width * (1 - kGlyphBarMargin - kGlyphBarWidth) - 1e-5f);
    }
    CHECK(counted > 0);
    CHECK(dataGlyphTexts(*buildSnapshot(test::scenario("mesh:8x8x8", "binomial")), StepNo{1}, 0.5f).empty());
}

TEST_CASE("render: the glyphs' cells carry their chunk numbers where the cell is large enough, and counts when "
          "zoomed in",
          "[app][gl][glyphs]")
{
    SceneView scene;
    scene.window()->resize(1600, 1000);
    scene.window()->show();
    const SnapshotPtr snap = buildSnapshot(loadScenario(glyphPreset("ring-allreduce-torus-4x4.json")));
    scene.setSnapshot(snap);
    scene.setMode(ViewMode::DataHeld);
    scene.setStep(8);
    scene.setFraction(1.0f);
    const std::uint64_t chunks = chunkCount(snap->schedule);
    const LabelInstances& texts = *scene.layers().glyphTexts;
    // Every cell of every node names its chunk ("(0,0) sends chunk 8" is found by reading).
    std::map<std::string, int> numbers;
    for (const auto& l : texts.labels())
        if (!l.text.contains(QLatin1Char('/')))
            ++numbers[l.text.toStdString()];
    REQUIRE(numbers.size() == chunks);
    for (const auto& [text, count] : numbers)
        CHECK(count == 16);
    // Each number lies inside its cell, left of where the bar may stand, and is drawn: white
    // letters in a dark outline found in the frame.
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    const auto cells = dataGlyphTexts(*snap, StepNo{8}, glyphWidth(snap->positions));
    int drawn = 0;
    for (std::size_t i = 0; i < texts.labels().size(); ++i) {
        const auto& l = texts.labels()[i];
        const QPointF a = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(), l.anchor);
        const QSize size = texts.plateSize(i);
        const QRectF box(a.x() + l.offsetX - size.width() / 2.0, a.y() - l.offsetY - size.height() / 2.0, size.width(),
                         size.height());
        const auto cell = std::find_if(cells.begin(), cells.end(), [&](const GlyphCellText& c) {
            return a == projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                                        snap->positions[c.node]) &&
                   (l.text.contains(QLatin1Char('/')) ? QString::fromStdString(c.count) == l.text
                                                      : QString::number(c.chunk) == l.text);
        });
        REQUIRE(cell != cells.end());
        const Vec3& p = snap->positions[cell->node];
        const QPointF topLeft = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                                                {p[0] + cell->x, p[1] + cell->y + cell->side, p[2]});
        const QPointF bottomRight = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(),
                                                    {p[0] + cell->x + cell->side, p[1] + cell->y, p[2]});
        const double barLeft = topLeft.x() + (bottomRight.x() - topLeft.x()) * (1 - kGlyphBarMargin - kGlyphBarWidth);
        CHECK(box.left() >= topLeft.x() - 1);
        CHECK(box.top() >= topLeft.y() - 1);
        CHECK(box.right() <= barLeft + 1);
        CHECK(box.bottom() <= bottomRight.y() + 1);
        bool white = false;
        for (int y = static_cast<int>(box.top()); y < box.bottom() && !white; ++y)
            for (int x = static_cast<int>(box.left()); x < box.right() && !white; ++x)
                white = img.valid(x, y) && test::colourNear(img.pixelColor(x, y), scene.choice().palette().label, 40);
        drawn += white ? 1 : 0;
    }
    // Arrowheads are drawn over the glyphs: a number under one does not show.
    CHECK(drawn + 16 * static_cast<int>(scene.layers().arrows->arrows().size()) >=
          static_cast<int>(texts.labels().size()));
    CHECK(drawn > 200);
    // Closer, the partial sums say how many contributions they hold.
    OrbitView close = scene.camera().orbit().view();
    close.distance *= 0.35f;
    scene.camera().orbit().setView(close);
    scene.camera().updateVisibility(); // what a zoom does: the labels placed again
    std::set<std::string> counts;
    for (const auto& l : texts.labels())
        if (l.text.contains(QLatin1Char('/')))
            counts.insert(l.text.toStdString());
    CHECK(counts.count("8/16") == 1);
    // Other modes and half-size cells: none.
    scene.setMode(ViewMode::Plain);
    CHECK(texts.labels().empty());
}

TEST_CASE(
    "messages at rest: labelled with their block counts, thicker by their size, and hovering one lists its blocks",
    "[app][data-held][messages]")
{
    SceneView scene;
    scene.window()->resize(1200, 800);
    // The SBnT scatter preset (M = 16, B = 4, n-port): the source's messages carry the blocks of
    // whole subtrees, so one step sends messages of different sizes.
    const SnapshotPtr snap = buildSnapshot(loadScenario(glyphPreset("hypercube-sbnt-scatter-4cube.json")));
    const Schedule& s = snap->schedule;
    std::uint32_t step = 0;
    for (std::uint32_t k = 1; k <= s.stepCount() && step == 0; ++k) {
        std::set<std::size_t> sizes;
        for (const Transfer& t : s.stepTransfers(StepNo{k}))
            sizes.insert(s.payload(t.payload).size());
        if (sizes.size() > 1)
            step = k;
    }
    REQUIRE(step > 0);
    CAPTURE(step);
    scene.setSnapshot(snap);
    scene.setStep(static_cast<int>(step));
    scene.setFraction(1.0f);
    std::multiset<std::string> want, got;
    for (const Transfer& t : s.stepTransfers(StepNo{step}))
        want.insert(blockCount(s, s.payload(t.payload).size()).toStdString());
    for (const auto& label : scene.layers().messageLabels->labels())
        got.insert(label.text.toStdString());
    // Each plate says a transfer's block count; one that would cover a node, a node label or an
    // earlier message's plate is left out (labels never collide), so some may be missing.
    CHECK(std::includes(want.begin(), want.end(), got.begin(), got.end()));
    CHECK(got.size() * 2 >= want.size());
    CHECK(want.count("1 block") >= 1);
    CHECK(scene.layers().messageLabels->isEnabled());
    // Thickness: every arrow by its transfer's size; more data, a heavier arrow.
    const auto& arrows = scene.layers().arrows->arrows();
    const auto transfers = s.stepTransfers(StepNo{step});
    REQUIRE(arrows.size() == transfers.size());
    double largest = 0;
    for (const Transfer& t : s.transfers())
        largest = std::max(largest, t.size);
    CHECK(topocast::messageScale(transferSizes(scene.snapshot()->schedule), largest) == Approx(1.4f));
    for (std::size_t i = 0; i < arrows.size(); ++i) {
        CHECK(arrows[i].scale == topocast::messageScale(transferSizes(scene.snapshot()->schedule), transfers[i].size));
        for (std::size_t j = 0; j < arrows.size(); ++j)
            if (transfers[i].size > transfers[j].size)
                CHECK(arrows[i].scale > arrows[j].scale);
    }
    // While the messages move, no labels (they belong to the arrows at rest) and no hover.
    scene.setFraction(0.5f);
    CHECK_FALSE(scene.layers().messageLabels->isEnabled());
    auto onArrow = [&](const Transfer& t) {
        const auto nodes = routeNodes(s.topology(), t.from, t.to, t.route, s.dimensionOrder);
        const Vec3 &a = snap->positions[nodes[nodes.size() - 2]], &b = snap->positions[nodes.back()];
        const QPointF pa = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(), a);
        const QPointF pb = projectToScreen(scene.camera().viewProjection(), scene.camera().viewportSize(), b);
        return pa + (pb - pa) * 0.7;
    };
    CHECK(scene.camera().messageAt(onArrow(transfers[0])) == -1);
    scene.setFraction(1.0f);
    for (std::size_t i = 0; i < transfers.size(); ++i)
        CHECK(scene.camera().messageAt(onArrow(transfers[i])) == static_cast<long long>(s.stepBegin(StepNo{step}) + i));
    // The tooltip lists the blocks of the largest message: one line each, for the nodes of the
    // subtree it feeds.
    const auto big = std::max_element(transfers.begin(), transfers.end(), [&](const Transfer& a, const Transfer& b) {
        return s.payload(a.payload).size() < s.payload(b.payload).size();
    });
    const std::size_t blocks = s.payload(big->payload).size();
    REQUIRE(blocks > 1);
    const QString tip =
        messageContents(*snap, s.stepBegin(StepNo{step}) + static_cast<std::size_t>(big - transfers.begin()));
    CHECK(tip.startsWith(QStringLiteral("Step %1: %2 → %3, 1 hop\n%4 blocks:")
                             .arg(step)
                             .arg(QString::fromStdString(s.topology().nodeName(big->from)),
                                  QString::fromStdString(s.topology().nodeName(big->to)))
                             .arg(blocks)));
    CHECK(tip.count(QStringLiteral("\n  for ")) == static_cast<int>(std::min<std::size_t>(blocks, 12)));

    // A broadcast's messages all carry the one block: no labels, no change of thickness.
    scene.setSnapshot(buildSnapshot(test::scenario("mesh:4x4", "binomial")));
    scene.setStep(2);
    CHECK(scene.layers().messageLabels->labels().empty());
    CHECK(topocast::messageScale(transferSizes(scene.snapshot()->schedule), 1.0) == 1.0f);

    // A reduction's message names its chunk and the sum it carries.
    Scenario ar = test::scenario("torus:4x4", "ring");
    ar.params.set("pattern", "allreduce");
    const SnapshotPtr ring = buildSnapshot(ar);
    const std::size_t second = ring->schedule.stepBegin(StepNo{2});
    const QString sum = messageContents(*ring, second);
    CHECK(sum.contains(QStringLiteral("1 chunk:\n  chunk ")));
    CHECK(sum.contains(QStringLiteral(": the sum of 2 of 16 contributions")));
}

TEST_CASE("data held: the root of a reduce fills up with its share like every other node, and the legend says how to "
          "find it",
          "[app][data-held]")
{
    const Palette pal = Palette::normal();
    Scenario sc = test::scenario("mesh:9x9", "binomial", NodeId{40});
    sc.params.set("pattern", "reduce");
    const SnapshotPtr snap = buildSnapshot(sc);
    REQUIRE_FALSE(drawsDataGlyphs(*snap)); // 81 nodes: the nodes' colours tell the shares
    const auto channels = drawnChannels(snap->topology());
    const NodeId root{40};
    for (std::uint32_t k : {0u, 2u, snap->stepCount()}) {
        const FrameStyle f = frameStyle(*snap, channels, static_cast<int>(k), ViewMode::DataHeld, true, pal);
        const double share = snap->holdings->finalShareAt(root, StepNo{k});
        CHECK(sameColour(f.nodeColour[root], dataShareColour(pal, 81, share)));
        CHECK(f.nodeScale[root] > 1.0f); // still drawn larger
        if (k == 0)
            CHECK(share == Approx(1.0 / 81));
        if (k == snap->stepCount())
            CHECK(share == 1.0);
    }
    const auto legend = legendEntries(snap.get(), ViewMode::DataHeld, pal);
    CHECK(std::any_of(legend.begin(), legend.end(), [](const auto& e) {
        return e.second == QStringLiteral("root (labelled in this colour, drawn larger)");
    }));
}
