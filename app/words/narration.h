#pragma once

#include "session/snapshot.h"

#include <QString>

namespace topocast::app {

/// What timeline position `step` does, in words: "Step 2: (1,1) sends to (1,2), 1 hop; … — TCD
/// so far 5". Position 0 describes the start. At most `maxTransfers` transfers are spelled out (0:
/// only how many there are, "Step 4: 16 transfers — TCD so far 64").
QString narrate(const Snapshot& snap, int step, int maxTransfers = 6);

/// What transfer `transfer` (an index into the schedule's transfers) carries, for the tooltip of
/// a message: "Step 2: 0000 → 1000, 1 hop", then its blocks, one per line, at most `maxBlocks`
/// ("for 1001", "from (2,0)", "chunk 3: the sum of 2 of 16 contributions (0, 1)"), and how
/// many more.
QString messageContents(const Snapshot& snap, std::size_t transfer, int maxBlocks = 12);

/// "8 blocks", "1 chunk": the label a message carries at rest.
QString blockCount(const Schedule& schedule, std::size_t blocks);
/// The label transfer `t` carries at rest: blockCount of its payload, or its bytes ("32 KiB")
/// for a program of messages (Pattern::PointToPoint), whose payload is tokens.
QString transferLabel(const Schedule& schedule, const Transfer& t);

/// " from (1,2)" for a pattern with a source, " to (1,2)" for one with a root the data flows to
/// (gather, reduce), "" for one without (all-gather, all-to-all, reduce-scatter, all-reduce): the
/// words that follow an algorithm's name in titles and captions.
QString sourcePhrase(const Schedule& schedule);

/// The window's title for `scenario`: "Title — description — topocast", or "topocast" for a
/// scenario with neither.
QString windowTitleFor(const Scenario& scenario);
/// The title an export gives what it shows: the scenario's title, else "binomial on the 4×4 mesh
/// from (1,1)" (handouts, quizzes).
QString exportTitle(const Snapshot& snap);

/// The status bar's line for a new snapshot: "8×8 mesh: 6 steps, TCD 63 — computed in 0.4 ms",
/// after the snapshot's note when it has one.
QString snapshotStatus(const Snapshot& snap);
/// Why a click on a node leaves the source of a schedule read from a file as it is (no algorithm
/// can rebuild it from another source): "ring.csv is a schedule from a file; its source stays (0,0)".
QString fileSourceStays(const Snapshot& snap);

} // namespace topocast::app
