#pragma once

#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "topocast/analysis/source_map.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;

namespace topocast::app {

/// The source map's side panel: which metric the map shows (only those the algorithm has), a
/// colour bar with its numbers and a histogram of the values over every source. Shows what the
/// snapshot holds (core computeSourceMap, sourceMapHistogram, sourceMapTicks); computes nothing.
class Session;

class SourceMapPanel : public QWidget {
    Q_OBJECT
public:
    explicit SourceMapPanel(QWidget* parent = nullptr);

    /// Shows every snapshot `session` computes from now on, and asks it for the metric chosen in
    /// the box (the panel subscribes itself).
    void follow(Session* session);
    void setSnapshot(SnapshotPtr snapshot);
    /// The metric chosen in the box.
    SourceMapMetric metric() const;
    /// Chooses `metric` in the box (emits metricChosen when it changes).
    void chooseMetric(SourceMapMetric metric);

    // What is drawn, for tests.
    const std::vector<SourceMapBin>& bins() const { return m_bins; }
    const std::vector<double>& ticks() const { return m_ticks; }
    QString summaryText() const;
    QComboBox* metricBox() const { return m_box; }

    /// Bars of the histogram at most; the colour bar's ticks at most.
    static constexpr int kMaxBins = 24;
    static constexpr int kTicks = 5;

signals:
    void metricChosen(topocast::SourceMapMetric metric);

private:
    void fillBox();

    QComboBox* m_box = nullptr;
    QLabel* m_summary = nullptr;
    QWidget* m_bar = nullptr;
    QWidget* m_histogram = nullptr;
    SnapshotPtr m_snapshot;
    std::vector<SourceMapBin> m_bins;
    std::vector<double> m_ticks;
    SourceMapScale m_scale;
    bool m_filling = false;
};

} // namespace topocast::app

Q_DECLARE_METATYPE(topocast::SourceMapMetric)
