#include "panels/timesizepanel.h"

#include "session/session.h"

#include "topocast/algorithms/registry.h"
#include "topocast/io/network_file.h"
#include "topocast/io/sweep_svg.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"
#include "topocast/text/numbers.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFutureWatcher>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <bit>
#include <cmath>

namespace topocast::app {

namespace {

constexpr int kFirstPower = 3, kLastPower = 30; // 8 B … 1 GiB, the sweep's default grid

/// The scenario's collective: its "pattern" parameter, else its algorithm's first pattern.
Pattern scenarioPattern(const Scenario& s)
{
    if (const auto p = s.params.find("pattern"))
        return parsePattern(*p);
    for (const AlgorithmInfo& a : algorithms())
        if (a.name == s.algorithm && !a.patterns.empty())
            return parsePattern(a.patterns.front());
    return Pattern::Broadcast;
}

/// The sweep the dock runs for `s`: every algorithm of its pattern on its network model, over
/// 8 B … 1 GiB and its own message size.
SweepRequest requestFor(const Scenario& s)
{
    SweepRequest r;
    r.topology = s.topology;
    r.pattern = scenarioPattern(s);
    r.source = hasRoot(r.pattern) ? s.source : NodeId{0};
    r.network = s.network ? *s.network : NetworkModel{};
    for (int k = kFirstPower; k <= kLastPower; ++k)
        r.sizes.push_back(std::uint64_t{1} << k);
    if (std::find(r.sizes.begin(), r.sizes.end(), r.network.message) == r.sizes.end())
        r.sizes.push_back(r.network.message);
    std::sort(r.sizes.begin(), r.sizes.end());
    return r;
}

/// What a table was swept for: equal keys, equal tables.
QString keyOf(const SweepRequest& r)
{
    NetworkModel m = r.network;
    m.message = 0;
    QString key = QString::fromStdString(r.topology.displayName() + "|" + toString(r.pattern) + "|" +
                                         std::to_string(r.source.value()) + "|" + networkText(m));
    for (std::uint64_t s : r.sizes)
        key += QLatin1Char(' ') + QString::number(s);
    return key;
}

double log2Of(std::uint64_t bytes)
{
    return std::log2(static_cast<double>(bytes));
}
/// The chart's height for a time: log₁₀ of microseconds (the axis labels say the time).
double heightOf(double ns)
{
    return std::log10(std::max(ns, 1e-3) / 1e3);
}

QString sizeText(std::uint64_t bytes)
{
    return QString::fromStdString(formatSize(bytes));
}
QString timeText(double ns)
{
    return QString::fromStdString(formatSeconds(ns * 1e-9));
}

/// The pen of the i-th algorithm's line: the sweep chart's colour and dashes (io/sweep_svg.h).
QPen linePen(std::size_t i, bool highlighted)
{
    QPen pen(QColor(QString::fromLatin1(sweepLineColour(i))));
    pen.setWidthF(highlighted ? 5.0 : 2.5);
    QList<qreal> dashes;
    for (const QString& d : QString::fromLatin1(sweepLineDash(i)).split(QLatin1Char(' '), Qt::SkipEmptyParts))
        dashes << d.toDouble() / 2.5; // Qt's dashes are in pen widths
    if (!dashes.isEmpty())
        pen.setDashPattern(dashes);
    return pen;
}

struct Outcome {
    std::optional<SweepTable> table;
    QString message;
};

Outcome runFor(const SweepRequest& request, double maxSeconds)
{
    try {
        const SweepSchedules schedules = sweepSchedules(request);
        checkSweepMemory(schedules, request.sizes.size());
        const double seconds = estimateSweepSeconds(schedules, request.sizes.size(), false);
        if (seconds > maxSeconds)
            return {std::nullopt, QStringLiteral("This sweep would take about %1 s, too long for the dock; run "
                                                 "topocast-cli sweep --topology %2 --pattern %3.")
                                      .arg(std::max(1.0, std::ceil(seconds)))
                                      .arg(QString::fromStdString(request.topology.spec()),
                                           QString::fromStdString(toString(request.pattern)))};
        return {runSweep(request, schedules), QString()};
    } catch (const std::exception& e) {
        return {std::nullopt, QString::fromStdString(e.what())};
    }
}

} // namespace

TimeSizePanel::TimeSizePanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_chart = new QChart;
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_view = new QChartView(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(260);
    m_view->viewport()->installEventFilter(this);
    m_view->viewport()->setMouseTracking(true);
    layout->addWidget(m_view, 1);
    m_caption = new QLabel(QStringLiteral("Time against message size: computed when this dock is shown."));
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_caption);
}

