// Presets open as themselves (their own step, colour mode and title), the compare view follows
// the side being edited, and hypercube nodes are named as the picture labels them.
#include "compare/compareview.h"
#include "helpers.h"
#include "mainwindow.h"
#include "panels/metricsmodel.h"
#include "scene/markinstances.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "words/narration.h"

#include "topocast/drawing/layout.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>

using namespace topocast;
using namespace topocast::app;

namespace {
QString presetAsQString(const char* name)
{
    return QStringLiteral(TOPOCAST_SOURCE_DIR "/resources/scenarios/") + QString::fromLatin1(name);
}

bool settledAt(MainWindow& w, int stepCount)
{
    return !w.session()->busy() && w.session()->snapshot() &&
           static_cast<int>(w.session()->snapshot()->stepCount()) == stepCount &&
           w.timeline()->stepCount() == stepCount;
}

QString metricValue(const MetricsModel& m, const char* key)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, 0).data(MetricsModel::KeyRole).toString() == QLatin1String(key))
            return m.index(r, MetricsModel::ValueColumn).data().toString();
    return {};
}
} // namespace

TEST_CASE("presets open as themselves: step 0 or their own view step, their own colour mode, their title",
          "[app][presets]")
{
    MainWindow w(false);
    // Left at step 5 of 6 in the source map, as in the issue.
    REQUIRE(w.openScenario(presetAsQString("cang-wu-8x8-corner.json")));
    REQUIRE(test::waitFor([&] { return settledAt(w, 6); }, 30000));
    w.timeline()->setStep(5);
    w.setViewMode(ViewMode::SourceMap);
    REQUIRE(w.sceneView()->choice().mode == ViewMode::SourceMap);

    REQUIRE(w.openScenario(presetAsQString("cang-wu-8x8.json")));
    REQUIRE(test::waitFor([&] { return settledAt(w, 6) && w.session()->snapshot()->metrics.tcd == 69; }, 30000));
    CHECK(w.timeline()->step() == 0);
    CHECK(w.sceneView()->choice().mode == ViewMode::Plain);
    CHECK(w.windowTitle() == QStringLiteral("Cang-Wu 8×8 mesh from (2,3) — SubmeshOptimal's TCD 69 (the ILP-proven "
                                            "minimum) beats the eye rule (70) and Algorithm 1 (71) — topocast"));

    // A preset whose view names a step and a mode opens there.
    REQUIRE(w.openScenario(presetAsQString("baseline-binomial-torus-contention.json")));
    REQUIRE(test::waitFor(
        [&] {
            return !w.session()->busy() && w.session()->snapshot() &&
                   w.session()->snapshot()->topology().spec() == "torus:5x5";
        },
        30000));
    CHECK(w.timeline()->step() == 4);
    CHECK(w.sceneView()->choice().mode == ViewMode::Contention);

    // A compare preset opens at step 0 in its own mode, not the previous one's.
    w.timeline()->setStep(3);
    w.setViewMode(ViewMode::SourceMap);
    REQUIRE(w.openScenario(presetAsQString("compare-cang-wu-8x8-paper-vs-optimal.json")));
    REQUIRE(test::waitFor(
        [&] {
            return !w.compareView()->busy() && w.compareView()->compareSnapshot() &&
                   w.compareView()->compareSnapshot()->a->metrics.tcd == 71;
        },
        30000));
    CHECK(w.timeline()->step() == 0);
    CHECK(w.sceneView()->choice().mode == ViewMode::Plain);
}

TEST_CASE("presets menu: every preset by its title, its one-line description as tooltip", "[app][presets]")
{
    MainWindow w(false);
    QMenu* presets = nullptr;
    for (QAction* a : w.menuBar()->actions())
        if (a->menu())
            for (QAction* b : a->menu()->actions())
                if (b->menu() && b->text().contains(QStringLiteral("Presets")))
                    presets = b->menu();
    REQUIRE(presets);
    CHECK(presets->toolTipsVisible());
    // Grouped by lesson: the lessons' submenus, then the presets in no lesson.
    QList<QAction*> entries;
    for (QAction* a : presets->actions()) {
        if (a->menu()) {
            CHECK(a->menu()->toolTipsVisible());
            entries += a->menu()->actions();
        } else if (!a->isSeparator()) {
            entries << a;
        }
    }
    int described = 0;
    for (QAction* a : entries) {
        INFO(a->text().toStdString());
        CHECK_FALSE(a->text().endsWith(QStringLiteral(".json")));
        CHECK(a->text().contains(QLatin1Char(' '))); // words, not a bare file name
        described += !a->statusTip().isEmpty() && a->toolTip() == a->statusTip();
    }
    CHECK(described == entries.size());
    CHECK(described >= 20);
}

