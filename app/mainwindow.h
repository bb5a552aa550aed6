#pragma once

#include "session/snapshot.h"
#include "style/scenestyle.h"
#include "window/fileactions.h"
#include "window/mainmenus.h"
#include "window/presentation.h"
#include "window/statusreport.h"
#include "window/viewcontrols.h"
#include "window/windowparts.h"
#include "window/workspace.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>

class QDockWidget;
class QLabel;
class QTimer;

namespace topocast::app {

class CompareView;
class ExportActions;
class FindingsPanel;
class LayerCharts;
class LegendWidget;
class SourceMapPanel;
class MeasuredModel;
class MeasuredPanel;
class MetricsModel;
class PredictMode;
class ScenarioPanel;
class SceneView;
class Session;
class Timeline;
class TimelineBar;
class ScenarioMemory;

/// The topocast window: 3-D view, scenario panel, metrics, legend, timeline and narration.
/// Owns one Session (the core bridge), one Timeline and one SceneView.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `useSettings`: restore the last scenario and recent files from QSettings and save them
    /// on change (off in tests).
    explicit MainWindow(bool useSettings = true, QWidget* parent = nullptr);
    /// Writes a last scenario still waiting for the settings delay (see kSettingsDelayMs).
    ~MainWindow() override;

    /// How long the last scenario waits before it is written to the settings when the one before
    /// was written less than this ago (a run of clicks is written once, when it stops).
    static constexpr int kSettingsDelayMs = 500; // ScenarioMemory::kDelayMs

    Session* session() const { return m_session; }
    Timeline* timeline() const { return m_timeline; }
    SceneView* sceneView() const { return m_scene; }
    ScenarioPanel* scenarioPanel() const { return m_panel; }
    MetricsModel* metricsModel() const { return m_metrics; }
    /// Measured step times of the schedule shown (empty when none is open).
    MeasuredModel* measuredModel() const { return m_measured; }
    MeasuredPanel* measuredPanel() const { return m_measuredPanel; }
    ExportActions* exportActions() const { return m_export; }
    LayerCharts* layerCharts() const { return m_charts; }
    SourceMapPanel* sourceMapPanel() const { return m_sourceMap; }
    /// View ▸ Predict: the student predicts each step's receivers and is graded.
    PredictMode* predictMode() const { return m_predict; }
    /// View ▸ Compare: the split view (created with the window, shown while compare mode is on).
    CompareView* compareView() const { return m_compare; }
    /// One session in the single view or two side by side, and which the panel edits.
    Workspace* workspace() const { return m_workspace; }
    /// The parts the menus, lessons and tour work through.
    const WindowParts& parts() const { return m_parts; }
    /// Turns the split view on (A = the scenario shown, B = its compare side or a copy of A) or
    /// off (the single view shows A, keeping B as its compare side for the next time).
    void setCompareMode(bool on) { m_workspace->setSplit(on); }
    /// Opens a scenario with a compare side in the split view; false (and a message) if refused.
    bool openCompare(const Scenario& scenario) { return m_workspace->open(scenario); }
    /// The split view with the schedule read from a file (File ▸ Open schedule) as A and
    /// topocast's own algorithm for its collective on its network as B (another than the file's
    /// when there is one); false (and a message) when no algorithm builds that collective there.
    bool compareOpenedFile() { return m_workspace->compareOpenedFile(); }
    QString narration() const { return m_workspace->narration(); }
    QString errorText() const;

