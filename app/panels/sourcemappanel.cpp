#include "panels/sourcemappanel.h"

#include "session/session.h"
#include "style/scenestyle.h"

#include <QComboBox>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace topocast::app {

namespace {

QString valueText(const Snapshot& snap, double value)
{
    return QString::fromStdString(formatSourceMapValue(value, snap.sourceMapMetric, snap.sourceMapTimeUnit));
}

/// A widget drawn by a function (the colour bar, the histogram): the panel owns the data.
class Painted : public QWidget {
public:
    Painted(int height, std::function<void(QPainter&, const QRect&)> draw) : m_draw(std::move(draw))
    {
        setMinimumHeight(height);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    }
    QSize sizeHint() const override { return {300, minimumHeight()}; }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        m_draw(p, rect());
    }

private:
    std::function<void(QPainter&, const QRect&)> m_draw;
};

QFont boldFont(const QWidget* w, int delta)
{
    QFont f = w->font();
    f.setPointSize(std::max(8, f.pointSize() + delta));
    f.setBold(true);
    return f;
}

} // namespace

SourceMapPanel::SourceMapPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    auto* title = new QLabel(QStringLiteral("Source map shows"));
    layout->addWidget(title);
    m_box = new QComboBox;
    m_box->setToolTip(QStringLiteral("the figure of the schedule from every node as source"));
    layout->addWidget(m_box);
    fillBox();
    connect(m_box, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling)
            emit metricChosen(metric());
    });

    m_bar = new Painted(58, [this](QPainter& p, const QRect& r) {
        if (!m_snapshot || m_snapshot->sourceMap.empty())
            return;
        // The best in its own colour in a box of its own, then the scale of the others: the
        // colours the nodes are drawn in (sourceMapColour).
        const QRect box = r.adjusted(10, 4, 0, -30);
        const QRect best(box.left(), box.top(), box.height(), box.height());
        p.fillRect(best, Palette::normal().optimum.to<QColor>());
        p.setPen(palette().color(QPalette::WindowText));
        p.drawRect(best);
        p.setFont(boldFont(this, 1));
        p.drawText(best.left(), best.bottom() + 4 + QFontMetrics(p.font()).ascent(),
                   valueText(*m_snapshot, m_scale.best));
        if (m_scale.high <= m_scale.best)
            return; // every source is a best one
        const QRect bar = r.adjusted(10 + box.height() + 14, 4, -10, -30);
        QLinearGradient g(bar.topLeft(), bar.topRight());
        for (int i = 0; i <= 10; ++i) {
            const double t = i / 10.0;
            g.setColorAt(t, sourceMapColour({0.0, 1.0}, t).to<QColor>());
        }
        p.fillRect(bar, g);
        p.drawRect(bar);
        const double span = m_scale.high - m_scale.low;
        auto xOf = [&](double v) {
            return bar.left() + static_cast<int>(span > 0 ? (v - m_scale.low) / span * bar.width() : 0);
        };
        // The scale's ends, the round ticks between them where they do not collide.
        const QFontMetrics fm(p.font());
        const QString lo = valueText(*m_snapshot, m_scale.low), hi = valueText(*m_snapshot, m_scale.high);
        const int loRight = bar.left() + fm.horizontalAdvance(lo) + 6;
        const int hiLeft = bar.right() - fm.horizontalAdvance(hi) - 6;
        const int textY = bar.bottom() + 4 + fm.ascent();
        p.drawLine(bar.left(), bar.bottom(), bar.left(), bar.bottom() + 4);
        p.drawLine(bar.right(), bar.bottom(), bar.right(), bar.bottom() + 4);
        p.drawText(bar.left() - 2, textY, lo);
        p.drawText(bar.right() - fm.horizontalAdvance(hi) + 2, textY, hi);
        int lastRight = loRight;
        for (double t : m_ticks) {
            const int x = xOf(t);
            p.drawLine(x, bar.bottom(), x, bar.bottom() + 4);
            const QString s = valueText(*m_snapshot, t);
            const int w = fm.horizontalAdvance(s);
            if (x - w / 2 > lastRight && x + w / 2 + 6 < hiLeft) {
                p.drawText(x - w / 2, textY, s);
                lastRight = x + w / 2 + 6;
            }
        }
    });
    layout->addWidget(m_bar);

    m_histogram = new Painted(150, [this](QPainter& p, const QRect& r) {
        if (!m_snapshot || m_bins.empty())
            return;
        p.setFont(boldFont(this, 0));
        const QFontMetrics fm(p.font());
        const QRect area = r.adjusted(10, fm.height() + 2, -10, -fm.height() - 6);
        std::uint32_t most = 1;
        for (const SourceMapBin& b : m_bins)
            most = std::max(most, b.count);
        const double w = static_cast<double>(area.width()) / static_cast<double>(m_bins.size());
        const QColor text = palette().color(QPalette::WindowText);
        for (std::size_t i = 0; i < m_bins.size(); ++i) {
            const SourceMapBin& b = m_bins[i];
            const int h = static_cast<int>(static_cast<double>(b.count) / most * area.height());
            const QRectF bar(area.left() + w * static_cast<double>(i) + 1, area.bottom() - h, std::max(1.0, w - 2), h);
            p.fillRect(
                bar, sourceMapColour(m_scale, b.from == m_scale.best ? b.from : (b.from + b.to) / 2, Palette::normal())
                         .to<QColor>());
            if (b.count > 0 && w >= fm.horizontalAdvance(QString::number(b.count)) + 2) {
                p.setPen(text);
                p.drawText(QRectF(bar.left() - 4, bar.top() - fm.height() - 1, bar.width() + 8, fm.height()),
                           Qt::AlignHCenter | Qt::AlignBottom, QString::number(b.count));
            }
        }
        p.setPen(text);
        p.drawLine(area.bottomLeft(), area.bottomRight());
        const int y = area.bottom() + 4 + fm.ascent();
        p.drawText(area.left(), y, valueText(*m_snapshot, m_bins.front().from));
        const QString hi = valueText(*m_snapshot, m_bins.back().to);
        p.drawText(area.right() - fm.horizontalAdvance(hi), y, hi);
        const QString caption = QStringLiteral("sources");
        p.drawText(area.left() + (area.width() - fm.horizontalAdvance(caption)) / 2, y, caption);
    });
    layout->addWidget(m_histogram);

    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
}

