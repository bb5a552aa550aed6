#pragma once
// One printed page of a handout, laid out from the top of its printable area down: text, pictures,
// legends and blank tables to fill in by hand; the footer at the bottom.

#include <QColor>
#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QRect>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace topocast::app {

/// Lays out one page: text flows down from the top of the printable area.
class PrintPage {
public:
    PrintPage(QPainter& p, const QRect& area, int dpi) : m_p(p), m_area(area), m_y(area.top()), m_dpi(dpi) {}

    int pt(double points) const { return static_cast<int>(std::lround(points * m_dpi / 72.0)); }

    void text(const QString& s, double points, bool bold = false, const QColor& colour = Qt::black)
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pt(points));
        f.setBold(bold);
        m_p.setFont(f);
        m_p.setPen(colour);
        const QRect box(m_area.left(), m_y, m_area.width(), m_area.bottom() - m_y);
        const QRect used = m_p.boundingRect(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, s);
        m_p.drawText(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, s);
        m_y += used.height() + pt(points * 0.45);
    }

    void picture(const QImage& image)
    {
        const QRect target(m_area.left() + (m_area.width() - image.width()) / 2, m_y, image.width(), image.height());
        m_p.drawImage(target, image);
        m_p.setPen(QPen(QColor(120, 120, 120), pt(0.5)));
        m_p.setBrush(Qt::NoBrush);
        m_p.drawRect(target);
        m_y += image.height() + pt(10);
    }

    void footer(const QString& s)
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pt(8));
        m_p.setFont(f);
        m_p.setPen(QColor(110, 110, 110));
        m_p.drawText(QRect(m_area.left(), m_area.bottom() - pt(12), m_area.width(), pt(12)),
                     Qt::AlignRight | Qt::AlignBottom, s);
    }

    /// Colour swatches with their meaning, in rows across the page.
    void legend(const std::vector<std::pair<QColor, QString>>& entries, double points)
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pt(points));
        m_p.setFont(f);
        const QFontMetrics fm(f);
        const int box = fm.height() * 3 / 4, gap = pt(points);
        int x = m_area.left();
        for (const auto& [colour, label] : entries) {
            const int w = box + pt(3) + fm.horizontalAdvance(label) + gap;
            if (x + w > m_area.right() && x > m_area.left()) {
                x = m_area.left();
                m_y += fm.height() + pt(2);
            }
            m_p.setPen(QPen(Qt::black, pt(0.4)));
            m_p.setBrush(colour);
            m_p.drawRect(x, m_y + (fm.height() - box) / 2, box, box);
            m_p.setPen(Qt::black);
            m_p.drawText(QRect(x + box + pt(3), m_y, w, fm.height()), Qt::AlignVCenter | Qt::AlignLeft, label);
            x += w;
        }
        m_y += fm.height() + pt(points * 0.8);
    }

    /// How tall text() would write `s`.
    int measure(const QString& s, double points, bool bold = false) const
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pt(points));
        f.setBold(bold);
        const QFontMetrics fm(f);
        const QRect box(0, 0, m_area.width(), 1 << 20);
        return fm.boundingRect(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, s).height() + pt(points * 0.45);
    }

    /// An empty table to fill in by hand: a header row of `columns`, then as many of `rows` blank
    /// rows as fit above the footer. Returns the blank rows drawn.
    int blankTable(const QStringList& columns, int rows, double points)
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pt(points));
        f.setBold(true);
        m_p.setFont(f);
        const int rowHeight = pt(points * 2.2), width = m_area.width() / static_cast<int>(columns.size());
        const int fit = std::max(0, std::min(rows, (remaining() - pt(24)) / rowHeight - 1));
        m_p.setPen(QPen(QColor(60, 60, 60), pt(0.6)));
        m_p.setBrush(Qt::NoBrush);
        for (int r = 0; r <= fit; ++r)
            for (int c = 0; c < columns.size(); ++c) {
                const QRect cell(m_area.left() + c * width, m_y + r * rowHeight, width, rowHeight);
                m_p.drawRect(cell);
                if (r == 0)
                    m_p.drawText(cell.adjusted(pt(4), 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, columns[c]);
            }
        m_y += (fit + 1) * rowHeight + pt(8);
        return fit;
    }

    int remaining() const { return m_area.bottom() - m_y; }
    bool atTop() const { return m_y == m_area.top(); }

private:
    QPainter& m_p;
    QRect m_area;
    int m_y;
    int m_dpi;
};

} // namespace topocast::app