    /// Opens a scenario file; false (and a message) if it cannot be read.
    bool openScenario(const QString& path) { return m_files->openScenario(path); }
    /// Opens `scenario` as itself: its own colour mode and step (view "mode"/"step", else plain
    /// and step 0), in the split view when it has a compare side.
    bool openScenario(const Scenario& scenario) { return m_files->openScenario(scenario); }
    /// The colour mode and step `scenario`'s view names (plain and 0 when none) for the next
    /// schedule shown; openScenario() calls it, start-up too for the last scenario.
    void startAsItself(const Scenario& scenario) { m_files->startAsItself(scenario); }
    /// Opens a topocast-mpi measured-times file beside the schedule shown; false (and a message,
    /// keeping what was shown) if it cannot be read or was measured on another schedule.
    bool openMeasured(const QString& path) { return m_files->openMeasured(path); }
    /// File ▸ Open schedule: shows a schedule JSON or a student's CSV with the rules it breaks
    /// in the findings panel. A CSV that names no topology uses `topology`, or asks for one in a
    /// dialog when that is nullopt. False (and a message, keeping what was shown) on bad input.
    bool openSchedule(const QString& path, std::optional<Topology> topology = std::nullopt)
    {
        return m_files->openSchedule(path, std::move(topology));
    }
    FindingsPanel* findingsPanel() const { return m_findings; }
    /// Saves the current scenario atomically.
    bool saveScenario(const QString& path) { return m_files->saveScenario(path); }
    /// Scenario files offered as presets (resources/scenarios in the source tree and beside
    /// the executable).
    static QStringList presetFiles() { return presetScenarioFiles(); }
    /// F11 / --present: full screen, large type, the high-contrast palette, and the 3-D view takes
    /// at least 75 % of the window — the scenario dock, the side panel and the status bar hide, the
    /// legend moves into a row under the narration. Off restores what was shown before.
    void setPresentationMode(bool on) { m_presentation->setOn(on); }
    /// View ▸ Show frame time: the 3-D view's smoothed frame time in the status bar, twice a second.
    void showFrameTime(bool on) { m_status->showFrameTime(on); }
    /// The status-bar text of Show frame time (empty until it is first turned on).
    QString frameTimeText() const { return m_status->frameTimeText(); }
    bool presentationMode() const { return m_presentation->isOn(); }
    /// The legend row shown under the narration in presentation mode.
    LegendWidget* presentationLegend() const { return m_presentLegend; }
    LegendWidget* legend() const { return m_legend; }
    /// The whole window as an image, with the 3-D view's captured frame painted in (a plain
    /// QWidget::grab leaves the native 3-D window out). Null if no frame could be rendered.
    QImage grabWindow() { return m_workspace->grab(); }
    void setViewMode(ViewMode mode) { m_viewControls->setMode(mode); }

public slots:
    /// Reads the scenario panel and recomputes when it differs from the latest requested
    /// scenario; an invalid field shows a message and keeps the current scenario.
    void applyPanel();
    /// Makes `source` the source of the latest requested scenario (a click on a node): a panel
    /// edit still waiting to be applied goes first, and the panel shows the new source at once.
    void chooseSource(topocast::NodeId source);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildCentre();
    QWidget* buildSidePanel();
    QDockWidget* buildScenarioDock();
    void connectSession();
    void connectViews();
    void buildFindingsDock(QDockWidget* scenarioDock);
    void buildExportAndPredict();
    void buildMenus();
    void showSnapshot(SnapshotPtr snap);
    void showError(const QString& message);
    void updateNarration();
    void updateLegend();

    Session* m_session = nullptr;
    Timeline* m_timeline = nullptr;
    SceneView* m_scene = nullptr;
    ScenarioPanel* m_panel = nullptr;
    MetricsModel* m_metrics = nullptr;
    TimelineBar* m_timelineBar = nullptr;
    LegendWidget* m_legend = nullptr;
    LayerCharts* m_charts = nullptr;
    SourceMapPanel* m_sourceMap = nullptr;
    MeasuredModel* m_measured = nullptr;
    MeasuredPanel* m_measuredPanel = nullptr;
    ExportActions* m_export = nullptr;
    PredictMode* m_predict = nullptr;
    FindingsPanel* m_findings = nullptr;
    QDockWidget* m_findingsDock = nullptr;
    QLabel* m_narration = nullptr;
    QLabel* m_error = nullptr;
    QTimer* m_applyTimer = nullptr;          ///< applies the panel's edits after a pause
    QWidget* m_side = nullptr;               ///< mode box, legend, source map and charts beside the view
    LegendWidget* m_presentLegend = nullptr; ///< the legend as a row, in presentation mode
    CompareView* m_compare = nullptr;
    ScenarioMemory* m_memory = nullptr;     ///< the last scenario and the recent files
    StatusReport* m_status = nullptr;       ///< the status bar's busy bar, hidden receivers, frame time
    ViewControls* m_viewControls = nullptr; ///< colour mode, cumulative heat, explode, slice
    Presentation* m_presentation = nullptr;
    std::unique_ptr<MainMenus> m_menus; ///< the actions kept in step with what is shown
    Workspace* m_workspace = nullptr;   ///< the single view or the split one, and what each shows
    FileActions* m_files = nullptr;     ///< scenarios, schedules and measured times in and out
    WindowParts m_parts;                ///< the above, for the menus, lessons and tour
};

} // namespace topocast::app
