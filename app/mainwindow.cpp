#include "mainwindow.h"

#include "exportactions.h"
#include "handout.h"
#include "findingspanel.h"
#include "openschedule.h"

#include "compareview.h"
#include "comparemetrics.h"
#include "landscapepanel.h"
#include "layercharts.h"
#include "legendwidget.h"
#include "measuredmodel.h"
#include "measuredpanel.h"
#include "metricsmodel.h"
#include "narration.h"
#include "predictmode.h"
#include "scenariopanel.h"
#include "scene/sceneview.h"
#include "session.h"
#include "timeline.h"
#include "timelinebar.h"

#include "topocast/algorithms/registry.h"
#include "topocast/error.h"
#include "topocast/numbers.h"
#include "topocast/figures.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QSignalBlocker>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace topocast::app {

namespace {
/// "Title — description — topocast", or "topocast" for a scenario with neither.
QString windowTitleFor(const Scenario& s)
{
    QStringList parts;
    for (const std::string* text : {&s.title, &s.description})
        if (!text->empty())
            parts << QString::fromStdString(*text);
    parts << QStringLiteral("topocast");
    return parts.join(QStringLiteral(" — "));
}
} // namespace

MainWindow::MainWindow(bool useSettings, QWidget* parent) : QMainWindow(parent), m_useSettings(useSettings)
{
    setWindowTitle(QStringLiteral("topocast"));
    m_session = new Session(this);
    m_timeline = new Timeline(this);
    m_scene = new SceneView(this);
    m_metrics = new MetricsModel(this);
    m_measured = new MeasuredModel(this);

    buildCentre();
    QDockWidget* scenarioDock = buildScenarioDock();
    buildTimers();
    connectSession();
    connectViews();
    buildFindingsDock(scenarioDock);
    buildExportAndPredict();
    buildMenus();
    if (m_useSettings) {
        QSettings settings;
        m_recent = settings.value(QStringLiteral("recentFiles")).toStringList();
        rebuildRecentMenu();
    }
    resize(1400, 900);
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
    m_side = side;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    m_modeBox = new QComboBox;
    for (std::size_t i = 0; i < colour::kColourModes.size(); ++i)
        m_modeBox->addItem(QString::fromUtf8(colour::kColourModes[i].label), QVariant::fromValue(static_cast<int>(i)));
    sideLayout->addWidget(new QLabel(QStringLiteral("Colour by")));
    sideLayout->addWidget(m_modeBox);
    m_cumulative = new QCheckBox(QStringLiteral("cumulative load"));
    m_cumulative->setChecked(true);
    m_cumulative->setToolTip(QStringLiteral("heat map: load over steps 1..current (checked) or in this step only"));
    sideLayout->addWidget(m_cumulative);
    addViewControls(sideLayout);
    m_legend = new LegendWidget;
    sideLayout->addWidget(m_legend);
    m_landscape = new LandscapePanel;  // the source map's metric, colour bar and histogram
    m_landscape->hide();
    sideLayout->addWidget(m_landscape);
    connect(m_landscape, &LandscapePanel::metricChosen, m_session, &Session::setLandscapeMetric);
    m_charts = new LayerCharts;
    sideLayout->addWidget(m_charts, 1);
    sideLayout->addStretch();
    side->setMaximumWidth(360);
    return side;
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
    m_metricsView = new QTableView;
    m_metricsView->setModel(m_metrics);
    // Names and values share the width and wrap onto more lines, so every value can be read
    // without a horizontal scrollbar, however long the name in words.
    m_metricsView->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_metricsView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_metricsView->setWordWrap(true);
    m_metricsView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_metricsView->verticalHeader()->hide();
    m_metricsView->setSelectionMode(QAbstractItemView::NoSelection);
    // Wide enough for the metric names in words and their values side by side.
    m_metricsView->setMinimumWidth(m_metricsView->fontMetrics().horizontalAdvance(QString(52, QLatin1Char('x'))));
    leftLayout->addWidget(m_metricsView, 1);
    auto* dock = new QDockWidget(QStringLiteral("Scenario"), this);
    dock->setObjectName(QStringLiteral("scenarioDock"));
    dock->setWidget(left);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    return dock;
}

/// The panel's edits are applied after a pause; the last scenario is remembered after another.
void MainWindow::buildTimers()
{
    m_applyTimer = new QTimer(this);
    m_applyTimer->setSingleShot(true);
    m_applyTimer->setInterval(120);
    connect(m_applyTimer, &QTimer::timeout, this, &MainWindow::applyPanel);
    connect(m_panel, &ScenarioPanel::edited, m_applyTimer, qOverload<>(&QTimer::start));
    m_settingsTimer = new QTimer(this);
    m_settingsTimer->setSingleShot(true);
    m_settingsTimer->setInterval(kSettingsDelayMs);
    connect(m_settingsTimer, &QTimer::timeout, this, &MainWindow::writePendingScenario);
}

