// One frame, every output: for every preset, the window, a screenshot, each handout page, each
// video frame and the web page draw the same frame (core makeFrame) — the same node states, the
// same arrows, the same node labels and the same legend, in the scenario's own colour mode — so
// no output loses the mode, a step's receivers or a legend line the window shows.
#include "compare/compareview.h"
#include "export/animationexport.h"
#include "export/handout.h"
#include "export/webpage.h"
#include "helpers.h"
#include "mainwindow.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "window/workspace.h"

#include "topocast/drawing/drawing.h"
#include "topocast/io/scenario_json.h"
#include "topocast/scenario/data_glyphs.h"

#include <catch2/catch.hpp>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace topocast;
using namespace topocast::app;

namespace {

std::set<long long> labelledNodes(const Frame& f)
{
    std::set<long long> out;
    for (const SceneLabel& l : f.labels)
        out.insert(l.node);
    return out;
}

std::vector<std::string> legendTexts(const Frame& f)
{
    std::vector<std::string> out;
    for (const LegendEntry& e : f.legend)
        out.push_back(e.text);
    return out;
}

/// `other` (drawn by output `what`) is `want`'s frame: step, mode, states, arrows, labels and the
/// legend's lines; colours too where both are drawn in one palette.
void sameFrame(const Frame& want, const Frame& other, const char* what, bool samePalette)
{
    INFO(what << " at step " << want.request.step);
    CHECK(other.request.step == want.request.step);
    CHECK(other.request.mode == want.request.mode);
    CHECK(other.states == want.states);
    REQUIRE(other.arrows.size() == want.arrows.size());
    for (std::size_t i = 0; i < want.arrows.size(); ++i) {
        CHECK(other.arrows[i].transfer == want.arrows[i].transfer);
        CHECK(other.arrows[i].from == want.arrows[i].from);
        CHECK(other.arrows[i].to == want.arrows[i].to);
        CHECK(other.arrows[i].twoWay == want.arrows[i].twoWay);
    }
    CHECK(labelledNodes(other) == labelledNodes(want));
    CHECK(legendTexts(other) == legendTexts(want));
    if (samePalette) {
        CHECK(other.style.nodeColour == want.style.nodeColour);
        CHECK(other.style.channelRole == want.style.channelRole);
        CHECK(other.legend == want.legend);
    }
}

/// A step's values from the page's list of steps: step 0 whole, each later step as [index, value]
/// pairs that changed.
std::vector<int> pageStep(const QJsonArray& steps, int k)
{
    std::vector<int> now;
    for (int step = 0; step <= k; ++step) {
        const QJsonArray d = steps[step].toArray();
        if (step == 0)
            for (const auto& v : d)
                now.push_back(v.toInt());
        else
            for (qsizetype i = 0; i + 1 < d.size(); i += 2)
                now[static_cast<std::size_t>(d[i].toInt())] = d[i + 1].toInt();
    }
    return now;
}

/// The Trees mode's edges and the Data held glyphs of the page's side `side` at step `k`: each
/// member tree's edge in the frame's colour, every node's glyph cells as core draws them at the
/// page's positions.
void samePageExtras(const QJsonObject& s, const ScenarioRun& run, const Frame& want, float share)
{
    const int k = want.request.step;
    const QJsonObject frames = s[QStringLiteral("frames")].toObject();
    const QJsonArray table = frames[QStringLiteral("colours")].toArray();
    if (want.request.mode == ViewMode::Trees) {
        std::size_t edges = 0;
        for (const auto& tree : s[QStringLiteral("trees")].toArray())
            edges += static_cast<std::size_t>(tree.toArray().size() / 2);
        const std::vector<int> trees = pageStep(frames[QStringLiteral("trees")].toArray(), k);
        REQUIRE(trees.size() == edges);
        REQUIRE(trees.size() == want.style.treeEdgeColour.size());
        int wrong = 0;
        for (std::size_t e = 0; e < trees.size(); ++e)
            wrong += table[trees[e]].toString() != want.style.treeEdgeColour[e].to<QColor>().name();
        CHECK(wrong == 0);
        CHECK(edges > 0);
    }
    if (want.request.mode == ViewMode::DataHeld && drawsDataGlyphs(run)) {
        const QJsonObject glyphs = s[QStringLiteral("glyphs")].toObject();
        const QJsonArray colours = glyphs[QStringLiteral("colours")].toArray();
        std::map<long long, QJsonArray> cells;
        for (int step = 0; step <= k; ++step)
            for (const auto& e : glyphs[QStringLiteral("steps")].toArray()[step].toArray())
                cells[e.toArray()[0].toInteger()] = e.toArray()[1].toArray();
        const std::vector<Vec3> pos = drawingPositions(run.topology(), run.drawing, 16.0f / 9.0f);
        const auto drawnByCore =
            dataGlyphCells(run, StepNo{static_cast<std::uint32_t>(k)}, Palette::normal(), glyphWidth(pos, share));
        std::map<long long, std::size_t> seen;
        int wrong = 0;
        for (const GlyphCell& c : drawnByCore) {
            const QJsonArray& drawn = cells[static_cast<long long>(c.node)];
            const auto i = static_cast<qsizetype>(6 * seen[static_cast<long long>(c.node)]++);
            REQUIRE(i + 5 < drawn.size());
            wrong += std::abs(drawn[i].toDouble() - c.x) > 1e-3 ||
                     std::abs(drawn[i + 3].toDouble() - c.height) > 1e-3 ||
                     colours[drawn[i + 4].toInt()].toString() != c.colour.to<QColor>().name() ||
                     drawn[i + 5].toInt() != c.layer;
        }
        for (const auto& [node, drawn] : cells)
            CHECK(static_cast<std::size_t>(drawn.size()) == 6 * seen[node]);
        CHECK(wrong == 0);
        CHECK(!drawnByCore.empty());
    }
}

/// The web page's side `side` at step `k` against `want`: each node's colour, the arrows the player
/// draws (each transfer's last hop), the labelled nodes, the legend's lines and, in their modes,
/// the trees' edges and the Data held glyphs.
void samePage(const QJsonObject& page, int side, const ScenarioRun& run, const Frame& want)
{
    const int k = want.request.step;
    INFO("web page side " << side << " at step " << k);
    const QJsonObject s = page[QStringLiteral("sides")].toArray()[side].toObject();
    const QJsonObject frames = s[QStringLiteral("frames")].toObject();
    const QJsonArray table = frames[QStringLiteral("colours")].toArray();
    const std::vector<int> nodes = pageStep(frames[QStringLiteral("nodes")].toArray(), k);
    REQUIRE(nodes.size() == want.style.nodeColour.size());
    int wrong = 0;
    for (std::size_t v = 0; v < nodes.size(); ++v)
        wrong += table[nodes[v]].toString() != want.style.nodeColour[v].to<QColor>().name();
    CHECK(wrong == 0);
    samePageExtras(s, run, want,
                   page[QStringLiteral("sides")].toArray().size() > 1 ? kGlyphShareHalfView : kGlyphShare);
    std::vector<std::pair<long long, long long>> arrows, wanted;
    for (const auto& t : s[QStringLiteral("transfers")].toArray()) {
        const QJsonArray a = t.toArray();
        const QJsonArray path = a[3].toArray();
        if (a[0].toInt() == k && path.size() >= 2)
            arrows.emplace_back(path[path.size() - 2].toInteger(), path[path.size() - 1].toInteger());
    }
    for (const FrameArrow& a : want.arrows)
        wanted.emplace_back(static_cast<long long>(a.from), static_cast<long long>(a.to));
    CHECK(arrows == wanted);
    // Labels: the page places the frame's labels and no others (some left out where they find no
    // room on its 1280x720 picture).
    const QJsonArray placed = s.contains(QStringLiteral("stepLabels"))
                                  ? s[QStringLiteral("stepLabels")].toArray()[k].toArray()
                                  : s[QStringLiteral("labels")].toArray();
    const std::set<long long> named = labelledNodes(want);
    for (const auto& l : placed)
        CHECK(named.count(l.toArray()[0].toInteger()) == 1);
    if (side == 0) {
        std::vector<std::string> texts;
        for (const auto& e : page[QStringLiteral("legend")].toArray())
            texts.push_back(e.toArray()[1].toString().toStdString());
        CHECK(texts == legendTexts(want));
    }
}

} // namespace

