// The split view: two schedules on one network, one camera, one timeline; the
// compare scenario in the window, its exports and `topocast --screenshot` of both sides.
#include "cli_runner.h"
#include "compare/comparemetrics.h"
#include "compare/compareview.h"
#include "decode.h"
#include "export/compareexport.h"
#include "export/frameoverlay.h"
#include "helpers.h"
#include "launch/startup.h"
#include "mainwindow.h"
#include "panels/scenariopanel.h"
#include "scene/markinstances.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "temp_dir.h"
#include "timeline/timeline.h"

#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QChart>
#include <QFont>
#include <QFontMetrics>

#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <optional>

using namespace topocast;
using namespace topocast::app;

namespace {

std::string presetFile(const char* name)
{
    return std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name;
}

/// 4×4 mesh, binomial from (1,1) on A and from (2,2) on B.
Scenario twoSources()
{
    Scenario a = test::scenario("mesh:4x4", "binomial", NodeId{5});
    Scenario b = test::scenario("mesh:4x4", "binomial", NodeId{10});
    return withCompare(a, b);
}

} // namespace

TEST_CASE("compare view: both sides computed, one timeline over the longer schedule, metrics with B − A",
          "[app][compare]")
{
    Timeline timeline;
    CompareView view(&timeline);
    Scenario a = test::scenario("mesh:4x4", "bfs", NodeId{0});      // all-port bfs: 6 steps from a corner
    Scenario b = test::scenario("mesh:4x4", "binomial", NodeId{0}); // one-port binomial: 4 steps
    QSignalSpy ready(&view, &CompareView::compareReady);
    REQUIRE(view.setScenarioNow(withCompare(a, b)));
    REQUIRE(view.compareSnapshot());
    const CompareSnapshot& cmp = *view.compareSnapshot();
    CHECK(cmp.a->stepCount() == 6);
    CHECK(cmp.b->stepCount() == 4);
    CHECK(timeline.stepCount() == 6);
    timeline.setStep(5);
    CHECK(view.sceneView(0)->choice().step == 5);
    CHECK(view.sceneView(1)->choice().step == 4); // B holds its last state
    CHECK(view.metrics()->narration(1).contains(QStringLiteral("holds its last state")));
    CHECK(view.metrics()->narration(0).contains(QStringLiteral("A: bfs from (0,0)")));
    CHECK(view.metrics()->narration(1).contains(QStringLiteral("B: binomial from (0,0)")));
    // The table: TCD row with both figures and B − A (bfs: one hop per node, 15).
    QTableWidget* t = view.metrics()->table();
    REQUIRE(t->rowCount() == 7);
    CHECK(t->item(2, 0)->text() == QStringLiteral("TCD"));
    CHECK(t->item(2, 1)->text() == QStringLiteral("15"));
    CHECK(t->item(2, 2)->text() == QString::number(cmp.b->metrics.tcd));
    CHECK(t->item(0, 3)->text() == QStringLiteral("-2"));
    // The chart: per-step and cumulative series for both sides.
    CHECK(view.metrics()->chart()->series().size() == 4);
    // The nodes informed at different steps are core's, handed to both scenes.
    CHECK_FALSE(cmp.comparison.differing.empty());
    // The saved scenario holds both sides.
    const Scenario both = view.scenario();
    REQUIRE(both.compare);
    CHECK(compareSide(both).algorithm == "binomial");
}

TEST_CASE("compare view: a click makes a side active, the panel edits that side, a new network goes to both",
          "[app][compare]")
{
    Timeline timeline;
    CompareView view(&timeline);
    REQUIRE(view.setScenarioNow(twoSources()));
    CHECK(view.activeSide() == 0);
    QSignalSpy ready(&view, &CompareView::compareReady);
    emit view.sceneView(1)->input().nodeClicked(NodeId{15}); // a click on (3,3) in B
    REQUIRE(ready.wait(10000));
    CHECK(view.activeSide() == 1);
    CHECK(view.sideScenario(1).source == 15);
    CHECK(view.sideScenario(0).source == 5);

    // The source map: click sets A's source, on either side.
    view.setMode(ViewMode::SourceMap);
    emit view.sceneView(1)->input().nodeClicked(NodeId{3});
    REQUIRE(ready.wait(10000));
    CHECK(view.sideScenario(0).source == 3);
    CHECK(view.sideScenario(1).source == 15);
    view.setMode(ViewMode::Plain);

    // A panel edit to an 8×8 mesh on B: A follows, keeping its source's name (3,0).
    view.setActiveSide(1);
    Scenario edited = view.sideScenario(1);
    edited.topology = Topology::mesh({8, 8});
    edited.source = NodeId{0};
    view.setActiveScenario(edited);
    REQUIRE(test::waitFor([&] {
        return !view.busy() && view.compareSnapshot() && view.compareSnapshot()->a->topology() == edited.topology;
    }));
    CHECK(view.sideScenario(0).topology == edited.topology);
    CHECK(edited.topology.nodeName(view.sideScenario(0).source) == "(3,0)");
}

