#include "mainwindow.h"

#include "compare/comparemetrics.h"
#include "compare/compareview.h"
#include "export/exportactions.h"
#include "panels/findingspanel.h"
#include "panels/layercharts.h"
#include "panels/legendwidget.h"
#include "panels/measuredmodel.h"
#include "panels/measuredpanel.h"
#include "panels/metricsmodel.h"
#include "panels/scenariopanel.h"
#include "panels/sourcemappanel.h"
#include "practice/predictmode.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "timeline/timelinebar.h"
#include "window/fileactions.h"
#include "window/grab.h"
#include "window/hovertips.h"
#include "window/linksdock.h"
#include "window/mainmenus.h"
#include "window/presentation.h"
#include "window/scenariomemory.h"
#include "window/screenfit.h"
#include "window/statusreport.h"
#include "window/timesizedock.h"
#include "window/viewcontrols.h"
#include "window/workspace.h"
#include "words/narration.h"

#include "topocast/model/error.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <utility>

namespace topocast::app {

MainWindow::MainWindow(bool useSettings, QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("topocast"));
    m_session = new Session(this);
    m_timeline = new Timeline(this);
    m_scene = new SceneView(this);
    m_metrics = new MetricsModel(this);
    m_measured = new MeasuredModel(this);
    m_memory = new ScenarioMemory(useSettings, m_scene, m_timeline, this);

    buildCentre();
    QDockWidget* scenarioDock = buildScenarioDock();
    m_applyTimer = new QTimer(this); // the panel's edits are applied after a pause
    m_applyTimer->setSingleShot(true);
    m_applyTimer->setInterval(120);
    connect(m_applyTimer, &QTimer::timeout, this, &MainWindow::applyPanel);
    connect(m_panel, &ScenarioPanel::edited, m_applyTimer, qOverload<>(&QTimer::start));
    buildFindingsDock(scenarioDock);
    connectSession();
    connectViews();
    addTimeSizeDock(this, m_session);
    addLinksDock(this, m_session, m_scene, m_timeline, [this] { updateNarration(), updateLegend(); });
    m_files = new FileActions(this,
                              {m_session, m_timeline, m_scene, m_viewControls, m_workspace, m_findings, m_findingsDock,
                               m_measured, m_measuredPanel, m_memory},
                              {[this](const QString& message) { showError(message); }, [this] { m_error->hide(); },
                               [this] { updateNarration(); }});
    buildExportAndPredict();
    m_presentation = new Presentation(this, {m_side, m_measuredPanel, m_presentLegend, m_narration, m_scene, m_compare},
                                      [this] { updateLegend(); });
    m_parts = {this,
               m_session,
               m_timeline,
               m_scene,
               m_workspace,
               m_files,
               m_export,
               m_predict,
               m_presentation,
               m_status,
               [this](NodeId source) { chooseSource(source); }};
    buildMenus();
    keepOnScreen(this, QSize(1400, 900));
}

/// Centre: 3-D view (and the compare view) beside the side panel, over narration and timeline.
void MainWindow::buildCentre()
{
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(2, 2, 2, 2);
    auto* viewRow = new QHBoxLayout;
    viewRow->addWidget(m_scene->widget(), 1);
    m_compare = new CompareView(m_timeline);
    m_compare->hide();
    viewRow->addWidget(m_compare, 1);
    viewRow->addWidget(buildSidePanel());
    centreLayout->addLayout(viewRow, 1);
    m_narration = new QLabel;
    m_narration->setWordWrap(true);
    m_narration->setTextInteractionFlags(Qt::TextSelectableByMouse);
    centreLayout->addWidget(m_narration);
    m_presentLegend = new LegendWidget;
    m_presentLegend->setRow(true);
    m_presentLegend->hide();
    centreLayout->addWidget(m_presentLegend);
    m_timelineBar = new TimelineBar(m_timeline);
    centreLayout->addWidget(m_timelineBar);
    m_measuredPanel = new MeasuredPanel(m_measured);
    centreLayout->addWidget(m_measuredPanel);
    setCentralWidget(centre);
}

/// The side panel: the colouring, its options, legend, source map panel and charts.
QWidget* MainWindow::buildSidePanel()
{
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    m_viewControls = new ViewControls(m_scene, sideLayout, this);
    m_legend = new LegendWidget;
    sideLayout->addWidget(m_legend);
    m_sourceMap = new SourceMapPanel; // the source map's metric, colour bar and histogram
    m_sourceMap->hide();
    sideLayout->addWidget(m_sourceMap);
    m_sourceMap->follow(m_session);
    m_charts = new LayerCharts;
    m_charts->follow(m_session);
    sideLayout->addWidget(m_charts, 1);
    sideLayout->addStretch();
    side->setMaximumWidth(360);
    return m_side = scrollableColumn(side); // charts and all, it never makes the window taller than the screen
}