TEST_CASE("compare: the metrics table follows the side being edited, and Ctrl+K opens a contrast", "[app][compare]")
{
    MainWindow w(false);
    Scenario sc = loadScenario(presetAsQString("cang-wu-8x8.json").toStdString());
    sc.params.set("mode", "paper"); // Algorithm 1 from (2,3): TCD 71
    REQUIRE(w.session()->setScenarioNow(sc));
    w.setCompareMode(true);
    REQUIRE(test::waitFor([&] { return !w.compareView()->busy() && w.compareView()->compareSnapshot(); }, 30000));
    // B is the contrast: the optimum (69) against the paper's algorithm (71), from one source.
    CHECK(w.compareView()->compareSnapshot()->a->metrics.tcd == 71);
    CHECK(w.compareView()->compareSnapshot()->b->metrics.tcd == 69);
    CHECK(metricValue(*w.metricsModel(), "tcd") == QStringLiteral("71"));
    w.compareView()->setActiveSide(1);
    CHECK(metricValue(*w.metricsModel(), "tcd") == QStringLiteral("69"));
    w.compareView()->setActiveSide(0);
    CHECK(metricValue(*w.metricsModel(), "tcd") == QStringLiteral("71"));
}

TEST_CASE("compare: one side ahead is a ring around the node, whose own colour still says its state", "[app][compare]")
{
    SceneView scene;
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setStep(1);
    const Rgba before = scene.frame().style.nodeColour[1];
    scene.setHighlight({NodeId{1}, NodeId{2}});
    CHECK(scene.frame().style.nodeColour[1] == before);
    REQUIRE(scene.layers().marks->marks().size() == 2);
    for (const MarkInstances::Mark& m : scene.layers().marks->marks()) {
        CHECK(m.shape == MarkShape::Right);
        CHECK(m.colour == kHighlightColour);
    }
    scene.setHighlight({});
    CHECK(scene.layers().marks->marks().empty());
}

TEST_CASE("one notation: a hypercube's narration names nodes by the binary addresses the picture labels",
          "[app][notation]")
{
    Scenario sc = loadScenario(presetAsQString("hypercube-sbt-scatter-3cube.json").toStdString());
    const SnapshotPtr snap = buildSnapshot(sc);
    const QString start = narrate(*snap, 0);
    CHECK(start.contains(QStringLiteral(" from 000 ")));
    const Transfer& t = snap->schedule.stepTransfers(StepNo{1}).front();
    const QString step1 = narrate(*snap, 1);
    CHECK(step1.contains(QStringLiteral("%1 sends to %2")
                             .arg(QString::fromStdString(nodeLabel(snap->topology(), t.from)),
                                  QString::fromStdString(nodeLabel(snap->topology(), t.to)))));
    CHECK(nodeLabel(snap->topology(), t.to).size() == 3);
    // No x/y/z axes where the dimensions are not x, y, z.
    SceneView scene;
    scene.setSnapshot(snap);
    CHECK(scene.layers().axes->instanceCount() == 0);
    SceneView mesh;
    mesh.setSnapshot(buildSnapshot(test::scenario("mesh:4x4", "binomial")));
    CHECK(mesh.layers().axes->instanceCount() == 3);
}

TEST_CASE("one notation: every hypercube preset's narration (and so its captions) names nodes by binary address",
          "[app][notation]")
{
    // The captions of an export are narrate()'s text (animationexport.cpp), so one check covers both.
    int presets = 0;
    for (const QString& file : MainWindow::presetFiles()) {
        Scenario sc = loadScenario(file.toStdString());
        if (!sc.topology.isHypercube())
            continue;
        sc.compare.reset();
        const SnapshotPtr snap = buildSnapshot(sc);
        const int n = sc.topology.dims();
        // "0000 sends to 1000,", "… sends 8 blocks to …,", "… sends 8 chunks (its own contribution each) to …,"
        const QRegularExpression sends(QStringLiteral("(\\S+) sends (?:[^;]*? )?to (\\S+),"));
        const QRegularExpression address(QStringLiteral("^[01]{%1}$").arg(n));
        for (int step = 1; step <= static_cast<int>(snap->stepCount()); ++step) {
            const QString text = narrate(*snap, step);
            INFO(file.toStdString() << " step " << step << ": " << text.toStdString());
            auto it = sends.globalMatch(text);
            REQUIRE(it.hasNext());
            while (it.hasNext()) {
                const auto m = it.next();
                CHECK(address.match(m.captured(1)).hasMatch());
                CHECK(address.match(m.captured(2)).hasMatch());
            }
        }
        ++presets;
    }
    CHECK(presets >= 5);
}
