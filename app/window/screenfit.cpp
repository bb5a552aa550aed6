#include "window/screenfit.h"

#include <QEvent>
#include <QPointer>
#include <QScreen>
#include <QScrollArea>
#include <QStyle>
#include <QTimer>
#include <QWidget>

#include <algorithm>

namespace topocast::app {

namespace {

/// Pulls `w` back inside its screen's available geometry; true when it had to.
bool fitInside(QWidget* w)
{
    if (!w->screen() || w->isFullScreen() || w->isMaximized() || w->isMinimized())
        return false;
    const QRect screen = w->screen()->availableGeometry();
    const QRect frame = w->frameGeometry();
    if (screen.contains(frame))
        return false;
    // The frame's decorations stay as they are; the client area gives way.
    const QSize decoration = frame.size() - w->size();
    const QSize room = screen.size() - decoration;
    const QSize least = w->minimumSizeHint().expandedTo(w->minimumSize());
    const QSize size(std::max(least.width(), std::min(w->width(), room.width())),
                     std::max(least.height(), std::min(w->height(), room.height())));
    if (size != w->size())
        w->resize(size);
    const QSize outer = size + decoration;
    const int x = std::clamp(frame.x(), screen.left(), std::max(screen.left(), screen.right() + 1 - outer.width()));
    const int y = std::clamp(frame.y(), screen.top(), std::max(screen.top(), screen.bottom() + 1 - outer.height()));
    if (QPoint(x, y) != frame.topLeft())
        w->move(x, y);
    return true;
}

class ScreenKeeper : public QObject {
public:
    explicit ScreenKeeper(QWidget* window) : QObject(window), m_window(window) { window->installEventFilter(this); }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == m_window && !m_pending &&
            (event->type() == QEvent::Resize || event->type() == QEvent::Move || event->type() == QEvent::Show ||
             event->type() == QEvent::LayoutRequest)) {
            // After the event: the layout has its new size hints by then.
            m_pending = true;
            QTimer::singleShot(0, this, [this] {
                m_pending = false;
                if (m_window)
                    fitInside(m_window);
            });
        }
        return false;
    }

private:
    QPointer<QWidget> m_window;
    bool m_pending = false;
};

} // namespace

void keepOnScreen(QWidget* window, QSize preferred)
{
    QSize size = preferred;
    if (const QScreen* screen = window->screen())
        size = size.boundedTo(screen->availableGeometry().size());
    window->resize(size);
    new ScreenKeeper(window);
}

QWidget* scrollableColumn(QWidget* column)
{
    auto* area = new QScrollArea;
    area->setWidget(column);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const int bar = area->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    area->setMinimumWidth(column->minimumSizeHint().width() + bar);
    area->setMaximumWidth(column->maximumWidth() + bar);
    return area;
}

} // namespace topocast::app
