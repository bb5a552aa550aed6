#include "window/hovertips.h"

#include "panels/narration.h"
#include "practice/predictmode.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/algorithms/figures.h"

#include <QToolTip>

#include <algorithm>

namespace topocast::app {

namespace {

QString nodeTip(const Snapshot& snap, NodeId v, int step, bool predicting)
{
    QString text = QString::fromStdString(snap.topology().nodeName(v));
    if (v < snap.landscape.size())
        text += QStringLiteral("\n%1 as source: %2")
                    .arg(QString::fromStdString(metricWords(snap.landscapeMetric)),
                         QString::fromStdString(
                             formatLandscapeValue(snap.landscape[v], snap.landscapeMetric, snap.landscapeTimeUnit)));
    if (snap.holdings && snap.holdings->requiredCount(v) > 0) {
        const StepNo k{static_cast<std::uint32_t>(std::max(step, 0))};
        text += QStringLiteral("\nholds %1 of the %2 blocks it must end with (%3 blocks in all)")
                    .arg(snap.holdings->requiredHeldAt(v, k))
                    .arg(snap.holdings->requiredCount(v))
                    .arg(snap.holdings->countAt(v, k));
    }
    const int layer = nodeLayer(snap, v);
    text += layer < 0 ? QStringLiteral("\nin no layer") : QStringLiteral("\nlayer %1").arg(layer);
    const DivisibleLoadFigures* load =
        snap.schedule.figures ? snap.schedule.figures->get<DivisibleLoadFigures>() : nullptr;
    if (load && layer >= 0 && static_cast<std::size_t>(layer) < load->model.alpha.size())
        text += QStringLiteral(", layer load share %1").arg(load->model.alpha[static_cast<std::size_t>(layer)]);
    text +=
        predicting ? QStringLiteral("\nclick to mark or unmark it") : QStringLiteral("\nclick to make it the source");
    return text;
}

} // namespace

void connectHoverTips(QObject* context, SceneView* scene, Session* session, Timeline* timeline, PredictMode* predict)
{
    QObject::connect(
        scene, &SceneView::nodeHovered, context, [session, timeline, predict](long long node, QPoint globalPos) {
            const auto snap = session->snapshot();
            if (node < 0 || !snap) {
                QToolTip::hideText();
                return;
            }
            QToolTip::showText(globalPos,
                               nodeTip(*snap, static_cast<NodeId>(node), timeline->step(), predict->isActive()));
        });
    QObject::connect(scene, &SceneView::messageHovered, context, [session](long long transfer, QPoint globalPos) {
        if (const auto snap = session->snapshot(); snap && transfer >= 0)
            QToolTip::showText(globalPos, messageContents(*snap, static_cast<std::size_t>(transfer)));
    });
}

} // namespace topocast::app
