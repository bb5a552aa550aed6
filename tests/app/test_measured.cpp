// Measured step times beside the model's: the shipped topocast-mpi run of
// cang-wu-4x4.json (resources/measured/, made as its README says) shown by MeasuredModel and
// the main window; a file of another schedule refused; measured times closed when the scenario
// changes. The exact numbers below are the file's own.
#include "helpers.h"
#include "mainwindow.h"
#include "panels/measuredmodel.h"
#include "panels/measuredpanel.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QFile>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>

using namespace topocast;
using namespace topocast::app;

namespace {

// resources/measured/cang-wu-4x4.measured.json: steps[0], steps[2], steps[3] and total.
constexpr double FIXTURE_S1_MIN = 2.403500000000558e-05;
constexpr double FIXTURE_S1_MEDIAN = 7.275799999999916e-05;
constexpr double FIXTURE_S3_MEDIAN = 0.0001197370000000017;
constexpr double FIXTURE_S4_MIN = 0.0001249749999999994;
constexpr double FIXTURE_S4_MEDIAN = 0.00023931499999998995;
constexpr double FIXTURE_TOTAL_MEDIAN = 0.0008803549999999993;

const QString kFixture = QStringLiteral(TOPOCAST_SOURCE_DIR "/resources/measured/cang-wu-4x4.measured.json");

Scenario fixtureScenario()
{
    return loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-4x4.json");
}

/// The fixture with one field changed, written to `dir`.
QString alteredFixture(const QTemporaryDir& dir, const std::function<void(nlohmann::json&)>& change)
{
    std::ifstream in(kFixture.toStdString());
    nlohmann::json doc = nlohmann::json::parse(in);
    change(doc);
    const QString path = dir.filePath(QStringLiteral("altered.measured.json"));
    std::ofstream(path.toStdString()) << doc.dump(1);
    return path;
}

double seconds(const MeasuredModel& m, int row, int column)
{
    return m.index(row, column).data(MeasuredModel::SecondsRole).toDouble();
}

} // namespace

TEST_CASE("measured model: the cang-wu-4x4 run's step times and the fitted model (QAbstractItemModelTester)",
          "[app][measured][model]")
{
    const SnapshotPtr snap = buildSnapshot(fixtureScenario());
    REQUIRE(snap->stepCount() == 4);
    const MeasuredPtr data = loadMeasured(kFixture, *snap);
    MeasuredModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setMeasured(data);
    REQUIRE(model.rowCount() == 4);
    REQUIRE(model.columnCount() == MeasuredModel::ColumnCount);
    // The file's steps[].transfers / bytes / min_s / median_s.
    const int transfers[] = {1, 2, 4, 8}; // Cang–Wu from (1,0): informed nodes double every step
    for (int r = 0; r < 4; ++r) {
        CHECK(model.index(r, MeasuredModel::StepColumn).data().toInt() == r + 1);
        CHECK(model.index(r, MeasuredModel::TransfersColumn).data().toInt() == transfers[r]);
        CHECK(model.index(r, MeasuredModel::BytesColumn).data().toULongLong() == 4096ull * transfers[r]);
    }
    CHECK(seconds(model, 0, MeasuredModel::MinColumn) == FIXTURE_S1_MIN);
    CHECK(seconds(model, 0, MeasuredModel::MedianColumn) == FIXTURE_S1_MEDIAN);
    CHECK(seconds(model, 3, MeasuredModel::MinColumn) == FIXTURE_S4_MIN);
    CHECK(seconds(model, 3, MeasuredModel::MedianColumn) == FIXTURE_S4_MEDIAN);
    CHECK(model.index(0, MeasuredModel::MedianColumn).data().toString() == formatSeconds(FIXTURE_S1_MEDIAN));
    // Every message is one 4096-byte block, so the model of a step is t_s + t_h·(its longest route).
    const LinearCost& c = data->fit.cost;
    for (std::uint32_t s = 1; s <= 4; ++s) {
        int longest = 0;
        for (const Transfer& t : snap->schedule.stepTransfers(StepNo{s}))
            longest = std::max(longest, snap->schedule.hops(t));
        CHECK(seconds(model, static_cast<int>(s) - 1, MeasuredModel::ModelColumn) ==
              Approx(c.startup + longest * c.perHop + 4096.0 * c.perByte));
    }
    CHECK(model.stepSentence(0).isEmpty());
    CHECK(model.stepSentence(1) == QStringLiteral("measured %1 median (min %2), model %3")
                                       .arg(formatSeconds(FIXTURE_S1_MEDIAN), formatSeconds(FIXTURE_S1_MIN),
                                            formatSeconds(data->modelSteps[0])));
    const QString summary = model.summary();
    CHECK(summary.contains(QStringLiteral("16 ranks on 1 host")));
    CHECK(summary.contains(QStringLiteral("Open MPI")));
    CHECK(summary.contains(QStringLiteral("MPI_Bcast")));
    CHECK(summary.contains(formatSeconds(FIXTURE_TOTAL_MEDIAN)));
    CHECK(model.modelDescription().contains(QStringLiteral("15 measured message medians")));
    model.setMeasured(nullptr);
    CHECK(model.rowCount() == 0);
}

