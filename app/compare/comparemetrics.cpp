#include "compare/comparemetrics.h"

#include "words/narration.h"

#include "topocast/text/numbers.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPen>
#include <QTableWidget>
#include <QValueAxis>

#include <algorithm>

namespace topocast::app {

namespace {
const QColor kAccent[2] = {QColor(230, 140, 20), QColor(40, 150, 230)};

QString number(double v)
{
    return QString::fromStdString(formatSignificant(v, 12));
}
} // namespace

CompareMetrics::CompareMetrics(QWidget* parent) : QWidget(parent)
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(2, 2, 2, 2);
    for (int i = 0; i < 2; ++i) {
        m_narration[i] = new QLabel;
        m_narration[i]->setWordWrap(true);
        m_narration[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_narration[i]->setMinimumHeight(m_narration[i]->fontMetrics().height() * 3);
        m_narration[i]->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_narration[i]->setTextFormat(Qt::RichText);
        m_narration[i]->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
        grid->addWidget(m_narration[i], 0, i);
    }
    m_table = new QTableWidget(0, 4);
    m_table->setHorizontalHeaderLabels(
        {QStringLiteral("metric"), QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("B − A")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    grid->addWidget(m_table, 1, 0);
    auto* chart = new QChart;
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setTitle(QStringLiteral("TCD per step (solid) and cumulative (dashed)"));
    m_chartView = new QChartView(chart);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(190);
    grid->addWidget(m_chartView, 1, 1);
    auto* row = new QHBoxLayout;
    m_differing = new QLabel;
    m_differing->setWordWrap(true); // a long sentence wraps instead of widening the window
    m_highlight = new QCheckBox(QStringLiteral("ring in magenta where one side is ahead"));
    m_highlight->setChecked(true);
    m_highlight->setToolTip(QStringLiteral(
        "at each step, the nodes informed on one side only get a magenta ring; their colour still says their state"));
    row->addWidget(m_differing);
    row->addWidget(m_highlight);
    row->addStretch();
    grid->addLayout(row, 2, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    connect(m_highlight, &QCheckBox::toggled, this, &CompareMetrics::highlightToggled);
}

bool CompareMetrics::highlightDiffering() const
{
    return m_highlight->isChecked();
}
QString CompareMetrics::narration(int side) const
{
    return m_narration[side == 0 ? 0 : 1]->text();
}
QChart* CompareMetrics::chart() const
{
    return m_chartView->chart();
}

void CompareMetrics::setCompare(CompareSnapshotPtr cmp)
{
    m_cmp = std::move(cmp);
    m_table->setRowCount(0);
    if (!m_cmp)
        return;
    const Comparison& c = m_cmp->comparison;
    m_table->setRowCount(static_cast<int>(c.rows.size()));
    for (int r = 0; r < static_cast<int>(c.rows.size()); ++r) {
        const Comparison::Row& row = c.rows[static_cast<std::size_t>(r)];
        const double d = row.difference();
        const QString diff = d == 0 ? QStringLiteral("0") : (d > 0 ? QStringLiteral("+") : QString()) + number(d);
        const QStringList cells{QString::fromStdString(row.name), number(row.a), number(row.b), diff};
        for (int col = 0; col < 4; ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            if (col > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, col, item);
        }
    }
    m_table->resizeColumnsToContents();
    const bool dataEverywhere =
        everyNodeStarts(m_cmp->a->schedule.pattern()) && everyNodeStarts(m_cmp->b->schedule.pattern());
    m_differing->setText(
        dataEverywhere
            ? QStringLiteral("Every node holds data from the start: A ends with every result after %1 steps, "
                             "B after %2.")
                  .arg(m_cmp->a->stepCount())
                  .arg(m_cmp->b->stepCount())
        : c.differing.empty() ? QStringLiteral("Both schedules inform every node at the same step.")
                              : QStringLiteral("%1 of %2 nodes are informed at different steps by A and B.")
                                    .arg(c.differing.size())
                                    .arg(c.informedA.size()));
    rebuildChart();
    setStep(m_step);
}

void CompareMetrics::setStep(int step)
{
    m_step = step;
    if (!m_cmp)
        return;
    for (int i = 0; i < 2; ++i) {
        const Snapshot& snap = m_cmp->side(i);
        QString text = QStringLiteral("<b style=\"color:%1\">%2</b> — %3<br>%4")
                           .arg(kAccent[i].name(), sideTitle(i, snap).toHtmlEscaped(), sideFigures(*m_cmp, i),
                                narrate(snap, m_cmp->sideStep(i, step), 3).toHtmlEscaped());
        if (step > static_cast<int>(snap.stepCount()))
            text += QStringLiteral(" <i>(done: holds its last state)</i>");
        m_narration[i]->setText(text);
    }
}

void CompareMetrics::rebuildChart()
{
    QChart* chart = m_chartView->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes())
        chart->removeAxis(axis);
    const Comparison& c = m_cmp->comparison;
    auto* x = new QValueAxis;
    x->setTitleText(QStringLiteral("step"));
    x->setRange(0, std::max<double>(1, c.steps));
    x->setLabelFormat(QStringLiteral("%d"));
    x->setTickCount(static_cast<int>(std::min<std::uint32_t>(c.steps, 10)) + 1);
    auto* y = new QValueAxis;
    y->setTitleText(QStringLiteral("TCD"));
    y->setLabelFormat(QStringLiteral("%d"));
    const std::uint64_t top = std::max({c.cumulativeTcdA.back(), c.cumulativeTcdB.back(), std::uint64_t{1}});
    y->setRange(0, static_cast<double>(top));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const std::vector<std::uint64_t>* perStep[2] = {&c.tcdPerStepA, &c.tcdPerStepB};
    const std::vector<std::uint64_t>* cumulative[2] = {&c.cumulativeTcdA, &c.cumulativeTcdB};
    for (int i = 0; i < 2; ++i) {
        const QString letter = i == 0 ? QStringLiteral("A") : QStringLiteral("B");
        auto* step = new QLineSeries;
        step->setName(letter + QStringLiteral(" per step"));
        for (std::size_t s = 0; s < perStep[i]->size(); ++s)
            step->append(static_cast<double>(s + 1), static_cast<double>((*perStep[i])[s]));
        step->setPen(QPen(kAccent[i], 2.5));
        auto* cum = new QLineSeries;
        cum->setName(letter + QStringLiteral(" cumulative"));
        for (std::size_t s = 0; s < cumulative[i]->size(); ++s)
            cum->append(static_cast<double>(s), static_cast<double>((*cumulative[i])[s]));
        cum->setPen(QPen(kAccent[i], 2.0, Qt::DashLine));
        for (QLineSeries* series : {step, cum}) {
            chart->addSeries(series);
            series->attachAxis(x);
            series->attachAxis(y);
        }
    }
}

} // namespace topocast::app