TimeSizePanel::~TimeSizePanel() = default;

void TimeSizePanel::follow(const Session* session)
{
    connect(session, &Session::scheduleReady, this, [this](const SnapshotPtr& snap) {
        if (snap)
            setScenario(snap->scenario);
    });
    setScenario(session->scenario());
}

void TimeSizePanel::setScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    const SweepRequest request = requestFor(scenario);
    m_marker = request.network.message;
    const QString key = keyOf(request);
    if (key == m_shownKey) {
        rebuildChart(); // the same table: the highlight and the marker move
        return;
    }
    m_key = key;
    if (isVisible())
        start();
}

void TimeSizePanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_key != m_shownKey)
        start();
}

void TimeSizePanel::start()
{
    const SweepRequest request = requestFor(m_scenario);
    const quint64 generation = ++m_generation;
    const QString key = keyOf(request);
    m_caption->setText(QStringLiteral("Timing every %1 algorithm on the %2 at 28 sizes…")
                           .arg(QString::fromStdString(toString(request.pattern)),
                                QString::fromStdString(request.topology.displayName())));
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, key] {
        Outcome outcome = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer scenario's sweep is on its way
        m_shownKey = key;
        present(std::move(outcome.table), outcome.message);
    });
    watcher->setFuture(QtConcurrent::run(runFor, request, m_maxSeconds));
}

void TimeSizePanel::present(std::optional<SweepTable> table, const QString& message)
{
    m_table = std::move(table);
    rebuildChart();
    if (!m_table)
        m_caption->setText(message);
    emit finished();
}

double TimeSizePanel::timeAt(std::size_t algorithm, std::uint64_t bytes) const
{
    for (const SweepRow& row : m_table->rows)
        if (row.size == bytes)
            return row.times[algorithm];
    return std::nan("");
}

void TimeSizePanel::rebuildChart()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    m_markerSeries = nullptr;
    if (!m_table || m_table->rows.empty()) {
        m_chart->setTitle(QString());
        return;
    }
    const SweepTable& t = *m_table;
    m_chart->setTitle(QStringLiteral("%1 on the %2: time against message size (LogGP, %3; contention not charged)")
                          .arg(QString::fromStdString(toString(t.request.pattern)),
                               QString::fromStdString(t.request.topology.displayName()),
                               QString::fromStdString(t.request.network.preset)));
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (int k = kFirstPower; k <= kLastPower; ++k)
        if (k == kFirstPower || k % 4 == 2 || k == kLastPower)
            x->append(sizeText(std::uint64_t{1} << k), k);
    x->setRange(kFirstPower, kLastPower);
    x->setTitleText(QStringLiteral("message size M (log scale)"));
    auto* y = new QCategoryAxis;
    y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    y->setTitleText(QStringLiteral("time (log scale)"));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    double low = 1e300, high = 0;
    const auto add = [&](QLineSeries* s) {
        m_chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    for (std::size_t a = 0; a < t.algorithms.size(); ++a) {
        auto* s = new QLineSeries;
        const QString name = QString::fromStdString(t.algorithms[a]);
        s->setName(name);
        s->setPen(linePen(a, name == highlighted()));
        for (const SweepRow& row : t.rows) {
            s->append(log2Of(row.size), heightOf(row.times[a]));
            low = std::min(low, heightOf(row.times[a]));
            high = std::max(high, heightOf(row.times[a]));
        }
        connect(s, &QLineSeries::clicked, this, [this, name] {
            if (name != highlighted())
                emit algorithmChosen(name);
        });
        add(s);
    }
    auto* bound = new QLineSeries;
    bound->setName(QStringLiteral("the bound"));
    QPen dashed(QColor(0x44, 0x44, 0x44));
    dashed.setWidthF(2.0);
    dashed.setStyle(Qt::DotLine);
    bound->setPen(dashed);
    for (const SweepRow& row : t.rows) {
        bound->append(log2Of(row.size), heightOf(row.bound.total));
        low = std::min(low, heightOf(row.bound.total));
    }
    add(bound);
    m_yLow = std::floor(low);
    m_yHigh = std::max(std::ceil(high), m_yLow + 1);
    for (double e = m_yLow; e <= m_yHigh; ++e)
        y->append(timeText(std::pow(10.0, e) * 1e3), e);
    y->setRange(m_yLow, m_yHigh);
    m_markerSeries = new QLineSeries;
    m_markerSeries->setName(QStringLiteral("M"));
    QPen marker(QColor(0x20, 0x20, 0x20));
    marker.setWidthF(2.0);
    marker.setStyle(Qt::DashDotLine);
    m_markerSeries->setPen(marker);
    add(m_markerSeries);
    for (QLegendMarker* lm : m_chart->legend()->markers(m_markerSeries))
        lm->setVisible(false);
    placeMarker(log2Of(m_marker));
    updateCaption();
}