/// Left dock: scenario and metrics.
QDockWidget* MainWindow::buildScenarioDock()
{
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    m_panel = new ScenarioPanel;
    leftLayout->addWidget(m_panel);
    m_error = new QLabel;
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #d03030"));
    m_error->hide();
    leftLayout->addWidget(m_error);
    leftLayout->addWidget(makeMetricsTable(m_metrics), 1);
    auto* dock = new QDockWidget(QStringLiteral("Scenario"), this);
    dock->setObjectName(QStringLiteral("scenarioDock"));
    dock->setWidget(left);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    return dock;
}

/// The workspace's results and errors, and the status bar while the session computes.
void MainWindow::connectSession()
{
    m_workspace = new Workspace(this, {m_session, m_scene, m_narration, m_compare, m_findings, m_memory});
    connect(m_workspace, &Workspace::shown, this, &MainWindow::showSnapshot);
    connect(m_workspace, &Workspace::failed, this, &MainWindow::showError);
    // The panel and the metrics table are views of the scenario being edited.
    connect(m_workspace, &Workspace::editedScenarioChanged, m_panel, &ScenarioPanel::setScenario);
    connect(m_workspace, &Workspace::activeSnapshotChanged, m_metrics, &MetricsModel::setSnapshot);
    connect(m_session, &Session::failed, this, &MainWindow::showError);
    m_status = new StatusReport(this, m_session, m_scene);
    connect(m_workspace, &Workspace::splitChanged, m_status, [this](bool split) { m_status->setViewShown(!split); });
    connect(m_session, &Session::cancelled, this, [this] {
        statusBar()->showMessage(QStringLiteral("cancelled; still showing the previous scenario"), 8000);
    });
}

/// The timeline, the 3-D view, the colouring controls and the compare view.
void MainWindow::connectViews()
{
    connect(m_timeline, &Timeline::stepChanged, m_scene, &SceneView::setStep);
    connect(m_timeline, &Timeline::fractionChanged, m_scene, &SceneView::setFraction);
    connect(m_timeline, &Timeline::stepChanged, this, &MainWindow::updateNarration);
    connect(m_timeline, &Timeline::stepChanged, m_measuredPanel, &MeasuredPanel::setStep);
    connect(&m_scene->input(), &SceneInput::nodeClicked, this, &MainWindow::chooseSource);
    connect(&m_scene->input(), &SceneInput::timelineKey, m_timeline, &Timeline::handleKey);
    connect(m_viewControls, &ViewControls::modeChanged, this, [this](ViewMode mode) {
        m_scene->setMode(mode);
        m_sourceMap->setVisible(m_scene->choice().mode == ViewMode::SourceMap);
        updateLegend();
    });
    connect(m_viewControls, &ViewControls::cumulativeToggled, m_scene, &SceneView::setCumulativeHeat);
    connect(m_viewControls, &ViewControls::modeChanged, m_compare, &CompareView::setMode);
    connect(m_viewControls, &ViewControls::cumulativeToggled, m_compare, &CompareView::setCumulativeHeat);
    connect(m_compare, &CompareView::failed, this, &MainWindow::showError);
    connect(m_compare, &CompareView::compareReady, this, [this](CompareSnapshotPtr cmp) {
        m_error->hide();
        statusBar()->showMessage(QStringLiteral("compare: A %1 — B %2 on the %3")
                                     .arg(sideFigures(*cmp->a), sideFigures(*cmp->b),
                                          QString::fromStdString(cmp->a->topology().displayName())));
        updateLegend(); // its entries follow side A's pattern
    });
}

/// Right dock: the rules a schedule opened from a file breaks (shown while one is open).
void MainWindow::buildFindingsDock(QDockWidget* scenarioDock)
{
    m_findings = new FindingsPanel(m_timeline, m_scene);
    m_findingsDock = new QDockWidget(QStringLiteral("Findings"), this);
    m_findingsDock->setObjectName(QStringLiteral("findingsDock"));
    m_findingsDock->setWidget(m_findings);
    addDockWidget(Qt::LeftDockWidgetArea, m_findingsDock);
    tabifyDockWidget(scenarioDock, m_findingsDock); // beside the scenario: the 3-D view keeps its width
    m_findingsDock->hide();
    connect(m_session, &Session::scheduleReady, m_findings, &FindingsPanel::snapshotShown);
}

