#include "export/frameoverlay.h"

#include "words/narration.h"

#include <QFont>
#include <QFontMetrics>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace topocast::app {

namespace {

const QColor kText(240, 242, 245);
const QColor kSwatchEdge(150, 150, 155);

QFont pixelFont(int px, bool bold = false)
{
    QFont f;
    f.setPixelSize(std::max(1, px));
    f.setBold(bold);
    return f;
}

int padFor(int px)
{
    return std::max(2, px / 3);
}

/// Two lines of type `px` and their padding: the title band's and the caption box's height.
int twoLines(int px, bool bold)
{
    return 2 * QFontMetrics(pixelFont(px, bold)).lineSpacing() + 2 * padFor(px);
}

/// Lays out the legend strip in `area` (its height ignored) and, with a painter, draws it:
/// swatches with their words in rows that wrap, then the colour bar with its numbers and caption.
/// Returns the height used.
int layoutLegend(QPainter* p, const QRect& area, int px, const LegendStrip& legend)
{
    if (legend.entries.empty() && !legend.bar)
        return 0;
    const QFont font = pixelFont(px);
    const QFontMetrics fm(font);
    const int pad = padFor(px);
    const int line = fm.height() + pad;
    const int swatch = fm.ascent();
    const int left = area.left() + 2 * pad, right = area.right() - 2 * pad;
    int x = left, y = area.top() + pad;
    if (p) {
        p->setFont(font);
        p->setRenderHint(QPainter::Antialiasing, false);
    }
    for (const auto& [colour, text] : legend.entries) {
        const int w = swatch + pad + fm.horizontalAdvance(text);
        if (x > left && x + w > right) {
            x = left;
            y += line;
        }
        if (p) {
            p->setPen(kSwatchEdge);
            p->setBrush(colour);
            p->drawRect(x, y + (line - swatch) / 2, swatch, swatch);
            p->setPen(kText);
            p->drawText(QRect(x + swatch + pad, y, w - swatch - pad + 2, line), Qt::AlignLeft | Qt::AlignVCenter, text);
        }
        x += w + px;
    }
    if (!legend.entries.empty())
        y += line;
    if (legend.bar) {
        const ColourBar& bar = *legend.bar;
        int margin = 0;
        for (const auto& label : bar.labels)
            margin = std::max(margin, fm.horizontalAdvance(label.second) / 2 + 2);
        const int captionWidth = fm.horizontalAdvance(bar.caption);
        const int room = right - left - 2 * margin - px - captionWidth;
        const QRect r(left + margin, y + pad / 2, std::clamp(room, 4 * px, 18 * px), std::max(4, px * 4 / 5));
        if (p) {
            QLinearGradient g(r.topLeft(), r.topRight());
            for (std::size_t i = 0; i < bar.stops.size(); ++i)
                g.setColorAt(bar.stops.size() > 1 ? static_cast<double>(i) / static_cast<double>(bar.stops.size() - 1)
                                                  : 0.0,
                             bar.stops[i]);
            p->fillRect(r, g);
            p->setPen(kSwatchEdge);
            p->setBrush(Qt::NoBrush);
            p->drawRect(r);
            p->setPen(kText);
            const double span = bar.max - bar.min;
            int lastRight = -100000;
            for (std::size_t i = 0; i < bar.labels.size(); ++i) {
                const auto& [value, text] = bar.labels[i];
                const int tx =
                    r.left() + (span > 0 ? static_cast<int>(std::lround((value - bar.min) / span * r.width())) : 0);
                const int w = fm.horizontalAdvance(text);
                const int at = tx - w / 2;
                const bool end = i == 0 || i + 1 == bar.labels.size(); // the ends always show their number
                const int lastWidth = fm.horizontalAdvance(bar.labels.back().second);
                if (!end && (at <= lastRight + pad || at + w + pad >= r.right() - lastWidth / 2))
                    continue;
                p->drawLine(tx, r.bottom(), tx, r.bottom() + pad);
                p->drawText(at, r.bottom() + pad + fm.ascent(), text);
                lastRight = at + w;
            }
            p->drawText(QRect(r.right() + margin + px, r.top(), right - r.right() - margin - px,
                              r.height() + pad + fm.height()),
                        Qt::AlignLeft | Qt::AlignVCenter, bar.caption);
        }
        y = r.bottom() + pad + fm.height() + pad;
    }
    return y - area.top() + pad / 2;
}

QString stepHeading(const Snapshot& snap, int step)
{
    const int steps = static_cast<int>(snap.stepCount());
    if (step <= 0 || steps == 0)
        return QStringLiteral("Start");
    const int s = std::min(step, steps);
    QString heading = QStringLiteral("Step %1 of %2").arg(s).arg(steps);
    const auto& labels = snap.schedule.stepLabels;
    if (static_cast<std::size_t>(s - 1) < labels.size() && !labels[static_cast<std::size_t>(s - 1)].empty())
        heading += QStringLiteral(" (%1)").arg(QString::fromStdString(labels[static_cast<std::size_t>(s - 1)]));
    return heading;
}

} // namespace