TEST_CASE("one frame: the window and a screenshot and every handout page and video frame and the web page of every "
          "preset draw the same frame",
          "[app][gl][frame]")
{
    MainWindow w(false);
    w.show();
    QTemporaryDir dir;
    int checked = 0;
    for (const QString& file : MainWindow::presetFiles()) {
        const std::string name = QFileInfo(file).fileName().toStdString();
        INFO(name);
        const Scenario sc = loadScenario(file.toStdString());
        const ViewMode mode = parseViewMode(QString::fromStdString(scenarioViewMode(sc))).value_or(ViewMode::Plain);
        REQUIRE(w.openScenario(file));
        REQUIRE(test::waitFor([&] { return !w.session()->busy() && w.session()->snapshot(); }, 120000));
        if (sc.compare) {
            // Both sides in the window, both on the web page (whose half views, like the window's,
            // name the source in their titles and leave node labels out).
            const CompareSnapshotPtr cmp = buildCompareSnapshot(sc);
            const QJsonObject page = QJsonDocument::fromJson(webPageData(*cmp, mode)).object();
            REQUIRE(test::waitFor(
                [&] {
                    return w.workspace()->isSplit() && !w.compareView()->busy() &&
                           w.timeline()->stepCount() == static_cast<int>(cmp->comparison.steps);
                },
                120000));
            for (const int k : {1, static_cast<int>(cmp->comparison.steps)}) {
                w.timeline()->setStep(k);
                for (int side = 0; side < 2; ++side) {
                    SceneView* scene = w.compareView()->sceneView(side);
                    REQUIRE(test::waitFor([&] { return scene->frame().request.step == cmp->sideStep(side, k); }));
                    const Frame& shown = scene->frame();
                    CHECK(shown.request.mode == mode);
                    sameFrame(makeFrame(cmp->side(side), {}, {cmp->sideStep(side, k), mode}), shown, "side", false);
                    samePage(page, side, cmp->side(side), shown);
                    ++checked;
                }
            }
            continue;
        }
        const SnapshotPtr snap = buildSnapshot(sc, {.allowFallback = true});
        const int steps = static_cast<int>(snap->stepCount());
        // The window at every step: what the other outputs must draw.
        std::map<int, Frame> window;
        for (int k = 0; k <= steps; ++k) {
            w.timeline()->setStep(k);
            REQUIRE(test::waitFor([&] { return w.sceneView()->frame().request.step == k; }));
            window[k] = w.sceneView()->frame();
            CHECK(window[k].request.mode == mode);
        }
        // A screenshot (topocast --screenshot) at the middle step.
        ViewSettings view;
        view.size = QSize(480, 300);
        view.mode = mode;
        Frame picture;
        renderPicture(snap, view, steps / 2, 1.0f, &picture);
        sameFrame(window[steps / 2], picture, "screenshot", true);
        // The handout (light print theme): the title page before step 1, then one page a step.
        HandoutSettings handout;
        handout.view.mode = mode;
        handout.view.print = true;
        handout.dpi = 72;
        const HandoutResult h = writeHandout(snap, dir.filePath(QStringLiteral("h.pdf")), handout);
        REQUIRE(h.frames.size() == static_cast<std::size_t>(steps) + 1);
        for (int k = 0; k <= steps; ++k)
            sameFrame(window[k], h.frames[static_cast<std::size_t>(k)], "handout page", false);
        // The video: one frame a step, then the last step at rest.
        AnimationSettings video;
        video.output = dir.filePath(QStringLiteral("v.gif")).toStdString();
        video.format = video::VideoFormat::Gif;
        video.view.size = QSize(160, 100);
        video.view.mode = mode;
        video.framesPerStep = 1;
        video.holdFrames = 0;
        std::vector<Frame> frames;
        video.drawn = [&](const FrameTime&, const Frame& f) { frames.push_back(f); };
        REQUIRE(exportAnimation(snap, video));
        REQUIRE(frames.size() == static_cast<std::size_t>(steps) + 1);
        for (int k = 1; k <= steps; ++k)
            sameFrame(window[k], frames[static_cast<std::size_t>(k - 1)], "video frame", true);
        // The web page in the scenario's mode.
        const QJsonObject page = QJsonDocument::fromJson(webPageData(*snap, mode)).object();
        for (const int k : {0, 1, steps / 2, steps})
            samePage(page, 0, *snap, window[k]);
        ++checked;
    }
    CHECK(checked >= 30);
}
