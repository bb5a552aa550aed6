#pragma once

#include "session/snapshot.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

class QTableView;

namespace topocast::app {

/// The metrics panel's table: one row per figure of one snapshot, named in words with units
/// (steps, TCD, the best TCD from this source and over all sources with the gaps, loads,
/// contentions, then the algorithm's own figures from core's figureRows()).
class MetricsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ValueColumn, ColumnCount };
    enum Role { KeyRole = Qt::UserRole, NumberRole };

    explicit MetricsModel(QObject* parent = nullptr);

    void setSnapshot(SnapshotPtr snap);
    /// The row of metric `key` ("steps", "tcd", "best_from_source", "gap_source", "optimum",
    /// "gap", "max_link_load", "contentions", or a FigureRow key), or −1.
    int rowOf(const QString& key) const;
    /// The displayed value of metric `key` (empty if absent).
    QString value(const QString& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void addRows(const Snapshot& snap);
    /// The time on the scenario's network and how far above its bound.
    void addNetworkTime(const Snapshot& snap);
    void add(QString key, QString name, QVariant number, QString tip = {});

    struct Row {
        QString key;
        QString name;
        QString value;
        QVariant number;
        QString tip;
    };
    std::vector<Row> m_rows;
};

/// The table of `model` as the scenario dock shows it: names and values share the width and wrap
/// onto more lines, so every value can be read without a horizontal scrollbar; no selection; wide
/// enough for the names in words beside their values.
QTableView* makeMetricsTable(MetricsModel* model);

} // namespace topocast::app
