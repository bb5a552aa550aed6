#pragma once

#include "session/snapshot.h"

#include <QSize>
#include <QStringList>
#include <QWidget>

class QChart;
class QChartView;
class QVBoxLayout;

namespace topocast::app {

/// Divisible-load charts beside the scene (Qt Charts), read from the schedule's typed
/// DivisibleLoadFigures: load share per layer (model.alpha), the receive/compute Gantt timeline
/// per layer (timeline.rows), and speedup against layers (speedupByLayers) with the bound.
/// Hidden for schedules without divisible-load figures.
class Session;

class LayerCharts : public QWidget {
    Q_OBJECT
public:
    explicit LayerCharts(QWidget* parent = nullptr);
    /// Shows every snapshot `session` computes from now on (the panel subscribes itself).
    void follow(const Session* session);
    void setSnapshot(SnapshotPtr snap);
    /// Number of charts shown (for tests).
    int chartCount() const { return m_count; }
    /// The charts shown, as file-name stems: "load-shares", "gantt", "speedup".
    QStringList chartNames() const;
    /// The chart shown under `name` (one of chartNames()); nullptr when none is.
    QChart* chart(const QString& name) const;

    /// Size of an exported chart (logical pixels; the PNG has `scale` times as many).
    static constexpr QSize kExportSize{800, 500};

    /// Writes every chart shown as `<dir>/<stem>-<name>.png` (kExportSize × `scale`) and `.svg`,
    /// each atomically (QSaveFile), drawn afresh at that size (not as squeezed on screen). Returns the files written;
    /// throws topocast::Error naming the file that could not be written (files already written stay).
    QStringList saveCharts(const QString& dir, const QString& stem, qreal scale = 2.0) const;

private:
    QVBoxLayout* m_layout = nullptr;
    std::vector<QChartView*> m_views;
    QStringList m_names;
    SnapshotPtr m_snap;
    int m_count = 0;
};

} // namespace topocast::app
