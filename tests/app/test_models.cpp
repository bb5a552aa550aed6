#include "helpers.h"
#include "panels/metricsmodel.h"
#include "session/snapshot.h"
#include "words/narration.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("metrics model: binomial on a 4x4 mesh shows steps, TCD and loads (QAbstractItemModelTester)", "[app][model]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial"));
    MetricsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(snap);
    REQUIRE(model.columnCount() == MetricsModel::ColumnCount);
    // Binomial (MPICH order, rank r at (r mod 4, r div 4)) from (0,0), routes x then y:
    // step 1 0→8 (2 hops); step 2 0→4, 8→12 (1 each); step 3 r→r+2 (2 each, 4 sends);
    // step 4 r→r+1 (1 each, 8 sends): TCD 2 + 2 + 8 + 8 = 20. The channel (0,0)→(0,1) carries
    // 0→8 and 0→4, (0,0)→(1,0) carries 0→2 and 0→1: the busiest channels carry 2; no step shares one.
    CHECK(model.value(QStringLiteral("steps")) == QStringLiteral("4")); // ⌈log2 16⌉
    CHECK(model.value(QStringLiteral("tcd")) == QStringLiteral("20"));
    CHECK(model.value(QStringLiteral("max_link_load")) == QStringLiteral("2"));
    CHECK(model.value(QStringLiteral("contentions")) == QStringLiteral("0"));
    // A 16-node mesh is small enough for a brute-force TCD source map: 20 is the best over all 16
    // sources (also reached from (0,2)), so the corner's gap is 0.
    REQUIRE(snap->sourceMap.size() == 16);
    CHECK(snap->optimumSources.size() >= 2); // (0,0) and (0,2) among them
    REQUIRE(snap->optimum);
    CHECK(*snap->optimum == 20);
    CHECK(model.value(QStringLiteral("gap")) == QStringLiteral("0"));
    // From (1,0): steps 1–3 as above (2 + 2 + 8) and step 4 sends 1,4,1,4,1,4,1 and 6 hops
    // ((3,3)→(0,0) wraps the rank order): TCD 34, 14 above the best source.
    MetricsModel second;
    second.setSnapshot(buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{1})));
    CHECK(second.value(QStringLiteral("tcd")) == QStringLiteral("34"));
    CHECK(second.value(QStringLiteral("gap")) == QStringLiteral("14"));
    const int row = model.rowOf(QStringLiteral("tcd"));
    CHECK(model.data(model.index(row, MetricsModel::NameColumn)).toString() ==
          QStringLiteral("TCD of this schedule (hops)"));
    CHECK(model.data(model.index(row, 0), MetricsModel::KeyRole).toString() == QStringLiteral("tcd"));
    model.setSnapshot(nullptr);
    CHECK(model.rowCount() == 0);
}

TEST_CASE("metrics model: the algorithm's figures become rows in words (core figureRows)", "[app][model]")
{
    // Cang-Wu paper mode on 8×8 from (2,3): 71 against the proven best 69 from that source, which
    // is also OD_3 (docs/papers/mesh-tcd.md §6.2, §7.2).
    Scenario sc = test::scenario("mesh:8x8", "cang-wu", NodeId{8 * 3 + 2});
    sc.params.set("mode", "paper");
    MetricsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(buildSnapshot(sc));
    CHECK(model.value(QStringLiteral("tcd")) == QStringLiteral("71"));
    CHECK(model.value(QStringLiteral("best_from_source")) == QStringLiteral("69"));
    CHECK(model.value(QStringLiteral("gap_source")) == QStringLiteral("2"));
    CHECK(model.value(QStringLiteral("optimum")) == QStringLiteral("69"));
    CHECK(model.value(QStringLiteral("gap")) == QStringLiteral("2"));
    const int best = model.rowOf(QStringLiteral("best_from_source"));
    CHECK(model.data(model.index(best, MetricsModel::NameColumn)).toString() ==
          QStringLiteral("Best TCD from this source (proven)"));
    // Figures beyond the counted metrics, named in words with their units.
    const int levels = model.rowOf(QStringLiteral("levels"));
    REQUIRE(levels >= 0);
    CHECK(model.data(model.index(levels, MetricsModel::NameColumn)).toString() == QStringLiteral("Levels of boxes"));
    CHECK(model.value(QStringLiteral("levels")) == QStringLiteral("3"));
    CHECK(model.rowOf(QStringLiteral("source_tcd")) == -1); // the same as the counted TCD
    CHECK(model.rowOf(QStringLiteral("nonexistent")) == -1);
    // No row is named by a bare key: every name is words starting with a capital.
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString name = model.data(model.index(r, MetricsModel::NameColumn)).toString();
        const QString key = model.data(model.index(r, 0), MetricsModel::KeyRole).toString();
        INFO(name.toStdString());
        CHECK(name != key);
        CHECK(name.front().isUpper());
    }
}

TEST_CASE("metrics model: the 8x8x8 corner's schedule is the best known from the corner, 21 over the eyes",
          "[app][model]")
{
    // The panel said "gap 21" as if the corner's schedule could do better. From the
    // corner it cannot (MD_3(corner) = 546, spec §5.2); the eyes reach OD_3 = 525 (§5.1).
    MetricsModel model;
    model.setSnapshot(buildSnapshot(test::scenario("mesh:8x8x8", "cang-wu", NodeId{0})));
    CHECK(model.value(QStringLiteral("tcd")) == QStringLiteral("546"));
    CHECK(model.value(QStringLiteral("gap_source")) == QStringLiteral("0"));
    CHECK(model.value(QStringLiteral("gap")) == QStringLiteral("21"));
    const int best = model.rowOf(QStringLiteral("best_from_source"));
    CHECK(model.data(model.index(best, MetricsModel::NameColumn)).toString() ==
          QStringLiteral("Best TCD from this source (best known)"));
}

TEST_CASE("narration: a step names senders, receivers, hops and the TCD so far", "[app][narration]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial"));
    const QString start = narrate(*snap, 0);
    CHECK(start.contains(QStringLiteral("(0,0)")));
    const QString s1 = narrate(*snap, 1);
    // Binomial step 1 from rank 0 of 16: 0 → 8 = (0,2), two hops down the y column.
    CHECK(s1.startsWith(QStringLiteral("Step 1: (0,0) sends to (0,2), 2 hops")));
    CHECK(s1.endsWith(QStringLiteral("TCD so far 2")));
    const QString last = narrate(*snap, 4);
    CHECK(last.endsWith(QStringLiteral("TCD so far %1").arg(snap->metrics.tcd)));
}

TEST_CASE("node states: source, informed, receiving this step, not yet informed", "[app][state]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial"));
    const auto s0 = nodeStates(*snap, 0);
    CHECK(s0[0] == NodeState::Source);
    CHECK(std::count(s0.begin(), s0.end(), NodeState::Uninformed) == 15);
    const auto s1 = nodeStates(*snap, 1);
    CHECK(s1[8] == NodeState::Receiving);
    const auto s2 = nodeStates(*snap, 2);
    CHECK(s2[8] == NodeState::Informed);
    const auto sEnd = nodeStates(*snap, 4);
    CHECK(std::count(sEnd.begin(), sEnd.end(), NodeState::Uninformed) == 0);
    CHECK(std::count(sEnd.begin(), sEnd.end(), NodeState::Receiving) == 8);
}