/// The session's results and errors, and the status bar while it computes.
void MainWindow::connectSession()
{
    connect(m_session, &Session::scheduleReady, this, &MainWindow::showSnapshot);
    connect(m_session, &Session::failed, this, &MainWindow::showError);
    // While a schedule is computed off the GUI thread: a busy bar, what it is doing, and Cancel
    // (Esc), which keeps the scenario shown before.
    auto* busyBar = new QProgressBar;
    busyBar->setRange(0, 0);
    busyBar->setMaximumWidth(140);
    busyBar->hide();
    auto* cancel = new QPushButton(QStringLiteral("Cancel"));
    cancel->setToolTip(QStringLiteral("stop computing and keep the scenario shown (Esc)"));
    cancel->hide();
    statusBar()->addPermanentWidget(busyBar);
    statusBar()->addPermanentWidget(cancel);
    connect(cancel, &QPushButton::clicked, m_session, &Session::cancel);
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(esc, &QShortcut::activated, m_session, &Session::cancel);
    connect(m_session, &Session::busyChanged, this, [this, busyBar, cancel](bool busy) {
        busyBar->setVisible(busy);
        cancel->setVisible(busy);
        if (busy)
            statusBar()->showMessage(QStringLiteral("computing…"));
    });
    connect(m_session, &Session::progress, this,
            [this](const QString& stage) { statusBar()->showMessage(QStringLiteral("computing: %1…").arg(stage)); });
    connect(m_session, &Session::cancelled, this, [this] {
        m_panel->setScenario(m_session->scenario());
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
    connect(m_scene, &SceneView::nodeClicked, this, &MainWindow::chooseSource);
    connect(m_scene, &SceneView::nodeHovered, this, &MainWindow::showHover);
    connect(m_scene, &SceneView::messageHovered, this, [this](long long transfer, QPoint globalPos) {
        if (const auto snap = m_session->snapshot(); snap && transfer >= 0)
            QToolTip::showText(globalPos, messageContents(*snap, static_cast<std::size_t>(transfer)));
    });
    connect(m_scene, &SceneView::timelineKey, m_timeline, &Timeline::handleKey);
    connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this] {
        m_scene->setMode(static_cast<ViewMode>(m_modeBox->currentData().toInt()));
        m_landscape->setVisible(m_scene->mode() == ViewMode::TcdMap);
        updateLegend();
    });
    connect(m_cumulative, &QCheckBox::toggled, m_scene, &SceneView::setCumulativeHeat);
    connect(m_modeBox, &QComboBox::currentIndexChanged, this,
            [this] { m_compare->setMode(static_cast<ViewMode>(m_modeBox->currentData().toInt())); });
    connect(m_cumulative, &QCheckBox::toggled, m_compare, &CompareView::setCumulativeHeat);
    connect(m_compare, &CompareView::activeScenarioChanged, this, [this](const Scenario& s) {
        if (!m_compareOn)
            return;
        m_panel->setScenario(s);  // the panel and the metrics table follow the side being edited
        if (auto snap = m_compare->session(m_compare->activeSide())->snapshot())
            m_metrics->setSnapshot(snap);
    });
    connect(m_compare, &CompareView::failed, this, &MainWindow::showError);
    connect(m_compare, &CompareView::compareReady, this, [this](CompareSnapshotPtr cmp) {
        m_error->hide();
        statusBar()->showMessage(QStringLiteral("compare: A %1 — B %2 on the %3")
                                     .arg(sideFigures(*cmp->a), sideFigures(*cmp->b),
                                          QString::fromStdString(cmp->a->topology().displayName())));
        updateLegend();  // its entries follow side A's pattern
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
    tabifyDockWidget(scenarioDock, m_findingsDock);  // beside the scenario: the 3-D view keeps its width
    m_findingsDock->hide();
    connect(m_session, &Session::scheduleReady, m_findings, &FindingsPanel::snapshotShown);
}

/// Export actions and predict mode.
void MainWindow::buildExportAndPredict()
{
    m_export = new ExportActions(this, m_session, m_timeline, m_scene, m_charts);
    m_export->setCompareSource([this]() -> std::pair<CompareSnapshotPtr, OrbitCamera::State> {
        if (!m_compareOn || !m_compare->compareSnapshot())
            return {};
        return {m_compare->compareSnapshot(), m_compare->sceneView(0)->camera().state()};
    });
    connect(m_export, &ExportActions::reported, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    m_predict = new PredictMode(this, m_session, m_timeline, m_scene);
    connect(m_predict, &PredictMode::changed, this, &MainWindow::updateNarration);
}

MainWindow::~MainWindow()
{
    writePendingScenario();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_remembered)
        rememberScenario(*m_remembered);  // with the step and mode it is left at
    writePendingScenario();
    QMainWindow::closeEvent(event);
}

void MainWindow::rememberScenario(Scenario scenario)
{
    if (!m_useSettings)
        return;
    scenario.view["mode"] = viewModeName(m_scene->mode()).toStdString();
    scenario.view["step"] = m_timeline->step();
    m_remembered = scenario;
    const QString json = QString::fromStdString(toJson(scenario).dump());
    if (json == m_savedScenario) {
        m_pendingScenario.clear();  // back to what is on disk: nothing to write
        m_settingsTimer->stop();
        return;
    }
    m_pendingScenario = json;
    // A scenario computed after a pause goes to disk at once (a kill right after loses nothing);
    // within kSettingsDelayMs of the last write it waits until the clicks stop.
    if (!m_settingsTimer->isActive() &&
        (!m_sinceSettingsWrite.isValid() || m_sinceSettingsWrite.elapsed() >= kSettingsDelayMs))
        writePendingScenario();
    else
        m_settingsTimer->start();  // (re)start: written kSettingsDelayMs after the last one
}

void MainWindow::writePendingScenario()
{
    m_settingsTimer->stop();
    if (!m_useSettings || m_pendingScenario.isEmpty())
        return;
    QSettings settings;  // written to disk when it goes out of scope
    settings.setValue(QStringLiteral("lastScenario"), m_pendingScenario);
    m_savedScenario = m_pendingScenario;
    m_pendingScenario.clear();
    m_sinceSettingsWrite.start();
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open scenario…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open scenario"), QString(),
                                                          QStringLiteral("Scenarios (*.json)"));
        if (!path.isEmpty())
            openScenario(path);
    });
    file->addAction(QStringLiteral("Open sc&hedule…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open schedule"), QString(),
                                                          QStringLiteral("Schedules (*.json *.csv *.xml);;MSCCL XML (*.xml)"));
        if (!path.isEmpty())
            openSchedule(path);
    });
    file->addAction(QStringLiteral("&Save scenario as…"), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save scenario"), QString(),
                                                          QStringLiteral("Scenarios (*.json)"));
        if (!path.isEmpty())
            saveScenario(path);
    });
    file->addAction(QStringLiteral("Open &measured times…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open measured times (topocast-mpi --out)"),
                                                          QString(), QStringLiteral("Measured times (*.json)"));
        if (!path.isEmpty())
            openMeasured(path);
    });
    m_recentMenu = file->addMenu(QStringLiteral("Open &recent"));
    QMenu* presets = file->addMenu(QStringLiteral("&Presets"));
    presets->setToolTipsVisible(true);
    for (const QString& p : presetFiles()) {
        // Each preset by its title, its one-line description beside it as tooltip and status tip.
        QString title = QFileInfo(p).completeBaseName(), description;
        try {
            const Scenario sc = loadScenario(p.toStdString());
            if (!sc.title.empty())
                title = QString::fromStdString(sc.title);
            description = QString::fromStdString(sc.description);
        } catch (const Error&) {  // listed by file name; opening it says what is wrong
        }
        QAction* a = presets->addAction(title, this, [this, p] { openScenario(p); });
        a->setToolTip(description.isEmpty() ? title : description);
        a->setStatusTip(description);
    }
    presets->setEnabled(!presets->isEmpty());
    file->addSeparator();
    file->addMenu(m_export->menu());
    addHandoutAction(m_export->menu(), this, m_session, m_export, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    view->addAction(QStringLiteral("&Reset view"), QKeySequence(Qt::Key_R | Qt::CTRL), m_scene, &SceneView::resetView);
    m_explodeAction = view->addAction(QStringLiteral("&Explode planes"));
    m_explodeAction->setCheckable(true);
    m_explodeAction->setShortcut(QKeySequence(Qt::Key_E));
    m_explodeAction->setToolTip(QStringLiteral("pull the planes of a 3-D mesh or torus apart (E in the 3-D view too)"));
    connect(m_explodeAction, &QAction::triggered, m_scene, &SceneView::toggleExplode);
    QAction* present = view->addAction(QStringLiteral("&Presentation mode"));
    present->setCheckable(true);
    present->setShortcut(QKeySequence(Qt::Key_F11));
    connect(present, &QAction::toggled, this, &MainWindow::setPresentationMode);
    m_frameTimeAction = view->addAction(QStringLiteral("Show &frame time"));
    m_frameTimeAction->setCheckable(true);
    m_frameTimeAction->setToolTip(QStringLiteral("the time the 3-D view takes per frame, in the status bar"));
    connect(m_frameTimeAction, &QAction::toggled, this, &MainWindow::showFrameTime);
    view->addAction(m_predict->action());
    m_compareAction = view->addAction(QStringLiteral("&Compare side by side"));
    m_compareAction->setCheckable(true);
    m_compareAction->setShortcut(QKeySequence(Qt::Key_K | Qt::CTRL));
    m_compareAction->setToolTip(QStringLiteral("two schedules on one network, one camera and one timeline; click a side to edit it"));
    connect(m_compareAction, &QAction::toggled, this, &MainWindow::setCompareMode);
    view->addSeparator();
    m_orthographicAction = view->addAction(QStringLiteral("&Orthographic projection"));
    m_orthographicAction->setCheckable(true);
    m_orthographicAction->setShortcut(QKeySequence(Qt::Key_O));
    m_orthographicAction->setShortcutContext(Qt::ApplicationShortcut);
    m_orthographicAction->setToolTip(QStringLiteral("parallel projection: 2-D networks open in it (top-down, x right, y down); "
                                                    "for 3-D networks a choice kept from network to network"));
    connect(m_orthographicAction, &QAction::toggled, m_scene, &SceneView::setOrthographic);
    connect(m_scene, &SceneView::orthographicChanged, this, [this](bool on) {
        const QSignalBlocker block(m_orthographicAction);
        m_orthographicAction->setChecked(on);
    });
    m_flatAction = view->addAction(QStringLiteral("&Flat hypercube drawing"));
    m_flatAction->setCheckable(true);
    m_flatAction->setEnabled(false);
    m_flatAction->setToolTip(QStringLiteral("hypercubes of n ≤ 6: the classic flat drawing with binary addresses "
                                            "instead of the 3-D cube drawing (saved in the scenario as view.layout)"));
    connect(m_flatAction, &QAction::toggled, this, [this](bool flat) {
        Scenario s = m_session->requestedScenario();
        s.view["layout"] = std::string(hypercubeDrawingName(flat ? HypercubeDrawing::Flat : HypercubeDrawing::Cube));
        if (!(s == m_session->requestedScenario()))
            m_session->setScenario(s);
    });

    QMenu* play = menuBar()->addMenu(QStringLiteral("&Timeline"));
    auto add = [this, play](const QString& text, QKeySequence key, auto slot) {
        QAction* a = play->addAction(text);
        a->setShortcut(key);
        a->setShortcutContext(Qt::ApplicationShortcut);
        connect(a, &QAction::triggered, m_timeline, slot);
    };
    add(QStringLiteral("Play / pause"), QKeySequence(Qt::Key_Space), &Timeline::togglePlay);
    add(QStringLiteral("Step back"), QKeySequence(Qt::Key_Left), &Timeline::stepBack);
    add(QStringLiteral("Step forward"), QKeySequence(Qt::Key_Right), &Timeline::stepForward);
    add(QStringLiteral("First step"), QKeySequence(Qt::Key_Home), &Timeline::first);
    add(QStringLiteral("Last step"), QKeySequence(Qt::Key_End), &Timeline::last);
    // Every menu action also belongs to the window, so its shortcut (F11 among them) still works
    // while presentation mode hides the menu bar.
    for (QMenu* menu : menuBar()->findChildren<QMenu*>())
        for (QAction* action : menu->actions())
            if (!action->isSeparator() && !action->menu())
                addAction(action);
}

