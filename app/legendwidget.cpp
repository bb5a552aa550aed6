#include "legendwidget.h"

#include <QPainter>

#include <algorithm>

namespace topocast::app {

LegendWidget::LegendWidget(QWidget* parent) : QWidget(parent) {}

void LegendWidget::setEntries(const std::vector<std::pair<QColor, QString>>& entries, const QString& title)
{
    m_entries = entries;
    m_title = title;
    updateGeometry();
    update();
}

QSize LegendWidget::sizeHint() const
{
    // Wide enough for the longest entry (swatch + gap + text), so no label is cut off.
    const int line = fontMetrics().height() + 4;
    int width = 220;
    for (const auto& entry : m_entries)
        width = std::max(width, (line - 6) + 18 + fontMetrics().horizontalAdvance(entry.second));
    return {width, line * (static_cast<int>(m_entries.size()) + (m_title.isEmpty() ? 0 : 1)) + 6};
}

void LegendWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const int line = fontMetrics().height() + 4;
    int y = 3;
    if (!m_title.isEmpty()) {
        QFont f = font();
        f.setBold(true);
        p.setFont(f);
        p.drawText(QRect(4, y, width() - 8, line), Qt::AlignVCenter, m_title);
        p.setFont(font());
        y += line;
    }
    for (const auto& [colour, text] : m_entries) {
        const int s = line - 6;
        p.setPen(Qt::black);
        p.setBrush(colour);
        p.drawRect(4, y + 3, s, s);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(10 + s, y, width() - s - 14, line), Qt::AlignVCenter, text);
        y += line;
    }
}

} // namespace topocast::app
