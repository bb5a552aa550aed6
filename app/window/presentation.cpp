#include "window/presentation.h"

#include "compare/compareview.h"
#include "panels/legendwidget.h"
#include "scene/sceneview.h"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QStatusBar>

#include <utility>

namespace topocast::app {

Presentation::Presentation(QMainWindow* window, Parts parts, std::function<void()> changed)
    : QObject(window), m_window(window), m_parts(parts), m_changed(std::move(changed))
{
}

void Presentation::setOn(bool on)
{
    if (on == m_on)
        return;
    m_on = on;
    if (on)
        enter();
    else
        leave();
    m_parts.scene->setHighContrast(on);
    m_parts.compare->setHighContrast(on);
    if (on)
        m_window->showFullScreen();
    else
        m_window->showNormal();
    m_changed();
}

void Presentation::enter()
{
    m_normalFont = QApplication::font();
    QFont f = m_normalFont;
    f.setPointSizeF(f.pointSizeF() * 1.6);
    QApplication::setFont(f);
    // The 3-D view gets the window: hide the docks, the side panel, the menu and status bars
    // (the legend moves under the narration; the menus' shortcuts stay, see buildMainMenus),
    // remembering what was shown.
    m_hidden.clear();
    QList<QWidget*> panels = {m_parts.side, m_parts.measured, m_window->statusBar(), m_window->menuBar()};
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>())
        panels << d;
    for (QWidget* w : panels)
        if (w && w->isVisibleTo(m_window)) {
            w->hide();
            m_hidden << w;
        }
    QFont legendFont = m_normalFont; // one line of swatches under the narration
    legendFont.setPointSizeF(m_normalFont.pointSizeF() * 1.25);
    m_parts.legendRow->setFont(legendFont);
    m_parts.legendRow->show();
    QFont big = f; // the narration in the large type, bold: read from the back of the room
    big.setBold(true);
    m_parts.narration->setFont(big);
}

void Presentation::leave()
{
    QApplication::setFont(m_normalFont);
    m_parts.narration->setFont(QFont()); // inherit the application font again
    m_parts.legendRow->hide();
    for (QWidget* w : std::as_const(m_hidden))
        w->show();
    m_hidden.clear();
}

} // namespace topocast::app
