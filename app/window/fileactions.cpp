#include "window/fileactions.h"

#include "compare/compareview.h"
#include "panels/findingspanel.h"
#include "panels/measuredmodel.h"
#include "panels/measuredpanel.h"
#include "scene/sceneview.h"
#include "session/openschedule.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "window/scenariomemory.h"
#include "window/viewcontrols.h"
#include "window/workspace.h"

#include "topocast/model/error.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QStatusBar>

#include <utility>

namespace topocast::app {

FileActions::FileActions(QMainWindow* window, Parts parts, Report report)
    : QObject(window), m_window(window), m_parts(parts), m_report(std::move(report))
{
}

bool FileActions::openScenario(const QString& path)
{
    Scenario s;
    try {
        s = loadScenario(path.toStdString());
    } catch (const Error& e) {
        m_report.error(QString::fromStdString(e.what()));
        return false;
    }
    m_parts.memory->addRecent(path);
    return openScenario(s);
}

void FileActions::startAsItself(const Scenario& s)
{
    // Its own colour mode (plain when it names none) and step (its view's, else 0), never the
    // mode and step the previous scenario was left at.
    m_parts.viewControls->setMode(parseViewMode(QString::fromStdString(scenarioViewMode(s))).value_or(ViewMode::Plain));
    m_parts.timeline->startNextAt(scenarioStartStep(s));
}

bool FileActions::openScenario(const Scenario& s)
{
    if (s.compare) {
        try {
            compareSide(s); // a compare side on another network is refused before anything changes
        } catch (const Error& e) {
            m_report.error(QString::fromStdString(e.what()));
            return false;
        }
        startAsItself(s);
        return m_parts.workspace->open(s);
    }
    startAsItself(s);
    m_parts.workspace->setSplit(false);
    m_parts.session->setScenario(s);
    return true;
}

bool FileActions::openSchedule(const QString& path, std::optional<Topology> topology)
{
    Session* session = m_parts.session;
    try {
        m_parts.workspace->setSplit(false); // a file's schedule is shown in the single view
        if (!topology) {
            const TopologyNeed need = scheduleFileTopology(path, session->scenario().topology);
            topology = need.given;
            if (need.choose && !(topology = chooseTopology(m_window, need.question, session->scenario().topology)))
                return false;
        }
        const OpenedSchedulePtr opened = openScheduleFile(path, topology);
        m_parts.findings->setOpened(opened);
        m_parts.findingsDock->show();
        m_parts.findingsDock->raise();
        session->showSnapshot(opened->snapshot);
    } catch (const Error& e) {
        m_report.error(QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

bool FileActions::openMeasured(const QString& path)
{
    const auto snap = m_parts.session->snapshot();
    if (!snap) {
        m_report.error(QStringLiteral("open a scenario before its measured times"));
        return false;
    }
    MeasuredPtr loaded;
    try {
        loaded = loadMeasured(path, *snap);
    } catch (const std::exception& e) {
        m_report.error(QString::fromStdString(e.what()));
        return false;
    }
    m_report.clearError();
    m_parts.measured->setMeasured(loaded);
    m_parts.measuredPanel->setStep(m_parts.timeline->step());
    m_report.measuredOpened();
    m_window->statusBar()->showMessage(QStringLiteral("measured times from %1: %2 ranks, %3")
                                           .arg(QFileInfo(path).fileName())
                                           .arg(loaded->measured.ranks)
                                           .arg(QString::fromStdString(loaded->measured.mpiLibrary)));
    return true;
}

bool FileActions::saveScenario(const QString& path)
{
    try {
        Scenario s = m_parts.workspace->savedScenario();
        s.view.mode = viewModeName(m_parts.scene->choice().mode).toStdString();
        s.view.step = m_parts.timeline->step();
        topocast::saveScenario(s, path.toStdString());
    } catch (const Error& e) {
        m_report.error(QString::fromStdString(e.what()));
        return false;
    }
    m_parts.memory->addRecent(path);
    m_window->statusBar()->showMessage(QStringLiteral("saved ") + path, 5000);
    return true;
}

} // namespace topocast::app
