#pragma once
// The files the window opens and saves: scenarios (as themselves: their own colour mode and step,
// in the split view when they have a compare side), schedules with the rules they break,
// topocast-mpi's measured times, and the scenario shown saved with its view.

#include "topocast/io/scenario_file.h"
#include "topocast/model/topology.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QDockWidget;
class QMainWindow;

namespace topocast::app {

class FindingsPanel;
class MeasuredModel;
class MeasuredPanel;
class ScenarioMemory;
class SceneView;
class Session;
class Timeline;
class ViewControls;
class Workspace;

class FileActions : public QObject {
    Q_OBJECT
public:
    struct Parts {
        Session* session = nullptr;
        Timeline* timeline = nullptr;
        SceneView* scene = nullptr;
        ViewControls* viewControls = nullptr;
        Workspace* workspace = nullptr;
        FindingsPanel* findings = nullptr;
        QDockWidget* findingsDock = nullptr;
        MeasuredModel* measured = nullptr;
        MeasuredPanel* measuredPanel = nullptr;
        ScenarioMemory* memory = nullptr;
    };
    /// How a refusal is said, and how the window says an accepted file (its error cleared,
    /// the narration with the measured times).
    struct Report {
        std::function<void(const QString&)> error;
        std::function<void()> clearError;
        std::function<void()> measuredOpened;
    };
    FileActions(QMainWindow* window, Parts parts, Report report);

    bool openScenario(const QString& path);
    bool openScenario(const Scenario& scenario);
    void startAsItself(const Scenario& scenario);
    bool openSchedule(const QString& path, std::optional<Topology> topology);
    bool openMeasured(const QString& path);
    bool saveScenario(const QString& path);

private:
    QMainWindow* m_window;
    Parts m_parts;
    Report m_report;
};

} // namespace topocast::app
