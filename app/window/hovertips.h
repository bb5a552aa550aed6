#pragma once
// The 3-D view's tooltips: a node's name, its value in the source map, what it holds, how far it
// is from the source (its layer, for a divisible load) and what a click does; a message's contents.

#include "session/snapshot.h"

#include <QString>

class QObject;

namespace topocast::app {

class PredictMode;
class SceneView;
class Session;
class Timeline;

/// The tooltip of node `v` at timeline position `step`: its name; on the source map its value as
/// the source beside the best; for a broadcast when the message reaches it, for the other patterns
/// the blocks it holds of those it must end with; its hops from the source (its layer and load
/// share for a divisible load); what a click does (`predicting`: marks it).
QString nodeHoverText(const Snapshot& snap, NodeId v, int step, bool predicting);

/// Shows the tooltips of `scene` for the snapshot `session` shows at the timeline's step (the
/// click hint follows predict mode); the connections live as long as `context`.
void connectHoverTips(QObject* context, SceneView* scene, Session* session, Timeline* timeline, PredictMode* predict);

} // namespace topocast::app
