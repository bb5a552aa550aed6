#include "helpers.h"
#include "metricsmodel.h"
#include "narration.h"
#include "snapshot.h"

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
    CHECK(model.value(QStringLiteral("steps")) == QStringLiteral("4"));  // ⌈log2 16⌉
    CHECK(model.value(QStringLiteral("tcd")) == QString::number(snap->metrics.tcd));
    CHECK(model.value(QStringLiteral("max_link_load")) == QString::number(snap->metrics.maxLinkLoad));
    CHECK(model.value(QStringLiteral("contentions")) == QString::number(snap->metrics.contentions.size()));
    // A 16-node mesh is small enough for a brute-force TCD map, so the optimum and gap show.
    REQUIRE(snap->tcdMap.size() == 16);
    REQUIRE(snap->optimum);
    CHECK(model.value(QStringLiteral("gap")).toLongLong() ==
          static_cast<long long>(snap->metrics.tcd) - static_cast<long long>(*snap->optimum));
    const int row = model.rowOf(QStringLiteral("tcd"));
    CHECK(model.data(model.index(row, MetricsModel::NameColumn)).toString() == QStringLiteral("TCD"));
    CHECK(model.data(model.index(row, 0), MetricsModel::KeyRole).toString() == QStringLiteral("tcd"));
    model.setSnapshot(nullptr);
    CHECK(model.rowCount() == 0);
}

TEST_CASE("metrics model: every scalar of schedule.info becomes a row", "[app][model]")
{
    auto snap = std::make_shared<Snapshot>(*buildSnapshot(test::scenario("mesh:4x4", "bfs")));
    snap->schedule.info["speedup"] = 3.5;
    snap->schedule.info["optimum"] = 12;
    snap->schedule.info["alpha"] = {0.5, 0.25, 0.25};
    MetricsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSnapshot(snap);
    CHECK(model.value(QStringLiteral("speedup")) == QStringLiteral("3.5"));
    CHECK(model.value(QStringLiteral("alpha")) == QStringLiteral("0.5, 0.25, 0.25"));
    CHECK(model.rowOf(QStringLiteral("nonexistent")) == -1);
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
