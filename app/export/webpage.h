#pragma once
// File ▸ Export ▸ Web page and `topocast-cli html`: a scenario as one self-contained HTML file that
// plays in any current browser from disk — the schedule, the layout and the narration as data, the
// player (resources/web/player.js) and three.js inlined, nothing fetched from the network, and a
// Content-Security-Policy that lets only those scripts run.

#include "compare/comparesnapshot.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"

#include <QByteArray>
#include <QString>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace topocast::app {

/// The most nodes a web page draws (one merged mesh; a phone's browser still turns it).
inline constexpr std::uint32_t kWebPageMaxNodes = 32768;

/// The page of `snap`, coloured by `mode` at every step as the 3-D view colours it (the node and
/// link colours of frameStyle, the mode's legend; in the Trees mode the member trees' edges, in
/// Data held the glyphs of core dataGlyphCells). Throws topocast::Error for a network over
/// kWebPageMaxNodes nodes or a snapshot with no schedule.
QByteArray webPage(const Snapshot& snap, ViewMode mode = ViewMode::Plain);

/// The page of a comparison: both sides side by side on one timeline (the longer schedule's
/// steps; the shorter holds its last state), each with its title, figures and narration.
QByteArray webPage(const CompareSnapshot& cmp, ViewMode mode = ViewMode::Plain);

/// The pages' data alone (the JSON the player reads), for tests.
QByteArray webPageData(const Snapshot& snap, ViewMode mode = ViewMode::Plain);
QByteArray webPageData(const CompareSnapshot& cmp, ViewMode mode = ViewMode::Plain);

/// Writes webPage(snap) (or of `cmp`) at `path` atomically. Throws topocast::Error.
void writeWebPage(const Snapshot& snap, const QString& path, ViewMode mode = ViewMode::Plain);
void writeWebPage(const CompareSnapshot& cmp, const QString& path, ViewMode mode = ViewMode::Plain);

/// File ▸ Export ▸ Web page…: asks for a file and writes `page()` (what the window shows: its
/// comparison when one is open, else its scenario; it throws topocast::Error when there is none).
QAction* addWebPageAction(QMenu* exportMenu, QWidget* window, std::function<QByteArray()> page,
                          std::function<void(const QString&)> report);

} // namespace topocast::app
