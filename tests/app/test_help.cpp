// Help ▸ Getting started, User guide, Developers' guide, Keyboard shortcuts and About: the tour does
// each of its steps and gives the scenario back, the guides the program ships open with their
// pictures (the user guide's also from the copy built in), the user guide names only menu entries
// and keys the window has and no developer material, every menu shortcut is listed with its key,
// and About names the version and papers.
#include "compare/compareview.h"
#include "helpers.h"
#include "mainwindow.h"
#include "practice/predictmode.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "window/gettingstarted.h"
#include "window/helpmenu.h"

#include "topocast/io/scenario_json.h"

#include "topocast/version.h"

#include <catch2/catch.hpp>

#include <QSettings>

#include <memory>

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QUrl>

using namespace topocast;
using namespace topocast::app;

namespace {

QMenu* helpMenuOf(const MainWindow& w)
{
    const QList<QAction*> menus = w.menuBar()->actions();
    return menus.isEmpty() ? nullptr : menus.back()->menu();
}

QAction* helpAction(const MainWindow& w, const QString& text)
{
    if (QMenu* help = helpMenuOf(w))
        for (QAction* a : help->actions())
            if (a->text().remove(QLatin1Char('&')) == text)
                return a;
    return nullptr;
}

/// Every menu entry and submenu as "Menu ▸ Entry" (no '&', no "…"), with its shortcut or "".
void menuPaths(const QMenu& menu, const QString& path, QMap<QString, QString>& out)
{
    for (QAction* a : menu.actions()) {
        if (a->isSeparator())
            continue;
        const QString here =
            path + QStringLiteral(" ▸ ") + a->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"));
        out.insert(here, a->shortcut().toString(QKeySequence::NativeText));
        if (a->menu())
            menuPaths(*a->menu(), here, out);
    }
}

QString userGuideText()
{
    QFile file(QStringLiteral(TOPOCAST_SOURCE_DIR "/docs/user-guide.md"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// The picture `link` as the reader loads it for the document shown.
QImage pictureIn(QTextBrowser& browser, const QString& link)
{
    const QVariant picture = browser.loadResource(QTextDocument::ImageResource, QUrl(link));
    QImage image;
    if (picture.canConvert<QByteArray>())
        image.loadFromData(picture.toByteArray());
    else
        image = picture.value<QImage>();
    return image;
}

/// The pictures the user guide shows, as its markdown links them ("user-guide/play.png").
QStringList userGuidePictures()
{
    QStringList links;
    const QRegularExpression picture(QStringLiteral("!\\[[^\\]]*\\]\\(([^)]+)\\)"));
    for (const QRegularExpressionMatch& m : picture.globalMatch(userGuideText()))
        links << m.captured(1);
    return links;
}

void shortcutsOf(const QMenu& menu, QList<QAction*>& out)
{
    for (QAction* a : menu.actions())
        if (a->menu())
            shortcutsOf(*a->menu(), out);
        else if (!a->isSeparator() && !a->shortcut().isEmpty())
            out << a;
}

} // namespace

TEST_CASE("help: the last menu is Help with the tour, the guide on F1, the shortcuts and About", "[app][help]")
{
    MainWindow w(false);
    QMenu* help = helpMenuOf(w);
    REQUIRE(help);
    CHECK(help->title().remove(QLatin1Char('&')) == QStringLiteral("Help"));
    QAction* guide = helpAction(w, QStringLiteral("User guide"));
    REQUIRE(guide);
    CHECK(guide->shortcut() == QKeySequence(Qt::Key_F1));
    CHECK(helpAction(w, QStringLiteral("Getting started")));
    CHECK(helpAction(w, QStringLiteral("Developers' guide")));
    CHECK(helpAction(w, QStringLiteral("Keyboard shortcuts")));
    CHECK(helpAction(w, QStringLiteral("About topocast")));
    CHECK(w.actions().contains(guide)); // F1 works in presentation mode too
}

TEST_CASE("help: the shortcuts list holds every menu shortcut with its key, and the view's keys", "[app][help]")
{
    MainWindow w(false);
    const QString html = shortcutsHtml(w);
    QList<QAction*> actions;
    for (QAction* m : w.menuBar()->actions())
        if (m->menu())
            shortcutsOf(*m->menu(), actions);
    REQUIRE(actions.size() >= 10);
    for (QAction* a : actions) {
        const QString text = a->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"));
        INFO(text.toStdString());
        CHECK(html.contains(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped()));
        CHECK(html.contains(text.toHtmlEscaped()));
    }
    CHECK(html.contains(QStringLiteral("<b>Space</b></td><td>Timeline ▸ Play / pause")));
    CHECK(html.contains(QStringLiteral("<b>F1</b></td><td>Help ▸ User guide")));
    CHECK(html.contains(QStringLiteral("Shift+click")));
    CHECK(html.contains(QStringLiteral("<b>Enter</b>")));
}

TEST_CASE("help: the user guide is the shipped docs/user-guide.md, read as markdown with its pictures", "[app][help]")
{
    CHECK(docPath(QString::fromLatin1(kUserGuide)) ==
          QFileInfo(QStringLiteral(TOPOCAST_SOURCE_DIR "/docs/user-guide.md")).canonicalFilePath());
    std::unique_ptr<QTextBrowser> browser(docBrowser(QString::fromLatin1(kUserGuide)));
    const QString text = browser->toPlainText();
    CHECK(text.startsWith(QStringLiteral("topocast: a user guide"))); // a heading, not "# …" as raw text
    CHECK(text.contains(QStringLiteral("Predict the next step")));
    CHECK_FALSE(text.contains(QStringLiteral("]("))); // links and pictures rendered, not shown as markdown
    const QStringList pictures = userGuidePictures();
    CHECK(pictures.size() >= 4);
    CHECK(pictures.size() <= 6);
    for (const QString& link : pictures) {
        INFO(link.toStdString());
        CHECK(link.startsWith(QStringLiteral("user-guide/")));
        CHECK(pictureIn(*browser, link).width() >= 600);
        CHECK(QFileInfo(QStringLiteral(TOPOCAST_SOURCE_DIR "/docs/") + link).size() <= 250 * 1024);
    }
}

TEST_CASE("help: the user guide built into the program shows its pictures too", "[app][help]")
{
    QFile builtIn(QStringLiteral(":/docs/user-guide.md"));
    REQUIRE(builtIn.open(QIODevice::ReadOnly));
    CHECK(builtIn.readAll().startsWith("# topocast: a user guide"));
    std::unique_ptr<QTextBrowser> browser(docBrowserAt(QStringLiteral(":/docs/user-guide.md")));
    CHECK(browser->toPlainText().startsWith(QStringLiteral("topocast: a user guide")));
    for (const QString& link : userGuidePictures()) {
        INFO(link.toStdString());
        CHECK(QFile::exists(QStringLiteral(":/docs/") + link)); // resources/topocast.qrc lists it
        CHECK(pictureIn(*browser, link).width() >= 600);
    }
}

TEST_CASE("help: the user guide names only menu entries and keys the window has, and no developer material",
          "[app][help]")
{
    MainWindow w(false);
    QMap<QString, QString> menus;
    for (QAction* m : w.menuBar()->actions())
        if (m->menu())
            menuPaths(*m->menu(), m->text().remove(QLatin1Char('&')), menus);
    const QString guide = userGuideText();
    REQUIRE_FALSE(guide.isEmpty());

    // "**View ▸ Predict the next step** (P)": the entry exists, and the key after it is its shortcut.
    const QRegularExpression entry(
        QStringLiteral("\\*\\*((?:File|View|Timeline|Help)(?: ▸ [^*]+)+)\\*\\*(?: \\(([^)]+)\\))?"));
    int named = 0;
    for (const QRegularExpressionMatch& m : entry.globalMatch(guide)) {
        const QString path = m.captured(1).remove(QStringLiteral("…"));
        INFO(path.toStdString());
        ++named;
        REQUIRE(menus.contains(path));
        if (!m.captured(2).isEmpty())
            CHECK(menus.value(path) == m.captured(2));
    }
    CHECK(named >= 15);
    // The export entries, named without their menu ("**Picture of the view (PNG)…** (Ctrl+Shift+P)").
    const QRegularExpression item(QStringLiteral("\\*\\*([^*▸]+…)\\*\\*(?: \\(([^)]+)\\))?"));
    for (const QRegularExpressionMatch& m : item.globalMatch(guide)) {
        const QString path = QStringLiteral("File ▸ Export ▸ ") + m.captured(1).remove(QStringLiteral("…"));
        INFO(path.toStdString());
        REQUIRE(menus.contains(path));
        if (!m.captured(2).isEmpty())
            CHECK(menus.value(path) == m.captured(2));
    }
    // For teachers and students: no source paths, no colour science, no measurements of the program.
    const QRegularExpression developer(QStringLiteral(
        "\\b(app|core|cli|mpi|src|include|tests|bench|scripts|resources|build|shaders)/|\\.(cpp|h|hpp|cmake)\\b|"
        "CIEDE|CMake|ninja|benchmark|llvmpipe|ms per frame|topocast-cli"));
    const QRegularExpressionMatch found = developer.match(guide);
    INFO(found.captured(0).toStdString());
    CHECK_FALSE(found.hasMatch());
    CHECK(guide.contains(QStringLiteral("## For developers")));
    CHECK(guide.contains(QStringLiteral("(guide.md)")));
    CHECK(guide.contains(QStringLiteral("(ARCHITECTURE.md)")));
}

TEST_CASE("help: the developers' guide is the shipped docs/guide.md, read as markdown with its pictures", "[app][help]")
{
    CHECK(docPath(QString::fromLatin1(kDevelopersGuide)) ==
          QFileInfo(QStringLiteral(TOPOCAST_SOURCE_DIR "/docs/guide.md")).canonicalFilePath());
    QFile builtIn(QStringLiteral(":/docs/guide.md"));
    REQUIRE(builtIn.open(QIODevice::ReadOnly));
    CHECK(builtIn.readAll().startsWith("# The topocast app"));

    std::unique_ptr<QTextBrowser> browser(docBrowser(QString::fromLatin1(kDevelopersGuide)));
    const QString text = browser->toPlainText();
    CHECK(text.startsWith(QStringLiteral("The topocast app: a guide"))); // a heading, not "# …" as raw text
    CHECK(text.contains(QStringLiteral("Seeing inside 3-D networks")));
    CHECK_FALSE(text.contains(QStringLiteral("]("))); // links rendered, not shown as markdown
    CHECK(pictureIn(*browser, QStringLiteral("app-data-held-ring-allreduce-4x4.png")).width() > 400);
}

TEST_CASE("help: F1 opens the user guide in a window, the second entry the developers' guide, and About names the "
          "version, the licence and the papers",
          "[app][help]")
{
    MainWindow w(false);
    helpAction(w, QStringLiteral("User guide"))->trigger();
    QDialog* dialog = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets())
        if (auto* d = qobject_cast<QDialog*>(top);
            d && d->isVisible() && d->windowTitle().contains(QStringLiteral("user guide")))
            dialog = d;
    REQUIRE(dialog);
    auto* browser = dialog->findChild<QTextBrowser*>();
    REQUIRE(browser);
    CHECK(browser->toPlainText().startsWith(QStringLiteral("topocast: a user guide")));
    CHECK(browser->toPlainText().contains(QStringLiteral("Predict")));
    dialog->close();

    helpAction(w, QStringLiteral("Developers' guide"))->trigger();
    QDialog* developers = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets())
        if (auto* d = qobject_cast<QDialog*>(top);
            d && d->isVisible() && d->windowTitle().contains(QStringLiteral("developers' guide")))
            developers = d;
    REQUIRE(developers);
    auto* developersText = developers->findChild<QTextBrowser*>();
    REQUIRE(developersText);
    CHECK(developersText->toPlainText().startsWith(QStringLiteral("The topocast app: a guide")));
    developers->close();

    const QString about = aboutHtml();
    CHECK(about.contains(QString::fromLatin1(kVersion)));
    CHECK(about.contains(QStringLiteral(TOPOCAST_LICENSE)));
    CHECK(QStringLiteral(TOPOCAST_LICENSE) == QStringLiteral("MIT")); // LICENSE
    for (const char* notice : {"three.js r111 (MIT", "CLI11 (BSD-3-Clause)", "Eigen (MPL-2.0)"})
        CHECK(about.contains(QLatin1String(notice)));
    for (const char* author : {"Cang", "Tsay", "Johnsson", "Drozdowski"})
        CHECK(about.contains(QLatin1String(author)));
}

TEST_CASE("help: the getting-started tour runs on the default scenario, each page's Show me does its step, and closing "
          "brings the scenario back",
          "[app][help]")
{
    MainWindow w(false);
    REQUIRE(w.openScenario(QStringLiteral(TOPOCAST_SOURCE_DIR "/resources/scenarios/cang-wu-4x4.json")));
    REQUIRE(waitUntilIdle({w.session()}, 60000));
    const Scenario before = w.session()->requestedScenario();

    auto* tour = new GettingStarted(w.parts(), w.findChild<QAction*>(QStringLiteral("planesAction")),
                                    w.findChild<QAction*>(QStringLiteral("compareAction")));
    REQUIRE(waitUntilIdle({w.session()}, 60000));
    CHECK(w.session()->requestedScenario() == defaultScenario());
    CHECK(GettingStarted::pageCount() == 6);
    CHECK(tour->pageTitle() == QStringLiteral("1 of 6: Play"));

    tour->showMe();
    CHECK(w.timeline()->playing());

    tour->showPage(1);
    tour->showMe();
    CHECK_FALSE(w.timeline()->playing());
    CHECK(w.timeline()->step() == 1);

    tour->showPage(2);
    tour->showMe();
    CHECK(w.session()->requestedScenario().source == NodeId{0});
    REQUIRE(waitUntilIdle({w.session()}, 60000));

    tour->showPage(3);
    CHECK(w.session()->snapshot()->drawing.grid == GridDrawing::Planes); // 3-D networks open as planes
    tour->showMe();
    REQUIRE(waitUntilIdle({w.session()}, 60000));
    CHECK(w.session()->snapshot()->drawing.grid == GridDrawing::Tower);
    CHECK(w.sceneView()->shape().canExplode());

    tour->showPage(4);
    tour->showMe();
    CHECK(w.workspace()->isSplit());
    REQUIRE(waitUntilIdle({w.session(), w.compareView()->session(0), w.compareView()->session(1)}, 60000));

    tour->showPage(5);
    CHECK(tour->pageTitle() == QStringLiteral("6 of 6: Predict"));
    tour->showMe();
    CHECK_FALSE(w.workspace()->isSplit());
    CHECK(w.predictMode()->isActive());
    tour->showPage(6); // past the end: stays on the last page
    CHECK(tour->page() == 5);

    tour->close(); // deletes itself
    CHECK_FALSE(w.predictMode()->isActive());
    REQUIRE(waitUntilIdle({w.session()}, 60000));
    CHECK(w.session()->requestedScenario() == before);
}

TEST_CASE("help: the tour opens by itself on the first start, and once", "[app][help]")
{
    QSettings().remove(QStringLiteral("tourShown"));
    {
        MainWindow w(false);
        CHECK(openTourOnFirstStart(w.parts(), w.findChild<QAction*>(QStringLiteral("planesAction")),
                                   w.findChild<QAction*>(QStringLiteral("compareAction"))));
        auto* tour = w.findChild<GettingStarted*>(QStringLiteral("tourDock"));
        REQUIRE(tour);
        CHECK(tour->pageTitle() == QStringLiteral("1 of 6: Play"));
        CHECK(tour->pageText().contains(QStringLiteral("yours comes back when you close it")));
    }
    MainWindow again(false);
    CHECK_FALSE(openTourOnFirstStart(again.parts(), nullptr, nullptr));
    CHECK_FALSE(again.findChild<GettingStarted*>(QStringLiteral("tourDock")));
    QSettings().remove(QStringLiteral("tourShown"));
}
