#include "window/scenariomemory.h"

#include "scene/sceneview.h"
#include "timeline/timeline.h"

#include "topocast/io/scenario_file.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QTimer>

#include <utility>

namespace topocast::app {

ScenarioMemory::ScenarioMemory(bool enabled, const SceneView* scene, const Timeline* timeline, QObject* parent)
    : QObject(parent), m_enabled(enabled), m_scene(scene), m_timeline(timeline)
{
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(kDelayMs);
    connect(m_timer, &QTimer::timeout, this, &ScenarioMemory::flush);
}

void ScenarioMemory::remember(Scenario scenario)
{
    if (!m_enabled)
        return;
    scenario.view.mode = viewModeName(m_scene->choice().mode).toStdString();
    scenario.view.step = m_timeline->step();
    m_remembered = scenario;
    const QString json = QString::fromStdString(scenarioText(scenario));
    if (json == m_saved) {
        m_pending.clear(); // back to what is on disk: nothing to write
        m_timer->stop();
        return;
    }
    m_pending = json;
    // A scenario computed after a pause goes to disk at once (a kill right after loses nothing);
    // within kDelayMs of the last write it waits until the clicks stop.
    if (!m_timer->isActive() && (!m_sinceWrite.isValid() || m_sinceWrite.elapsed() >= kDelayMs))
        flush();
    else
        m_timer->start(); // (re)start: written kDelayMs after the last one
}

void ScenarioMemory::flush()
{
    m_timer->stop();
    if (!m_enabled || m_pending.isEmpty())
        return;
    QSettings settings; // written to disk when it goes out of scope
    settings.setValue(QStringLiteral("lastScenario"), m_pending);
    m_saved = m_pending;
    m_pending.clear();
    m_sinceWrite.start();
}

void ScenarioMemory::rememberAtClose()
{
    if (m_remembered)
        remember(*m_remembered); // with the step and mode it is left at
    flush();
}

void ScenarioMemory::setRecentMenu(QMenu* menu, std::function<void(const QString&)> open)
{
    m_recentMenu = menu;
    m_open = std::move(open);
    if (!m_enabled)
        return;
    m_recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    rebuildRecentMenu();
}

void ScenarioMemory::addRecent(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(abs);
    m_recent.prepend(abs);
    while (m_recent.size() > 8)
        m_recent.removeLast();
    if (m_enabled)
        QSettings().setValue(QStringLiteral("recentFiles"), m_recent);
    rebuildRecentMenu();
}

void ScenarioMemory::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (const QString& p : m_recent)
        m_recentMenu->addAction(p, this, [this, p] { m_open(p); });
    m_recentMenu->setEnabled(!m_recent.isEmpty());
}

} // namespace topocast::app