void TimeSizePanel::placeMarker(double log2Bytes)
{
    if (!m_markerSeries)
        return;
    m_markerSeries->clear();
    m_markerSeries->append(log2Bytes, m_yLow);
    m_markerSeries->append(log2Bytes, m_yHigh);
}

void TimeSizePanel::updateCaption()
{
    m_caption->setText(captionText());
}

QString TimeSizePanel::captionText() const
{
    if (!m_table)
        return m_caption->text();
    const SweepTable& t = *m_table;
    const auto row = std::find_if(t.rows.begin(), t.rows.end(), [&](const SweepRow& r) { return r.size == m_marker; });
    if (row == t.rows.end())
        return QString();
    const auto mine = std::find(t.algorithms.begin(), t.algorithms.end(), m_scenario.algorithm);
    QString text =
        QStringLiteral("At M = %1: %2 is fastest, %3 (%4 above the bound of %5)")
            .arg(sizeText(row->size), QString::fromStdString(t.algorithms[row->winner]),
                 timeText(row->times[row->winner]),
                 QString::fromStdString(formatSignificant(100 * (row->times[row->winner] / row->bound.total - 1), 3)) +
                     QStringLiteral(" %"),
                 timeText(row->bound.total));
    if (mine != t.algorithms.end() && static_cast<std::size_t>(mine - t.algorithms.begin()) != row->winner)
        text += QStringLiteral("; %1, the scenario's, %2")
                    .arg(highlighted(), timeText(row->times[static_cast<std::size_t>(mine - t.algorithms.begin())]));
    text += QStringLiteral(".");
    for (const Crossover& c : t.crossovers)
        text += QLatin1Char(' ') + QString::fromStdString(c.text) + QLatin1Char('.');
    text += QStringLiteral(" Drag the dashed line to choose the size; click a curve to choose the algorithm.");
    return text;
}

QPoint TimeSizePanel::viewportPoint(const QString& algorithm, std::uint64_t bytes) const
{
    double height = (m_yLow + m_yHigh) / 2;
    if (algorithm != QLatin1String("marker") && m_table) {
        const auto it = std::find(m_table->algorithms.begin(), m_table->algorithms.end(), algorithm.toStdString());
        if (it != m_table->algorithms.end())
            height = heightOf(timeAt(static_cast<std::size_t>(it - m_table->algorithms.begin()), bytes));
    }
    const QPointF scene = m_chart->mapToPosition(QPointF(log2Of(bytes), height), m_markerSeries);
    return m_view->mapFromScene(scene);
}

bool TimeSizePanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_view->viewport() || !m_markerSeries || !m_table)
        return QWidget::eventFilter(watched, event);
    const auto* mouse = dynamic_cast<QMouseEvent*>(event);
    if (mouse == nullptr)
        return false;
    const QPointF value = m_chart->mapToValue(m_view->mapToScene(mouse->position().toPoint()), m_markerSeries);
    const double snapped = std::clamp(std::round(value.x()), double{kFirstPower}, double{kLastPower});
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        // Within half a power of two of the marker: the marker is taken.
        if (mouse->button() == Qt::LeftButton && std::abs(value.x() - log2Of(m_marker)) <= 0.5) {
            m_dragging = true;
            return true;
        }
        return false;
    case QEvent::MouseMove:
        if (m_dragging) {
            placeMarker(snapped);
            return true;
        }
        return false;
    case QEvent::MouseButtonRelease:
        if (m_dragging) {
            m_dragging = false;
            const std::uint64_t bytes = std::uint64_t{1} << static_cast<int>(snapped);
            if (bytes != m_marker)
                emit messageSizeChosen(bytes);
            else
                placeMarker(log2Of(m_marker));
            return true;
        }
        return false;
    default:
        return false;
    }
}

} // namespace topocast::app
