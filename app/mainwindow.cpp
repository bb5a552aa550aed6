#include "mainwindow.h"

#include "exportactions.h"

#include "landscapepanel.h"
#include "layercharts.h"
#include "legendwidget.h"
#include "measuredmodel.h"
#include "measuredpanel.h"
#include "metricsmodel.h"
#include "narration.h"
#include "scenariopanel.h"
#include "scene/sceneview.h"
#include "session.h"
#include "timeline.h"
#include "timelinebar.h"

#include "topocast/error.h"

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
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

namespace topocast::app {

MainWindow::MainWindow(bool useSettings, QWidget* parent) : QMainWindow(parent), m_useSettings(useSettings)
{
    setWindowTitle(QStringLiteral("topocast"));
    m_session = new Session(this);
    m_timeline = new Timeline(this);
    m_scene = new SceneView(this);
    m_metrics = new MetricsModel(this);
    m_measured = new MeasuredModel(this);

    // Centre: 3-D view over narration and timeline.
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(2, 2, 2, 2);
    auto* viewRow = new QHBoxLayout;
    viewRow->addWidget(m_scene->widget(), 1);
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    m_modeBox = new QComboBox;
    m_modeBox->addItem(QStringLiteral("Plain"), QVariant::fromValue(static_cast<int>(ViewMode::Plain)));
    m_modeBox->addItem(QStringLiteral("Contention"), QVariant::fromValue(static_cast<int>(ViewMode::Contention)));
    m_modeBox->addItem(QStringLiteral("Heat map"), QVariant::fromValue(static_cast<int>(ViewMode::Heatmap)));
    m_modeBox->addItem(QStringLiteral("Source map"), QVariant::fromValue(static_cast<int>(ViewMode::TcdMap)));
    m_modeBox->addItem(QStringLiteral("Layers"), QVariant::fromValue(static_cast<int>(ViewMode::Layers)));
    m_modeBox->addItem(QStringLiteral("Spanning trees"), QVariant::fromValue(static_cast<int>(ViewMode::Trees)));
    sideLayout->addWidget(new QLabel(QStringLiteral("Colour by")));
    sideLayout->addWidget(m_modeBox);
    m_cumulative = new QCheckBox(QStringLiteral("cumulative load"));
    m_cumulative->setChecked(true);
    m_cumulative->setToolTip(QStringLiteral("heat map: load over steps 1..current (checked) or in this step only"));
    sideLayout->addWidget(m_cumulative);
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
    viewRow->addWidget(side);
    centreLayout->addLayout(viewRow, 1);
    m_narration = new QLabel;
    m_narration->setWordWrap(true);
    m_narration->setTextInteractionFlags(Qt::TextSelectableByMouse);
    centreLayout->addWidget(m_narration);
    m_timelineBar = new TimelineBar(m_timeline);
    centreLayout->addWidget(m_timelineBar);
    m_measuredPanel = new MeasuredPanel(m_measured);
    centreLayout->addWidget(m_measuredPanel);
    setCentralWidget(centre);

    // Left dock: scenario and metrics.
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
    m_metricsView->horizontalHeader()->setStretchLastSection(true);
    m_metricsView->verticalHeader()->hide();
    m_metricsView->setSelectionMode(QAbstractItemView::NoSelection);
    leftLayout->addWidget(m_metricsView, 1);
    auto* dock = new QDockWidget(QStringLiteral("Scenario"), this);
    dock->setObjectName(QStringLiteral("scenarioDock"));
    dock->setWidget(left);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    m_applyTimer = new QTimer(this);
    m_applyTimer->setSingleShot(true);
    m_applyTimer->setInterval(120);
    connect(m_applyTimer, &QTimer::timeout, this, &MainWindow::applyPanel);
    connect(m_panel, &ScenarioPanel::edited, m_applyTimer, qOverload<>(&QTimer::start));
    m_settingsTimer = new QTimer(this);
    m_settingsTimer->setSingleShot(true);
    m_settingsTimer->setInterval(kSettingsDelayMs);
    connect(m_settingsTimer, &QTimer::timeout, this, &MainWindow::writePendingScenario);

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
    connect(m_timeline, &Timeline::stepChanged, m_scene, &SceneView::setStep);
    connect(m_timeline, &Timeline::fractionChanged, m_scene, &SceneView::setFraction);
    connect(m_timeline, &Timeline::stepChanged, this, &MainWindow::updateNarration);
    connect(m_timeline, &Timeline::stepChanged, m_measuredPanel, &MeasuredPanel::setStep);
    connect(m_scene, &SceneView::nodeClicked, this, &MainWindow::chooseSource);
    connect(m_scene, &SceneView::nodeHovered, this, &MainWindow::showHover);
    connect(m_scene, &SceneView::timelineKey, this, [this](int key) {
        switch (key) {
        case Qt::Key_Space: m_timeline->togglePlay(); break;
        case Qt::Key_Left: m_timeline->pause(); m_timeline->stepBack(); break;
        case Qt::Key_Right: m_timeline->pause(); m_timeline->stepForward(); break;
        case Qt::Key_Home: m_timeline->first(); break;
        case Qt::Key_End: m_timeline->last(); break;
        default: break;
        }
    });
    connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this] {
        m_scene->setMode(static_cast<ViewMode>(m_modeBox->currentData().toInt()));
        m_landscape->setVisible(m_scene->mode() == ViewMode::TcdMap);
        updateLegend();
    });
    connect(m_cumulative, &QCheckBox::toggled, m_scene, &SceneView::setCumulativeHeat);

    m_export = new ExportActions(this, m_session, m_timeline, m_scene, m_charts);
    connect(m_export, &ExportActions::reported, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    buildMenus();
    if (m_useSettings) {
        QSettings settings;
        m_recent = settings.value(QStringLiteral("recentFiles")).toStringList();
        rebuildRecentMenu();
    }
    resize(1400, 900);
}

