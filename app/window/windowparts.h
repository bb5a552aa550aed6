#pragma once
// The parts the main window assembles, as its helpers (the menus, the lessons, the tour) reach
// them: through this and the Qt window, never through the main window's class.

#include "topocast/model/ids.h"

#include <functional>

class QMainWindow;

namespace topocast::app {

class ExportActions;
class FileActions;
class Presentation;
class PredictMode;
class SceneView;
class Session;
class StatusReport;
class Timeline;
class Workspace;

struct WindowParts {
    QMainWindow* window = nullptr;
    Session* session = nullptr; ///< the single view's
    Timeline* timeline = nullptr;
    SceneView* scene = nullptr; ///< the single view
    Workspace* workspace = nullptr;
    FileActions* files = nullptr;
    ExportActions* exports = nullptr;
    PredictMode* predict = nullptr;
    Presentation* presentation = nullptr;
    StatusReport* status = nullptr;
    /// A click on node `source` in the single view (a panel edit waiting to be applied goes first).
    std::function<void(NodeId)> chooseSource;
};

} // namespace topocast::app
