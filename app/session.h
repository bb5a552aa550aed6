#pragma once

#include "snapshot.h"

#include <QObject>
#include <QString>

namespace topocast::app {

/// The one bridge between core and GUI. Owns the current Scenario; computes its schedule off the
/// GUI thread (QtConcurrent) and emits immutable snapshots. Core exceptions are caught here and
/// reported through failed(); on failure the previous scenario and snapshot stay current.
/// Requests overtaken by newer ones are dropped (only the latest request's result is emitted).
class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    /// The scenario of the current snapshot (what is shown).
    const Scenario& scenario() const { return m_scenario; }
    SnapshotPtr snapshot() const { return m_snapshot; }
    bool busy() const { return m_pending > 0; }

    /// Computes synchronously on the calling thread (start-up, --screenshot, tests).
    /// Returns false and emits failed() on error, leaving the current snapshot.
    bool setScenarioNow(const Scenario& scenario, bool allowFallback = false);

public slots:
    /// Computes asynchronously; emits scheduleReady() or failed().
    void setScenario(const topocast::Scenario& scenario);
    /// The current scenario with another source (click to explore).
    void setSource(topocast::NodeId source);

signals:
    void scheduleReady(topocast::app::SnapshotPtr snapshot);
    void failed(const QString& message);
    void busyChanged(bool busy);

private:
    void accept(SnapshotPtr snap);

    Scenario m_scenario;
    SnapshotPtr m_snapshot;
    quint64 m_generation = 0;
    int m_pending = 0;
};

} // namespace topocast::app
