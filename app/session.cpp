#include "session.h"

#include "topocast/error.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <variant>

namespace topocast::app {

namespace {
using Result = std::variant<SnapshotPtr, QString>;

Result compute(const Scenario& scenario, bool allowFallback, SnapshotPtr previous)
{
    try {
        return buildSnapshot(scenario, allowFallback, previous.get());
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
}

Session::~Session() = default;

bool Session::setScenarioNow(const Scenario& scenario, bool allowFallback)
{
    ++m_generation;
    Result r = compute(scenario, allowFallback, m_snapshot);
    if (auto* msg = std::get_if<QString>(&r)) {
        emit failed(*msg);
        return false;
    }
    accept(std::get<SnapshotPtr>(r));
    return true;
}

void Session::setScenario(const Scenario& scenario)
{
    const quint64 generation = ++m_generation;
    if (m_pending++ == 0)
        emit busyChanged(true);
    auto* watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        Result r = watcher->result();
        if (--m_pending == 0)
            emit busyChanged(false);
        if (generation != m_generation)
            return;  // overtaken by a newer request
        if (auto* msg = std::get_if<QString>(&r))
            emit failed(*msg);
        else
            accept(std::get<SnapshotPtr>(r));
    });
    watcher->setFuture(QtConcurrent::run(compute, scenario, false, m_snapshot));
}

void Session::setSource(NodeId source)
{
    Scenario s = m_scenario;
    s.source = source;
    setScenario(s);
}

void Session::accept(SnapshotPtr snap)
{
    m_snapshot = std::move(snap);
    m_scenario = m_snapshot->scenario;
    emit scheduleReady(m_snapshot);
}

} // namespace topocast::app
