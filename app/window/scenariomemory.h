#pragma once
// What the window remembers between runs: the last scenario (with the colour mode and step it was
// left at, written debounced so a run of clicks is written once) and the recent files.

#include "topocast/scenario/scenario.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QMenu;
class QTimer;

namespace topocast::app {

class SceneView;
class Timeline;

class ScenarioMemory : public QObject {
    Q_OBJECT
public:
    /// How long the last scenario waits before it is written to the settings when the one before
    /// was written less than this ago (a run of clicks is written once, when it stops).
    static constexpr int kDelayMs = 500;

    /// `enabled`: read and write QSettings (off in tests: nothing is remembered). The scene and
    /// timeline give the colour mode and step a remembered scenario is saved with.
    ScenarioMemory(bool enabled, const SceneView* scene, const Timeline* timeline, QObject* parent = nullptr);

    bool enabled() const { return m_enabled; }
    /// Keeps `scenario` as the last scenario, with the view's current colour mode and step:
    /// written at once when nothing was written in the last kDelayMs, otherwise when kDelayMs pass
    /// without another one. Nothing when disabled.
    void remember(Scenario scenario);
    /// Writes a last scenario still waiting for the delay.
    void flush();
    /// At close: the last scenario again, with the step and mode it is left at, written now.
    void rememberAtClose();

    /// The menu that lists the recent files, and what a click on one does; filled at once from the
    /// settings when enabled.
    void setRecentMenu(QMenu* menu, std::function<void(const QString&)> open);
    /// `path` first in the recent files (at most 8, absolute paths), saved when enabled.
    void addRecent(const QString& path);

private:
    void rebuildRecentMenu();

    bool m_enabled;
    const SceneView* m_scene;
    const Timeline* m_timeline;
    QTimer* m_timer = nullptr;            ///< single shot: writes m_pending
    QString m_pending;                    ///< JSON not written yet (empty: none)
    QString m_saved;                      ///< JSON last written
    std::optional<Scenario> m_remembered; ///< the last remember()'s, for its step at close
    QElapsedTimer m_sinceWrite;           ///< invalid until the first write
    QStringList m_recent;
    QMenu* m_recentMenu = nullptr;
    std::function<void(const QString&)> m_open;
};

} // namespace topocast::app
