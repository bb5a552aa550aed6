#include "window/grab.h"

#include <QPainter>
#include <QWidget>

namespace topocast::app {

QImage grabWithViews(QWidget* window, const std::vector<std::pair<QWidget*, QImage>>& views)
{
    for (const auto& [view, frame] : views)
        if (frame.isNull())
            return {};
    QImage image = window->grab().toImage();
    QPainter p(&image);
    for (const auto& [view, frame] : views) {
        const QPoint at = view->mapTo(window, QPoint(0, 0)) * image.devicePixelRatio();
        p.drawImage(QRect(at, view->size() * image.devicePixelRatio()), frame);
    }
    return image;
}

} // namespace topocast::app