/// Export actions and predict mode.
void MainWindow::buildExportAndPredict()
{
    m_export = new ExportActions(this, m_session, m_timeline, m_scene, m_charts);
    m_export->setCompareSource([this] { return m_workspace->compareExport(); });
    connect(m_export, &ExportActions::reported, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    m_predict = new PredictMode(this, m_session, m_timeline, m_scene);
    connect(m_predict, &PredictMode::changed, this, &MainWindow::updateNarration);
    connectHoverTips(this, m_scene, m_session, m_timeline, m_predict);
}

MainWindow::~MainWindow()
{
    m_memory->flush();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_memory->rememberAtClose();
    QMainWindow::closeEvent(event);
}

void MainWindow::buildMenus()
{
    m_menus = std::make_unique<MainMenus>(buildMainMenus(m_parts));
    m_memory->setRecentMenu(m_menus->recent, [this](const QString& path) { openScenario(path); });
    m_viewControls->setExplodeAction(m_menus->explode);
    m_status->setFrameTimeAction(m_menus->frameTime);
    m_workspace->setAction(m_menus->compare);
}

QString MainWindow::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void MainWindow::applyPanel()
{
    // The panel edits the split view's active side, else the session's scenario.
    try {
        m_workspace->edit(m_panel->scenario(m_workspace->editedScenario()));
    } catch (const Error& e) {
        showError(QString::fromStdString(e.what()));
    }
}

void MainWindow::chooseSource(NodeId source)
{
    if (const auto snap = m_session->snapshot(); snap && !snap->scheduleFile.isEmpty()) {
        statusBar()->showMessage(fileSourceStays(*snap), 8000);
        return;
    }
    if (m_applyTimer->isActive()) {
        m_applyTimer->stop();
        applyPanel();
    }
    if (m_scene->choice().mode == ViewMode::SourceMap &&
        QGuiApplication::keyboardModifiers().testFlag(Qt::ShiftModifier)) {
        // The source map: Shift+click chooses B's source (the compare side, made from A if none).
        const Scenario& a = m_session->requestedScenario();
        Scenario b = a.compare ? compareSide(a) : a;
        b.source = source;
        m_session->setScenario(withCompare(a, b));
        statusBar()->showMessage(QStringLiteral("B's source: %1 — View ▸ Compare shows A and B side by side")
                                     .arg(QString::fromStdString(a.topology.nodeName(source))),
                                 8000);
        return;
    }
    m_session->setSource(source);
}

void MainWindow::showSnapshot(SnapshotPtr snap)
{
    m_error->hide();
    const QString dropped = m_measured->closeUnlessOf(*snap);
    m_scene->setSnapshot(snap);
    m_menus->follow(*snap, m_scene->camera().orthographic());
    m_timeline->setStepCount(static_cast<int>(snap->stepCount())); // keeps the step, or the opened file's
    m_scene->setStep(m_timeline->step());
    setWindowTitle(windowTitleFor(snap->scenario));
    updateNarration();
    updateLegend();
    statusBar()->showMessage(snapshotStatus(*snap) + dropped);
}

void MainWindow::showError(const QString& message)
{
    m_error->setText(message);
    m_error->show();
    statusBar()->showMessage(QStringLiteral("not changed: ") + message, 8000);
}

void MainWindow::updateNarration()
{
    if (m_predict && m_predict->isActive()) {
        m_narration->setText(m_predict->narration());
        return;
    }
    if (auto snap = m_session->snapshot()) {
        const QString measured = m_measured->stepSentence(m_timeline->step());
        m_narration->setText(narrate(*snap, m_timeline->step()) +
                             (measured.isEmpty() ? QString() : QStringLiteral(" — ") + measured) +
                             simulatedStepSentence(*m_scene, m_timeline->step()));
    }
}

void MainWindow::updateLegend()
{
    // Side by side: side A's pattern and data say which entries apply (no source for an all-reduce).
    const SnapshotPtr snap = m_workspace->legendSnapshot();
    const ViewMode mode = m_scene->choice().mode;
    const QString title = legendTitle(m_viewControls->modeText(), snap.get(), mode, m_viewControls->cumulative());
    const bool simulated = m_workspace->showsSimulation(); // the links say what they carry now
    const auto entries = legendEntries(snap.get(), mode, m_scene->choice().palette(), simulated);
    const auto bar = simulated && mode == ViewMode::Heatmap
                         ? std::nullopt
                         : legendBar(snap.get(), mode, m_viewControls->cumulative(), m_scene->choice().palette());
    m_legend->setEntries(entries, title);
    m_legend->setColourBar(mode == ViewMode::SourceMap ? std::nullopt : bar); // the source map panel has its own
    m_presentLegend->setEntries(entries, title);
    m_presentLegend->setColourBar(bar);
}

} // namespace topocast::app
