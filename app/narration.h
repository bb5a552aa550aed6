#pragma once

#include "snapshot.h"

#include <QString>

namespace topocast::app {

/// What timeline position `step` does, in words: "Step 2: (1,1) sends to (1,2), 1 hop; … — TCD
/// so far 5". Position 0 describes the start. At most `maxTransfers` transfers are spelled out.
QString narrate(const Snapshot& snap, int step, int maxTransfers = 6);

/// " from (1,2)" for a pattern with a source, " to (1,2)" for one with a root the data flows to
/// (gather, reduce), "" for one without (all-gather, all-to-all, reduce-scatter, all-reduce): the
/// words that follow an algorithm's name in titles and captions.
QString sourcePhrase(const Schedule& schedule);

} // namespace topocast::app
