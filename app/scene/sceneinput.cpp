// SceneView: input — mouse orbit/pan/zoom, clicks and hover on nodes, the view's keys.
#include "scene/sceneview.h"

#include "scene/arrowinstances.h"
#include "scene/labelinstances.h"
#include "scene/levelofdetail.h"
#include "scene/linkinstances.h"
#include "scene/markinstances.h"
#include "scene/messageinstances.h"
#include "scene/nodeinstances.h"
#include "scene/picking.h"

#include "topocast/drawing/camera.h"
#include "topocast/drawing/visibility.h"
#include "topocast/scenario/scenario.h"

#include <Qt3DCore/QEntity>
#include <Qt3DCore/QTransform>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DLogic/QFrameAction>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QViewport>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QTimer>
#include <QVariantAnimation>
#include <QWheelEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

namespace topocast::app {

bool SceneView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_frame.window)
        return QObject::eventFilter(watched, event);
    const QEvent::Type type = event->type();
    if (type == QEvent::Resize || type == QEvent::Wheel || type == QEvent::KeyPress ||
        (type == QEvent::MouseMove && static_cast<QMouseEvent*>(event)->buttons() != Qt::NoButton))
        scheduleVisibility(); // the camera may have moved
    switch (type) {
    case QEvent::Resize:
        // A panel opened or closed, the window or presentation mode changed: a view still at its
        // default framing is framed again for its new shape; one the user turned keeps its camera.
        // Planes side by side take the grid that fits the new shape (framed again: it is a new picture).
        if (layOutPlanesAgain() ||
            (showsDefaultFraming() && m_explodeAnimation->state() != QAbstractAnimation::Running)) {
            resetView();
            break;
        }
        m_orbit->setAspect(static_cast<float>(viewportSize().width() / viewportSize().height()));
        updateLevelOfDetail();
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
            const long long v = nodeAt(e->position());
            emit nodeHovered(v, e->globalPosition().toPoint());
            if (v < 0) // not over a node: over a message at rest?
                if (const long long t = messageAt(e->position()); t >= 0)
                    emit messageHovered(t, e->globalPosition().toPoint());
            return true;
        }
        if ((p - m_drag.press).manhattanLength() > 4)
            m_drag.dragged = true;
        const QSizeF size = viewportSize();
        if (e->buttons() & Qt::LeftButton && !(e->modifiers() & Qt::ShiftModifier))
            m_orbit->orbit(-static_cast<float>(d.x()) * 0.4f, static_cast<float>(d.y()) * 0.4f);
        else
            m_orbit->pan(static_cast<float>(2.0 * d.x() / size.width()),
                         static_cast<float>(2.0 * d.y() / size.height()));
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (!m_drag.dragged && e->button() == Qt::LeftButton) {
            const long long v = nodeAt(e->position());
            if (v >= 0)
                emit nodeClicked(static_cast<NodeId>(v));
        }
        return true;
    }
    case QEvent::Wheel: {
        auto* e = static_cast<QWheelEvent*>(event);
        m_orbit->zoom(std::pow(0.999f, static_cast<float>(e->angleDelta().y())));
        updateLevelOfDetail();
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
bool SceneView::viewKey(QKeyEvent* e)
{
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
        m_orbit->zoom(0.85f);
        updateLevelOfDetail();
        return true;
    case Qt::Key_Minus:
        m_orbit->zoom(1.0f / 0.85f);
        updateLevelOfDetail();
        return true;
    case Qt::Key_A:
        m_orbit->orbit(-5, 0);
        return true;
    case Qt::Key_D:
        m_orbit->orbit(5, 0);
        return true;
    case Qt::Key_W:
        m_orbit->orbit(0, 5);
        return true;
    case Qt::Key_S:
        m_orbit->orbit(0, -5);
        return true;
    case Qt::Key_Up:
        m_orbit->pan(0, 0.1f);
        return true;
    case Qt::Key_Down:
        m_orbit->pan(0, -0.1f);
        return true;
    case Qt::Key_R:
        resetView();
        return true;
    case Qt::Key_E: // View ▸ Explode planes when the window system gives the key to this window
        if (e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
            break;
        toggleExplode();
        return true;
    default:
        break;
    }
    return false;
}

} // namespace topocast::app