TEST_CASE("main window: opening the measured fixture shows the chart, the narration and the totals",
          "[app][measured][window]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(fixtureScenario()));
    w.timeline()->setStep(2);
    REQUIRE(w.openMeasured(kFixture));
    CHECK(w.errorText().isEmpty());
    CHECK(w.measuredModel()->rowCount() == 4);
    CHECK(w.measuredPanel()->isVisibleTo(&w));
    CHECK(w.measuredPanel()->barCount() == 4);
    CHECK(w.measuredPanel()->highlightedStep() == 2);
    CHECK(w.narration().startsWith(QStringLiteral("Step 2")));
    CHECK(w.narration().endsWith(w.measuredModel()->stepSentence(2)));
    w.timeline()->setStep(3);
    CHECK(w.measuredPanel()->highlightedStep() == 3);
    CHECK(w.narration().contains(formatSeconds(FIXTURE_S3_MEDIAN)));
    CHECK(w.measuredPanel()->summaryText().contains(QStringLiteral("MPI_Bcast")));
}

TEST_CASE("main window: a measured file of another schedule or a broken one is refused, the previous one stays",
          "[app][measured][window]")
{
    QTemporaryDir dir;
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(fixtureScenario()));
    REQUIRE(w.openMeasured(kFixture));
    const MeasuredPtr before = w.measuredModel()->measured();

    SECTION("another topology")
    {
        const QString path = alteredFixture(dir, [](nlohmann::json& d) { d["schedule"]["topology"] = "mesh:8x8"; });
        CHECK_FALSE(w.openMeasured(path));
        CHECK(w.errorText().contains(QStringLiteral("measured on mesh:8x8 but the schedule is on mesh:4x4")));
    }
    SECTION("same size, another schedule (fingerprint)")
    {
        const QString path =
            alteredFixture(dir, [](nlohmann::json& d) { d["schedule"]["fingerprint"] = "0123456789abcdef"; });
        CHECK_FALSE(w.openMeasured(path));
        CHECK(w.errorText().contains(QStringLiteral("fingerprint 0123456789abcdef")));
    }
    SECTION("not a measured-times file")
    {
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"topocast-scenario\"}");
        f.close();
        CHECK_FALSE(w.openMeasured(path));
        CHECK(w.errorText().contains(QStringLiteral("is not a measured-times file")));
    }
    SECTION("a missing file")
    {
        CHECK_FALSE(w.openMeasured(dir.filePath(QStringLiteral("missing.json"))));
        CHECK_FALSE(w.errorText().isEmpty());
    }
    CHECK(w.measuredModel()->measured() == before);
    CHECK(w.measuredModel()->rowCount() == 4);
    CHECK(w.measuredPanel()->isVisibleTo(&w));
}

TEST_CASE("main window: measured times are closed when the scenario changes, kept when it is recomputed unchanged",
          "[app][measured][window]")
{
    MainWindow w(false);
    const Scenario sc = fixtureScenario();
    REQUIRE(w.session()->setScenarioNow(sc));
    REQUIRE(w.openMeasured(kFixture));
    REQUIRE(w.session()->setScenarioNow(sc)); // the same schedule again
    CHECK(w.measuredModel()->rowCount() == 4);
    Scenario other = sc;
    other.source = NodeId{5}; // (1,1): another schedule on the same mesh with the same step count
    REQUIRE(w.session()->setScenarioNow(other));
    CHECK(w.measuredModel()->rowCount() == 0);
    CHECK_FALSE(w.measuredPanel()->isVisibleTo(&w));
    w.timeline()->setStep(1);
    CHECK_FALSE(w.narration().contains(QStringLiteral("measured")));
}
