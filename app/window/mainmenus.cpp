#include "window/mainmenus.h"
#include "window/helpmenu.h"
#include "window/lessonsmenu.h"

#include "export/exportactions.h"
#include "export/handout.h"
#include "export/quiz.h"
#include "export/webpage.h"
#include "practice/predictmode.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "window/fileactions.h"
#include "window/presentation.h"
#include "window/statusreport.h"
#include "window/workspace.h"

#include "topocast/io/scenario_file.h"
#include "topocast/model/error.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QStatusBar>

namespace topocast::app {

namespace {

/// File: open, save, measured times, recent files, presets, export, quit.
QMenu* buildFileMenu(const WindowParts& w, MainMenus& menus)
{
    QMenu* file = w.window->menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open scenario…"), QKeySequence::Open, w.window, [w] {
        const QString path = QFileDialog::getOpenFileName(w.window, QStringLiteral("Open scenario"), QString(),
                                                          QStringLiteral("Scenarios (*.json)"));
        if (!path.isEmpty())
            w.files->openScenario(path);
    });
    file->addAction(QStringLiteral("Open sc&hedule…"), w.window, [w] {
        const QString path = QFileDialog::getOpenFileName(
            w.window, QStringLiteral("Open schedule"), QString(),
            QStringLiteral("Schedules (*.json *.csv *.xml *.goal);;MSCCL XML (*.xml);;GOAL programs (*.goal)"));
        if (!path.isEmpty())
            w.files->openSchedule(path, std::nullopt);
    });
    file->addAction(QStringLiteral("&Save scenario as…"), QKeySequence::SaveAs, w.window, [w] {
        const QString path = QFileDialog::getSaveFileName(w.window, QStringLiteral("Save scenario"), QString(),
                                                          QStringLiteral("Scenarios (*.json)"));
        if (!path.isEmpty())
            w.files->saveScenario(path);
    });
    file->addAction(QStringLiteral("Open &measured times…"), w.window, [w] {
        const QString path =
            QFileDialog::getOpenFileName(w.window, QStringLiteral("Open measured times (topocast-mpi --out)"),
                                         QString(), QStringLiteral("Measured times (*.json)"));
        if (!path.isEmpty())
            w.files->openMeasured(path);
    });
    menus.recent = file->addMenu(QStringLiteral("Open &recent"));
    const std::optional<LessonBook> lessons = appLessons();
    addLessonsMenu(w, file, lessons);
    QMenu* presets = file->addMenu(QStringLiteral("&Presets"));
    presets->setToolTipsVisible(true);
    fillPresetsMenu(w, presets, presetScenarioFiles(), lessons);
    presets->setEnabled(!presets->isEmpty());
    file->addSeparator();
    file->addMenu(w.exports->menu());
    addHandoutAction(w.exports->menu(), w.window, w.session, w.exports,
                     [w](const QString& m) { w.window->statusBar()->showMessage(m, 15000); });
    addQuizAction(w.exports->menu(), w.window, w.session, w.exports,
                  [w](const QString& m) { w.window->statusBar()->showMessage(m, 15000); });
    addWebPageAction(
        w.exports->menu(), w.window,
        [w] {
            if (const CompareSnapshotPtr cmp = w.workspace->compareExport().first)
                return webPage(*cmp, w.scene->choice().mode); // the colouring the window shows
            const SnapshotPtr snap = w.session->snapshot();
            if (!snap || snap->stepCount() == 0)
                throw Error("no schedule with steps is shown");
            return webPage(*snap, w.scene->choice().mode);
        },
        [w](const QString& m) { w.window->statusBar()->showMessage(m, 15000); });
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    return file;
}

QAction* checkable(QMenu* menu, const QString& text, const QKeySequence& key, const QString& tip)
{
    QAction* a = menu->addAction(text);
    a->setCheckable(true);
    if (!key.isEmpty())
        a->setShortcut(key);
    a->setToolTip(tip);
    return a;
}

