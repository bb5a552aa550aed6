#include "panels/measuredmodel.h"

#include "topocast/analysis/replay.h"
#include "topocast/model/error.h"
#include "topocast/text/durations.h"

#include <QFileInfo>

#include <numeric>

namespace topocast::app {

QString formatSeconds(double seconds)
{
    return QString::fromStdString(formatDuration(seconds));
}

MeasuredPtr loadMeasured(const QString& path, const Snapshot& snap)
{
    auto data = std::make_shared<MeasuredData>();
    data->file = path;
    data->measured = readMeasuredTimes(path.toStdString());
    if (const auto why = measuredMismatch(data->measured, snap.schedule))
        throw Error(QFileInfo(path).fileName().toStdString() + " does not belong to the schedule shown (" +
                    snap.topology().spec() + " " + snap.schedule.algorithm + "): " + *why);
    data->fingerprint = scheduleFingerprint(snap.schedule);
    const auto samples = costSamples(data->measured, snap.schedule);
    data->fit = fitLinearCost(samples);
    data->modelSteps = modelStepTimes(snap.schedule, data->fit.cost, data->measured.bytesPerBlock);
    data->modelTotal = std::accumulate(data->modelSteps.begin(), data->modelSteps.end(), 0.0);
    return data;
}

bool measuredBelongsTo(const MeasuredData& data, const Snapshot& snap)
{
    return data.fingerprint == scheduleFingerprint(snap.schedule);
}

MeasuredModel::MeasuredModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void MeasuredModel::setMeasured(MeasuredPtr data)
{
    beginResetModel();
    m_data = std::move(data);
    endResetModel();
}

int MeasuredModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_data ? 0 : static_cast<int>(m_data->measured.steps.size());
}

int MeasuredModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MeasuredModel::data(const QModelIndex& index, int role) const
{
    if (!m_data || !index.isValid() || index.row() >= rowCount())
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const MeasuredStep& st = m_data->measured.steps[row];
    const double model = row < m_data->modelSteps.size() ? m_data->modelSteps[row] : 0.0;
    auto seconds = [&](double s) -> QVariant {
        if (role == SecondsRole)
            return s;
        if (role == Qt::DisplayRole)
            return formatSeconds(s);
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    };
    switch (index.column()) {
    case StepColumn:
        return role == Qt::DisplayRole ? QVariant(st.step) : QVariant();
    case TransfersColumn:
        return role == Qt::DisplayRole ? QVariant::fromValue<qulonglong>(st.transfers) : QVariant();
    case BytesColumn:
        return role == Qt::DisplayRole ? QVariant::fromValue<qulonglong>(st.bytes) : QVariant();
    case MinColumn:
        return seconds(st.time.min);
    case MedianColumn:
        return seconds(st.time.median);
    case ModelColumn:
        return seconds(model);
    default:
        return {};
    }
}

QVariant MeasuredModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case StepColumn:
        return QStringLiteral("step");
    case TransfersColumn:
        return QStringLiteral("transfers");
    case BytesColumn:
        return QStringLiteral("bytes");
    case MinColumn:
        return QStringLiteral("measured min");
    case MedianColumn:
        return QStringLiteral("measured median");
    case ModelColumn:
        return QStringLiteral("model");
    default:
        return {};
    }
}

QString MeasuredModel::stepSentence(int step) const
{
    if (!m_data || step < 1 || step > rowCount())
        return {};
    const auto i = static_cast<std::size_t>(step - 1);
    const MeasuredStep& st = m_data->measured.steps[i];
    return QStringLiteral("measured %1 median (min %2), model %3")
        .arg(formatSeconds(st.time.median), formatSeconds(st.time.min), formatSeconds(m_data->modelSteps[i]));
}

QString MeasuredModel::summary() const
{
    if (!m_data)
        return {};
    const MeasuredTimes& m = m_data->measured;
    QString text =
        QStringLiteral("Total (Σ steps): measured %1 median (min %2), model %3")
            .arg(formatSeconds(m.total.median), formatSeconds(m.total.min), formatSeconds(m_data->modelTotal));
    if (m.endToEnd)
        text += QStringLiteral(" · end to end (%1): %2 median (min %3)")
                    .arg(m.mode == "async" ? QStringLiteral("async, no barriers")
                                           : QStringLiteral("barriers between steps included: %1 median")
                                                 .arg(formatSeconds(m.barriers ? m.barriers->median : 0.0)))
                    .arg(formatSeconds(m.endToEnd->median), formatSeconds(m.endToEnd->min));
    if (m.library)
        text += QStringLiteral(" · %1 (the MPI library's own, %2 B): %3 median (min %4)")
                    .arg(QString::fromStdString(m.library->operation))
                    .arg(m.library->bytes)
                    .arg(formatSeconds(m.library->time.median), formatSeconds(m.library->time.min));
    text += QStringLiteral("\n%1 rank%2 on %3 host%4, %5, %6 B per block, %7 repetitions%8%9")
                .arg(m.ranks)
                .arg(m.ranks == 1 ? QString() : QStringLiteral("s"))
                .arg(m.hosts)
                .arg(m.hosts == 1 ? QString() : QStringLiteral("s"))
                .arg(m.mpiLibrary.empty() ? QStringLiteral("unknown MPI") : QString::fromStdString(m.mpiLibrary))
                .arg(m.bytesPerBlock)
                .arg(m.repeat)
                .arg(m.date.empty() ? QString() : QStringLiteral(", ") + QString::fromStdString(m.date))
                .arg(m.verified ? QStringLiteral(", every byte verified")
                                : QStringLiteral(", NOT verified (the run reported mismatches)"));
    return text;
}

QString MeasuredModel::modelDescription() const
{
    if (!m_data)
        return {};
    const LinearCost& c = m_data->fit.cost;
    return QStringLiteral("Model: wormhole routing, a message of m bytes over h hops takes t_s + h·t_h + m·t_b and a "
                          "step lasts as long as its slowest message; t_s = %1, t_h = %2, t_b = %3 ns/B fitted "
                          "(non-negative least squares) to the %4 measured %5 medians, rms error %6.")
        .arg(formatSeconds(c.startup), formatSeconds(c.perHop))
        .arg(c.perByte * 1e9, 0, 'g', 3)
        .arg(m_data->fit.samples)
        .arg(m_data->measured.transfers.empty() ? QStringLiteral("step") : QStringLiteral("message"))
        .arg(formatSeconds(m_data->fit.rms));
}

QString MeasuredModel::closeUnlessOf(const Snapshot& snap)
{
    if (!m_data || measuredBelongsTo(*m_data, snap))
        return {};
    const QString file = QFileInfo(m_data->file).fileName();
    setMeasured(nullptr);
    return QStringLiteral(" — measured times of %1 closed (they belong to the previous schedule)").arg(file);
}

} // namespace topocast::app