void SourceMapPanel::fillBox()
{
    m_filling = true;
    const SourceMapMetric current = m_box->count() ? metric() : SourceMapMetric::Tcd;
    const std::vector<SourceMapMetric>& offered =
        m_snapshot && !m_snapshot->sourceMapMetrics.empty() ? m_snapshot->sourceMapMetrics : allSourceMapMetrics();
    m_box->clear();
    for (SourceMapMetric m : offered)
        m_box->addItem(QString::fromStdString(metricWords(m)), QVariant::fromValue(static_cast<int>(m)));
    const SourceMapMetric want = m_snapshot ? m_snapshot->sourceMapMetric : current;
    const int i = m_box->findData(QVariant::fromValue(static_cast<int>(want)));
    m_box->setCurrentIndex(std::max(0, i));
    m_filling = false;
}

SourceMapMetric SourceMapPanel::metric() const
{
    return static_cast<SourceMapMetric>(m_box->currentData().toInt());
}

void SourceMapPanel::chooseMetric(SourceMapMetric metric)
{
    const int i = m_box->findData(QVariant::fromValue(static_cast<int>(metric)));
    if (i >= 0)
        m_box->setCurrentIndex(i);
}

void SourceMapPanel::follow(Session* session)
{
    connect(session, &Session::scheduleReady, this, &SourceMapPanel::setSnapshot);
    connect(this, &SourceMapPanel::metricChosen, session, &Session::setSourceMapMetric);
}

void SourceMapPanel::setSnapshot(SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    fillBox();
    m_bins.clear();
    m_ticks.clear();
    if (m_snapshot && !m_snapshot->sourceMap.empty()) {
        m_scale = sourceMapScale(m_snapshot->sourceMap);
        m_bins = sourceMapHistogram(m_snapshot->sourceMap, m_snapshot->sourceMapMetric, kMaxBins);
        m_ticks = sourceMapTicks(m_scale.low, m_scale.high, m_snapshot->sourceMapMetric, kTicks);
    }
    m_summary->setText(summaryText());
    m_bar->update();
    m_histogram->update();
}

QString SourceMapPanel::summaryText() const
{
    if (!m_snapshot)
        return {};
    if (m_snapshot->sourceMap.empty())
        return QStringLiteral("no source map for this algorithm and network (brute force up to %1 sources)")
            .arg(kBruteForceSourceMapLimit);
    const Snapshot& s = *m_snapshot;
    const QString words = QString::fromStdString(metricWords(s.sourceMapMetric));
    std::size_t present = 0;
    for (double x : s.sourceMap)
        present += std::isnan(x) ? 0 : 1;
    QString text = QStringLiteral("%1 from %2 of %3 sources: best %4 (%5), max %6")
                       .arg(words)
                       .arg(present)
                       .arg(s.sourceMap.size())
                       .arg(valueText(s, m_scale.best))
                       .arg(m_scale.bestCount == 1 ? QStringLiteral("1 source")
                                                   : QStringLiteral("%1 sources").arg(m_scale.bestCount))
                       .arg(valueText(s, m_scale.high));
    const NodeId src = s.schedule.source();
    if (src < s.sourceMap.size())
        text += QStringLiteral("; this source %1").arg(valueText(s, s.sourceMap[src]));
    if (s.sourceMapMetric == SourceMapMetric::Time)
        text += QStringLiteral("\ntime: ") + QString::fromStdString(sourceMapTimeFigure(s.scenario.algorithm));
    return text;
}

} // namespace topocast::app