QString fittedNarrationText(const Snapshot& snap, int step, const QFont& font, int width, int lines)
{
    const QFontMetrics fm(font);
    const int room = std::max(1, lines) * fm.lineSpacing() + 1;
    QString text;
    for (int shown = 6; shown >= 0; --shown) { // 0: "Step 4: 16 transfers — TCD so far 64"
        text = narrate(snap, step, shown);
        if (fm.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, text).height() <= room)
            return text;
    }
    // Still too long (a very narrow frame): whatever fits in the lines' worth, with an ellipsis.
    return fm.elidedText(text, Qt::ElideRight, std::max(1, std::max(1, lines) * width - width / 3));
}

FrameOverlay defaultOverlay(video::VideoFormat format, ViewMode mode)
{
    if (format == video::VideoFormat::PngSequence)
        return defaultPictureOverlay(mode);
    return FrameOverlay{true, true, false};
}

FrameOverlay defaultPictureOverlay(ViewMode mode)
{
    return FrameOverlay{false, mode == ViewMode::SourceMap || mode == ViewMode::DataHeld, false};
}

LegendStrip legendStrip(const Snapshot& snap, ViewMode mode, bool cumulativeHeat, const Palette& palette)
{
    return LegendStrip{legendEntries(&snap, mode, palette), legendBar(&snap, mode, cumulativeHeat, palette)};
}

OverlayLayout overlayLayout(QSize size, const FrameOverlay& overlay, const LegendStrip& legend)
{
    OverlayLayout l;
    l.size = size;
    // 24 px at 1280×720: the back row of a classroom reads it from a projected frame.
    // Smaller type where the bands would take more than half the frame, down to 9 px; a frame too
    // small for legible bands (a thumbnail) drops the legend, then the title.
    int px = std::max(9, static_cast<int>(std::min(size.height() * 0.034, size.width() * 0.019)));
    int titleHeight = 0, legendHeight = 0, captionHeight = 0;
    bool withTitle = overlay.title, withLegend = overlay.legend;
    for (;;) {
        l.fontPx = px;
        l.legendPx = std::max(8, px * 9 / 10);
        titleHeight = withTitle ? twoLines(px, true) : 0;
        legendHeight =
            withLegend ? layoutLegend(nullptr, QRect(0, 0, size.width(), size.height()), l.legendPx, legend) : 0;
        captionHeight = overlay.captions ? twoLines(px, false) + padFor(px) : 0;
        if (titleHeight + legendHeight + captionHeight <= size.height() / 2)
            break;
        if (px > 9)
            --px;
        else if (withLegend)
            withLegend = false;
        else if (withTitle)
            withTitle = false;
        else
            break;
    }
    if (withTitle)
        l.title = QRect(0, 0, size.width(), titleHeight);
    // The captions own a band under the view, as the title and the legend do: a subtitle never
    // covers a node or a link (it covered the bottom row of the 4×4 torus and, on the 8×8×8, the
    // planes holding the step's receivers).
    captionHeight = std::min(captionHeight, std::max(0, size.height() - titleHeight - legendHeight - 1));
    l.view =
        QRect(0, titleHeight, size.width(), std::max(1, size.height() - titleHeight - legendHeight - captionHeight));
    if (captionHeight > 0) {
        const int pad = padFor(px);
        l.caption = QRect(2 * pad, l.view.bottom() + 1, size.width() - 4 * pad, captionHeight);
    }
    const int legendTop = l.view.bottom() + 1 + captionHeight;
    if (withLegend && legendHeight > 0)
        l.legend = QRect(0, legendTop, size.width(), size.height() - legendTop);
    return l;
}

