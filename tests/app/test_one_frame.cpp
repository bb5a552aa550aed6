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

#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

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

/// The web page's side `side` at step `k` against `want`: each node's colour, the arrows the player
/// draws (each transfer's last hop), the labelled nodes and the legend's lines.
void samePage(const QJsonObject& page, int side, const Frame& want)
{
    const int k = want.request.step;
    INFO("web page side " << side << " at step " << k);
    const QJsonObject s = page[QStringLiteral("sides")].toArray()[side].toObject();
    const QJsonObject frames = s[QStringLiteral("frames")].toObject();
    const QJsonArray table = frames[QStringLiteral("colours")].toArray();
    std::vector<int> nodes;
    for (int step = 0; step <= k; ++step) {
        const QJsonArray d = frames[QStringLiteral("nodes")].toArray()[step].toArray();
        if (step == 0)
            for (const auto& v : d)
                nodes.push_back(v.toInt());
        else
            for (qsizetype i = 0; i + 1 < d.size(); i += 2)
                nodes[static_cast<std::size_t>(d[i].toInt())] = d[i + 1].toInt();
    }
    REQUIRE(nodes.size() == want.style.nodeColour.size());
    int wrong = 0;
    for (std::size_t v = 0; v < nodes.size(); ++v)
        wrong += table[nodes[v]].toString() != want.style.nodeColour[v].to<QColor>().name();
    CHECK(wrong == 0);
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
            const bool web = mode != ViewMode::Trees && mode != ViewMode::DataHeld;
            const QJsonObject page = web ? QJsonDocument::fromJson(webPageData(*cmp, mode)).object() : QJsonObject{};
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
                    if (web)
                        samePage(page, side, shown);
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
        // The web page in the scenario's mode (trees and data held are drawn plain there, as
        // `html` says).
        if (mode != ViewMode::Trees && mode != ViewMode::DataHeld) {
            const QJsonObject page = QJsonDocument::fromJson(webPageData(*snap, mode)).object();
            for (const int k : {0, 1, steps / 2, steps})
                samePage(page, 0, window[k]);
        }
        ++checked;
    }
    CHECK(checked >= 30);
}
