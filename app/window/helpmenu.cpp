#include "helpmenu.h"

#include "window/gettingstarted.h"
#include "window/mainmenus.h"

#include "topocast/version.h"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <utility>
#include <vector>

namespace topocast::app {

namespace {

/// "&View" → "View".
QString plain(QString text)
{
    return text.remove(QLatin1Char('&')).replace(QStringLiteral("…"), QString());
}

/// The menu actions with a shortcut, as ("Menu ▸ Action", "Key"), in menu order.
void collectShortcuts(const QMenu& menu, const QString& path, std::vector<std::pair<QString, QString>>& rows)
{
    for (QAction* a : menu.actions()) {
        if (a->isSeparator())
            continue;
        const QString here = path + QStringLiteral(" ▸ ") + plain(a->text());
        if (a->menu())
            collectShortcuts(*a->menu(), here, rows);
        else if (!a->shortcut().isEmpty())
            rows.emplace_back(here, a->shortcut().toString(QKeySequence::NativeText));
    }
}

QString table(const QString& title, const std::vector<std::pair<QString, QString>>& rows)
{
    QString html = QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='4'>").arg(title);
    for (const auto& [what, key] : rows)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key.toHtmlEscaped(), what.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

QDialog* readerDialog(QWidget* parent, const QString& title, QWidget* content, QSize size)
{
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(content);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(size);
    return dialog;
}

} // namespace

QString docPath(const QString& name)
{
    const QStringList dirs = {QCoreApplication::applicationDirPath() + QStringLiteral("/../share/doc/topocast"),
                              QStringLiteral(TOPOCAST_DOCS_DIR)};
    for (const QString& dir : dirs)
        if (const QFileInfo file(dir + QLatin1Char('/') + name); file.isReadable())
            return file.canonicalFilePath();
    return QStringLiteral(":/docs/") + name;
}

QTextBrowser* docBrowserAt(const QString& path)
{
    auto* browser = new QTextBrowser;
    browser->setOpenExternalLinks(true);
    const bool builtIn = path.startsWith(QLatin1Char(':'));
    // Read as markdown with its pictures and sibling documents beside it: the user guide's
    // "user-guide/play.png" is looked up in the folder that holds the guide, on disk or built in.
    browser->setSearchPaths({builtIn ? QFileInfo(path).path() : QFileInfo(path).absolutePath()});
    browser->setSource(builtIn ? QUrl(QStringLiteral("qrc") + path) : QUrl::fromLocalFile(path),
                       QTextDocument::MarkdownResource);
    return browser;
}

QTextBrowser* docBrowser(const QString& name)
{
    return docBrowserAt(docPath(name));
}

QString shortcutsHtml(const QMainWindow& window)
{
    std::vector<std::pair<QString, QString>> menus;
    for (QAction* a : window.menuBar()->actions())
        if (a->menu())
            collectShortcuts(*a->menu(), plain(a->text()), menus);
    const std::vector<std::pair<QString, QString>> view = {
        {QStringLiteral("make the node the source (on the source map: compare side A)"),
         QStringLiteral("Click a node")},
        {QStringLiteral("set compare side B's source on the source map"), QStringLiteral("Shift+click")},
        {QStringLiteral("rotate"), QStringLiteral("Drag, or W A S D")},
        {QStringLiteral("pan"), QStringLiteral("Shift+drag, or ↑ ↓")},
        {QStringLiteral("zoom"), QStringLiteral("Wheel, or + −")},
        {QStringLiteral("reset the camera"), QStringLiteral("R")},
        {QStringLiteral("cancel a computation"), QStringLiteral("Esc")}};
    const std::vector<std::pair<QString, QString>> predict = {
        {QStringLiteral("mark or unmark the node (or move the cursor with the arrows, Page Up/Down node by node)"),
         QStringLiteral("Click, Space")},
        {QStringLiteral("check the marks against the step"), QStringLiteral("Enter")}};
    return table(QStringLiteral("Menus"), menus) + table(QStringLiteral("In the 3-D view"), view) +
           table(QStringLiteral("In predict mode (View ▸ Predict)"), predict);
}

QString aboutHtml()
{
    return QStringLiteral(
               "<h2>topocast %1</h2>"
               "<p>Collective communication on meshes, tori and hypercubes: who sends what to whom at every "
               "step, computed and shown in 3-D.</p>"
               "<p>It implements the algorithms of</p><ul>"
               "<li>Cang &amp; Wu: minimum total-communication-distance broadcast on meshes and tori;</li>"
               "<li>Tsay &amp; Wang: nearly optimal all-port wormhole broadcast on d-dimensional tori;</li>"
               "<li>Johnsson &amp; Ho: optimum broadcasting and personalized communication in hypercubes;</li>"
               "<li>Drozdowski &amp; Głazek: divisible-load scattering in a 3-D mesh;</li>"
               "<li>and the ring, bucket, Rabenseifner, binomial and breadth-first baselines.</li></ul>"
               "<p>Where the papers are wrong, topocast follows the corrected reading and shows the difference "
               "(the paper's own variant stays selectable).</p>"
               "<p>Licence: %2 (LICENSE; /usr/share/doc/topocast/copyright in the package). Built with Qt %3 "
               "(LGPL-3.0).</p>"
               "<p>Carries three.js r111 (MIT, the three.js authors) for the web pages it exports, and compiles in "
               "JSON for Modern C++ (N. Lohmann, MIT), CLI11 (BSD-3-Clause), Eigen (MPL-2.0) and Boost.Graph "
               "(BSL-1.0); it links "
               "FFmpeg (LGPL-2.1+), Open MPI (BSD-3-Clause), SimGrid (LGPL-2.1), {fmt} (MIT) and expat (MIT) "
               "from the system.</p>")
        .arg(QString::fromLatin1(kVersion), QStringLiteral(TOPOCAST_LICENSE).toHtmlEscaped(),
             QString::fromLatin1(qVersion()));
}

QMenu* buildHelpMenu(const WindowParts& parts, const MainMenus& menus)
{
    QMainWindow& window = *parts.window;
    QMenu* help = window.menuBar()->addMenu(QStringLiteral("&Help"));
    QObject::connect(help->addAction(QStringLiteral("&Getting started")), &QAction::triggered, &window,
                     [parts, layout = menus.planes, compare = menus.compare] {
                         (new GettingStarted(parts, layout, compare))->show();
                     });
    QAction* guide = help->addAction(QStringLiteral("&User guide"));
    guide->setShortcut(QKeySequence::HelpContents);
    QObject::connect(guide, &QAction::triggered, &window, [&window] {
        readerDialog(&window, QStringLiteral("topocast: user guide"), docBrowser(QString::fromLatin1(kUserGuide)),
                     {900, 720})
            ->show();
    });
    QObject::connect(help->addAction(QStringLiteral("&Developers' guide")), &QAction::triggered, &window, [&window] {
        readerDialog(&window, QStringLiteral("topocast: developers' guide"),
                     docBrowser(QString::fromLatin1(kDevelopersGuide)), {900, 720})
            ->show();
    });
    QObject::connect(help->addAction(QStringLiteral("&Keyboard shortcuts")), &QAction::triggered, &window, [&window] {
        auto* text = new QTextBrowser;
        text->setHtml(shortcutsHtml(window));
        readerDialog(&window, QStringLiteral("topocast: keyboard shortcuts"), text, {640, 720})->show();
    });
    help->addSeparator();
    QObject::connect(help->addAction(QStringLiteral("&About topocast")), &QAction::triggered, &window,
                     [&window] { QMessageBox::about(&window, QStringLiteral("About topocast"), aboutHtml()); });
    return help;
}

} // namespace topocast::app
