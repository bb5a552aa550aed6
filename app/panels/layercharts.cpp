#include "panels/layercharts.h"

#include "session/output.h"
#include "session/session.h"

#include "topocast/algorithms/figures.h"
#include "topocast/model/error.h"
#include "topocast/text/durations.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace topocast::app {

namespace {
QChartView* makeView(QChart* chart)
{
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(180);
    return view;
}
/// A category axis titled "layer" with `cats`, on `side` of `chart`, attached to `series`.
void addLayerAxis(QChart* chart, QAbstractSeries* series, const QStringList& cats, Qt::Alignment side)
{
    auto* axis = new QBarCategoryAxis;
    axis->append(cats);
    axis->setTitleText(QStringLiteral("layer"));
    chart->addAxis(axis, side);
    series->attachAxis(axis);
}

/// Load share per layer: a bar per α_i; nullptr without any.
QChart* loadShareChart(const std::vector<double>& alpha)
{
    if (alpha.empty())
        return nullptr;
    auto* set = new QBarSet(QStringLiteral("load share"));
    QStringList cats;
    for (std::size_t i = 0; i < alpha.size(); ++i) {
        *set << alpha[i];
        cats << QString::number(i);
    }
    auto* series = new QBarSeries;
    series->append(set);
    auto* chart = new QChart;
    chart->addSeries(series);
    chart->setTitle(QStringLiteral("Load per layer (α)"));
    addLayerAxis(chart, series, cats, Qt::AlignBottom);
    auto* y = new QValueAxis;
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    chart->legend()->hide();
    return chart;
}

/// Gantt: per layer, wait → receive → (wait) → compute as stacked horizontal bars; nullptr
/// without a row whose times are finite.
QChart* ganttChart(const std::vector<DivisibleLoadTimelineRow>& rows)
{
    auto* idle = new QBarSet(QStringLiteral("wait"));
    auto* recv = new QBarSet(QStringLiteral("receive"));
    auto* gap = new QBarSet(QStringLiteral("idle"));
    auto* comp = new QBarSet(QStringLiteral("compute"));
    for (QBarSet* set : {idle, gap}) {
        set->setColor(Qt::transparent);
        set->setBorderColor(Qt::transparent);
    }
    const auto finite = [](const DivisibleLoadTimelineRow& r) {
        return std::isfinite(r.receiveBegin) && std::isfinite(r.receiveEnd) && std::isfinite(r.computeBegin) &&
               std::isfinite(r.computeEnd);
    };
    double end = 0;
    for (const DivisibleLoadTimelineRow& r : rows)
        end = finite(r) ? std::max(end, r.computeEnd) : end;
    // Times in the unit that shows their digits (a few ms read "0.00" in seconds).
    const DurationUnit unit = durationUnitFor(end);
    QStringList cats;
    for (const DivisibleLoadTimelineRow& r : rows) {
        if (!finite(r))
            continue;
        *idle << r.receiveBegin / unit.seconds;
        *recv << (r.receiveEnd - r.receiveBegin) / unit.seconds;
        *gap << (r.computeBegin - r.receiveEnd) / unit.seconds;
        *comp << (r.computeEnd - r.computeBegin) / unit.seconds;
        cats << QString::number(r.layer);
    }
    auto* series = new QHorizontalStackedBarSeries;
    series->append(idle);
    series->append(recv);
    series->append(gap);
    series->append(comp);
    if (cats.isEmpty()) {
        delete series; // owns the sets
        return nullptr;
    }
    auto* chart = new QChart;
    chart->addSeries(series);
    chart->setTitle(QStringLiteral("Receive / compute per layer (Gantt)"));
    for (QBarSet* hidden : {idle, gap}) // the invisible spacers need no legend entry
        for (QLegendMarker* m : chart->legend()->markers(series))
            if (m->label() == hidden->label())
                m->setVisible(false);
    addLayerAxis(chart, series, cats, Qt::AlignLeft);
    auto* x = new QValueAxis;
    x->setTitleText(QStringLiteral("time (%1)").arg(QString::fromUtf8(unit.symbol)));
    x->setRange(0, end / unit.seconds);
    x->applyNiceNumbers();
    x->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    return chart;
}

/// Speedup against layers (core's divisibleLoadSpeedupByLayers) with the min{n, 1 + p/ρ} bound;
/// nullptr for fewer than two points.
QChart* speedupChart(const std::vector<double>& speedup, double bound)
{
    if (speedup.size() <= 1)
        return nullptr;
    auto* line = new QLineSeries;
    line->setName(QStringLiteral("speedup (model)"));
    for (std::size_t i = 0; i < speedup.size(); ++i)
        line->append(static_cast<double>(i + 1), speedup[i]);
    auto* chart = new QChart;
    chart->addSeries(line);
    if (std::isfinite(bound) && bound > 0) {
        auto* boundLine = new QLineSeries;
        boundLine->setName(QStringLiteral("1 + p/ρ bound"));
        boundLine->append(1, bound);
        boundLine->append(static_cast<double>(speedup.size()), bound);
        QPen pen(Qt::red);
        pen.setStyle(Qt::DashLine);
        boundLine->setPen(pen);
        chart->addSeries(boundLine);
    }
    chart->createDefaultAxes();
    chart->setTitle(QStringLiteral("Speedup against layers"));
    if (auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0))) {
        x->setTickCount(static_cast<int>(speedup.size())); // one tick per layer count
        x->setLabelFormat(QStringLiteral("%d"));
        x->setTitleText(QStringLiteral("layers h"));
    }
    if (auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0))) {
        y->setLabelFormat(QStringLiteral("%.0f"));
        y->setTitleText(QStringLiteral("speedup"));
    }
    return chart;
}

