#pragma once
// Presentation mode (F11, --present): full screen, large type, the high-contrast palette, and the
// 3-D view takes the window — the docks, the side panel, the menu and status bars hide and the
// legend moves into a row under the narration. Off restores what was shown before.

#include <QFont>
#include <QList>
#include <QObject>

#include <functional>

class QLabel;
class QMainWindow;
class QWidget;

namespace topocast::app {

class CompareView;
class LegendWidget;
class SceneView;

class Presentation : public QObject {
    Q_OBJECT
public:
    /// What presentation mode changes besides the window's own bars and docks.
    struct Parts {
        QWidget* side = nullptr;           ///< the side panel beside the view (hidden)
        QWidget* measured = nullptr;       ///< the measured-times panel (hidden)
        LegendWidget* legendRow = nullptr; ///< the legend as a row under the narration (shown)
        QLabel* narration = nullptr;       ///< set in the large type, bold
        SceneView* scene = nullptr;        ///< high contrast
        CompareView* compare = nullptr;    ///< high contrast
    };

    /// `changed` runs after each switch (the legend follows the palette).
    Presentation(QMainWindow* window, Parts parts, std::function<void()> changed);

    bool isOn() const { return m_on; }
    void setOn(bool on);

private:
    void enter();
    void leave();

    QMainWindow* m_window;
    Parts m_parts;
    std::function<void()> m_changed;
    bool m_on = false;
    QList<QWidget*> m_hidden; ///< what presentation mode hid, shown again when it ends
    QFont m_normalFont;
};

} // namespace topocast::app
