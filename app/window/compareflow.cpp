#include "window/compareflow.h"

#include "compare/comparesnapshot.h"
#include "compare/compareview.h"
#include "panels/findingspanel.h"
#include "scene/sceneview.h"
#include "session/openschedule.h"
#include "session/session.h"

#include "topocast/algorithms/registry.h"
#include "topocast/model/error.h"

#include <QAction>
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

CompareFlow::CompareFlow(QMainWindow* window, Parts parts, std::function<void(SnapshotPtr)> showSingle,
                         std::function<void(const QString&)> showError)
    : QObject(window), m_window(window), m_parts(parts), m_showSingle(std::move(showSingle)),
      m_showError(std::move(showError))
{
}

bool CompareFlow::open(const Scenario& scenario)
{
    try {
        if (scenario.compare)
            compareSide(scenario); // refuses a compare side on another network
    } catch (const Error& e) {
        m_showError(QString::fromStdString(e.what()));
        return false;
    }
    m_parts.session->setScenario(scenario); // the single view shows A when compare mode is turned off
    showSplitView();
    m_parts.compare->setScenario(scenario);
    return true;
}

void CompareFlow::showSplitView()
{
    if (m_action) {
        const QSignalBlocker block(m_action);
        m_action->setChecked(true);
    }
    m_on = true;
    m_parts.scene->widget()->hide();
    m_parts.narration->hide();
    m_parts.compare->show();
}

bool CompareFlow::compareOpenedFile()
{
    const SnapshotPtr file = m_parts.session->snapshot();
    const Schedule& s = file->schedule;
    const std::optional<Scenario> b = algorithmBeside(s, m_parts.session->requestedScenario());
    if (!b) {
        m_showError(QStringLiteral("No topocast algorithm builds a %1 on the %2 to compare with.")
                        .arg(QString::fromStdString(toString(s.pattern())),
                             QString::fromStdString(s.topology().displayName())));
        return false;
    }
    showSplitView();
    m_comparingFile = true;
    m_parts.compare->compareWithFile(file, *b);
    return true;
}

void CompareFlow::setOn(bool on)
{
    if (on == m_on)
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
    m_on = false;
    if (m_action) {
        const QSignalBlocker block(m_action);
        m_action->setChecked(false);
    }
    m_parts.compare->hide();
    m_parts.scene->widget()->show();
    m_parts.narration->show();
    if (fromFile && session->snapshot())
        m_showSingle(session->snapshot()); // back to the file, its findings still listed
    else if (!(both == session->requestedScenario()))
        session->setScenario(both);
    else if (auto snap = session->snapshot())
        m_showSingle(snap); // the timeline and panel back to the single view
}

} // namespace topocast::app
