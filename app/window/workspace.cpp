#include "window/workspace.h"

#include "compare/comparemetrics.h"
#include "compare/compareview.h"
#include "panels/findingspanel.h"
#include "scene/sceneview.h"
#include "session/openschedule.h"
#include "session/session.h"
#include "window/grab.h"
#include "window/scenariomemory.h"

#include "topocast/algorithms/registry.h"
#include "topocast/model/error.h"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QSignalBlocker>
#include <QStatusBar>

#include <algorithm>
#include <utility>

namespace topocast::app {

namespace {

/// B for an opened file: topocast's algorithm for the file's collective on its network and from its
/// source — another than the file's algorithm when there is one. Nullopt when none builds it.
std::optional<Scenario> algorithmBeside(const Schedule& s, Scenario b)
{
    const std::vector<std::string> names = algorithmsFor(s.topology(), s.pattern());
    if (names.empty())
        return std::nullopt;
    const auto other = std::find_if(names.begin(), names.end(), [&](const std::string& n) { return n != s.algorithm; });
    b.compare.reset();
    b.algorithm = other != names.end() ? *other : names.front();
    b.title = "topocast's " + b.algorithm;
    b.topology = s.topology();
    b.params = Params{};
    if (s.pattern() != Pattern::Broadcast)
        b.params.set("pattern", toString(s.pattern()));
    b.source = s.source();
    return b;
}

} // namespace

Workspace::Workspace(QMainWindow* window, Parts parts) : QObject(window), m_window(window), m_parts(parts)
{
    connect(m_parts.session, &Session::scheduleReady, this, &Workspace::sessionReady);
    connect(m_parts.session, &Session::requestChanged, this, [this](const Scenario& s) {
        if (!m_split)
            emit editedScenarioChanged(s);
    });
    connect(m_parts.compare, &CompareView::activeScenarioChanged, this, &Workspace::activeSideChanged);
}

void Workspace::sessionReady(SnapshotPtr snap)
{
    if (snap->scheduleFile.isEmpty()) // a schedule from a file cannot be rebuilt
        m_parts.memory->remember(snap->scenario);
    if (!m_split) {
        emit activeSnapshotChanged(snap);
        emit shown(snap);
        return;
    }
    m_parts.scene->setSnapshot(snap); // A for the single view, ready for when the split view closes
    if (m_parts.compare->activeSide() == 0)
        emit activeSnapshotChanged(snap);
}

void Workspace::backToSingle(SnapshotPtr snap)
{
    emit editedScenarioChanged(m_parts.session->requestedScenario()); // A again
    emit activeSnapshotChanged(snap);
    emit shown(snap);
}

void Workspace::activeSideChanged(const Scenario& scenario)
{
    if (!m_split)
        return;
    emit editedScenarioChanged(scenario); // the panel and the metrics table follow the side edited
    if (auto snap = m_parts.compare->session(m_parts.compare->activeSide())->snapshot())
        emit activeSnapshotChanged(snap);
}

Scenario Workspace::editedScenario() const
{
    return m_split ? m_parts.compare->sideScenario(m_parts.compare->activeSide())
                   : m_parts.session->requestedScenario();
}

void Workspace::edit(const Scenario& scenario)
{
    if (m_split)
        m_parts.compare->setActiveScenario(scenario);
    else if (!(scenario == m_parts.session->requestedScenario()))
        m_parts.session->setScenario(scenario);
}

Scenario Workspace::savedScenario() const
{
    return m_split ? m_parts.compare->scenario() : m_parts.session->scenario();
}

SnapshotPtr Workspace::legendSnapshot() const
{
    if (m_split && m_parts.compare->compareSnapshot())
        return m_parts.compare->compareSnapshot()->a;
    return m_parts.session->snapshot();
}

bool Workspace::showsSimulation() const
{
    return !m_split && m_parts.scene->simulation();
}

QString Workspace::narration() const
{
    if (!m_split)
        return m_parts.narration->text();
    const CompareMetrics* metrics = m_parts.compare->metrics();
    return metrics->narration(0) + QLatin1Char('\n') + metrics->narration(1);
}

QImage Workspace::grab()
{
    if (!m_split)
        return grabWithViews(m_window, {{m_parts.scene->widget(), m_parts.scene->capture().frame()}});
    CompareView* compare = m_parts.compare;
    const auto frames = compare->captureFrames();
    return grabWithViews(m_window,
                         {{compare->sceneView(0)->widget(), frames[0]}, {compare->sceneView(1)->widget(), frames[1]}});
}

std::pair<CompareSnapshotPtr, OrbitCamera::State> Workspace::compareExport() const
{
    if (!m_split || !m_parts.compare->compareSnapshot())
        return {};
    return {m_parts.compare->compareSnapshot(), m_parts.compare->sceneView(0)->camera().orbit().state()};
}

bool Workspace::open(const Scenario& scenario)
{
    try {
        if (scenario.compare)
            compareSide(scenario); // refuses a compare side on another network
    } catch (const Error& e) {
        emit failed(QString::fromStdString(e.what()));
        return false;
    }
    m_parts.session->setScenario(scenario); // the single view shows A when compare mode is turned off
    showSplitView();
    m_parts.compare->setScenario(scenario);
    return true;
}

void Workspace::showSplitView()
{
    if (m_action) {
        const QSignalBlocker block(m_action);
        m_action->setChecked(true);
    }
    m_split = true;
    emit splitChanged(true);
    m_parts.scene->widget()->hide();
    m_parts.narration->hide();
    m_parts.compare->show();
}

bool Workspace::compareOpenedFile()
{
    const SnapshotPtr file = m_parts.session->snapshot();
    const Schedule& s = file->schedule;
    const std::optional<Scenario> b = algorithmBeside(s, m_parts.session->requestedScenario());
    if (!b) {
        emit failed(QStringLiteral("No topocast algorithm builds a %1 on the %2 to compare with.")
                        .arg(QString::fromStdString(toString(s.pattern())),
                             QString::fromStdString(s.topology().displayName())));
        return false;
    }
    showSplitView();
    m_comparingFile = true;
    m_parts.compare->compareWithFile(file, *b);
    return true;
}

void Workspace::setSplit(bool on)
{
    if (on == m_split)
        return;
    Session* session = m_parts.session;
    if (on && m_parts.findings->opened() && session->snapshot() == m_parts.findings->opened()->snapshot) {
        compareOpenedFile();
        return;
    }
    if (on) {
        Scenario s = session->requestedScenario();
        if (!s.compare) {
            try {
                s = contrastScenario(s); // B is a useful contrast, not a copy of A
            } catch (const Error& e) {
                s = withCompare(s, s);
                m_window->statusBar()->showMessage(QString::fromStdString(e.what()), 8000);
            }
        }
        open(s);
        return;
    }
    const Scenario both = m_parts.compare->scenario();
    const bool fromFile = std::exchange(m_comparingFile, false);
    m_split = false;
    emit splitChanged(false);
    if (m_action) {
        const QSignalBlocker block(m_action);
        m_action->setChecked(false);
    }
    m_parts.compare->hide();
    m_parts.scene->widget()->show();
    m_parts.narration->show();
    if (fromFile && session->snapshot())
        backToSingle(session->snapshot()); // back to the file, its findings still listed
    else if (!(both == session->requestedScenario()))
        session->setScenario(both);
    else if (auto snap = session->snapshot())
        backToSingle(snap); // the timeline and panel back to the single view
}

} // namespace topocast::app
