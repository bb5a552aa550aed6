#include "panels/legendwidget.h"

#include <QLinearGradient>
#include <QPainter>

#include <algorithm>

namespace topocast::app {

LegendWidget::LegendWidget(QWidget* parent) : QWidget(parent)
{
}

void LegendWidget::setEntries(const std::vector<std::pair<QColor, QString>>& entries, const QString& title)
{
    m_entries = entries;
    m_title = title;
    updateGeometry();
    update();
}

void LegendWidget::setColourBar(std::optional<ColourBar> bar)
{
    m_bar = std::move(bar);
    updateGeometry();
    update();
}

void LegendWidget::setRow(bool row)
{
    m_row = row;
    QSizePolicy p = sizePolicy();
    p.setHeightForWidth(row);
    setSizePolicy(p);
    updateGeometry();
}

QSize LegendWidget::sizeHint() const
{
    if (m_row)
        return {800, heightForWidth(800)};
    // Wide enough for the longest entry (swatch + gap + text), so no label is cut off.
    const int line = fontMetrics().height() + 4;
    int width = 220;
    for (const auto& entry : m_entries)
        width = std::max(width, (line - 6) + 18 + fontMetrics().horizontalAdvance(entry.second));
    return {width, layoutAt(width, nullptr)};
}

QSize LegendWidget::minimumSizeHint() const
{
    if (m_row)
        return QWidget::minimumSizeHint();
    return {220, layoutAt(std::max(width(), 220), nullptr)};
}

int LegendWidget::heightForWidth(int width) const
{
    return layoutAt(width, nullptr);
}

void LegendWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    layoutAt(width(), &p);
}

int LegendWidget::layoutAt(int width, QPainter* p) const
{
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height() + 4;
    const int s = line - 6;
    int x = 4, y = 3;
    auto place = [&](int w) { // the next item's left edge: in a row, wrap when it does not fit
        if (!m_row) {
            x = 4;
            return;
        }
        if (x > 4 && x + w > width - 4) {
            x = 4;
            y += line;
        }
    };
    auto advance = [&](int w) {
        if (m_row)
            x += w + 12;
        else
            y += line;
    };
    if (!m_title.isEmpty()) {
        QFont f = font();
        f.setBold(true);
        const int w = QFontMetrics(f).horizontalAdvance(m_title);
        place(w);
        if (p) {
            p->setFont(f);
            p->setPen(palette().color(QPalette::WindowText));
            p->drawText(QRect(x, y, w + 2, line), Qt::AlignVCenter, m_title);
            p->setFont(font());
        }
        advance(w);
    }
    for (const auto& [colour, text] : m_entries) {
        const int w = s + 6 + fm.horizontalAdvance(text);
        place(w);
        if (p) {
            p->setPen(Qt::black);
            p->setBrush(colour);
            p->drawRect(x, y + 3, s, s);
            p->setPen(palette().color(QPalette::WindowText));
            p->drawText(QRect(x + s + 6, y, w - s - 4, line), Qt::AlignVCenter, text);
        }
        advance(w);
    }
    if (!m_bar)
        return (m_row && x > 4 ? y + line : y) + 3;
    // The colour bar: the colours from min to max, a tick and a number at each label; in a column
    // under the swatches with a caption, in a row beside them (the title names the mode).
    const ColourBar& bar = *m_bar;
    const QString first = bar.labels.empty() ? QString() : bar.labels.front().second;
    const QString last = bar.labels.empty() ? QString() : bar.labels.back().second;
    const int margin = std::max(fm.horizontalAdvance(first), fm.horizontalAdvance(last)) / 2 + 4;
    int barWidth = width - 2 * margin;
    if (m_row) {
        barWidth = std::min(barWidth, 26 * fm.averageCharWidth());
        place(barWidth + 2 * margin);
    } else if (x > 4 || y > 3) {
        x = 4;
    }
    const QRect r(x + margin, y + 2, std::max(10, barWidth), fm.height());
    if (p)
        paintBar(*p, r, width);
    return r.bottom() + 6 + fm.height() + (m_row ? 2 : fm.height() + 4);
}

void LegendWidget::paintBar(QPainter& p, const QRect& r, int width) const
{
    const ColourBar& bar = *m_bar;
    const QFontMetrics fm = fontMetrics();
    QLinearGradient g(r.topLeft(), r.topRight());
    for (std::size_t i = 0; i < bar.stops.size(); ++i)
        g.setColorAt(bar.stops.size() > 1 ? static_cast<double>(i) / static_cast<double>(bar.stops.size() - 1) : 0.0,
                     bar.stops[i]);
    p.fillRect(r, g);
    p.setPen(palette().color(QPalette::WindowText));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
    const double span = bar.max - bar.min;
    int lastRight = -1000;
    for (std::size_t i = 0; i < bar.labels.size(); ++i) {
        const auto& [value, text] = bar.labels[i];
        const int tx = r.left() + (span > 0 ? static_cast<int>((value - bar.min) / span * r.width()) : 0);
        p.drawLine(tx, r.bottom(), tx, r.bottom() + 4);
        const int w = fm.horizontalAdvance(text);
        const int at = std::clamp(tx - w / 2, 0, std::max(0, width - w));
        const bool end = i == 0 || i + 1 == bar.labels.size(); // the ends always show their number
        if (end ||
            (at > lastRight + 6 && at + w + 6 < r.right() - fm.horizontalAdvance(bar.labels.back().second) / 2)) {
            p.drawText(at, r.bottom() + 4 + fm.ascent(), text);
            lastRight = at + w;
        }
    }
    if (!m_row)
        p.drawText(QRect(4, r.bottom() + 6 + fm.height(), width - 8, fm.height() + 2), Qt::AlignLeft | Qt::AlignVCenter,
                   bar.caption);
}

} // namespace topocast::app
