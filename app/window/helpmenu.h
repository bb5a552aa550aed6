#pragma once
// Help ▸ Getting started (the guided tour), User guide, Keyboard shortcuts and About: the shipped guide in a reader,
// every shortcut the window's menus hold (read from the actions themselves, so the list cannot drift) with the view's
// own keys and mouse, and the version, licence and papers.

#include <QString>

class QMainWindow;
class QMenu;
class QTextBrowser;

namespace topocast::app {

class MainWindow;
struct MainMenus;

/// Adds the Help menu to `window`'s menu bar (after the menus already there); the tour drives
/// `menus`' explode and compare actions.
QMenu* buildHelpMenu(MainWindow& window, const MainMenus& menus);

/// The guide's file: installed (share/doc/topocast/guide.md beside bin/), else the source tree's
/// docs/guide.md, else the copy built into the program (":/docs/guide.md").
QString guidePath();

/// The window's shortcuts as an HTML table: every menu action with a shortcut ("View ▸ Explode
/// planes", "E"), then the 3-D view's keys and mouse, then predict mode's.
QString shortcutsHtml(const QMainWindow& window);

/// Help ▸ About's text (HTML): version, licence, the papers, Qt.
QString aboutHtml();

/// A reader showing the guide (markdown, its pictures beside it); the caller owns it.
QTextBrowser* guideBrowser();

} // namespace topocast::app