FrameText frameText(const Snapshot& snap, int step, const FrameOverlay& overlay, const OverlayLayout& layout)
{
    FrameText t;
    const int pad = padFor(layout.fontPx);
    if (overlay.captions)
        t.caption = fittedNarrationText(snap, step, pixelFont(layout.fontPx), layout.caption.width() - 2 * pad, 2);
    if (!layout.title.isEmpty())
        t.title = overlay.captions ? stepHeading(snap, step)
                                   : fittedNarrationText(snap, step, pixelFont(layout.fontPx, true),
                                                         layout.title.width() - 4 * pad, 2);
    return t;
}

QImage composeFrame(const QImage& view, const OverlayLayout& layout, const FrameText& text, const LegendStrip& legend,
                    const Palette& palette)
{
    QImage out(layout.size, QImage::Format_RGB32);
    const QColor background = palette.background.to<QColor>();
    out.fill(background);
    QPainter p(&out);
    p.drawImage(layout.view.topLeft(),
                view.size() == layout.view.size()
                    ? view
                    : view.scaled(layout.view.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation));
    p.setRenderHint(QPainter::TextAntialiasing);
    const int pad = padFor(layout.fontPx);
    const QColor band = background.lighter(140);
    if (!layout.title.isEmpty()) {
        p.fillRect(layout.title, band);
        p.setFont(pixelFont(layout.fontPx, true));
        p.setPen(kText);
        const QRect r = layout.title.adjusted(2 * pad, pad, -2 * pad, -pad);
        p.setClipRect(r);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, text.title);
        p.setClipping(false);
    }
    if (!layout.legend.isEmpty()) {
        p.fillRect(layout.legend, band);
        layoutLegend(&p, layout.legend, layout.legendPx, legend);
    }
    if (!layout.caption.isEmpty() && !text.caption.isEmpty()) {
        // A subtitle: light words on a dark box as wide as they are, centred at the bottom.
        const QFont font = pixelFont(layout.fontPx);
        const QFontMetrics fm(font);
        const int width = layout.caption.width() - 2 * pad;
        const QRect words = fm.boundingRect(QRect(0, 0, width, layout.caption.height()),
                                            Qt::AlignHCenter | Qt::TextWordWrap, text.caption);
        const int w = std::min(words.width(), width) + 2 * pad;
        const int h = std::min(words.height() + 2 * pad, layout.caption.height());
        const QRect box(layout.caption.center().x() - w / 2, layout.caption.top() + (layout.caption.height() - h) / 2,
                        w, h);
        p.setClipRect(layout.caption);
        p.fillRect(box, QColor(0, 0, 0, 210));
        p.setFont(font);
        p.setPen(Qt::white);
        p.drawText(box.adjusted(pad, pad, -pad, -pad), Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextWordWrap,
                   text.caption);
        p.setClipping(false);
    }
    p.end();
    return out;
}

} // namespace topocast::app
