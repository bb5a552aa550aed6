#include "panels/measuredpanel.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QValueAxis>

#include <algorithm>
#include <iterator>

namespace topocast::app {

MeasuredPanel::MeasuredPanel(MeasuredModel* model, QWidget* parent) : QWidget(parent), m_model(model)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_chart = new QChart;
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_view = new QChartView(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(190);
    m_view->setMaximumHeight(230);
    layout->addWidget(m_view, 3);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(m_summary, 2);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MeasuredPanel::rebuild);
    rebuild();
}

QString MeasuredPanel::summaryText() const
{
    return m_summary->text();
}

int MeasuredPanel::barCount() const
{
    return m_sets.empty() ? 0 : static_cast<int>(m_sets.front()->count());
}

void MeasuredPanel::rebuild()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    m_sets.clear();
    const int rows = m_model->rowCount();
    if (rows == 0) {
        m_summary->clear();
        hide();
        return;
    }
    double largest = 0.0;
    for (int r = 0; r < rows; ++r)
        for (int c : {MeasuredModel::MedianColumn, MeasuredModel::ModelColumn})
            largest = std::max(largest, m_model->index(r, c).data(MeasuredModel::SecondsRole).toDouble());
    const bool ms = largest >= 10e-3;
    const double unit = ms ? 1e3 : 1e6;

    auto* series = new QBarSeries;
    const std::pair<int, QString> columns[] = {{MeasuredModel::MedianColumn, QStringLiteral("measured median")},
                                               {MeasuredModel::MinColumn, QStringLiteral("measured min")},
                                               {MeasuredModel::ModelColumn, QStringLiteral("model")}};
    const QColor colours[] = {QColor(0x2f, 0x6f, 0xb5), QColor(0x9c, 0xc3, 0xe6), QColor(0xe0, 0x8a, 0x2c)};
    QStringList categories;
    for (int r = 0; r < rows; ++r)
        categories << m_model->index(r, MeasuredModel::StepColumn).data().toString();
    for (std::size_t k = 0; k < std::size(columns); ++k) {
        auto* set = new QBarSet(columns[k].second);
        set->setColor(colours[k]);
        set->setBorderColor(colours[k]);
        set->setSelectedColor(colours[k].darker(190)); // the current step: same hue, darker
        for (int r = 0; r < rows; ++r)
            *set << m_model->index(r, columns[k].first).data(MeasuredModel::SecondsRole).toDouble() * unit;
        series->append(set);
        m_sets.push_back(set);
    }
    m_chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    m_chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto* y = new QValueAxis;
    y->setTitleText(ms ? QStringLiteral("ms") : QStringLiteral("µs"));
    y->setMin(0.0);
    y->setMax(largest * unit * 1.08);
    y->applyNiceNumbers();
    m_chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    m_chart->setTitle(QStringLiteral("Measured step times beside the model's — %1")
                          .arg(QFileInfo(m_model->measured()->file).fileName()));
    m_summary->setText(m_model->summary() + QStringLiteral("\n") + m_model->modelDescription());
    show();
    setStep(m_step);
}

void MeasuredPanel::setStep(int step)
{
    m_step = step;
    for (QAbstractAxis* axis : m_chart->axes(Qt::Horizontal))
        axis->setTitleText(step >= 1 && step <= barCount() ? QStringLiteral("step (step %1 darker)").arg(step)
                                                           : QStringLiteral("step"));
    for (QBarSet* set : m_sets) {
        set->deselectAllBars();
        if (step >= 1 && step <= set->count())
            set->selectBar(step - 1);
    }
}

} // namespace topocast::app
