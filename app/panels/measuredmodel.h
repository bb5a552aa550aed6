#pragma once

#include "session/snapshot.h"

#include "topocast/analysis/cost_model.h"
#include "topocast/io/measured_file.h"

#include <QAbstractTableModel>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace topocast::app {

/// A measured-times file (topocast-mpi --out) checked against one schedule, with the model's
/// step times beside it: the wormhole cost t_s + h·t_h + m·t_b per message, slowest message per
/// step, constants fitted to the file's per-message medians (topocast/analysis/cost_model.h).
struct MeasuredData {
    QString file;
    MeasuredTimes measured;
    std::string fingerprint; ///< scheduleFingerprint() of the schedule it was checked against
    CostFit fit;
    std::vector<double> modelSteps; ///< seconds, index step−1
    double modelTotal = 0.0;        ///< Σ modelSteps
};
using MeasuredPtr = std::shared_ptr<const MeasuredData>;

/// Reads `path` and checks that it was measured on `snap`'s schedule (measuredMismatch), then
/// fits the model. Throws Error naming the file and the problem ("…: measured on mesh:8x8 but the
/// schedule is on mesh:4x4").
MeasuredPtr loadMeasured(const QString& path, const Snapshot& snap);

/// True when `data` was checked against a schedule with the same fingerprint as `snap`'s.
bool measuredBelongsTo(const MeasuredData& data, const Snapshot& snap);

/// Measured step times beside the model's, one row per step of one MeasuredData.
class MeasuredModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StepColumn, TransfersColumn, BytesColumn, MinColumn, MedianColumn, ModelColumn, ColumnCount };
    /// SecondsRole: the time columns as seconds (double); the display is microseconds.
    enum Role { SecondsRole = Qt::UserRole };

    explicit MeasuredModel(QObject* parent = nullptr);

    /// Shows `data` (null: empty).
    void setMeasured(MeasuredPtr data);
    MeasuredPtr measured() const { return m_data; }
    /// Closes measured times that do not belong to `snap` (never shown against another schedule)
    /// and says so: " — measured times of run.json closed (they belong to the previous
    /// schedule)"; empty when they belong or there are none.
    QString closeUnlessOf(const Snapshot& snap);

    /// One sentence for timeline position `step` (1..steps): "measured 812.4 µs median (min
    /// 640.2 µs), model 790.0 µs"; empty at position 0 or without data.
    QString stepSentence(int step) const;
    /// Totals, the MPI library's own collective and how it ran, in a few lines.
    QString summary() const;
    /// What the model is, with the fitted constants.
    QString modelDescription() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    MeasuredPtr m_data;
};

/// formatDuration as a QString: "812.4 µs", from 10 ms up "12.35 ms".
QString formatSeconds(double seconds);

} // namespace topocast::app
