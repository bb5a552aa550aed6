#include "window/linksdock.h"

#include "panels/linkspanel.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "session/simulationrunner.h"
#include "timeline/timeline.h"

#include <QAction>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QMainWindow>
#include <QStatusBar>

namespace topocast::app {

QDockWidget* addLinksDock(QMainWindow* window, Session* session, SceneView* scene, Timeline* timeline,
                          std::function<void()> changed)
{
    auto* runner = new SimulationRunner(session, window);
    auto* panel = new LinksPanel;
    auto* dock = new QDockWidget(QStringLiteral("Links"), window);
    dock->setObjectName(QStringLiteral("linksDock"));
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    QAction* toggle = dock->toggleViewAction();
    toggle->setText(QStringLiteral("&Links"));
    toggle->setShortcut(QKeySequence(Qt::Key_F8));
    toggle->setToolTip(
        QStringLiteral("every link's busy and shared time as simulated, busiest first; click one to find it"));

    auto* simulated = new QAction(QStringLiteral("&Simulated time"), window);
    simulated->setObjectName(QStringLiteral("simulatedTimeAction"));
    simulated->setCheckable(true);
    simulated->setShortcut(QKeySequence(Qt::Key_T));
    simulated->setToolTip(
        QStringLiteral("play the schedule as SimGrid simulates it on the network: messages that share "
                       "a link move slower, each link coloured by the messages sharing it"));
    panel->setToggle(simulated, runner->steps());
    QObject::connect(panel, &LinksPanel::barrierToggled, runner, &SimulationRunner::setSteps);
    QObject::connect(simulated, &QAction::toggled, runner, [runner, dock](bool on) {
        runner->setOn(on);
        if (on)
            dock->show();
    });
    QObject::connect(runner, &SimulationRunner::statusChanged, window, [window, panel](const QString& text) {
        panel->setStatus(text);
        if (!text.isEmpty())
            window->statusBar()->showMessage(text, 8000);
    });
    auto showTime = [panel, scene] { panel->setTime(scene->simulatedTime()); };
    QObject::connect(
        runner, &SimulationRunner::ready, window,
        [scene, panel, showTime, changed](std::shared_ptr<const SimulatedPlayback> playback, SnapshotPtr snap) {
            if (playback && snap != scene->snapshot())
                return; // made for a schedule no longer shown
            scene->setSimulation(playback);
            const Palette& pal = scene->choice().palette();
            panel->setPlayback(playback, snap ? &snap->topology() : nullptr, pal.inFlight.to<QColor>(),
                               pal.contention.to<QColor>());
            showTime();
            changed();
        });
    QObject::connect(timeline, &Timeline::stepChanged, panel, showTime);
    QObject::connect(timeline, &Timeline::fractionChanged, panel, showTime);
    QObject::connect(panel, &LinksPanel::linkChosen, scene, [scene](ChannelId ch) { scene->setSelectedChannel(ch); });
    return dock;
}

void setSimulatedTime(QMainWindow& window, bool on)
{
    if (auto* action = window.findChild<QAction*>(QStringLiteral("simulatedTimeAction")))
        action->setChecked(on);
}

bool waitForSimulation(QMainWindow& window, int timeoutMs)
{
    auto* runner = window.findChild<SimulationRunner*>();
    if (!runner)
        return false;
    QElapsedTimer clock;
    clock.start();
    // The runner starts once the session's schedule is in; it is busy until its result is shown.
    while (clock.elapsed() < timeoutMs) {
        if (runner->playback() && !runner->busy()) // shown: ready() put it in the view
            return true;
        if (!runner->busy() && !runner->status().isEmpty() && clock.elapsed() > 200)
            return false;
        runEventLoopFor(50);
    }
    return false;
}

QString simulationStatus(QMainWindow& window)
{
    auto* runner = window.findChild<SimulationRunner*>();
    return runner ? runner->status() : QString();
}

QString simulatedStepSentence(const SceneView& scene, int step)
{
    const auto playback = scene.simulation();
    if (!playback || !scene.snapshot() || step < 1)
        return {};
    return QStringLiteral(" — ") +
           QString::fromStdString(stepContentionSentence(playback->simulation(), scene.snapshot()->topology(),
                                                         StepNo{static_cast<std::uint32_t>(step)}));
}

} // namespace topocast::app
