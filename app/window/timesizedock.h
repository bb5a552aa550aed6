#pragma once

class QDockWidget;
class QMainWindow;

namespace topocast::app {

class Session;

/// Adds the *Time vs size* dock (panels/timesizepanel.h) under the 3-D view, hidden until View ▸
/// Time vs size (F9) shows it: it follows `session`, and a message size dragged or an algorithm
/// clicked in it becomes a new request — the latest scenario with that size in its network
/// model, or with that algorithm (computing the same pattern). Object name "timeSizeDock".
QDockWidget* addTimeSizeDock(QMainWindow* window, Session* session);

} // namespace topocast::app
