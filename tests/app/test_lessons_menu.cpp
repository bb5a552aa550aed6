// File ▸ Lessons and the Lesson panel: every lesson opens its presets in order, its answers are
// hidden until revealed, and the receivers each answer names are what Predict grades right.
#include "helpers.h"
#include "mainwindow.h"
#include "panels/lessonpanel.h"
#include "session/session.h"
#include "window/lessonsmenu.h"

#include "topocast/analysis/grade.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QUrl>

using namespace topocast;
using namespace topocast::app;

namespace {

QMenu* fileSubmenu(MainWindow& w, const QString& text)
{
    for (QAction* a : w.menuBar()->actions())
        if (a->menu())
            for (QAction* b : a->menu()->actions())
                if (b->menu() && b->text().contains(text))
                    return b->menu();
    return nullptr;
}

/// The preset shown settles: not busy, with a snapshot of the scenario titled `title`.
bool showsPreset(MainWindow& w, const std::string& name)
{
    const Scenario want = loadScenario(TOPOCAST_SOURCE_DIR "/resources/scenarios/" + name + ".json");
    const SnapshotPtr snap = w.session()->snapshot();
    return !w.session()->busy() && snap && snap->scenario.title == want.title;
}

LessonPanel* shownLessonPanel(MainWindow& w)
{
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
    return dock && dock->isVisibleTo(&w) ? static_cast<LessonPanel*>(dock->widget()) : nullptr;
}

} // namespace

TEST_CASE("lessons menu: one entry per lesson of the lessons file, each opening its presets in order", "[app][lessons]")
{
    MainWindow w(false);
    const std::optional<LessonBook> book = appLessons();
    REQUIRE(book);
    QMenu* lessons = fileSubmenu(w, QStringLiteral("Lessons"));
    REQUIRE(lessons);
    REQUIRE(lessons->actions().size() == static_cast<int>(book->lessons.size()));
    for (std::size_t i = 0; i < book->lessons.size(); ++i) {
        const Lesson& lesson = book->lessons[i];
        INFO("lesson " << i + 1 << ": " << lesson.title);
        CHECK(lessons->actions()[static_cast<int>(i)]->text().contains(QString::fromStdString(lesson.title)));
        lessons->actions()[static_cast<int>(i)]->trigger();
        LessonPanel* panel = shownLessonPanel(w);
        REQUIRE(panel);
        CHECK(panel->lesson().id == lesson.id);
        auto* next = panel->findChild<QPushButton*>(QStringLiteral("lessonNext"));
        for (std::size_t p = 0; p < lesson.presets.size(); ++p) {
            INFO("preset " << lesson.presets[p]);
            REQUIRE(test::waitFor([&] { return showsPreset(w, lesson.presets[p]); }, 60000));
            CHECK(panel->presetIndex() == p);
            CHECK(next->isEnabled() == (p + 1 < lesson.presets.size()));
            if (p + 1 < lesson.presets.size())
                next->click();
        }
    }
}

TEST_CASE("lesson panel: answers hidden until revealed, in the notation the app uses, presets opened by their links",
          "[app][lessons]")
{
    MainWindow w(false);
    REQUIRE(openLesson(w.parts(), 3)); // the hypercube lesson
    LessonPanel* panel = shownLessonPanel(w);
    REQUIRE(panel);
    CHECK(panel->shownText().contains(QStringLiteral("Show the answer")));
    CHECK_FALSE(panel->shownText().contains(QStringLiteral("001, 110 and 111")));
    panel->follow(QUrl(QStringLiteral("reveal:2")));
    CHECK(panel->shownText().contains(QStringLiteral("001, 110 and 111")));
    CHECK(panel->revealed() == std::set<std::size_t>{2});
    panel->follow(QUrl(QStringLiteral("open:hypercube-nesbt-broadcast-4cube")));
    CHECK(panel->presetIndex() == 1);
    REQUIRE(test::waitFor([&] { return showsPreset(w, "hypercube-nesbt-broadcast-4cube"); }, 30000));
}

TEST_CASE("lessons: every receivers answer is graded all right by Predict on the schedule the window shows",
          "[app][lessons][predict]")
{
    MainWindow w(false);
    const std::optional<LessonBook> book = appLessons();
    REQUIRE(book);
    int graded = 0;
    for (const Lesson& lesson : book->lessons)
        for (const LessonItem& item : lesson.items)
            for (const LessonCheck& c : item.checks) {
                if (!c.receivers || c.compareSide || !c.params.empty())
                    continue;
                INFO(item.preset << " step " << *c.step);
                REQUIRE(w.openScenario(QStringLiteral(TOPOCAST_SOURCE_DIR "/resources/scenarios/") +
                                       QString::fromStdString(item.preset) + QStringLiteral(".json")));
                REQUIRE(test::waitFor([&] { return showsPreset(w, item.preset); }, 60000));
                const Schedule& schedule = w.session()->snapshot()->schedule;
                std::vector<NodeId> guess;
                for (const std::string& name : *c.receivers)
                    guess.push_back(schedule.topology().parseNode(name));
                const StepGrade grade = gradeStep(schedule, StepNo{*c.step}, guess);
                CHECK(grade.right.size() == c.receivers->size());
                CHECK(grade.missed.empty());
                CHECK(grade.wrong.empty());
                ++graded;
            }
    CHECK(graded >= 10);
}

TEST_CASE("presets menu: grouped by lesson, every preset listed", "[app][lessons][presets]")
{
    MainWindow w(false);
    QMenu* presets = fileSubmenu(w, QStringLiteral("Presets"));
    REQUIRE(presets);
    const std::optional<LessonBook> book = appLessons();
    REQUIRE(book);
    int submenus = 0;
    std::set<QString> listed;
    for (QAction* a : presets->actions()) {
        if (a->menu()) {
            ++submenus;
            for (QAction* b : a->menu()->actions())
                listed.insert(b->text());
        } else if (!a->isSeparator()) {
            listed.insert(a->text());
        }
    }
    CHECK(submenus == static_cast<int>(book->lessons.size()));
    for (const QString& file : MainWindow::presetFiles()) {
        const Scenario sc = loadScenario(file.toStdString());
        INFO(file.toStdString());
        CHECK(listed.contains(QString::fromStdString(sc.title)));
    }
}
