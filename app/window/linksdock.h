#pragma once

#include <QString>

class QDockWidget;
class QMainWindow;

#include <functional>

namespace topocast::app {

class SceneView;
class Session;
class Timeline;

/// View ▸ Simulated time (T) and View ▸ Links (F8): simulated time plays the schedule shown as
/// SimGrid simulates it on the scenario's network (SimulationRunner → SceneView::setSimulation),
/// and the Links dock charts every link's busy and shared time, the moment shown marked; a click
/// on a link chooses it in the 3-D view. Turning simulated time on shows the dock. `changed` runs
/// when a simulation arrives or ends (the narration and the legend follow). The action is the
/// window's child "simulatedTimeAction", the dock "linksDock".
QDockWidget* addLinksDock(QMainWindow* window, Session* session, SceneView* scene, Timeline* timeline,
                          std::function<void()> changed);

/// Turns View ▸ Simulated time of `window` on or off (its action, so the menu and the dock follow).
void setSimulatedTime(QMainWindow& window, bool on);
/// Runs the event loop until the simulation of the schedule shown is in the view, or the runner
/// gave up (refused, failed) or `timeoutMs` passed; true when it is in.
bool waitForSimulation(QMainWindow& window, int timeoutMs);
/// What the runner said last (the refusal or the failure), for the command line.
QString simulationStatus(QMainWindow& window);

/// The narration's sentence on step `step` in simulated time (core stepContentionSentence), with
/// a leading " — "; empty in steps.
QString simulatedStepSentence(const SceneView& scene, int step);

} // namespace topocast::app
