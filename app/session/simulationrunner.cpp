#include "session/simulationrunner.h"

#include "session/session.h"

#include "topocast/analysis/simulate.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"
#include "topocast/text/durations.h"
#include "topocast/text/numbers.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace topocast::app {

namespace {

struct SimulationOutcome {
    std::shared_ptr<const SimulatedPlayback> playback;
    QString error;
};

SimulationOutcome simulateForView(const SnapshotPtr& snap, bool steps)
{
    try {
        const NetworkModel net = snap->scenario.network.value_or(NetworkModel{});
        auto sim = std::make_shared<const Simulation>(simulateSchedule(snap->schedule, net, {.steps = steps}));
        return {std::make_shared<const SimulatedPlayback>(snap->schedule, std::move(sim)), {}};
    } catch (const std::exception& e) {
        return {nullptr, QString::fromStdString(e.what())};
    }
}

/// "Simulated 768 messages in 0.31 s: 512.53 us (182.23 us without contention)".
QString doneText(const SimulationOutcome& outcome)
{
    const Simulation& sim = outcome.playback->simulation();
    return QStringLiteral("Simulated %L1 messages in %2 s: %3 (%4 without contention)")
        .arg(static_cast<qulonglong>(sim.time.transfers.size()))
        .arg(QString::fromStdString(formatSignificant(sim.wallSeconds, 2)))
        .arg(QString::fromStdString(formatSeconds(sim.time.total * 1e-9)),
             QString::fromStdString(formatSeconds(sim.contentionFree.total * 1e-9)));
}

} // namespace

SimulationRunner::SimulationRunner(Session* session, QObject* parent) : QObject(parent), m_session(session)
{
    connect(session, &Session::scheduleReady, this, [this](const SnapshotPtr& snap) {
        if (m_on)
            start(snap);
    });
}

void SimulationRunner::setOn(bool on)
{
    if (on == m_on)
        return;
    m_on = on;
    ++m_generation;
    if (!on) {
        m_busy = false;
        finish(nullptr, {});
        return;
    }
    if (SnapshotPtr snap = m_session->snapshot())
        start(snap);
}

void SimulationRunner::setSteps(bool steps)
{
    if (steps == m_steps)
        return;
    m_steps = steps;
    if (m_on)
        if (SnapshotPtr snap = m_session->snapshot())
            start(snap);
}

void SimulationRunner::start(const SnapshotPtr& snap)
{
    const quint64 generation = ++m_generation;
    m_playback.reset();
    m_simulated = snap;
    if (!simulationAvailable()) {
        try {
            requireSimulation();
        } catch (const Error& e) {
            finish(nullptr, QString::fromStdString(e.what()));
        }
        return;
    }
    const SimulationEstimate estimate = estimateSimulation(snap->schedule);
    const auto transfers = static_cast<qulonglong>(snap->schedule.transfers().size());
    if (estimate.seconds > kSecondsLimit) {
        finish(nullptr,
               QStringLiteral("Simulated time: simulating these %L1 messages would take about %2 here; the app "
                              "simulates what takes up to %3 — topocast-cli simulate runs it (--max-seconds)")
                   .arg(transfers)
                   .arg(QString::fromStdString(formatRoughDuration(estimate.seconds)),
                        QString::fromStdString(formatRoughDuration(kSecondsLimit))));
        return;
    }
    m_busy = true;
    m_status = QStringLiteral("Simulating %L1 messages on SimGrid (about %2)…")
                   .arg(transfers)
                   .arg(QString::fromStdString(formatRoughDuration(std::max(estimate.seconds, 0.1))));
    emit statusChanged(m_status);
    auto* watcher = new QFutureWatcher<SimulationOutcome>(this);
    connect(watcher, &QFutureWatcher<SimulationOutcome>::finished, this, [this, watcher, generation] {
        SimulationOutcome outcome = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer schedule (or off) overtook it
        m_busy = false;
        finish(outcome.playback,
               outcome.error.isEmpty() ? doneText(outcome) : QStringLiteral("Simulated time: ") + outcome.error);
    });
    watcher->setFuture(QtConcurrent::run(simulateForView, snap, m_steps));
}

void SimulationRunner::finish(std::shared_ptr<const SimulatedPlayback> playback, const QString& status)
{
    m_playback = std::move(playback);
    if (!m_on)
        m_simulated.reset();
    m_status = status;
    emit statusChanged(m_status);
    emit ready(m_playback, m_simulated);
}

} // namespace topocast::app
