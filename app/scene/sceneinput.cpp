#include "scene/sceneinput.h"

#include "scene/scenecamera.h"
#include "scene/sceneshape.h"

#include <Qt3DExtras/Qt3DWindow>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace topocast::app {

SceneInput::SceneInput(SceneContext& scene, QObject* parent) : QObject(parent), m_scene(scene)
{
    m_scene.frame.window->installEventFilter(this);
}

bool SceneInput::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_scene.frame.window)
        return QObject::eventFilter(watched, event);
    SceneCamera& camera = *m_scene.camera;
    const QEvent::Type type = event->type();
    if (type == QEvent::Resize || type == QEvent::Wheel || type == QEvent::KeyPress ||
        (type == QEvent::MouseMove && static_cast<QMouseEvent*>(event)->buttons() != Qt::NoButton))
        camera.scheduleVisibility(); // the camera may have moved
    switch (type) {
    case QEvent::Resize:
        // A panel opened or closed, the window or presentation mode changed: a view still at its
        // default framing is framed again for its new shape; one the user turned keeps its camera.
        // Planes side by side take the grid that fits the new shape (framed again: it is a new picture).
        if (m_scene.shape->layOutPlanesAgain() || (camera.showsDefaultFraming() && !m_scene.shape->animating())) {
            camera.resetView();
            break;
        }
        camera.orbit().setAspect(static_cast<float>(camera.viewportSize().width() / camera.viewportSize().height()));
        camera.updateLevelOfDetail();
        break;
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick: {
        auto* e = static_cast<QMouseEvent*>(event);
        m_drag.press = m_drag.last = e->position().toPoint();
        m_drag.buttons = e->buttons();
        m_drag.dragged = false;
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        const QPoint p = e->position().toPoint();
        const QPoint d = p - m_drag.last;
        m_drag.last = p;
        if (e->buttons() == Qt::NoButton) {
            const long long v = camera.nodeAt(e->position());
            emit nodeHovered(v, e->globalPosition().toPoint());
            if (v < 0) // not over a node: over a message at rest?
                if (const long long t = camera.messageAt(e->position()); t >= 0)
                    emit messageHovered(t, e->globalPosition().toPoint());
            return true;
        }
        if ((p - m_drag.press).manhattanLength() > 4)
            m_drag.dragged = true;
        const QSizeF size = camera.viewportSize();
        if (e->buttons() & Qt::LeftButton && !(e->modifiers() & Qt::ShiftModifier))
            camera.orbit().orbit(-static_cast<float>(d.x()) * 0.4f, static_cast<float>(d.y()) * 0.4f);
        else
            camera.orbit().pan(static_cast<float>(2.0 * d.x() / size.width()),
                               static_cast<float>(2.0 * d.y() / size.height()));
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (!m_drag.dragged && e->button() == Qt::LeftButton) {
            const long long v = camera.nodeAt(e->position());
            if (v >= 0)
                emit nodeClicked(static_cast<NodeId>(v));
        }
        return true;
    }
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        camera.orbit().zoom(std::pow(0.999f, static_cast<float>(e->angleDelta().y())));
        camera.updateLevelOfDetail();
        return true;
    }
    case QEvent::KeyPress:
        if (viewKey(static_cast<QKeyEvent*>(event)))
            return true;
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

/// The keys the view takes (timeline keys passed on, zoom, orbit, pan, reset, explode); false for
/// the others.
bool SceneInput::viewKey(QKeyEvent* e)
{
    SceneCamera& camera = *m_scene.camera;
    switch (e->key()) {
    case Qt::Key_Space:
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Home:
    case Qt::Key_End:
        emit timelineKey(e->key());
        return true;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        camera.orbit().zoom(0.85f);
        camera.updateLevelOfDetail();
        return true;
    case Qt::Key_Minus:
        camera.orbit().zoom(1.0f / 0.85f);
        camera.updateLevelOfDetail();
        return true;
    case Qt::Key_A:
        camera.orbit().orbit(-5, 0);
        return true;
    case Qt::Key_D:
        camera.orbit().orbit(5, 0);
        return true;
    case Qt::Key_W:
        camera.orbit().orbit(0, 5);
        return true;
    case Qt::Key_S:
        camera.orbit().orbit(0, -5);
        return true;
    case Qt::Key_Up:
        camera.orbit().pan(0, 0.1f);
        return true;
    case Qt::Key_Down:
        camera.orbit().pan(0, -0.1f);
        return true;
    case Qt::Key_R:
        camera.resetView();
        return true;
    case Qt::Key_E: // View ▸ Explode planes when the window system gives the key to this window
        if (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
            break;
        m_scene.shape->toggleExplode();
        return true;
    default:
        break;
    }
    return false;
}

} // namespace topocast::app