TEST_CASE("main window: View ▸ Compare splits the view and a compare preset opens in it", "[app][compare][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{5})));
    w.setCompareMode(true);
    CHECK(w.workspace()->isSplit());
    REQUIRE(test::waitFor([&] { return !w.compareView()->busy() && w.compareView()->compareSnapshot(); }));
    // B starts as a contrast, not a copy: the paper algorithm for this network from A's source.
    CHECK(w.compareView()->sideScenario(1).source == 5);
    CHECK(w.compareView()->sideScenario(1).algorithm == "cang-wu");
    CHECK(w.compareView()->sideScenario(1).params.find("mode") == std::optional<std::string>("optimal"));
    // The panel edits the active side (A): B is unchanged.
    w.scenarioPanel()->sourceField()->setText(QStringLiteral("0,0"));
    w.applyPanel();
    REQUIRE(test::waitFor([&] { return !w.compareView()->busy() && w.compareView()->sideScenario(0).source == 0; }));
    CHECK(w.compareView()->sideScenario(1).source == 5);
    w.setCompareMode(false);
    CHECK_FALSE(w.workspace()->isSplit());
    REQUIRE(test::waitFor([&] { return !w.session()->busy(); }));
    REQUIRE(w.session()->scenario().compare); // B is kept for the next time
    CHECK(w.session()->scenario().source == 0);

    // A compare preset opens in the split view; a different network is refused with the rule.
    REQUIRE(w.openScenario(QString::fromStdString(presetFile("compare-cang-wu-8x8-paper-vs-optimal.json"))));
    CHECK(w.workspace()->isSplit());
    REQUIRE(test::waitFor(
        [&] {
            return !w.compareView()->busy() && w.compareView()->compareSnapshot() &&
                   w.compareView()->compareSnapshot()->a->metrics.tcd == 71;
        },
        30000));
    CHECK(w.compareView()->compareSnapshot()->b->metrics.tcd == 69);
    Scenario other = test::scenario("mesh:4x4", "bfs");
    Scenario a = test::scenario("mesh:8x8", "bfs");
    a.compare = std::make_shared<const Scenario>(other);
    CHECK_FALSE(w.openCompare(a));
    CHECK(w.errorText().contains(QStringLiteral("one network")));
}

TEST_CASE("topocast --compare: two topologies are refused, saying what is allowed", "[app][compare][bad-input]")
{
    QTemporaryDir dir;
    const QString b = dir.filePath(QStringLiteral("b.json"));
    saveScenario(test::scenario("mesh:4x4", "bfs"), b.toStdString());
    CHECK_THROWS_WITH(
        loadComparePair(QString::fromStdString(presetFile("cang-wu-8x8.json")), b),
        Catch::Contains("--compare " + b.toStdString() + ": a comparison needs one network on both sides") &&
            Catch::Contains("give B the topology mesh:8x8 too"));
    QString error;
    CHECK(renderScreenshot({QString::fromStdString(presetFile("cang-wu-8x8.json")), -1, ViewMode::Plain,
                            dir.filePath(QStringLiteral("x.png")), QSize(400, 300)},
                           error, b) == 2);
    CHECK(error.contains(QStringLiteral("one network")));
    CHECK_FALSE(QFile::exists(dir.filePath(QStringLiteral("x.png"))));
}

