// File ▸ Open schedule: a student's CSV or a schedule JSON shown with the rules
// it breaks, in a findings panel and in the picture; the panel lists what `topocast-cli
// validate` prints.
#include "cli_runner.h"
#include "helpers.h"
#include "mainwindow.h"
#include "panels/findingspanel.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "temp_dir.h"
#include "timeline/timeline.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/schedule_json.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace topocast;
using namespace topocast::app;
namespace fs = std::filesystem;

namespace {

QString exercise(const char* name)
{
    return QStringLiteral(TOPOCAST_SOURCE_DIR "/resources/exercises/") + QLatin1String(name);
}

/// The finding lines `topocast-cli validate FILE` prints ("  - step 4, informed twice, …").
QStringList validateLines(const QString& file)
{
    const auto r = testing::runCli({"validate", file.toStdString()});
    QStringList lines;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("  - ", 0) == 0)
            lines << QString::fromStdString(line.substr(4));
    return lines;
}

std::size_t drawnIndex(const SceneView& scene, const Topology& topo, const char* tail, const char* head)
{
    const auto channels = drawnChannels(topo);
    const ChannelId ch = *topo.channelBetween(topo.parseNode(tail), topo.parseNode(head));
    for (std::size_t i = 0; i < channels.size(); ++i)
        if (channels[i].channel == ch)
            return i;
    FAIL("channel not drawn");
    (void)scene;
    return 0;
}

} // namespace

TEST_CASE("open schedule: the broken exercise's findings in the panel equal topocast-cli validate's", "[app][findings]")
{
    MainWindow w(false);
    const QString file = exercise("broadcast-4x4-broken.csv");
    REQUIRE(w.openSchedule(file));
    FindingsPanel* panel = w.findingsPanel();
    const SnapshotPtr snap = w.session()->snapshot();
    REQUIRE(snap);
    CHECK(snap->scheduleFile == file);
    CHECK(snap->stepCount() == 4);
    CHECK(snap->metrics.tcd == 25); // topocast-cli validate: "15 transfers, 4 steps, TCD 25"

    // The same four findings, in the same order and words, as the command line.
    const QStringList expected = validateLines(file);
    REQUIRE(expected.size() == 4);
    REQUIRE(panel->findingCount() == 4);
    for (int i = 0; i < 4; ++i)
        CHECK(panel->findingLine(i).toStdString() == expected[i].toStdString());
    // Steps against the best known: ⌈log2 16⌉ = 4 and cang-wu optimal's TCD 18.
    CHECK(panel->summary().contains(QStringLiteral("(best known 18, by cang-wu (optimal) in 4 steps)")));
    CHECK(panel->summary().contains(QStringLiteral("at least 4")));
    CHECK(panel->summary().contains(QStringLiteral("4 broken rules")));

    // In the picture: at step 4 the node informed twice, (2,0), is yellow and larger, and the
    // shared channel (2,2)→(1,2) is red.
    const Topology& topo = snap->topology();
    SceneView* scene = w.sceneView();
    w.timeline()->setStep(4);
    const FrameStyle& at4 = scene->frame().style;
    const NodeId informedTwice = topo.parseNode("2,0");
    CHECK(at4.nodeColour[informedTwice] == FindingsPanel::findingColour(FindingKind::InformedTwice));
    CHECK(at4.nodeScale[informedTwice] > 1.5f);
    CHECK(at4.channelColour[drawnIndex(*scene, topo, "2,2", "1,2")] ==
          FindingsPanel::findingColour(FindingKind::ChannelShared));
    CHECK(at4.nodeColour[topo.parseNode("2,3")] == FindingsPanel::findingColour(FindingKind::NeverReached));

    // Clicking the first finding (not yet holding, step 2) jumps there and marks (3,0).
    w.timeline()->setStep(1);
    panel->activateFinding(0);
    CHECK(panel->selected() == 0);
    CHECK(w.timeline()->step() == 2);
    CHECK(scene->choice().step == 2);
    const NodeId sender = topo.parseNode("3,0");
    CHECK(scene->frame().style.nodeColour[sender] == FindingsPanel::findingColour(FindingKind::NotYetHolding));
    CHECK(scene->frame().style.nodeScale[sender] > 1.6f * 1.2f); // the chosen finding is larger still
    // Nothing marked at step 1, where no rule is broken.
    w.timeline()->setStep(1);
    for (const Rgba& c : scene->frame().style.nodeColour)
        for (FindingKind k : {FindingKind::InformedTwice, FindingKind::NotYetHolding, FindingKind::ChannelShared,
                              FindingKind::NeverReached})
            CHECK_FALSE(c == FindingsPanel::findingColour(k));

    // A computed scenario replaces it: the panel and the marks go.
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "cang-wu")));
    CHECK(panel->findingCount() == 0);
    CHECK(panel->opened() == nullptr);
}

TEST_CASE("open schedule: the correct exercise and a schedule JSON are valid", "[app][findings]")
{
    MainWindow w(false);
    REQUIRE(w.openSchedule(exercise("broadcast-4x4-correct.csv")));
    CHECK(w.findingsPanel()->findingCount() == 0);
    CHECK(w.findingsPanel()->summary().contains(QStringLiteral("Valid")));
    CHECK(w.session()->snapshot()->metrics.tcd == 18);

    testing::TempDir dir;
    const fs::path json = dir.path / "cw.json";
    Schedule s = buildSchedule("cang-wu", Topology::mesh({4, 4}), NodeId{0}, Params{});
    s.finalize();
    {
        std::ofstream out(json);
        writeScheduleJson(out, s, computeMetrics(s));
    }
    REQUIRE(w.openSchedule(QString::fromStdString(json.string())));
    CHECK(w.findingsPanel()->findingCount() == 0);
    CHECK(w.session()->snapshot()->metrics.tcd == 18);
    CHECK(w.session()->snapshot()->schedule.algorithm == "cang-wu");
}

TEST_CASE("open schedule: bad input names the line and keeps what was shown", "[app][findings]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "cang-wu")));
    const SnapshotPtr before = w.session()->snapshot();
    testing::TempDir dir;
    const fs::path bad = dir.path / "bad.csv";
    std::ofstream(bad) << "# topology: mesh:4x4\nstep,from,to\n0,\"0,0\",\"1,0\"\n";
    CHECK_FALSE(w.openSchedule(QString::fromStdString(bad.string())));
    CHECK(w.errorText().contains(QStringLiteral("bad.csv:3: step 0")));
    CHECK(w.session()->snapshot() == before);
    CHECK(w.findingsPanel()->findingCount() == 0);

    // No topology in the file: the one given is used (the app asks in a dialog otherwise).
    const fs::path plain = dir.path / "plain.csv";
    std::ofstream(plain) << "step,from,to\n1,0,1\n";
    REQUIRE(w.openSchedule(QString::fromStdString(plain.string()), Topology::hypercube(1)));
    CHECK(w.session()->snapshot()->topology() == Topology::hypercube(1));
    CHECK(w.findingsPanel()->summary().contains(QStringLiteral("Valid")));
}

TEST_CASE("open schedule: a click on a node keeps the schedule from the file", "[app][findings]")
{
    MainWindow w(false);
    REQUIRE(w.openSchedule(exercise("broadcast-4x4-correct.csv")));
    const SnapshotPtr opened = w.session()->snapshot();
    w.chooseSource(NodeId{5});
    CHECK_FALSE(w.session()->busy());
    CHECK(w.session()->snapshot() == opened);
    CHECK(w.errorText().isEmpty());
    CHECK(w.findingsPanel()->opened() != nullptr);
}
