#pragma once
// File ▸ Export ▸ Web page and `topocast-cli html`: a scenario as one self-contained HTML file that
// plays in any current browser from disk — the schedule, the layout and the narration as data, the
// player (resources/web/player.js) and three.js inlined, nothing fetched from the network, and a
// Content-Security-Policy that lets only those scripts run.

#include "snapshot.h"

#include <QByteArray>
#include <QString>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace topocast::app {

class Session;

/// The most nodes a web page draws (one merged mesh; a phone's browser still turns it).
inline constexpr std::uint32_t kWebPageMaxNodes = 32768;

/// The page of `snap`. Throws topocast::Error for a network over kWebPageMaxNodes nodes or a
/// snapshot with no schedule.
QByteArray webPage(const Snapshot& snap);

/// The page's data alone (the JSON the player reads), for tests.
QByteArray webPageData(const Snapshot& snap);

/// Writes webPage(snap) at `path` atomically. Throws topocast::Error.
void writeWebPage(const Snapshot& snap, const QString& path);

/// File ▸ Export ▸ Web page…: asks for a file and writes the page of what `session` shows.
QAction* addWebPageAction(QMenu* exportMenu, QWidget* window, Session* session,
                          std::function<void(const QString&)> report);

} // namespace topocast::app