TEST_CASE("compare picture: each side shows its own source in the source colour, titles above both",
          "[app][compare][gl]")
{
    const CompareSnapshotPtr cmp = buildCompareSnapshot(twoSources());
    ViewSettings view;
    view.size = QSize(1000, 600);
    const QImage img = renderComparePicture(cmp, view, 0);
    REQUIRE(img.size() == QSize(1000, 600));
    const CompareLayout layout = compareLayout(view.size);
    // Where each node is drawn inside a side's frame: the same view the picture used.
    SceneView probe;
    probe.window()->resize(layout.frameRect(0).size());
    probe.window()->show();
    probe.setSnapshot(cmp->a);
    probe.camera().resetView();
    REQUIRE(test::waitFor([&] { return probe.camera().viewportSize() == QSizeF(layout.frameRect(0).size()); }));
    const Rgba source = Palette::normal().source;
    auto at = [&](int side, std::uint32_t v) {
        return probe.camera().nodeOnScreen(NodeId{v}) + QPointF(layout.frameRect(side).topLeft());
    };
    auto isSource = [&](QColor c) { return test::colourNear(c, source, 45); };
    INFO("A's source (1,1) at " << at(0, 5).x() << "," << at(0, 5).y());
    CHECK(test::pixelNear(img, at(0, 5), 2, isSource));
    CHECK(test::pixelNear(img, at(1, 10), 2, isSource));
    // Where the schedules differ, the sides differ: (1,1) is not B's source, (2,2) not A's.
    CHECK_FALSE(test::pixelNear(img, at(1, 5), 2, isSource));
    CHECK_FALSE(test::pixelNear(img, at(0, 10), 2, isSource));
    // …and B's source, informed on B only at step 0, has a magenta ring on A's side (one side
    // ahead) while the node itself keeps its state's colour (not yet informed on A: not magenta).
    REQUIRE(cmp->comparison.informedOnOneSide(0) == std::vector<NodeId>{NodeId{5}, NodeId{10}});
    auto isMagenta = [](QColor c) { return c.red() > 150 && c.blue() > 120 && c.green() < 120; };
    const float ring =
        1.15f * probe.layers().marks->radius() *
        static_cast<float>(probe.camera().nodeOnScreen(NodeId{1}).x() - probe.camera().nodeOnScreen(NodeId{0}).x());
    for (const auto& [side, v] : {std::pair{0, 10u}, std::pair{1, 5u}}) {
        bool ringed = false;
        for (int k = 0; k < 16; ++k) {
            const double a = k * 3.14159265 / 8;
            ringed = ringed ||
                     test::pixelNear(img, at(side, v) + QPointF(0.85 * ring * std::cos(a), 0.85 * ring * std::sin(a)),
                                     2, isMagenta);
        }
        CHECK(ringed);
        CHECK_FALSE(test::pixelNear(img, at(side, v), 2, isMagenta));
    }
    // The sides' colour bars (A orange, B blue) at the top of their halves.
    CHECK(img.pixelColor(10, 1).red() > 200);
    CHECK(img.pixelColor(990, 1).blue() > 200);
    CHECK_THROWS_WITH(renderComparePicture(cmp, view, 99), Catch::Contains("0..4"));
}

TEST_CASE("topocast --scenario A --compare B --screenshot draws both sides", "[app][compare][gl]")
{
    QTemporaryDir dir;
    const QString b = dir.filePath(QStringLiteral("b.json"));
    Scenario sb = loadScenario(presetFile("cang-wu-8x8.json"));
    sb.params.set("mode", "paper");
    saveScenario(sb, b.toStdString());
    const QString out = dir.filePath(QStringLiteral("both.png"));
    QString error;
    REQUIRE(renderScreenshot(
                {QString::fromStdString(presetFile("cang-wu-8x8.json")), 3, ViewMode::Plain, out, QSize(800, 500)},
                error, b) == 0);
    const QImage img(out);
    CHECK(img.size() == QSize(800, 500));
    // Both halves drew a 3-D frame (not only the background).
    const CompareLayout layout = compareLayout(img.size());
    for (int side = 0; side < 2; ++side) {
        const QRect r = layout.frameRect(side);
        int lit = 0;
        for (int y = r.top(); y < r.bottom(); y += 4)
            for (int x = r.left(); x < r.right(); x += 4)
                lit += img.pixelColor(x, y).lightness() > 100;
        INFO("side " << side);
        CHECK(lit > 50);
    }
}

