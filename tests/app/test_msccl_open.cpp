// File ▸ Open schedule with MSCCL XML: a program placed on the scenario's network (rank r on node
// r), its findings in the panel, the Data held view over it, and the split view against
// topocast's own algorithm for the same collective (an imported ring against bucket).
// A GOAL program opens the same way, as a schedule of point-to-point messages.
#include "cli_runner.h"
#include "compare/comparesnapshot.h"
#include "compare/compareview.h"
#include "mainwindow.h"
#include "panels/findingspanel.h"
#include "session/openschedule.h"
#include "session/session.h"
#include "temp_dir.h"

#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

using namespace topocast;
using namespace topocast::app;

namespace {

/// topocast-cli export's ring all-reduce on torus:4x4 as MSCCL XML, in `dir`.
QString ringXml(const testing::TempDir& dir, const char* name = "ring.xml")
{
    const std::string path = (dir.path / name).string();
    REQUIRE(testing::runCli({"export", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--format",
                             "msccl-xml", "--out", path})
                .status == 0);
    return QString::fromStdString(path);
}

bool openOnTorus(MainWindow& w, const QString& file)
{
    REQUIRE(w.session()->setScenarioNow(
        loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/ring-allreduce-torus-4x4.json")));
    return w.openSchedule(file);
}

} // namespace

TEST_CASE("open schedule: an MSCCL program on the scenario's network, checked, then beside topocast's bucket",
          "[app][findings][msccl]")
{
    testing::TempDir dir;
    MainWindow w(false);
    REQUIRE(openOnTorus(w, ringXml(dir)));
    const SnapshotPtr file = w.session()->snapshot();
    REQUIRE(file);
    // 16 ranks, 2·15 steps, one chunk per send: 480 chunk transfers of one hop.
    CHECK(file->schedule.pattern() == Pattern::Allreduce);
    CHECK(file->stepCount() == 30);
    CHECK(file->metrics.tcd == 480);
    CHECK(w.findingsPanel()->findingCount() == 0);
    CHECK(w.findingsPanel()->summary().contains(QStringLiteral("Valid")));

    // View ▸ Compare: A the file, B topocast's next all-reduce on the torus (bucket: 2·Σ(k−1) = 12 steps).
    w.setCompareMode(true);
    CompareView* cmp = w.compareView();
    REQUIRE(waitUntilIdle({cmp->session(0), cmp->session(1)}, 60000));
    REQUIRE(cmp->compareSnapshot());
    CHECK(cmp->compareSnapshot()->a == file);
    CHECK(cmp->compareSnapshot()->b->schedule.algorithm == "bucket");
    CHECK(cmp->compareSnapshot()->b->stepCount() == 12);
    CHECK(cmp->compareSnapshot()->comparison.steps == 30);
    CHECK(sideTitle(0, *file).toStdString() == "A: ring.xml (allreduce from a file)");
    // Back to the single view: the file again, its findings still listed.
    w.setCompareMode(false);
    CHECK(w.session()->snapshot() == file);
    CHECK(w.findingsPanel()->opened());
}

TEST_CASE("open schedule: a broken MSCCL program's findings name the rank, the step and the lost contribution",
          "[app][findings][msccl]")
{
    testing::TempDir dir;
    const QString good = ringXml(dir);
    std::string text;
    {
        std::ifstream in(good.toStdString());
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    // Rank 0's first receive adds the partial of chunk 14 to its own (rrc); made a copy (r), it
    // loses rank 0's contribution in step 1.
    const std::string rrc = "<step s=\"0\" type=\"rrc\"";
    text.replace(text.find(rrc), rrc.size(), "<step s=\"0\" type=\"r\"");
    const std::string broken = (dir.path / "broken.xml").string();
    std::ofstream(broken) << text;

    MainWindow w(false);
    REQUIRE(openOnTorus(w, QString::fromStdString(broken)));
    FindingsPanel* panel = w.findingsPanel();
    REQUIRE(panel->findingCount() == 17); // the loss, then every rank's chunk 14 without rank 0
    CHECK(panel->findingLine(0).toStdString() == "step 1, wrong data, node (0,0): rank 0: tb 0 step 0 overwrites input "
                                                 "chunk 14, losing rank 0's contribution to "
                                                 "input chunk 14 (a copy where a reduce was needed?)");
    CHECK(panel->findingLine(1).contains(
        QStringLiteral("rank 0 ends with output chunk 14 lacking rank 0's contribution")));
    CHECK(panel->summary().contains(QStringLiteral("17 broken rules")));
}

TEST_CASE("open schedule: an MSCCL program of another size asks for a network", "[app][msccl]")
{
    testing::TempDir dir;
    const QString xml = ringXml(dir);
    const TopologyNeed fits = scheduleFileTopology(xml, Topology::parse("torus:4x4"));
    CHECK_FALSE(fits.choose);
    REQUIRE(fits.given);
    CHECK(fits.given->spec() == "torus:4x4");
    const TopologyNeed other = scheduleFileTopology(xml, Topology::parse("hypercube:3"));
    CHECK(other.choose);
    CHECK(other.question.contains(QStringLiteral("MSCCL program of 16 ranks; the 3-cube has 8 nodes")));
    // Placed on a 16-node hypercube instead, the ring's wrap sends are routed: still valid.
    const OpenedSchedulePtr opened = openScheduleFile(xml, Topology::parse("hypercube:4"));
    CHECK(opened->validation.ok());
    CHECK(opened->snapshot->schedule.topology().spec() == "hypercube:4");
}

TEST_CASE("open schedule: a GOAL program is a schedule of messages that animates, valid, its notes said", "[app][goal]")
{
    testing::TempDir dir;
    const std::string goal = (dir.path / "rabenseifner.goal").string();
    REQUIRE(testing::runCli({"export", "-t", "torus:4x4", "-a", "rabenseifner", "--pattern", "allreduce", "--format",
                             "goal", "--size", "1MiB", "--out", goal})
                .status == 0);
    const QString file = QString::fromStdString(goal);
    const TopologyNeed fits = scheduleFileTopology(file, Topology::parse("torus:4x4"));
    CHECK_FALSE(fits.choose);
    CHECK(scheduleFileTopology(file, Topology::parse("hypercube:3"))
              .question.contains(QStringLiteral("GOAL program of 16 ranks; the 3-cube has 8 nodes")));
    MainWindow w(false);
    REQUIRE(openOnTorus(w, file));
    const SnapshotPtr snap = w.session()->snapshot();
    REQUIRE(snap);
    // Rabenseifner on 16 ranks: 2·log₂16 = 8 exchanges of every rank, 128 messages.
    CHECK(snap->schedule.pattern() == Pattern::PointToPoint);
    CHECK(snap->stepCount() == 8);
    CHECK(snap->schedule.size() == 128);
    CHECK(w.findingsPanel()->findingCount() == 0);
    // A hand-written program with a calc: the note says what its schedule leaves out.
    const std::string calc = (dir.path / "calc.goal").string();
    std::ofstream(calc) << "num_ranks 2\nrank 0 {\nl1: calc 500\nl2: send 64b to 1 tag 0\nl2 requires l1\n}\n"
                           "rank 1 {\nl1: recv 64b from 0 tag 0\n}\n";
    const OpenedSchedulePtr opened = openScheduleFile(QString::fromStdString(calc), Topology::parse("mesh:2x2"));
    CHECK(opened->validation.ok());
    CHECK(opened->snapshot->note.contains(QStringLiteral("1 calc (500 ns of computation in all) is not a transfer")));
}

TEST_CASE("open schedule: a file is judged by what it promises as topocast-cli validate judges it", "[app][findings]")
{
    // The binomial broadcast on the 5×5 torus shares a channel in step 4; its file allows step
    // contention (it is the baseline's nature), so the CLI says valid, and so must the app.
    testing::TempDir dir;
    const std::string json = (dir.path / "btc.json").string(), csv = (dir.path / "btc.csv").string();
    const std::string preset = TOPOCAST_SOURCE_DIR "/resources/scenarios/baseline-binomial-torus-contention.json";
    REQUIRE(testing::runCli({"schedule", "--scenario", preset, "--out", json}).status == 0);
    REQUIRE(testing::runCli({"export", "--scenario", preset, "--format", "csv", "--out", csv}).status == 0);
    for (const std::string& file : {json, csv}) {
        INFO(file);
        const auto cli = testing::runCli({"validate", file});
        CHECK(cli.status == 0);
        const OpenedSchedulePtr opened = openScheduleFile(QString::fromStdString(file));
        CHECK(opened->validation.ok() == (cli.status == 0));
        CHECK(opened->validation.violationCount == 0); // contention costs time, and this file says it may happen
        CHECK_FALSE(opened->snapshot->metrics.contentions.empty());
    }
}