MainWindow::~MainWindow()
{
    writePendingScenario();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    writePendingScenario();
    QMainWindow::closeEvent(event);
}

void MainWindow::rememberScenario(const QString& json)
{
    if (!m_useSettings)
        return;
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
    for (const QString& p : presetFiles())
        presets->addAction(QFileInfo(p).completeBaseName(), this, [this, p] { openScenario(p); });
    presets->setEnabled(!presets->isEmpty());
    file->addSeparator();
    file->addMenu(m_export->menu());
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    view->addAction(QStringLiteral("&Reset view"), QKeySequence(Qt::Key_R | Qt::CTRL), m_scene, &SceneView::resetView);
    QAction* present = view->addAction(QStringLiteral("&Presentation mode"));
    present->setCheckable(true);
    present->setShortcut(QKeySequence(Qt::Key_F11));
    connect(present, &QAction::toggled, this, &MainWindow::setPresentationMode);

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

QString MainWindow::narration() const { return m_narration->text(); }
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
    // Compared with the latest request, not the scenario shown: an edit back to what is shown
    // while another edit computes is a new request too.
    if (s == m_session->requestedScenario())
        return;
    m_session->setScenario(s);
}

void MainWindow::chooseSource(NodeId source)
{
    if (m_applyTimer->isActive()) {
        m_applyTimer->stop();
        applyPanel();
    }
    m_session->setSource(source);
    // A panel edit made before this build ends reads the clicked source, not the old one.
    m_panel->setSource(m_session->requestedScenario().topology, source);
}

void MainWindow::showSnapshot(SnapshotPtr snap)
{
    m_error->hide();
    QString dropped;
    if (const auto measured = m_measured->measured(); measured && !measuredBelongsTo(*measured, *snap)) {
        m_measured->setMeasured(nullptr);  // never shown against another schedule
        dropped = QStringLiteral(" — measured times of %1 closed (they belong to the previous schedule)")
                      .arg(QFileInfo(measured->file).fileName());
    }
    m_panel->setScenario(snap->scenario);
    m_metrics->setSnapshot(snap);
    m_metricsView->resizeColumnToContents(MetricsModel::NameColumn);
    const int step = std::min(m_timeline->step(), static_cast<int>(snap->stepCount()));
    m_scene->setSnapshot(snap);
    m_timeline->setStepCount(static_cast<int>(snap->stepCount()));
    m_timeline->setStep(step);
    m_scene->setStep(m_timeline->step());
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
    if (m_useSettings)
        rememberScenario(QString::fromStdString(toJson(snap->scenario).dump()));
}

void MainWindow::showError(const QString& message)
{
    m_error->setText(message);
    m_error->show();
    statusBar()->showMessage(QStringLiteral("not changed: ") + message, 8000);
}

void MainWindow::updateNarration()
{
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
    const auto snap = m_session->snapshot();
    const ViewMode mode = m_scene->mode();
    QString title = m_modeBox->currentText();
    if (mode == ViewMode::Heatmap && snap)
        title += QStringLiteral(" (scale 0–%1)").arg(m_cumulative->isChecked() ? snap->metrics.maxLinkLoad : snap->metrics.maxStepLoad);
    m_legend->setEntries(legendEntries(snap.get(), mode, m_scene->palette()), title);
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
    const int layer = nodeLayer(*snap, v);
    text += layer < 0 ? QStringLiteral("\nin no layer") : QStringLiteral("\nlayer %1").arg(layer);
    const auto& info = snap->schedule.info;
    if (info.is_object() && info.contains("alpha") && info["alpha"].is_array() &&
        layer >= 0 && static_cast<std::size_t>(layer) < info["alpha"].size() && info["alpha"][static_cast<std::size_t>(layer)].is_number())
        text += QStringLiteral(", layer load share %1").arg(info["alpha"][static_cast<std::size_t>(layer)].get<double>());
    text += QStringLiteral("\nclick to make it the source");
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
    if (s.view.is_object() && s.view.contains("mode") && s.view["mode"].is_string())
        if (auto m = parseViewMode(QString::fromStdString(s.view["mode"].get<std::string>())))
            setViewMode(*m);
    m_session->setScenario(s);
    addRecent(path);
    return true;
}

bool MainWindow::saveScenario(const QString& path)
{
    try {
        Scenario s = m_session->scenario();
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

void MainWindow::setPresentationMode(bool on)
{
    m_presentation = on;
    QFont f = QApplication::font();
    f.setPointSizeF(on ? f.pointSizeF() * 1.6 : f.pointSizeF() / 1.6);
    QApplication::setFont(f);
    m_scene->setHighContrast(on);
    if (on)
        showFullScreen();
    else
        showNormal();
    updateLegend();
}

} // namespace topocast::app