TEST_CASE("topocast-cli render of a compare scenario writes both sides in one file", "[app][compare][gl][cli]")
{
    topocast::testing::TempDir dir;
    const std::string out = (dir.path / "both.gif").string();
    const auto r = topocast::testing::runCli(
        {"render", "--scenario", presetFile("compare-cang-wu-8x8-paper-vs-optimal.json"), "--out", out, "--width",
         "320", "--height", "160", "--fps", "5", "--frames-per-step", "1", "--hold-frames", "0"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::StartsWith("wrote " + out + ": 7 frames, 320x160")); // 6 steps + the end
    const auto decoded = topocast::testing::decodeFile(out);
    CHECK(decoded.frames.size() == 7);
    CHECK(decoded.width == 320);
}

TEST_CASE("source map: click sets A's source and Shift+click B's (real clicks on the 3-D window)", "[app][compare][gl]")
{
    MainWindow w(false);
    w.resize(1300, 850);
    w.show();
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:6x6", "binomial", NodeId{0})));
    w.setViewMode(ViewMode::SourceMap);
    QWindow* window = w.sceneView()->window();
    REQUIRE(QTest::qWaitForWindowExposed(window));
    REQUIRE_FALSE(w.sceneView()->capture().frame().isNull());
    w.sceneView()->camera().resetView();
    const QPoint b = w.sceneView()->camera().nodeOnScreen(NodeId{20}).toPoint(); // (2,3)
    REQUIRE(w.sceneView()->camera().nodeAt(b) == 20);
    QTest::mouseClick(window, Qt::LeftButton, Qt::ShiftModifier, b);
    REQUIRE(test::waitFor([&] { return !w.session()->busy() && w.session()->scenario().compare; }));
    CHECK(w.session()->scenario().source == 0); // A unchanged
    CHECK(compareSide(w.session()->scenario()).source == 20);
    const QPoint a = w.sceneView()->camera().nodeOnScreen(NodeId{7}).toPoint(); // (1,1)
    QTest::mouseClick(window, Qt::LeftButton, Qt::NoModifier, a);
    REQUIRE(test::waitFor([&] { return !w.session()->busy() && w.session()->scenario().source == 7; }));
    CHECK(compareSide(w.session()->scenario()).source == 20); // B kept
    // View ▸ Compare then shows both sides from their own sources.
    w.setCompareMode(true);
    REQUIRE(test::waitFor([&] { return !w.compareView()->busy() && w.compareView()->compareSnapshot(); }));
    CHECK(w.compareView()->compareSnapshot()->a->schedule.source() == 7);
    CHECK(w.compareView()->compareSnapshot()->b->schedule.source() == 20);
}

TEST_CASE("compare: every compare preset draws one network twice, in the same layout on both sides", "[app][compare]")
{
    // Issue: on "Rabenseifner against ring all-reduce, 4-cube" side A drew the flat drawing and
    // side B the cube, so the two could not be set side by side.
    int compared = 0;
    for (const QString& file : MainWindow::presetFiles()) {
        const Scenario sc = loadScenario(file.toStdString());
        if (!sc.compare)
            continue;
        INFO(file.toStdString());
        const CompareSnapshotPtr cmp = buildCompareSnapshot(sc);
        CHECK(cmp->a->drawing.hypercube == cmp->b->drawing.hypercube);
        CHECK(cmp->a->drawing.grid == cmp->b->drawing.grid);
        CHECK(cmp->a->drawing.explode == cmp->b->drawing.explode);
        CHECK(cmp->a->positions == cmp->b->positions);
        ++compared;
    }
    CHECK(compared >= 5);
    const Scenario flat = loadScenario(std::string(TOPOCAST_SOURCE_DIR) +
                                       "/resources/scenarios/compare-rabenseifner-vs-ring-allreduce-4cube.json");
    CHECK(compareSide(flat).view.layout == std::optional<std::string>("flat"));
    // What compareSide takes from A is not written twice into a saved file.
    CHECK_FALSE(withCompare(flat, compareSide(flat)).compare->view.layout);
}

TEST_CASE("compare picture: each side's narration fits its band in whole lines", "[app][compare]")
{
    // Issue: the narration was cut mid-line at the bottom of a 1600×1000 compare screenshot.
    const CompareSnapshotPtr cmp = buildCompareSnapshot(loadScenario(
        std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/compare-rabenseifner-vs-ring-allreduce-4cube.json"));
    for (const QSize size : {QSize(1600, 1000), QSize(1280, 720), QSize(640, 360)}) {
        const CompareLayout layout = compareLayout(size);
        QFont body;
        body.setPixelSize(std::max(5, layout.footer * 20 / 100));
        const QFontMetrics fm(body);
        const int pad = std::max(2, layout.header / 10);
        const QRect band(0, 0, layout.sideRect(0).width() - pad * 4, layout.footer - pad * 2);
        const int lines = std::max(1, band.height() / fm.lineSpacing());
        for (int side = 0; side < 2; ++side)
            for (int step = 1; step <= 8; ++step) {
                INFO(size.width() << "×" << size.height() << " side " << side << " step " << step);
                const QString text = fittedNarrationText(cmp->side(side), step, body, band.width(), lines);
                CHECK(fm.boundingRect(band, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text).height() <=
                      band.height());
                CHECK(text.startsWith(QStringLiteral("Step %1").arg(step)));
                CHECK(text.contains(QStringLiteral("TCD so far"))); // the end is there
            }
    }
}
