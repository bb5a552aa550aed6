#pragma once
// The window's menu bar: File, View, Timeline and Help, built from the window's public operations. Every
// menu action also belongs to the window, so its shortcut works while presentation mode hides the
// menu bar.

#include "session/snapshot.h"
#include "window/windowparts.h"

#include <QStringList>

class QAction;
class QMenu;

namespace topocast::app {

/// The actions other parts of the window keep in step with what is shown.
struct MainMenus {
    QMenu* recent = nullptr;         ///< File ▸ Open recent (ScenarioMemory fills it)
    QAction* explode = nullptr;      ///< View ▸ Explode planes (E)
    QAction* frameTime = nullptr;    ///< View ▸ Show frame time
    QAction* compare = nullptr;      ///< View ▸ Compare side by side
    QAction* orthographic = nullptr; ///< View ▸ Orthographic projection
    QAction* flat = nullptr;         ///< View ▸ Flat hypercube drawing
    QAction* planes = nullptr;       ///< View ▸ Planes side by side (3-D meshes and tori)

    /// The View menu's projection and hypercube drawing as `snap` is drawn (no signals).
    void follow(const Snapshot& snap, bool inOrthographic);
};

/// Builds the menu bar of `parts.window`; the window's parts do the work.
MainMenus buildMainMenus(const WindowParts& parts);

/// Scenario files offered as presets: resources/scenarios in the source tree, else beside the
/// executable (scenarios/ or ../share/topocast/scenarios), in name order.
QStringList presetScenarioFiles();

} // namespace topocast::app
