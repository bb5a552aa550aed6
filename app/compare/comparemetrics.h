#pragma once

#include "compare/comparesnapshot.h"

#include <QWidget>

class QCheckBox;
class QChart;
class QChartView;
class QLabel;
class QTableWidget;

namespace topocast::app {

/// Under the split view: both narrations of the current step, the metrics of both sides with
/// B − A, a chart of TCD per step and cumulative TCD for both, and how many nodes the two
/// schedules inform at different steps (with the switch that rings them in the views). Shows
/// what core's Comparison holds; computes nothing.
class CompareMetrics : public QWidget {
    Q_OBJECT
public:
    explicit CompareMetrics(QWidget* parent = nullptr);

    void setCompare(CompareSnapshotPtr cmp);
    void setStep(int step);
    bool highlightDiffering() const;
    /// The narrations shown (tests and the window screenshot read them).
    QString narration(int side) const;
    QTableWidget* table() const { return m_table; }
    QChart* chart() const;

signals:
    void highlightToggled(bool on);

private:
    void rebuildChart();

    CompareSnapshotPtr m_cmp;
    int m_step = 0;
    QLabel* m_narration[2] = {nullptr, nullptr};
    QLabel* m_differing = nullptr;
    QCheckBox* m_highlight = nullptr;
    QTableWidget* m_table = nullptr;
    QChartView* m_chartView = nullptr;
};

} // namespace topocast::app