/// View: reset, explode, presentation, frame time, predict, compare, projection, hypercube drawing.
void buildViewMenu(const WindowParts& w, MainMenus& menus)
{
    QMenu* view = w.window->menuBar()->addMenu(QStringLiteral("&View"));
    SceneView* scene = w.scene;
    view->addAction(QStringLiteral("&Reset view"), QKeySequence(Qt::Key_R | Qt::CTRL), &scene->camera(),
                    &SceneCamera::resetView);
    menus.explode = checkable(view, QStringLiteral("&Explode planes"), QKeySequence(Qt::Key_E),
                              QStringLiteral("pull the planes of a 3-D mesh or torus apart (E in the 3-D view too)"));
    menus.explode->setObjectName(QStringLiteral("explodeAction"));
    QObject::connect(menus.explode, &QAction::triggered, &scene->shape(), &SceneShape::toggleExplode);
    QAction* present = view->addAction(QStringLiteral("&Presentation mode"));
    present->setCheckable(true);
    present->setShortcut(QKeySequence(Qt::Key_F11));
    QObject::connect(present, &QAction::toggled, w.presentation, &Presentation::setOn);
    menus.frameTime = checkable(view, QStringLiteral("Show &frame time"), {},
                                QStringLiteral("the time the 3-D view takes per frame, in the status bar"));
    QObject::connect(menus.frameTime, &QAction::toggled, w.status, &StatusReport::showFrameTime);
    view->addAction(w.predict->action());
    if (auto* timeSize = w.window->findChild<QDockWidget*>(QStringLiteral("timeSizeDock")))
        view->addAction(timeSize->toggleViewAction());
    if (auto* simulated = w.window->findChild<QAction*>(QStringLiteral("simulatedTimeAction")))
        view->addAction(simulated);
    if (auto* links = w.window->findChild<QDockWidget*>(QStringLiteral("linksDock")))
        view->addAction(links->toggleViewAction());
    menus.compare =
        checkable(view, QStringLiteral("&Compare side by side"), QKeySequence(Qt::Key_K | Qt::CTRL),
                  QStringLiteral("two schedules on one network, one camera and one timeline; click a side to edit it"));
    menus.compare->setObjectName(QStringLiteral("compareAction"));
    QObject::connect(menus.compare, &QAction::toggled, w.workspace, &Workspace::setSplit);
    view->addSeparator();
    menus.orthographic =
        checkable(view, QStringLiteral("&Orthographic projection"), QKeySequence(Qt::Key_O),
                  QStringLiteral("parallel projection: 2-D networks open in it (top-down, x right, y down); "
                                 "for 3-D networks a choice kept from network to network"));
    menus.orthographic->setShortcutContext(Qt::ApplicationShortcut);
    QObject::connect(menus.orthographic, &QAction::toggled, &scene->camera(), &SceneCamera::setOrthographic);
    QObject::connect(&scene->camera(), &SceneCamera::orthographicChanged, w.window,
                     [action = menus.orthographic](bool on) {
                         const QSignalBlocker block(action);
                         action->setChecked(on);
                     });
    // The drawing toggles save the choice in the scenario as view.layout (its name when on, the
    // other's when off), so the session builds the new drawing and a saved file keeps it.
    auto layoutToggle = [&w, view](const QString& text, QKeySequence key, const QString& tip, std::string on,
                                   std::string off) {
        QAction* action = checkable(view, text, key, tip);
        action->setShortcutContext(Qt::ApplicationShortcut);
        action->setEnabled(false);
        QObject::connect(action, &QAction::toggled, w.window, [session = w.session, on, off](bool checked) {
            Scenario s = session->requestedScenario();
            s.view.layout = checked ? on : off;
            if (!(s == session->requestedScenario()))
                session->setScenario(s);
        });
        return action;
    };
    menus.flat = layoutToggle(QStringLiteral("&Flat hypercube drawing"), {},
                              QStringLiteral("hypercubes of n ≤ 6: the classic flat drawing with binary addresses "
                                             "instead of the 3-D cube drawing (saved in the scenario as view.layout)"),
                              std::string(hypercubeDrawingName(HypercubeDrawing::Flat)),
                              std::string(hypercubeDrawingName(HypercubeDrawing::Cube)));
    menus.planes = layoutToggle(
        QStringLiteral("&Planes side by side"), QKeySequence(Qt::Key_L),
        QStringLiteral("3-D meshes and tori: every z-plane drawn top-down like a 2-D network, the "
                       "planes in a grid that fits the window (off: the tower of y-planes, which "
                       "explode pulls apart); saved in the scenario as view.layout"),
        std::string(gridDrawingName(GridDrawing::Planes)), std::string(gridDrawingName(GridDrawing::Tower)));
    menus.planes->setObjectName(QStringLiteral("planesAction"));
}

/// Timeline: play, step back and forward, first and last step, with the keys that work anywhere.
void buildTimelineMenu(const WindowParts& w)
{
    QMenu* play = w.window->menuBar()->addMenu(QStringLiteral("&Timeline"));
    auto add = [&w, play](const QString& text, QKeySequence key, auto slot) {
        QAction* a = play->addAction(text);
        a->setShortcut(key);
        a->setShortcutContext(Qt::ApplicationShortcut);
        QObject::connect(a, &QAction::triggered, w.timeline, slot);
    };
    add(QStringLiteral("Play / pause"), QKeySequence(Qt::Key_Space), &Timeline::togglePlay);
    add(QStringLiteral("Step back"), QKeySequence(Qt::Key_Left), &Timeline::stepBack);
    add(QStringLiteral("Step forward"), QKeySequence(Qt::Key_Right), &Timeline::stepForward);
    add(QStringLiteral("First step"), QKeySequence(Qt::Key_Home), &Timeline::first);
    add(QStringLiteral("Last step"), QKeySequence(Qt::Key_End), &Timeline::last);
}

} // namespace

void MainMenus::follow(const Snapshot& snap, bool inOrthographic)
{
    const QSignalBlocker block(flat);
    flat->setEnabled(snap.topology().isHypercube() && snap.topology().dims() <= kFlatHypercubeMaxDims);
    flat->setChecked(snap.drawing.hypercube == HypercubeDrawing::Flat);
    const QSignalBlocker blockPlanes(planes);
    planes->setEnabled(canDrawPlanes(snap.topology()));
    planes->setChecked(drawsPlanes(snap.topology(), snap.drawing));
    const QSignalBlocker blockOrtho(orthographic);
    orthographic->setChecked(inOrthographic);
}

MainMenus buildMainMenus(const WindowParts& w)
{
    MainMenus menus;
    buildFileMenu(w, menus);
    buildViewMenu(w, menus);
    buildTimelineMenu(w);
    buildHelpMenu(w, menus);
    // Every menu action also belongs to the window, so its shortcut (F11 among them) still works
    // while presentation mode hides the menu bar.
    for (QMenu* menu : w.window->menuBar()->findChildren<QMenu*>())
        for (QAction* action : menu->actions())
            if (!action->isSeparator() && !action->menu())
                w.window->addAction(action);
    return menus;
}

QStringList presetScenarioFiles()
{
    // Installed (bin/topocast beside share/topocast/scenarios) before the source tree this program
    // was built from, which a package's machine does not have.
    const QStringList dirs = {QCoreApplication::applicationDirPath() + QStringLiteral("/../share/topocast/scenarios"),
                              QCoreApplication::applicationDirPath() + QStringLiteral("/scenarios"),
                              QStringLiteral(TOPOCAST_SCENARIO_DIR)};
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

} // namespace topocast::app
