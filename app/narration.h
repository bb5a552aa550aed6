#pragma once

#include "snapshot.h"

#include <QString>

namespace topocast::app {

/// What timeline position `step` does, in words: "Step 2: (1,1) sends to (1,2), 1 hop; … — TCD
/// so far 5". Position 0 describes the start. At most `maxTransfers` transfers are spelled out.
QString narrate(const Snapshot& snap, int step, int maxTransfers = 6);

} // namespace topocast::app