QStringList MainWindow::presetFiles()
{
    QStringList dirs = {QStringLiteral(TOPOCAST_SCENARIO_DIR),
                        QCoreApplication::applicationDirPath() + QStringLiteral("/scenarios"),
                        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/topocast/scenarios")};
    QStringList files;
    for (const QString& d : dirs) {
        const QDir dir(d);
        for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            files << dir.absoluteFilePath(f);
        if (!files.isEmpty())
            break;
    }
    return files;
}

QString MainWindow::narration() const
{
    if (m_compareOn)
        return m_compare->metrics()->narration(0) + QLatin1Char('\n') + m_compare->metrics()->narration(1);
    return m_narration->text();
}
QString MainWindow::errorText() const { return m_error->isHidden() ? QString() : m_error->text(); }

void MainWindow::applyPanel()
{
    Scenario s;
    try {
        s = m_panel->scenario();
    } catch (const Error& e) {
        showError(QString::fromStdString(e.what()));
        return;
    }
    if (m_compareOn) {  // the panel edits the split view's active side
        m_compare->setActiveScenario(s);
        return;
    }
    // The panel has no compare side: an edit on the same network keeps the scenario's.
    if (const Scenario& requested = m_session->requestedScenario(); requested.compare && s.topology == requested.topology)
        s.compare = requested.compare;
    // Compared with the latest request, not the scenario shown: an edit back to what is shown
    // while another edit computes is a new request too.
    if (s == m_session->requestedScenario())
        return;
    m_session->setScenario(s);
}

void MainWindow::chooseSource(NodeId source)
{
    if (const auto snap = m_session->snapshot(); snap && !snap->scheduleFile.isEmpty()) {
        // No algorithm can rebuild a schedule read from a file from another source.
        statusBar()->showMessage(QStringLiteral("%1 is a schedule from a file; its source stays %2")
                                     .arg(QFileInfo(snap->scheduleFile).fileName(),
                                          QString::fromStdString(snap->topology().nodeName(snap->schedule.source()))),
                                 8000);
        return;
    }
    if (m_applyTimer->isActive()) {
        m_applyTimer->stop();
        applyPanel();
    }
    if (m_scene->mode() == ViewMode::TcdMap && QGuiApplication::keyboardModifiers().testFlag(Qt::ShiftModifier)) {
        // The landscape: Shift+click chooses B's source (the compare side, made from A if none).
        const Scenario& a = m_session->requestedScenario();
        Scenario b = a.compare ? compareSide(a) : a;
        b.source = source;
        m_session->setScenario(withCompare(a, b));
        statusBar()->showMessage(QStringLiteral("B's source: %1 — View ▸ Compare shows A and B side by side")
                                     .arg(QString::fromStdString(a.topology.nodeName(source))), 8000);
        return;
    }
    m_session->setSource(source);
    // A panel edit made before this build ends reads the clicked source, not the old one.
    m_panel->setSource(m_session->requestedScenario().topology, source);
}

void MainWindow::showSnapshot(SnapshotPtr snap)
{
    if (m_compareOn) {  // A for the single view, ready for when the split view is turned off
        m_scene->setSnapshot(snap);
        if (m_compare->activeSide() == 0)  // the table shows the side the panel edits
            m_metrics->setSnapshot(snap);
        m_charts->setSnapshot(snap);
        if (m_useSettings)
            rememberScenario(snap->scenario);
        return;
    }
    m_error->hide();
    QString dropped;
    if (const auto measured = m_measured->measured(); measured && !measuredBelongsTo(*measured, *snap)) {
        m_measured->setMeasured(nullptr);  // never shown against another schedule
        dropped = QStringLiteral(" — measured times of %1 closed (they belong to the previous schedule)")
                      .arg(QFileInfo(measured->file).fileName());
    }
    m_panel->setScenario(snap->scenario);
    m_metrics->setSnapshot(snap);
    m_scene->setSnapshot(snap);
    {
        const QSignalBlocker block(m_flatAction);
        m_flatAction->setEnabled(snap->topology().isHypercube() && snap->topology().dims() <= kFlatHypercubeMaxDims);
        m_flatAction->setChecked(drawingOf(snap->scenario) == HypercubeDrawing::Flat);
        const QSignalBlocker blockOrtho(m_orthographicAction);
        m_orthographicAction->setChecked(m_scene->orthographic());
    }
    m_timeline->setStepCount(static_cast<int>(snap->stepCount()));  // keeps the step, or the opened file's
    m_scene->setStep(m_timeline->step());
    setWindowTitle(windowTitleFor(snap->scenario));
    m_charts->setSnapshot(snap);
    m_landscape->setSnapshot(snap);
    updateNarration();
    updateLegend();
    QString msg = QStringLiteral("%1: %2 steps, TCD %3 — computed in %4 ms")
                      .arg(QString::fromStdString(snap->schedule.topology().displayName()))
                      .arg(snap->stepCount())
                      .arg(snap->metrics.tcd)
                      .arg(snap->computeMs, 0, 'f', 1);
    if (!snap->note.isEmpty())
        msg = snap->note + QStringLiteral(" — ") + msg;
    statusBar()->showMessage(msg + dropped);
    if (m_useSettings && snap->scheduleFile.isEmpty())  // a schedule from a file cannot be rebuilt
        rememberScenario(snap->scenario);
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
                             (measured.isEmpty() ? QString() : QStringLiteral(" — ") + measured));
    }
}

