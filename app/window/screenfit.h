#pragma once

#include <QSize>

class QWidget;

namespace topocast::app {

/// Keeps `window` on its screen: it opens at `preferred` or the screen's available geometry,
/// whichever is smaller, and whenever it grows or moves past the available geometry afterwards
/// (a dock shown, charts that want more room, a window manager's placement) it is made smaller
/// — down to its minimum size — and moved back inside, so the timeline at its bottom stays
/// reachable. Full-screen windows are left alone. The filter is the window's child.
void keepOnScreen(QWidget* window, QSize preferred);

/// `column` in a scroll area that scrolls it vertically when the window is shorter than it wants
/// (no frame, no horizontal scroll bar; as wide as the column's own minimum, plus the scroll bar).
QWidget* scrollableColumn(QWidget* column);

} // namespace topocast::app
