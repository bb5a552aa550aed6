#include "metricsmodel.h"

#include <cmath>

namespace topocast::app {

namespace {
QString formatNumber(double v)
{
    if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 1e15)
        return QString::number(static_cast<qlonglong>(v));
    return QString::number(v, 'g', 6);
}
} // namespace

MetricsModel::MetricsModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetricsModel::setSnapshot(SnapshotPtr snap)
{
    beginResetModel();
    m_rows.clear();
    if (snap) {
        const Metrics& m = snap->metrics;
        auto add = [this](QString key, QString name, QVariant number, QString tip = {}) {
            m_rows.push_back({std::move(key), std::move(name), number.toString(), number, std::move(tip)});
        };
        add(QStringLiteral("steps"), QStringLiteral("Steps"), QVariant::fromValue<qulonglong>(m.steps));
        add(QStringLiteral("transfers"), QStringLiteral("Transfers"), QVariant::fromValue<qulonglong>(m.transfers));
        add(QStringLiteral("tcd"), QStringLiteral("TCD"), QVariant::fromValue<qulonglong>(m.tcd),
            QStringLiteral("total communication distance: hops summed over all transfers"));
        if (snap->optimum) {
            if (snap->optimumFromInfo)
                add(QStringLiteral("optimum"), QStringLiteral("Optimum TCD"), QVariant::fromValue<qulonglong>(*snap->optimum),
                    QStringLiteral("the minimum TCD for this topology, as the algorithm reports it"));
            else
                add(QStringLiteral("optimum"), QStringLiteral("Best TCD over sources"), QVariant::fromValue<qulonglong>(*snap->optimum),
                    QStringLiteral("the smallest TCD this algorithm gives from any source (TCD map minimum)"));
            add(QStringLiteral("gap"), QStringLiteral("Gap to optimum"),
                QVariant::fromValue<qlonglong>(static_cast<qlonglong>(m.tcd) - static_cast<qlonglong>(*snap->optimum)));
        } else {
            m_rows.push_back({QStringLiteral("optimum"), QStringLiteral("Optimum TCD"), QStringLiteral("—"), {},
                              QStringLiteral("not known for this algorithm and topology")});
        }
        add(QStringLiteral("max_link_load"), QStringLiteral("Max link load"), QVariant::fromValue<qulonglong>(m.maxLinkLoad),
            QStringLiteral("most transfers on one directed channel over the whole schedule"));
        add(QStringLiteral("max_step_load"), QStringLiteral("Max load in a step"), QVariant::fromValue<qulonglong>(m.maxStepLoad));
        add(QStringLiteral("contentions"), QStringLiteral("Contentions"),
            QVariant::fromValue<qulonglong>(m.contentions.size()),
            QStringLiteral("(step, directed channel) pairs used by two or more transfers"));
        add(QStringLiteral("contention_uses"), QStringLiteral("Conflicting uses"), QVariant::fromValue<qulonglong>(m.contentionUses));
        add(QStringLiteral("max_hops"), QStringLiteral("Longest route (hops)"), QVariant::fromValue<qulonglong>(m.maxHops));
        const auto& info = snap->schedule.info;
        if (info.is_object()) {
            for (auto it = info.begin(); it != info.end(); ++it) {
                const QString key = QString::fromStdString(it.key());
                if (key == QLatin1String("optimum"))
                    continue;
                const auto& v = it.value();
                if (v.is_number())
                    m_rows.push_back({key, key, formatNumber(v.get<double>()), v.get<double>(), {}});
                else if (v.is_string())
                    m_rows.push_back({key, key, QString::fromStdString(v.get<std::string>()), {}, {}});
                else if (v.is_boolean())
                    m_rows.push_back({key, key, v.get<bool>() ? QStringLiteral("yes") : QStringLiteral("no"), {}, {}});
                else if (v.is_array() && v.size() <= 8 && std::all_of(v.begin(), v.end(), [](const auto& e) { return e.is_number(); })) {
                    QStringList items;
                    for (const auto& e : v)
                        items << formatNumber(e.template get<double>());
                    m_rows.push_back({key, key, items.join(QStringLiteral(", ")), {}, {}});
                }
            }
        }
    }
    endResetModel();
}

int MetricsModel::rowOf(const QString& key) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].key == key)
            return static_cast<int>(i);
    return -1;
}

QString MetricsModel::value(const QString& key) const
{
    const int r = rowOf(key);
    return r < 0 ? QString() : m_rows[static_cast<std::size_t>(r)].value;
}

int MetricsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MetricsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MetricsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == NameColumn ? row.name : row.value;
    case Qt::ToolTipRole:
        return row.tip.isEmpty() ? QVariant() : QVariant(row.tip);
    case Qt::TextAlignmentRole:
        return index.column() == ValueColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case KeyRole:
        return row.key;
    case NumberRole:
        return row.number;
    default:
        return {};
    }
}

QVariant MetricsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? QStringLiteral("Metric") : QStringLiteral("Value");
}

} // namespace topocast::app