/// The charts a snapshot has (none but for divisible-load figures), named by file-name stem;
/// the caller owns them.
std::vector<std::pair<QString, QChart*>> buildCharts(const Snapshot& snap)
{
    std::vector<std::pair<QString, QChart*>> charts;
    const DivisibleLoadFigures* f =
        snap.schedule.figures ? snap.schedule.figures->get<DivisibleLoadFigures>() : nullptr;
    if (!f)
        return charts;
    if (QChart* c = loadShareChart(f->model.alpha))
        charts.push_back({QStringLiteral("load-shares"), c});
    if (QChart* c = ganttChart(f->timeline.rows))
        charts.push_back({QStringLiteral("gantt"), c});
    if (QChart* c = speedupChart(f->speedupByLayers, f->model.bound))
        charts.push_back({QStringLiteral("speedup"), c});
    return charts;
}
} // namespace

LayerCharts::LayerCharts(QWidget* parent) : QWidget(parent)
{
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    hide();
}

QChart* LayerCharts::chart(const QString& name) const
{
    const auto i = m_names.indexOf(name);
    return i < 0 ? nullptr : m_views[static_cast<std::size_t>(i)]->chart();
}

void LayerCharts::follow(const Session* session)
{
    connect(session, &Session::scheduleReady, this, &LayerCharts::setSnapshot);
}

void LayerCharts::setSnapshot(SnapshotPtr snap)
{
    for (QChartView* v : m_views)
        delete v;
    m_views.clear();
    m_names.clear();
    m_snap = std::move(snap);
    if (m_snap)
        for (auto& [name, chart] : buildCharts(*m_snap)) {
            m_names << name;
            m_views.push_back(makeView(chart));
            m_layout->addWidget(m_views.back());
        }
    m_count = static_cast<int>(m_views.size());
    setVisible(m_count > 0);
}

QStringList LayerCharts::chartNames() const
{
    return m_names;
}

QStringList LayerCharts::saveCharts(const QString& dir, const QString& stem, qreal scale) const
{
    QStringList written;
    if (!m_snap)
        return written;
    // Fresh charts at a size of their own, whatever room the side panel gives them on screen.
    const QSize size(kExportSize);
    for (auto& [name, chart] : buildCharts(*m_snap)) {
        QChartView view(chart); // owns the chart
        view.setRenderHint(QPainter::Antialiasing);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(size);
        view.show(); // lays the chart out (not on screen)
        chart->setMargins(QMargins(8, 8, 8, 8));
        const QString base = QDir(dir).filePath(stem + QLatin1Char('-') + name);

        QImage image(size * scale, QImage::Format_ARGB32);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            view.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        savePng(image, base + QStringLiteral(".png"));
        written << base + QStringLiteral(".png");

        const QString title = chart->title(); // clang 14 lambdas cannot capture structured bindings
        saveAtomically(base + QStringLiteral(".svg"), [&](QIODevice& svg) {
            QSvgGenerator generator;
            generator.setOutputDevice(&svg);
            generator.setSize(size);
            generator.setViewBox(QRect(QPoint(0, 0), size));
            generator.setTitle(title);
            generator.setDescription(QStringLiteral("topocast divisible-load chart"));
            QPainter painter(&generator);
            view.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
            return painter.end();
        });
        written << base + QStringLiteral(".svg");
    }
    return written;
}

} // namespace topocast::app