bool MainWindow::openMeasured(const QString& path)
{
    const auto snap = m_session->snapshot();
    if (!snap) {
        showError(QStringLiteral("open a scenario before its measured times"));
        return false;
    }
    MeasuredPtr loaded;
    try {
        loaded = loadMeasured(path, *snap);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    m_error->hide();
    m_measured->setMeasured(loaded);
    m_measuredPanel->setStep(m_timeline->step());
    updateNarration();
    statusBar()->showMessage(QStringLiteral("measured times from %1: %2 ranks, %3")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(loaded->measured.ranks)
                                 .arg(QString::fromStdString(loaded->measured.mpiLibrary)));
    return true;
}

void MainWindow::updateLegend()
{
    // Side by side: side A's pattern and data say which entries apply (no source for an all-reduce).
    SnapshotPtr snap = m_session->snapshot();
    if (m_compareOn && m_compare->compareSnapshot())
        snap = m_compare->compareSnapshot()->a;
    const ViewMode mode = m_scene->mode();
    QString title = m_modeBox->currentText();
    if (mode == ViewMode::Heatmap && snap)
        title += QStringLiteral(" (scale 0–%1)").arg(m_cumulative->isChecked() ? snap->metrics.maxLinkLoad : snap->metrics.maxStepLoad);
    const auto entries = legendEntries(snap.get(), mode, m_scene->palette());
    const auto bar = legendBar(snap.get(), mode, m_cumulative->isChecked(), m_scene->palette());
    m_legend->setEntries(entries, title);
    m_legend->setColourBar(mode == ViewMode::TcdMap ? std::nullopt : bar);  // the source map panel has its own
    m_presentLegend->setEntries(entries, title);
    m_presentLegend->setColourBar(bar);
}

void MainWindow::showHover(long long node, QPoint globalPos)
{
    const auto snap = m_session->snapshot();
    if (node < 0 || !snap) {
        QToolTip::hideText();
        return;
    }
    const auto v = static_cast<NodeId>(node);
    QString text = QString::fromStdString(snap->topology().nodeName(v));
    if (v < snap->landscape.size())
        text += QStringLiteral("\n%1 as source: %2")
                    .arg(QString::fromStdString(metricWords(snap->landscapeMetric)),
                         QString::fromStdString(formatLandscapeValue(snap->landscape[v], snap->landscapeMetric,
                                                                     snap->landscapeTimeUnit)));
    if (snap->holdings && snap->holdings->requiredCount(v) > 0) {
        const StepNo k{static_cast<std::uint32_t>(std::max(m_timeline->step(), 0))};
        text += QStringLiteral("\nholds %1 of the %2 blocks it must end with (%3 blocks in all)")
                    .arg(snap->holdings->requiredHeldAt(v, k))
                    .arg(snap->holdings->requiredCount(v))
                    .arg(snap->holdings->countAt(v, k));
    }
    const int layer = nodeLayer(*snap, v);
    text += layer < 0 ? QStringLiteral("\nin no layer") : QStringLiteral("\nlayer %1").arg(layer);
    const DivisibleLoadFigures* load =
        snap->schedule.figures ? snap->schedule.figures->get<DivisibleLoadFigures>() : nullptr;
    if (load && layer >= 0 && static_cast<std::size_t>(layer) < load->model.alpha.size())
        text += QStringLiteral(", layer load share %1").arg(load->model.alpha[static_cast<std::size_t>(layer)]);
    text += m_predict->isActive() ? QStringLiteral("\nclick to mark or unmark it") : QStringLiteral("\nclick to make it the source");
    QToolTip::showText(globalPos, text);
}

bool MainWindow::openScenario(const QString& path)
{
    Scenario s;
    try {
        s = loadScenario(path.toStdString());
    } catch (const Error& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    addRecent(path);
    return openScenario(s);
}

void MainWindow::startAsItself(const Scenario& s)
{
    // Its own colour mode (plain when it names none) and step (its view's, else 0), never the
    // mode and step the previous scenario was left at.
    setViewMode(parseViewMode(QString::fromStdString(scenarioViewMode(s))).value_or(ViewMode::Plain));
    m_timeline->startNextAt(scenarioStartStep(s));
}

bool MainWindow::openScenario(const Scenario& s)
{
    if (s.compare) {
        try {
            compareSide(s);  // a compare side on another network is refused before anything changes
        } catch (const Error& e) {
            showError(QString::fromStdString(e.what()));
            return false;
        }
        startAsItself(s);
        return openCompare(s);
    }
    startAsItself(s);
    if (m_compareOn)
        setCompareMode(false);
    m_session->setScenario(s);
    return true;
}

bool MainWindow::openSchedule(const QString& path, std::optional<Topology> topology)
{
    try {
        if (m_compareOn)
            setCompareMode(false);  // a file's schedule is shown in the single view
        if (!topology) {
            const TopologyNeed need = scheduleFileTopology(path, m_session->scenario().topology);
            topology = need.given;
            if (need.choose && !(topology = chooseTopology(this, need.question, m_session->scenario().topology)))
                return false;
        }
        const OpenedSchedulePtr opened = openScheduleFile(path, topology);
        m_findings->setOpened(opened);
        m_findingsDock->show();
        m_findingsDock->raise();
        m_session->showSnapshot(opened->snapshot);
    } catch (const Error& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

bool MainWindow::openCompare(const Scenario& scenario)
{
    try {
        if (scenario.compare)
            compareSide(scenario);  // refuses a compare side on another network
    } catch (const Error& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    Scenario a = scenario;
    a.compare = scenario.compare;
    m_session->setScenario(a);  // the single view shows A when compare mode is turned off
    showSplitView();
    m_compare->setScenario(scenario);
    return true;
}

void MainWindow::showSplitView()
{
    {
        const QSignalBlocker block(m_compareAction);
        m_compareAction->setChecked(true);
    }
    m_compareOn = true;
    m_scene->widget()->hide();
    m_narration->hide();
    m_compare->show();
}

bool MainWindow::compareOpenedFile()
{
    const SnapshotPtr file = m_session->snapshot();
    const Schedule& s = file->schedule;
    const std::vector<std::string> names = algorithmsFor(s.topology(), s.pattern());
    if (names.empty()) {
        showError(QStringLiteral("No topocast algorithm builds a %1 on the %2 to compare with.")
                      .arg(QString::fromStdString(toString(s.pattern())), QString::fromStdString(s.topology().displayName())));
        return false;
    }
    const auto other = std::find_if(names.begin(), names.end(), [&](const std::string& n) { return n != s.algorithm; });
    Scenario b = m_session->requestedScenario();
    b.compare.reset();
    b.algorithm = other != names.end() ? *other : names.front();
    b.title = "topocast's " + b.algorithm;
    b.topology = s.topology();
    b.params = Params{};
    if (s.pattern() != Pattern::Broadcast)
        b.params.set("pattern", toString(s.pattern()));
    b.source = s.source();
    showSplitView();
    m_comparingFile = true;
    m_compare->compareWithFile(file, b);
    return true;
}

void MainWindow::setCompareMode(bool on)
{
    if (on == m_compareOn)
        return;
    if (on && m_findings->opened() && m_session->snapshot() == m_findings->opened()->snapshot) {
        compareOpenedFile();
        return;
    }
    if (on) {
        Scenario s = m_session->requestedScenario();
        if (!s.compare) {
            try {
                s = contrastScenario(s);  // B is a useful contrast, not a copy of A
            } catch (const Error& e) {
                s = withCompare(s, s);
                statusBar()->showMessage(QString::fromStdString(e.what()), 8000);
            }
        }
        openCompare(s);
        return;
    }
    const Scenario both = m_compare->scenario();
    const bool fromFile = std::exchange(m_comparingFile, false);
    m_compareOn = false;
    {
        const QSignalBlocker block(m_compareAction);
        m_compareAction->setChecked(false);
    }
    m_compare->hide();
    m_scene->widget()->show();
    m_narration->show();
    if (fromFile && m_session->snapshot())
        showSnapshot(m_session->snapshot());  // back to the file, its findings still listed
    else if (!(both == m_session->requestedScenario()))
        m_session->setScenario(both);
    else if (auto snap = m_session->snapshot())
        showSnapshot(snap);  // the timeline and panel back to the single view
}

bool MainWindow::saveScenario(const QString& path)
{
    try {
        Scenario s = m_compareOn ? m_compare->scenario() : m_session->scenario();
        s.view["mode"] = viewModeName(m_scene->mode()).toStdString();
        s.view["step"] = m_timeline->step();
        topocast::saveScenario(s, path.toStdString());
    } catch (const Error& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    addRecent(path);
    statusBar()->showMessage(QStringLiteral("saved ") + path, 5000);
    return true;
}

void MainWindow::setViewMode(ViewMode mode)
{
    for (int i = 0; i < m_modeBox->count(); ++i)
        if (m_modeBox->itemData(i).toInt() == static_cast<int>(mode))
            m_modeBox->setCurrentIndex(i);
}

void MainWindow::addRecent(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(abs);
    m_recent.prepend(abs);
    while (m_recent.size() > 8)
        m_recent.removeLast();
    if (m_useSettings)
        QSettings().setValue(QStringLiteral("recentFiles"), m_recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    for (const QString& p : m_recent)
        m_recentMenu->addAction(p, this, [this, p] { openScenario(p); });
    m_recentMenu->setEnabled(!m_recent.isEmpty());
}

QImage MainWindow::grabWindow()
{
    if (m_compareOn) {
        const auto frames = m_compare->captureFrames();
        if (frames[0].isNull() || frames[1].isNull())
            return {};
        QImage image = grab().toImage();
        QPainter p(&image);
        for (int i = 0; i < 2; ++i) {
            QWidget* view = m_compare->sceneView(i)->widget();
            const QPoint at = view->mapTo(this, QPoint(0, 0)) * image.devicePixelRatio();
            p.drawImage(QRect(at, view->size() * image.devicePixelRatio()), frames[static_cast<std::size_t>(i)]);
        }
        return image;
    }
    const QImage frame = m_scene->captureFrame();
    if (frame.isNull())
        return {};
    QImage image = grab().toImage();
    QWidget* view = m_scene->widget();
    const QPoint at = view->mapTo(this, QPoint(0, 0)) * image.devicePixelRatio();
    QPainter p(&image);
    p.drawImage(QRect(at, view->size() * image.devicePixelRatio()), frame);
    return image;
}

void MainWindow::addViewControls(QVBoxLayout* sideLayout)
{
    auto* explodeLabel = new QLabel(QStringLiteral("Explode planes (E)"));
    sideLayout->addWidget(explodeLabel);
    m_explodeSlider = new QSlider(Qt::Horizontal);
    m_explodeSlider->setObjectName(QStringLiteral("explodeSlider"));
    m_explodeSlider->setRange(0, static_cast<int>(kMaxExplode * 10));
    m_explodeSlider->setToolTip(QStringLiteral("pull the planes of a 3-D mesh or torus apart so every plane is seen (E: on/off)"));
    sideLayout->addWidget(m_explodeSlider);
    // Slice: one plane in full, the others ghosted; "follow" moves to where the step happens.
    auto* sliceRow = new QHBoxLayout;
    sliceRow->addWidget(new QLabel(QStringLiteral("Slice")));
    auto* sliceAxis = new QComboBox;
    sliceAxis->setObjectName(QStringLiteral("sliceAxis"));
    sliceAxis->addItem(QStringLiteral("off"), -1);
    sliceAxis->addItem(QStringLiteral("x planes"), 0);
    sliceAxis->addItem(QStringLiteral("y planes"), 1);
    sliceAxis->addItem(QStringLiteral("z planes"), 2);
    sliceAxis->setToolTip(QStringLiteral("show one plane across this axis in full and ghost the others"));
    sliceRow->addWidget(sliceAxis, 1);
    auto* slicePlane = new QSpinBox;
    slicePlane->setObjectName(QStringLiteral("slicePlane"));
    slicePlane->setToolTip(QStringLiteral("the plane shown in full (its coordinate)"));
    slicePlane->setEnabled(false);
    sliceRow->addWidget(slicePlane);
    sideLayout->addLayout(sliceRow);
    auto* sliceFollow = new QCheckBox(QStringLiteral("follow the step"));
    sliceFollow->setObjectName(QStringLiteral("sliceFollow"));
    sliceFollow->setToolTip(QStringLiteral("each step moves the slice to the plane with most of its receivers"));
    sideLayout->addWidget(sliceFollow);
    auto syncSlice = [this, sliceAxis, slicePlane](int dim, int plane) {
        const QSignalBlocker a(sliceAxis), b(slicePlane);
        sliceAxis->setCurrentIndex(std::max(0, sliceAxis->findData(dim)));
        slicePlane->setEnabled(dim >= 0);
        if (dim >= 0 && m_scene->snapshot())
            slicePlane->setRange(0, m_scene->snapshot()->topology().side(dim) - 1);
        slicePlane->setValue(plane);
    };
    connect(sliceAxis, &QComboBox::currentIndexChanged, this, [this, sliceAxis, slicePlane, syncSlice] {
        m_scene->setSlice(sliceAxis->currentData().toInt(), slicePlane->value());
        syncSlice(m_scene->sliceDimension(), m_scene->slicePlane());
    });
    connect(slicePlane, &QSpinBox::valueChanged, this, [this](int plane) {
        if (m_scene->sliceDimension() >= 0)
            m_scene->setSlice(m_scene->sliceDimension(), plane);
    });
    connect(sliceFollow, &QCheckBox::toggled, m_scene, &SceneView::setSliceFollowsStep);
    connect(m_scene, &SceneView::sliceChanged, this, syncSlice);
    connect(m_explodeSlider, &QSlider::valueChanged, this, [this](int v) {
        if (v != qRound(m_scene->explode() * 10))
            m_scene->setExplode(static_cast<float>(v) / 10.0f);
    });
    connect(m_scene, &SceneView::explodeChanged, this, [this, explodeLabel](float explode) {
        const QSignalBlocker block(m_explodeSlider);
        m_explodeSlider->setValue(qRound(explode * 10));
        m_explodeSlider->setEnabled(m_scene->canExplode());
        explodeLabel->setEnabled(m_scene->canExplode());
        if (m_explodeAction) {
            const QSignalBlocker blockAction(m_explodeAction);
            m_explodeAction->setChecked(explode > 0);
            m_explodeAction->setEnabled(m_scene->canExplode());
        }
        updateHidden();
    });
    m_hiddenLabel = new QLabel;
    m_hiddenLabel->setObjectName(QStringLiteral("hiddenLabel"));
    statusBar()->addPermanentWidget(m_hiddenLabel);
    connect(m_scene, &SceneView::visibilityChanged, this, &MainWindow::updateHidden);
}

void MainWindow::showFrameTime(bool on)
{
    if (!m_frameTimeLabel) {
        m_frameTimeLabel = new QLabel;
        m_frameTimeLabel->setObjectName(QStringLiteral("frameTimeLabel"));
        statusBar()->addPermanentWidget(m_frameTimeLabel);
        m_frameTimeTimer = new QTimer(this);
        m_frameTimeTimer->setInterval(500);
        connect(m_frameTimeTimer, &QTimer::timeout, this, &MainWindow::updateFrameTime);
    }
    if (m_frameTimeAction && m_frameTimeAction->isChecked() != on) {
        const QSignalBlocker block(m_frameTimeAction);
        m_frameTimeAction->setChecked(on);
    }
    m_frameTimeLabel->setVisible(on);
    if (on) {
        m_frameTimeTimer->start();
        updateFrameTime();
    } else {
        m_frameTimeTimer->stop();
    }
}

void MainWindow::updateFrameTime()
{
    const double ms = m_scene->frameTimeMs();
    m_frameTimeLabel->setText(ms > 0.0 ? QStringLiteral("frame %1 ms (%2 frames/s)")
                                             .arg(QString::fromStdString(formatFixed(ms, 1)),
                                                  QString::fromStdString(formatFixed(1000.0 / ms, 0)))
                                       : QStringLiteral("frame time: waiting for frames"));
}

QString MainWindow::frameTimeText() const { return m_frameTimeLabel ? m_frameTimeLabel->text() : QString(); }

void MainWindow::updateHidden()
{
    const std::size_t hidden = m_scene->hiddenReceivers();
    if (hidden == 0 || m_compareOn) {
        m_hiddenLabel->clear();
        return;
    }
    const QString hint = m_scene->canExplode() && m_scene->explode() == 0.0f ? QStringLiteral("press E to explode")
                                                                           : QStringLiteral("drag to turn the view");
    m_hiddenLabel->setText(QStringLiteral("%1 of %2 receivers hidden — %3").arg(hidden).arg(m_scene->stepReceivers()).arg(hint));
}

void MainWindow::setPresentationMode(bool on)
{
    if (on == m_presentation)
        return;
    m_presentation = on;
    if (on) {
        m_normalFont = QApplication::font();
        QFont f = m_normalFont;
        f.setPointSizeF(f.pointSizeF() * 1.6);
        QApplication::setFont(f);
        // The 3-D view gets the window: hide the docks, the side panel, the menu and status bars
        // (the legend moves under the narration; the menus' shortcuts stay, see buildMenus),
        // remembering what was shown.
        m_hiddenForPresentation.clear();
        QList<QWidget*> panels = {m_side, m_measuredPanel, statusBar(), menuBar()};
        for (QDockWidget* d : findChildren<QDockWidget*>())
            panels << d;
        for (QWidget* w : panels)
            if (w && w->isVisibleTo(this)) {
                w->hide();
                m_hiddenForPresentation << w;
            }
        QFont legendFont = m_normalFont;  // one line of swatches under the narration
        legendFont.setPointSizeF(m_normalFont.pointSizeF() * 1.25);
        m_presentLegend->setFont(legendFont);
        m_presentLegend->show();
        QFont big = f;  // the narration in the large type, bold: read from the back of the room
        big.setBold(true);
        m_narration->setFont(big);
    } else {
        QApplication::setFont(m_normalFont);
        m_narration->setFont(QFont());  // inherit the application font again
        m_presentLegend->hide();
        for (QWidget* w : std::as_const(m_hiddenForPresentation))
            w->show();
        m_hiddenForPresentation.clear();
    }
    m_scene->setHighContrast(on);
    m_compare->setHighContrast(on);
    if (on)
        showFullScreen();
    else
        showNormal();
    updateLegend();
}

} // namespace topocast::app
