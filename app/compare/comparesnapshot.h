#pragma once

#include "session/snapshot.h"

#include "topocast/analysis/comparison.h"

#include <QString>

#include <memory>

namespace topocast::app {

/// Both sides of a comparison as the split view and its exports show them: the two snapshots
/// and core's Comparison of their schedules (shared timeline, TCD per step, the nodes informed
/// at different steps). Immutable, shared like a Snapshot.
struct CompareSnapshot {
    SnapshotPtr a;
    SnapshotPtr b;
    Comparison comparison;

    const Snapshot& side(int i) const { return i == 0 ? *a : *b; }
    /// Timeline position `step` (0..comparison.steps) on side `i`: the shorter schedule holds its
    /// last state.
    int sideStep(int i, int step) const;
};

using CompareSnapshotPtr = std::shared_ptr<const CompareSnapshot>;

/// Builds both sides of `scenario` (which must have a compare side: see compareSide) and their
/// comparison, synchronously. Throws topocast::Error (a bad side names it: "B: …").
CompareSnapshotPtr buildCompareSnapshot(const Scenario& scenario);
/// Pairs two already built snapshots (same topology, else Error).
CompareSnapshotPtr pairSnapshots(SnapshotPtr a, SnapshotPtr b);

/// "A: cang-wu paper from (2,3)" — the side's letter, algorithm, its mode/variant/pattern
/// parameters and the source, for the titles over each side.
QString sideTitle(int side, const Snapshot& snap);
/// The side's figures in one line: "6 steps, TCD 71".
QString sideFigures(const Snapshot& snap);
/// The same with the algorithms' time figure when the comparison has one: "6 steps, TCD 63, time 72".
QString sideFigures(const CompareSnapshot& cmp, int side);

} // namespace topocast::app
