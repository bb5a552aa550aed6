#include "window/lessonsmenu.h"

#include "panels/lessonpanel.h"
#include "window/fileactions.h"
#include "window/mainmenus.h"

#include "topocast/io/scenario_file.h"
#include "topocast/model/error.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>

#include <set>

namespace topocast::app {

namespace {

/// The preset file called `name` (without .json) among `files`; empty when there is none.
QString presetFile(const QString& name)
{
    for (const QString& f : presetScenarioFiles())
        if (QFileInfo(f).completeBaseName() == name)
            return f;
    return {};
}

/// The Lesson dock of `window`, made on first use (a tab over the scenario panel).
LessonPanel* lessonPanel(const WindowParts& parts)
{
    QMainWindow& window = *parts.window;
    if (auto* dock = window.findChild<QDockWidget*>(QStringLiteral("lessonDock")))
        return static_cast<LessonPanel*>(dock->widget());
    auto* panel = new LessonPanel;
    auto* dock = new QDockWidget(QStringLiteral("Lesson"), &window);
    dock->setObjectName(QStringLiteral("lessonDock"));
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    // A tab over the scenario panel: the 3-D view keeps its width.
    window.addDockWidget(Qt::LeftDockWidgetArea, dock);
    if (auto* scenario = window.findChild<QDockWidget*>(QStringLiteral("scenarioDock")))
        window.tabifyDockWidget(scenario, dock);
    QObject::connect(panel, &LessonPanel::openPreset, &window, [files = parts.files](const QString& name) {
        const QString file = presetFile(name);
        if (!file.isEmpty())
            files->openScenario(file);
    });
    return panel;
}

void addPresetAction(const WindowParts& parts, QMenu* menu, const QString& file)
{
    // Each preset by its title, its one-line description beside it as tooltip and status tip.
    QString title = QFileInfo(file).completeBaseName(), description;
    try {
        const Scenario sc = loadScenario(file.toStdString());
        if (!sc.title.empty())
            title = QString::fromStdString(sc.title);
        description = QString::fromStdString(sc.description);
    } catch (const Error&) { // listed by file name; opening it says what is wrong
    }
    QAction* a = menu->addAction(title, parts.window, [files = parts.files, file] { files->openScenario(file); });
    a->setToolTip(description.isEmpty() ? title : description);
    a->setStatusTip(description);
}

QString lessonEntry(const Lesson& lesson, std::size_t index)
{
    return QStringLiteral("&%1. %2").arg(index + 1).arg(QString::fromStdString(lesson.title));
}

} // namespace

std::optional<LessonBook> appLessons(QString* error)
{
    const QStringList candidates = {QCoreApplication::applicationDirPath() +
                                        QStringLiteral("/../share/topocast/lessons.json"),
                                    QStringLiteral(TOPOCAST_LESSONS_FILE)};
    try {
        for (const QString& path : candidates)
            if (QFileInfo(path).isFile())
                return loadLessons(path.toStdString());
        QFile builtIn(QStringLiteral(":/lessons/lessons.json"));
        if (!builtIn.open(QIODevice::ReadOnly))
            throw Error("no lessons file: share/topocast/lessons.json is not installed beside the program");
        return lessonsFromText(builtIn.readAll().toStdString(), "the built-in lessons");
    } catch (const Error& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

bool openLesson(const WindowParts& window, std::size_t index)
{
    const std::optional<LessonBook> book = appLessons();
    if (!book || index >= book->lessons.size())
        return false;
    LessonPanel* panel = lessonPanel(window);
    panel->setLesson(book->lessons[index], index + 1);
    auto* dock = static_cast<QDockWidget*>(panel->parentWidget());
    dock->show();
    dock->raise();
    panel->openPresetAt(0);
    return true;
}

QMenu* addLessonsMenu(const WindowParts& window, QMenu* file, const std::optional<LessonBook>& book)
{
    QMenu* menu = file->addMenu(QStringLiteral("&Lessons"));
    menu->setToolTipsVisible(true);
    if (!book) {
        QString why;
        appLessons(&why);
        menu->setEnabled(false);
        menu->menuAction()->setToolTip(why);
        return menu;
    }
    for (std::size_t i = 0; i < book->lessons.size(); ++i) {
        QAction* a =
            menu->addAction(lessonEntry(book->lessons[i], i), window.window, [window, i] { openLesson(window, i); });
        a->setToolTip(QString::fromStdString(book->lessons[i].goal));
        a->setStatusTip(a->toolTip());
    }
    return menu;
}

void fillPresetsMenu(const WindowParts& window, QMenu* presets, const QStringList& files,
                     const std::optional<LessonBook>& book)
{
    std::set<QString> inLessons;
    if (book)
        for (std::size_t i = 0; i < book->lessons.size(); ++i) {
            QMenu* sub = presets->addMenu(lessonEntry(book->lessons[i], i));
            sub->setToolTipsVisible(true);
            for (const std::string& name : book->lessons[i].presets)
                for (const QString& f : files)
                    if (QFileInfo(f).completeBaseName() == QString::fromStdString(name)) {
                        addPresetAction(window, sub, f);
                        inLessons.insert(f);
                    }
        }
    if (!inLessons.empty())
        presets->addSection(QStringLiteral("In no lesson"));
    for (const QString& f : files)
        if (!inLessons.contains(f))
            addPresetAction(window, presets, f);
}

} // namespace topocast::app
