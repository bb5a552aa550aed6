#pragma once

#include "panels/measuredmodel.h"

#include <QWidget>

class QBarSet;
class QChart;
class QChartView;
class QLabel;

namespace topocast::app {

/// Below the timeline: measured step durations beside the model's as a bar chart (Qt Charts,
/// one group per step: measured median, measured min, model; the current step's bars
/// drawn darker), the totals, the MPI library's own collective and what the model is. Reads a
/// MeasuredModel; hidden while the model is empty.
class MeasuredPanel : public QWidget {
    Q_OBJECT
public:
    explicit MeasuredPanel(MeasuredModel* model, QWidget* parent = nullptr);

    /// The highlighted step (1-based; 0 = none).
    int highlightedStep() const { return m_step; }
    /// The summary text shown beside the chart (for tests).
    QString summaryText() const;
    /// Number of bar groups (steps) in the chart.
    int barCount() const;

public slots:
    /// Highlights timeline position `step`'s bars (position 0 highlights none).
    void setStep(int step);

private:
    void rebuild();

    MeasuredModel* m_model;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_summary = nullptr;
    std::vector<QBarSet*> m_sets;
    int m_step = 0;
};

} // namespace topocast::app
