#include "layercharts.h"

#include "topocast/algorithms/divisible_load.h"
#include "topocast/error.h"

#include <QBarCategoryAxis>
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace topocast::app {

namespace {
std::vector<double> numbers(const nlohmann::ordered_json& v)
{
    std::vector<double> out;
    if (!v.is_array())
        return out;
    for (const auto& e : v) {
        if (!e.is_number())
            return {};
        out.push_back(e.get<double>());
    }
    return out;
}

double field(const nlohmann::ordered_json& o, std::initializer_list<const char*> names)
{
    for (const char* n : names)
        if (o.contains(n) && o[n].is_number())
            return o[n].get<double>();
    return std::nan("");
}

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

/// Load share per layer: a bar per α_i; nullptr without "alpha".
QChart* loadShareChart(const nlohmann::ordered_json& info)
{
    const std::vector<double> alpha = info.contains("alpha") ? numbers(info["alpha"]) : std::vector<double>{};
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

/// The rows of "timeline" (an array, or an object with "rows"); nullptr without them.
const nlohmann::ordered_json* timelineRows(const nlohmann::ordered_json& info)
{
    if (!info.contains("timeline"))
        return nullptr;
    const auto& tl = info["timeline"];
    if (tl.is_array())
        return &tl;
    if (tl.is_object() && tl.contains("rows") && tl["rows"].is_array())
        return &tl["rows"];
    return nullptr;
}

/// Gantt: per layer, wait → receive → (wait) → compute as stacked horizontal bars; nullptr
/// without a timeline row that has its times.
QChart* ganttChart(const nlohmann::ordered_json& info)
{
    const nlohmann::ordered_json* rows = timelineRows(info);
    if (!rows || rows->empty())
        return nullptr;
    auto* idle = new QBarSet(QStringLiteral("wait"));
    auto* recv = new QBarSet(QStringLiteral("receive"));
    auto* gap = new QBarSet(QStringLiteral("idle"));
    auto* comp = new QBarSet(QStringLiteral("compute"));
    for (QBarSet* set : {idle, gap}) {
        set->setColor(Qt::transparent);
        set->setBorderColor(Qt::transparent);
    }
    QStringList cats;
    int layer = 0;
    for (const auto& e : *rows) {
        if (!e.is_object())
            continue;
        const double rs = field(e, {"receive_begin", "receive_start", "start"});
        const double re = field(e, {"receive_end", "recv_end"});
        double cs = field(e, {"compute_begin", "compute_start"});
        const double ce = field(e, {"compute_end", "end", "finish"});
        if (std::isnan(cs))
            cs = re;
        if (std::isnan(rs) || std::isnan(re) || std::isnan(ce))
            continue;
        *idle << rs;
        *recv << (re - rs);
        *gap << (cs - re);
        *comp << (ce - cs);
        cats << QString::number(e.contains("layer") && e["layer"].is_number() ? e["layer"].get<int>() : layer);
        ++layer;
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
    x->setTitleText(QStringLiteral("time (s)"));
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    return chart;
}

/// Speedup for h = 1, 2, … layers: the schedule's "speedup" series, or for divisible-load the
/// model's (the schedule reports only its own h).
std::vector<double> speedupSeries(const Snapshot& snap)
{
    const auto& info = snap.schedule.info;
    std::vector<double> speedup = info.contains("speedup") ? numbers(info["speedup"]) : std::vector<double>{};
    if (!speedup.empty() || snap.scenario.algorithm != "divisible-load")
        return speedup;
    try {
        DivisibleLoadParams pr = divisibleLoadParamsFrom(snap.scenario.params);
        const int top = std::max(pr.layers, 8);
        for (int h = 1; h <= top; ++h) {
            pr.layers = h;
            const double s = divisibleLoadSpeedup(pr);
            if (!std::isfinite(s))
                break;
            speedup.push_back(s);
        }
    } catch (const Error&) {
        speedup.clear();
    }
    return speedup;
}

/// Speedup against layers with the 1 + p/ρ bound ("bound"); nullptr for fewer than two points.
QChart* speedupChart(const nlohmann::ordered_json& info, const std::vector<double>& speedup)
{
    if (speedup.size() <= 1)
        return nullptr;
    auto* line = new QLineSeries;
    line->setName(QStringLiteral("speedup (model)"));
    for (std::size_t i = 0; i < speedup.size(); ++i)
        line->append(static_cast<double>(i + 1), speedup[i]);
    auto* chart = new QChart;
    chart->addSeries(line);
    if (info.contains("bound") && info["bound"].is_number()) {
        const double b = info["bound"].get<double>();
        auto* bound = new QLineSeries;
        bound->setName(QStringLiteral("1 + p/ρ bound"));
        bound->append(1, b);
        bound->append(static_cast<double>(speedup.size()), b);
        QPen pen(Qt::red);
        pen.setStyle(Qt::DashLine);
        bound->setPen(pen);
        chart->addSeries(bound);
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

/// The charts a snapshot has (possibly none), named by file-name stem; the caller owns them.
std::vector<std::pair<QString, QChart*>> buildCharts(const Snapshot& snap)
{
    std::vector<std::pair<QString, QChart*>> charts;
    if (!snap.schedule.info.is_object())
        return charts;
    const auto& info = snap.schedule.info;
    if (QChart* c = loadShareChart(info))
        charts.push_back({QStringLiteral("load-shares"), c});
    if (QChart* c = ganttChart(info))
        charts.push_back({QStringLiteral("gantt"), c});
    if (QChart* c = speedupChart(info, speedupSeries(snap)))
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

QStringList LayerCharts::chartNames() const { return m_names; }

QStringList LayerCharts::saveCharts(const QString& dir, const QString& stem, qreal scale) const
{
    QStringList written;
    if (!m_snap)
        return written;
    // Fresh charts at a size of their own, whatever room the side panel gives them on screen.
    const QSize size(kExportSize);
    for (auto& [name, chart] : buildCharts(*m_snap)) {
        QChartView view(chart);  // owns the chart
        view.setRenderHint(QPainter::Antialiasing);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(size);
        view.show();  // lays the chart out (not on screen)
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
        QSaveFile png(base + QStringLiteral(".png"));
        if (!png.open(QIODevice::WriteOnly) || !image.save(&png, "PNG") || !png.commit())
            throw Error("cannot write " + png.fileName().toStdString() + ": " + png.errorString().toStdString());
        written << png.fileName();

        QSaveFile svg(base + QStringLiteral(".svg"));
        if (!svg.open(QIODevice::WriteOnly))
            throw Error("cannot write " + svg.fileName().toStdString() + ": " + svg.errorString().toStdString());
        QSvgGenerator generator;
        generator.setOutputDevice(&svg);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(chart->title());
        generator.setDescription(QStringLiteral("topocast divisible-load chart"));
        {
            QPainter painter(&generator);
            view.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
        }
        if (!svg.commit())
            throw Error("cannot write " + svg.fileName().toStdString() + ": " + svg.errorString().toStdString());
        written << svg.fileName();
    }
    return written;
}

} // namespace topocast::app
