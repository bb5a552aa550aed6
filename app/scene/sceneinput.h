#pragma once

#include "scene/scenestate.h"

#include <QObject>
#include <QPoint>

class QKeyEvent;

namespace topocast::app {

/// What a SceneView's window does with the mouse and the keys: drag to orbit (Shift or the
/// right button: pan), wheel to zoom, click and hover on nodes and messages, and the view's keys
/// (the timeline's passed on). A resize frames the drawing again where the camera still shows
/// the default framing.
class SceneInput : public QObject {
    Q_OBJECT
public:
    /// Watches `scene`'s window.
    SceneInput(SceneContext& scene, QObject* parent);

signals:
    void nodeClicked(topocast::NodeId node);
    /// node −1: nothing under the pointer.
    void nodeHovered(long long node, QPoint globalPos);
    /// transfer −1: no message under the pointer (SceneCamera::messageAt).
    void messageHovered(long long transfer, QPoint globalPos);
    /// Space, ←, →, Home, End pressed in the 3-D view: the timeline's keys.
    void timelineKey(int key);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool viewKey(QKeyEvent* e);

    SceneContext& m_scene;
    DragState m_drag;
};

} // namespace topocast::app
