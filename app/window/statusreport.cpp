#include "window/statusreport.h"

#include "scene/sceneview.h"
#include "session/session.h"

#include "topocast/text/numbers.h"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>

#include <utility>

namespace topocast::app {

StatusReport::StatusReport(QMainWindow* window, Session* session, SceneView* scene)
    : QObject(window), m_window(window), m_scene(scene)
{
    QStatusBar* bar = window->statusBar();
    m_hidden = new QLabel;
    m_hidden->setObjectName(QStringLiteral("hiddenLabel"));
    bar->addPermanentWidget(m_hidden);
    connect(&scene->shape(), &SceneShape::explodeChanged, this, &StatusReport::updateHidden);
    connect(&scene->camera(), &SceneCamera::visibilityChanged, this, &StatusReport::updateHidden);

    // While a schedule is computed off the GUI thread: a busy bar, what it is doing, and Cancel
    // (Esc), which keeps the scenario shown before.
    auto* busyBar = new QProgressBar;
    busyBar->setRange(0, 0);
    busyBar->setMaximumWidth(140);
    busyBar->hide();
    auto* cancel = new QPushButton(QStringLiteral("Cancel"));
    cancel->setToolTip(QStringLiteral("stop computing and keep the scenario shown (Esc)"));
    cancel->hide();
    bar->addPermanentWidget(busyBar);
    bar->addPermanentWidget(cancel);
    connect(cancel, &QPushButton::clicked, session, &Session::cancel);
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), window);
    connect(esc, &QShortcut::activated, session, &Session::cancel);
    connect(session, &Session::busyChanged, this, [bar, busyBar, cancel](bool busy) {
        busyBar->setVisible(busy);
        cancel->setVisible(busy);
        if (busy)
            bar->showMessage(QStringLiteral("computing…"));
    });
    connect(session, &Session::progress, this,
            [bar](const QString& stage) { bar->showMessage(QStringLiteral("computing: %1…").arg(stage)); });
}

void StatusReport::showFrameTime(bool on)
{
    if (!m_frameTime) {
        m_frameTime = new QLabel;
        m_frameTime->setObjectName(QStringLiteral("frameTimeLabel"));
        m_window->statusBar()->addPermanentWidget(m_frameTime);
        m_frameTimer = new QTimer(this);
        m_frameTimer->setInterval(500);
        connect(m_frameTimer, &QTimer::timeout, this, &StatusReport::updateFrameTime);
    }
    if (m_frameTimeAction && m_frameTimeAction->isChecked() != on) {
        const QSignalBlocker block(m_frameTimeAction);
        m_frameTimeAction->setChecked(on);
    }
    m_frameTime->setVisible(on);
    if (on) {
        m_frameTimer->start();
        updateFrameTime();
    } else {
        m_frameTimer->stop();
    }
}

QString StatusReport::frameTimeText() const
{
    return m_frameTime ? m_frameTime->text() : QString();
}

void StatusReport::updateFrameTime()
{
    const double ms = m_scene->capture().frameTimeMs();
    m_frameTime->setText(ms > 0.0 ? QStringLiteral("frame %1 ms (%2 frames/s)")
                                        .arg(QString::fromStdString(formatFixed(ms, 1)),
                                             QString::fromStdString(formatFixed(1000.0 / ms, 0)))
                                  : QStringLiteral("frame time: waiting for frames"));
}

void StatusReport::setViewShown(bool shown)
{
    m_viewShown = shown;
    updateHidden();
}

void StatusReport::updateHidden()
{
    const std::size_t hidden = m_scene->camera().hiddenReceivers();
    if (hidden == 0 || !m_viewShown) {
        m_hidden->clear();
        return;
    }
    // Advice that works for the drawing shown: a flat drawing hides nothing, only the camera has
    // moved off part of it; a tower explodes or lays its planes side by side; a cube turns.
    QString hint;
    if (m_scene->shape().flatNetwork())
        hint = QStringLiteral("Ctrl+R frames the whole network");
    else if (m_scene->shape().canExplode() && m_scene->shape().explode() == 0.0f)
        hint = QStringLiteral("press E to explode");
    else if (m_scene->shape().canLayOutPlanes())
        hint = QStringLiteral("press L for planes side by side");
    else
        hint = QStringLiteral("drag to turn the view");
    m_hidden->setText(
        QStringLiteral("%1 of %2 receivers hidden — %3").arg(hidden).arg(m_scene->camera().stepReceivers()).arg(hint));
}

} // namespace topocast::app
