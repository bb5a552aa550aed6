#include "session/session.h"

#include "topocast/model/error.h"

#include <QEventLoop>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>
#include <variant>

namespace topocast::app {

namespace {
using Result = std::variant<SnapshotPtr, QString>;

Result compute(const Scenario& scenario, bool allowFallback, SourceMapMetric metric, SnapshotPtr previous,
               std::shared_ptr<RunProgress> control, Session::BuildHook hook = {})
{
    try {
        if (hook && control)
            hook(*control);
        return buildSnapshot(
            scenario,
            {.allowFallback = allowFallback, .previous = previous.get(), .progress = control.get(), .metric = metric});
    } catch (const RunCancelled&) {
        return QStringLiteral("cancelled");
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    } catch (const std::bad_alloc&) {
        return QStringLiteral("out of memory while building the schedule; choose a smaller network");
    } catch (const std::exception& e) {
        return QStringLiteral("internal error: %1").arg(QString::fromStdString(e.what()));
    }
}
} // namespace

Session::Session(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<SnapshotPtr>();
    m_poll = new QTimer(this);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (m_control)
            emit progress(buildStageText(*m_control));
    });
}

void Session::setActive(quint64 generation)
{
    const bool was = m_active != 0;
    m_active = generation;
    if (generation == 0) {
        m_poll->stop();
        m_control.reset();
    } else {
        m_poll->start();
    }
    if (was != (generation != 0))
        emit busyChanged(generation != 0);
}

void Session::cancel()
{
    if (!m_active)
        return;
    m_control->cancelled = true;
    ++m_generation; // whatever the worker returns now is dropped
    setRequested(m_scenario);
    setActive(0);
    emit cancelled();
}

Session::~Session() = default;

bool Session::setScenarioNow(const Scenario& scenario, bool allowFallback)
{
    ++m_generation; // overtakes a running request
    if (m_control)
        m_control->cancelled = true;
    setActive(0);
    Result r = compute(scenario, allowFallback, m_metric, m_snapshot, nullptr);
    if (auto* msg = std::get_if<QString>(&r)) {
        m_requested = m_scenario; // not told: the panel keeps the refused edit beside the error
        emit failed(*msg);
        return false;
    }
    accept(std::get<SnapshotPtr>(r));
    return true;
}

void Session::showSnapshot(SnapshotPtr snap)
{
    ++m_generation; // overtakes a running request
    if (m_control)
        m_control->cancelled = true;
    setActive(0);
    accept(std::move(snap));
}

void Session::setScenario(const Scenario& scenario)
{
    const quint64 generation = ++m_generation;
    setRequested(scenario);
    if (m_control)
        m_control->cancelled = true; // overtaken: let the older worker stop early
    m_control = std::make_shared<RunProgress>();
    setActive(generation);
    auto* watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        Result r = watcher->result();
        if (generation != m_generation)
            return; // overtaken by a newer request, or cancelled
        setActive(0);
        if (auto* msg = std::get_if<QString>(&r)) {
            m_requested = m_scenario; // not told: the panel keeps the refused edit beside the error
            emit failed(*msg);
        } else {
            accept(std::get<SnapshotPtr>(r));
        }
    });
    watcher->setFuture(QtConcurrent::run(compute, scenario, false, m_metric, m_snapshot, m_control, m_hook));
}

void Session::setRequested(const Scenario& scenario)
{
    if (scenario == m_requested && m_hasRequest)
        return;
    m_requested = scenario;
    m_hasRequest = true;
    emit requestChanged(m_requested);
}

void Session::setSource(NodeId source)
{
    Scenario s = m_requested;
    s.source = source;
    setScenario(s);
}

void Session::setSourceMapMetric(SourceMapMetric metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    if (m_snapshot)
        setScenario(m_requested);
}

void Session::accept(SnapshotPtr snap)
{
    m_snapshot = std::move(snap);
    m_scenario = m_snapshot->scenario;
    setRequested(m_scenario); // only the latest request is accepted
    emit scheduleReady(m_snapshot);
}

bool waitUntilIdle(const std::vector<Session*>& sessions, int timeoutMs)
{
    const auto idle = [&] {
        return std::none_of(sessions.begin(), sessions.end(), [](Session* s) { return s->busy(); });
    };
    if (idle())
        return true;
    QEventLoop loop;
    // busyChanged(false) comes just before the result is delivered, in the same call: by the
    // time exec() returns the scheduleReady()/failed() slots have run.
    for (Session* s : sessions)
        QObject::connect(s, &Session::busyChanged, &loop, [&] {
            if (idle())
                loop.quit();
        });
    QTimer timer;
    timer.setSingleShot(true);
    // A coarse timer (Qt's default) may fire up to 5 % early; the limit is a promise.
    timer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    if (timeoutMs >= 0)
        timer.start(timeoutMs);
    loop.exec();
    return idle();
}

void runEventLoopFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(std::max(ms, 0), Qt::PreciseTimer, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace topocast::app
