#include "panels/metricsmodel.h"

#include "topocast/algorithms/figures.h"
#include "topocast/model/network.h"
#include "topocast/model/units.h"
#include "topocast/text/numbers.h"

#include <QHeaderView>
#include <QTableView>

#include <cmath>
#include <string_view>

namespace topocast::app {

MetricsModel::MetricsModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void MetricsModel::setSnapshot(SnapshotPtr snap)
{
    beginResetModel();
    m_rows.clear();
    if (snap)
        addRows(*snap);
    endResetModel();
}

void MetricsModel::add(QString key, QString name, QVariant number, QString tip)
{
    const QString shown = number.typeId() == QMetaType::Double ? QString::fromStdString(formatNumber(number.toDouble()))
                                                               : number.toString();
    m_rows.push_back({std::move(key), std::move(name), shown, std::move(number), std::move(tip)});
}

void MetricsModel::addRows(const Snapshot& snap)
{
    const Metrics& m = snap.metrics;
    const Topology& topo = snap.topology();
    add(QStringLiteral("steps"), QStringLiteral("Steps"), QVariant::fromValue<qulonglong>(m.steps));
    add(QStringLiteral("transfers"), QStringLiteral("Messages sent"), QVariant::fromValue<qulonglong>(m.transfers));
    add(QStringLiteral("tcd"), QStringLiteral("TCD of this schedule (hops)"), QVariant::fromValue<qulonglong>(m.tcd),
        QStringLiteral("total communication distance: hops summed over all transfers"));
    const auto gap = [&](std::uint64_t best) {
        return QVariant::fromValue<qlonglong>(static_cast<qlonglong>(m.tcd) - static_cast<qlonglong>(best));
    };
    const CangWuFigures* cangWu = snap.schedule.figures ? snap.schedule.figures->get<CangWuFigures>() : nullptr;
    const std::vector<FigureRow> figures =
        snap.schedule.figures ? figureRows(*snap.schedule.figures) : std::vector<FigureRow>{};
    const auto help = [&](std::string_view key) {
        for (const FigureRow& r : figures)
            if (r.key == key)
                return QString::fromStdString(r.help);
        return QString();
    };
    if (cangWu) {
        const QString proven = cangWu->bestFromSourceProven ? QStringLiteral("proven") : QStringLiteral("best known");
        add(QStringLiteral("best_from_source"), QStringLiteral("Best TCD from this source (%1)").arg(proven),
            QVariant::fromValue<qulonglong>(cangWu->bestFromSource), help("best_from_source"));
        add(QStringLiteral("gap_source"), QStringLiteral("Gap to the best from this source"),
            gap(cangWu->bestFromSource),
            QStringLiteral("0: no broadcast from this source does better (among time-optimal schedules)"));
    }
    if (snap.optimum) {
        // The best sources as the source map counts them (its legend and summary give the same
        // number); the Cang-Wu eyes are the paper's, a row of their own.
        QStringList best;
        std::size_t count = 0;
        for (const NodeId v : snap.optimumSources)
            if (++count <= 4)
                best << QString::fromStdString(topo.nodeName(v));
        if (count > 4)
            best << QStringLiteral("…");
        const QString where = count == 0 ? QStringLiteral("at the eyes")
                              : count == 1
                                  ? QStringLiteral("from ") + best.front()
                                  : QStringLiteral("from %1 sources: ").arg(count) + best.join(QStringLiteral(", "));
        if (count > 0)
            m_rows.push_back(
                {QStringLiteral("best_sources"), QStringLiteral("Best sources (source map)"),
                 count == 1 ? best.front() : QStringLiteral("%1: ").arg(count) + best.join(QStringLiteral(", ")),
                 QVariant::fromValue<qulonglong>(count),
                 QStringLiteral("the sources whose schedule has the least TCD, %1, as the source map shows them")
                     .arg(*snap.optimum)});
        add(QStringLiteral("optimum"), QStringLiteral("Best TCD over all sources"),
            QVariant::fromValue<qulonglong>(*snap.optimum),
            snap.optimumFromFigures
                ? QStringLiteral("the least TCD from any source (%1), as the algorithm's closed form gives it")
                      .arg(where)
                : QStringLiteral("the smallest TCD this algorithm gives from any source (%1, TCD source map minimum)")
                      .arg(where));
        add(QStringLiteral("gap"), QStringLiteral("Gap to the best over all sources"), gap(*snap.optimum),
            QStringLiteral("how much a better source would save"));
    } else {
        m_rows.push_back({QStringLiteral("optimum"),
                          QStringLiteral("Best TCD over all sources"),
                          QStringLiteral("—"),
                          {},
                          QStringLiteral("not known for this algorithm and topology")});
    }
    add(QStringLiteral("max_link_load"), QStringLiteral("Busiest link (messages)"),
        QVariant::fromValue<qulonglong>(m.maxLinkLoad),
        QStringLiteral("most transfers on one directed channel over the whole schedule"));
    add(QStringLiteral("max_step_load"), QStringLiteral("Busiest link in one step (messages)"),
        QVariant::fromValue<qulonglong>(m.maxStepLoad));
    add(QStringLiteral("contentions"), QStringLiteral("Shared links (step, link)"),
        QVariant::fromValue<qulonglong>(m.contentions.size()),
        QStringLiteral("(step, directed channel) pairs used by two or more transfers"));
    add(QStringLiteral("contention_uses"), QStringLiteral("Conflicting uses"),
        QVariant::fromValue<qulonglong>(m.contentionUses),
        QStringLiteral("channel uses that share their step's channel with another transfer"));
    add(QStringLiteral("max_hops"), QStringLiteral("Longest route (hops)"), QVariant::fromValue<qulonglong>(m.maxHops));
    addNetworkTime(snap);
    for (const FigureRow& r : figures) {
        const QString key = QString::fromStdString(r.key);
        if (rowOf(key) >= 0 || key == QLatin1String("source_tcd"))
            continue; // shown above in words, or equal to the counted TCD
        QString name = QString::fromStdString(r.name);
        if (!r.unit.empty())
            name += QStringLiteral(" (%1)").arg(QString::fromStdString(r.unit));
        const QString tip = QString::fromStdString(r.help);
        if (const double* d = std::get_if<double>(&r.value))
            add(key, name, *d, tip);
        else
            m_rows.push_back({key, name, QString::fromStdString(std::get<std::string>(r.value)), {}, tip});
    }
}

void MetricsModel::addNetworkTime(const Snapshot& snap)
{
    const NetworkModel net = snap.scenario.network.value_or(NetworkModel{});
    const QString model = QString::fromStdString(describe(net));
    const QString name =
        QStringLiteral("Time on the network (LogGP, M = %1)").arg(QString::fromStdString(formatSize(net.message)));
    if (!snap.networkTime) {
        m_rows.push_back({QStringLiteral("network_time"),
                          name,
                          QStringLiteral("—"),
                          {},
                          QStringLiteral("not timed: %1").arg(QString::fromStdString(snap.networkTimeWhy))});
        return;
    }
    const double ns = *snap.networkTime;
    m_rows.push_back({QStringLiteral("network_time"), name, QString::fromStdString(formatSeconds(ns * 1e-9)), ns,
                      QStringLiteral("each send as soon as its data and ports allow (the time engine, LogGOPSim's "
                                     "rules) on %1; contention between messages not charged. View ▸ Time vs size "
                                     "shows every size and algorithm")
                          .arg(model)});
    const TimeBound& b = snap.networkBound;
    // "94.2 %" above the bound, or, ten times the bound and more, "40.5 × the bound".
    const double ratio = b.total > 0 ? ns / b.total : 0;
    const QString above = ratio < 10
                              ? QString::fromStdString(formatSignificant(100 * (ratio - 1), 3)) + QStringLiteral(" %")
                              : QString::fromStdString(formatSignificant(ratio, 3)) + QStringLiteral(" × the bound");
    if (b.total > 0)
        m_rows.push_back(
            {QStringLiteral("network_above_bound"), QStringLiteral("Above the bound (LogGP)"), above,
             100 * (ns / b.total - 1),
             QStringLiteral("the bound is %1: %2; %3")
                 .arg(QString::fromStdString(formatSeconds(b.total * 1e-9)), QString::fromStdString(b.latencyReason),
                      QString::fromStdString(b.bandwidthReason))});
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

int MetricsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

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

QTableView* makeMetricsTable(MetricsModel* model)
{
    auto* view = new QTableView;
    view->setModel(model);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->setWordWrap(true);
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view->verticalHeader()->hide();
    view->setSelectionMode(QAbstractItemView::NoSelection);
    view->setMinimumWidth(view->fontMetrics().horizontalAdvance(QString(52, QLatin1Char('x'))));
    return view;
}

} // namespace topocast::app
