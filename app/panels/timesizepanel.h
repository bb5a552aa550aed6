#pragma once

#include "topocast/analysis/sweep.h"
#include "topocast/scenario/scenario.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <optional>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;

namespace topocast::app {

class Session;

/// The *Time vs size* dock: every algorithm that computes the scenario's pattern on its network,
/// timed by the engine over 8 B … 1 GiB on the scenario's network model (core's runSweep, off the
/// GUI thread), as a log-log chart (Qt Charts): the scenario's algorithm drawn thick, the bound
/// dashed, the scenario's message size a vertical marker. Dragging the marker chooses another
/// size (messageSizeChosen), clicking a curve another algorithm (algorithmChosen); the window
/// turns either into a new request. Below the chart, in words, what the marker's size gives.
/// A sweep too long for a dock (the estimate over kMaxSeconds) is not started, and the panel says
/// so and which command runs it; one over the memory limit, why.
class TimeSizePanel : public QWidget {
    Q_OBJECT
public:
    /// The longest sweep the dock starts (its estimate, in seconds), unless setMaxSeconds.
    static constexpr double kMaxSeconds = 20.0;

    explicit TimeSizePanel(QWidget* parent = nullptr);
    ~TimeSizePanel() override;
    /// Follows every scenario `session` shows from now on.
    void follow(const Session* session);
    /// Shows `scenario`: a new sweep where its network, pattern, source or size grid changed (only
    /// while the panel is visible), otherwise only the highlight and the marker move.
    void setScenario(const Scenario& scenario);
    void setMaxSeconds(double seconds) { m_maxSeconds = seconds; }

    // What the panel shows (for tests and the window).
    bool ready() const { return m_table.has_value(); }
    const std::optional<SweepTable>& table() const { return m_table; }
    QString highlighted() const { return QString::fromStdString(m_scenario.algorithm); }
    std::uint64_t markerSize() const { return m_marker; }
    QString captionText() const;
    QChartView* chartView() const { return m_view; }
    /// Where the curve of `algorithm` (or the marker, for "marker") passes at `bytes`, in the
    /// chart view's viewport coordinates.
    QPoint viewportPoint(const QString& algorithm, std::uint64_t bytes) const;

signals:
    void messageSizeChosen(std::uint64_t bytes);
    void algorithmChosen(const QString& algorithm);
    /// A sweep's result (or its refusal) is shown.
    void finished();

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void start();
    void present(std::optional<SweepTable> table, const QString& message);
    void rebuildChart();
    void placeMarker(double log2Bytes);
    void updateCaption();
    double timeAt(std::size_t algorithm, std::uint64_t bytes) const;

    Scenario m_scenario;
    std::uint64_t m_marker = 0;
    QString m_key; ///< what the table shown (or being computed) was swept for
    QString m_shownKey;
    quint64 m_generation = 0;
    std::optional<SweepTable> m_table;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    QLineSeries* m_markerSeries = nullptr;
    QLabel* m_caption = nullptr;
    double m_yLow = 0, m_yHigh = 1; ///< the time axis, as log₁₀ µs
    bool m_dragging = false;
    double m_maxSeconds = kMaxSeconds;
};

} // namespace topocast::app
