#include "window/timesizedock.h"

#include "panels/timesizepanel.h"
#include "session/session.h"

#include "topocast/algorithms/registry.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>

namespace topocast::app {

namespace {

/// `s` with `algorithm` in place of its own, computing the pattern the dock swept: its other
/// parameters belonged to the algorithm it replaces.
Scenario withAlgorithm(Scenario s, const std::string& algorithm, const std::string& pattern)
{
    s.algorithm = algorithm;
    s.params = Params{};
    for (const AlgorithmInfo& a : algorithms())
        if (a.name == algorithm && !a.patterns.empty() && a.patterns.front() != pattern)
            s.params.set("pattern", pattern);
    return s;
}

} // namespace

QDockWidget* addTimeSizeDock(QMainWindow* window, Session* session)
{
    auto* panel = new TimeSizePanel;
    panel->follow(session);
    auto* dock = new QDockWidget(QStringLiteral("Time vs size"), window);
    dock->setObjectName(QStringLiteral("timeSizeDock"));
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    QAction* toggle = dock->toggleViewAction();
    toggle->setText(QStringLiteral("&Time vs size"));
    toggle->setShortcut(QKeySequence(Qt::Key_F9));
    toggle->setToolTip(QStringLiteral("every algorithm of the scenario's pattern timed over 8 B … 1 GiB on its network "
                                      "model (LogGP), the bound dashed; drag the message size, click a curve"));
    QObject::connect(panel, &TimeSizePanel::messageSizeChosen, session, [session](std::uint64_t bytes) {
        Scenario s = session->requestedScenario();
        NetworkModel m = s.network.value_or(NetworkModel{});
        m.message = bytes;
        s.network = m;
        session->setScenario(s);
    });
    QObject::connect(panel, &TimeSizePanel::algorithmChosen, session, [session, panel](const QString& name) {
        if (!panel->table())
            return;
        session->setScenario(
            withAlgorithm(session->requestedScenario(), name.toStdString(), toString(panel->table()->request.pattern)));
    });
    return dock;
}

} // namespace topocast::app
