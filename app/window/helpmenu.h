#pragma once
// Help ▸ Getting started (the guided tour), User guide, Developers' guide, Keyboard shortcuts and About: the shipped
// guides in a reader, every shortcut the window's menus hold (read from the actions themselves, so the list cannot
// drift) with the view's own keys and mouse, and the version, licence and papers.

#include "window/windowparts.h"

#include <QString>

class QMainWindow;
class QMenu;
class QTextBrowser;

namespace topocast::app {

struct MainMenus;

/// Adds the Help menu to `parts.window`'s menu bar (after the menus already there); the tour
/// drives `menus`' planes and compare actions.
QMenu* buildHelpMenu(const WindowParts& parts, const MainMenus& menus);

/// Help ▸ User guide's document (F1), for teachers and students, and Help ▸ Developers' guide's.
inline constexpr const char* kUserGuide = "user-guide.md";
inline constexpr const char* kDevelopersGuide = "guide.md";

/// A shipped document's file (`name` as kUserGuide): installed (share/doc/topocast/NAME beside
/// bin/), else the source tree's docs/NAME, else the copy built into the program (":/docs/NAME").
QString docPath(const QString& name);

/// The window's shortcuts as an HTML table: every menu action with a shortcut ("View ▸ Explode
/// planes", "E"), then the 3-D view's keys and mouse, then predict mode's.
QString shortcutsHtml(const QMainWindow& window);

/// Help ▸ About's text (HTML): version, licence, the papers, Qt.
QString aboutHtml();

/// A reader showing the document `name` (markdown, its pictures found beside it); the caller owns it.
QTextBrowser* docBrowser(const QString& name);

/// A reader showing the markdown file at `path`, on disk or built in (":/docs/user-guide.md"), its
/// pictures and sibling documents found in the folder that holds it; the caller owns it.
QTextBrowser* docBrowserAt(const QString& path);

} // namespace topocast::app
