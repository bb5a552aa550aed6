#pragma once

#include "session/snapshot.h"

#include "topocast/analysis/simulated_playback.h"

#include <QObject>
#include <QString>

#include <memory>

namespace topocast::app {

class Session;

/// View ▸ Simulated time's engine: while on, simulates every schedule the session shows on its
/// scenario's network (core simulateSchedule: the time engine with each message's bytes on
/// SimGrid's flow-level network, in a worker thread, which runs SimGrid in a child process), after
/// estimating it: a simulation estimated past kSecondsLimit is refused with the reason and the
/// command that runs it, before anything starts. Results overtaken by a newer schedule are dropped.
class SimulationRunner : public QObject {
    Q_OBJECT
public:
    /// The longest simulation the app starts (estimated, core estimateSimulation).
    static constexpr double kSecondsLimit = 60;

    explicit SimulationRunner(Session* session, QObject* parent = nullptr);

    bool isOn() const { return m_on; }
    /// A barrier between steps (the default: each step's messages move in its own window, as the
    /// papers count steps), or each send as soon as its data and ports allow.
    bool steps() const { return m_steps; }
    bool busy() const { return m_busy; }
    /// The simulation of the snapshot shown (null: off, running, refused or failed).
    std::shared_ptr<const SimulatedPlayback> playback() const { return m_playback; }
    /// The snapshot `playback()` was made for.
    SnapshotPtr simulated() const { return m_simulated; }
    /// What the runner is doing or did, for people ("Simulating 4,096 messages on SimGrid…",
    /// the refusal, the failure); empty while off.
    QString status() const { return m_status; }

public slots:
    void setOn(bool on);
    /// Simulates the schedule shown again with or without barriers between steps.
    void setSteps(bool steps);

signals:
    /// A simulation is ready for `snapshot`, or (null) simulated time ended or could not be had.
    void ready(std::shared_ptr<const topocast::SimulatedPlayback> playback, topocast::app::SnapshotPtr snapshot);
    void statusChanged(const QString& text);

private:
    void start(const SnapshotPtr& snap);
    void finish(std::shared_ptr<const SimulatedPlayback> playback, const QString& status);

    Session* m_session;
    bool m_on = false;
    bool m_busy = false;
    bool m_steps = true;
    quint64 m_generation = 0;
    std::shared_ptr<const SimulatedPlayback> m_playback;
    SnapshotPtr m_simulated;
    QString m_status;
};

} // namespace topocast::app
