#pragma once

#include "session/snapshot.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

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
    SourceMapMetric sourceMapMetric() const { return m_metric; }
    /// The latest scenario asked for: the one being computed while busy(), else the one shown
    /// (a failed or cancelled request falls back to it). The one scenario being edited: new
    /// requests that change one thing (setSource, a panel edit, a menu) start from here, so they
    /// never drop a request still computing, and requestChanged() tells its views.
    const Scenario& requestedScenario() const { return m_requested; }
    SnapshotPtr snapshot() const { return m_snapshot; }
    /// True while the latest request is being computed (its result will be shown).
    bool busy() const { return m_active != 0; }

    /// Runs on the worker thread before each asynchronous build, with the build's control (tests
    /// hold a build there to check that the GUI stays live and that cancel works, independent of
    /// how fast the machine is). Empty by default.
    using BuildHook = std::function<void(RunProgress&)>;
    void setBuildHook(BuildHook hook) { m_hook = std::move(hook); }

    /// Computes synchronously on the calling thread (start-up, --screenshot, tests).
    /// Returns false and emits failed() on error, leaving the current snapshot.
    bool setScenarioNow(const Scenario& scenario, bool allowFallback = false);

    /// Shows a snapshot built elsewhere (a schedule read from a file, File ▸ Open schedule): a
    /// running request is dropped and scheduleReady() is emitted as for a computed one.
    void showSnapshot(SnapshotPtr snap);

public slots:
    /// Computes asynchronously; emits scheduleReady() or failed().
    void setScenario(const topocast::Scenario& scenario);
    /// The latest requested scenario with another source (click to explore).
    void setSource(topocast::NodeId source);
    /// What the source map shows; recomputes the latest request with it (the schedule is the same).
    void setSourceMapMetric(topocast::SourceMapMetric metric);
    /// Stops the running computation: the previous scenario stays shown, busy() is false at
    /// once, and the worker stops at its next stage (its result is dropped in any case).
    void cancel();

signals:
    void scheduleReady(topocast::app::SnapshotPtr snapshot);
    void failed(const QString& message);
    void busyChanged(bool busy);
    /// While busy, every ~100 ms: what the computation is doing ("TCD source map: source 40 of 512").
    void progress(const QString& stage);
    void cancelled();
    /// The requested scenario changed: a new request, a result accepted, a cancel (back to the one
    /// shown). The scenario panel shows it. A refused request falls back silently, so the panel
    /// keeps the refused edit beside failed()'s reason.
    void requestChanged(const topocast::Scenario& scenario);

private:
    void accept(SnapshotPtr snap);
    /// The one place m_requested changes; emits requestChanged when it does.
    void setRequested(const Scenario& scenario);

    Scenario m_scenario;
    Scenario m_requested;      ///< see requestedScenario()
    bool m_hasRequest = false; ///< m_requested was set (requestChanged emitted at least once)
    SnapshotPtr m_snapshot;
    void setActive(quint64 generation);

    quint64 m_generation = 0;
    quint64 m_active = 0; ///< generation of the request being computed, 0 if none
    std::shared_ptr<RunProgress> m_control;
    SourceMapMetric m_metric = SourceMapMetric::Tcd;
    QTimer* m_poll = nullptr;
    BuildHook m_hook;
};

/// Runs the event loop until none of `sessions` is busy() or `timeoutMs` passes (< 0: no limit),
/// waking on their busyChanged() signals, not by polling; returns true when all are idle. The
/// results of the finished requests (scheduleReady, failed) have been delivered by then. For
/// start-up steps that need the computed schedule (--measured, --schedule, --window-screenshot).
bool waitUntilIdle(const std::vector<Session*>& sessions, int timeoutMs = -1);

/// Runs the event loop for `ms` milliseconds (a QTimer ends it; nothing polls): lets the window
/// lay itself out and the 3-D view draw its frames before a screenshot.
void runEventLoopFor(int ms);

} // namespace topocast::app
