#pragma once
// The 3-D view's tooltips: a node's name, its value in the source map, what it holds, its layer
// and what a click does; a message's contents.

class QObject;

namespace topocast::app {

class PredictMode;
class SceneView;
class Session;
class Timeline;

/// Shows the tooltips of `scene` for the snapshot `session` shows at the timeline's step (the
/// click hint follows predict mode); the connections live as long as `context`.
void connectHoverTips(QObject* context, SceneView* scene, Session* session, Timeline* timeline, PredictMode* predict);

} // namespace topocast::app
