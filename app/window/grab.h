#pragma once
// A window as an image with its 3-D views in it: a plain QWidget::grab leaves native 3-D windows
// out, so each view's captured frame is painted where the view is.

#include <QImage>

#include <utility>
#include <vector>

class QWidget;

namespace topocast::app {

/// `window` grabbed, each (view, frame) painted at the view's place and size. Null when any frame
/// is null (it could not be rendered).
QImage grabWithViews(QWidget* window, const std::vector<std::pair<QWidget*, QImage>>& views);

} // namespace topocast::app
