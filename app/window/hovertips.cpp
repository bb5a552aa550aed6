#include "window/hovertips.h"

#include "practice/predictmode.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"
#include "words/narration.h"

#include "topocast/algorithms/figures.h"

#include <QToolTip>

#include <algorithm>

namespace topocast::app {

namespace {

/// What node `v` holds at `step`, in a student's words: for a broadcast when the message reaches
/// it; for the other patterns the blocks it holds of those it must end with.
QString holdingWords(const Snapshot& snap, NodeId v, int step)
{
    const auto k = static_cast<std::uint32_t>(std::max(step, 0));
    if (snap.schedule.pattern() == Pattern::Broadcast) {
        const std::uint32_t at = v < snap.informedStep.size() ? snap.informedStep[v] : kNeverInformed;
        if (at == 0)
            return QStringLiteral("\nholds the message from the start");
        if (at == kNeverInformed)
            return QStringLiteral("\nnever receives the message");
        if (at < k)
            return QStringLiteral("\nholds the message since step %1").arg(at);
        return at == k ? QStringLiteral("\nreceives the message in this step (%1)").arg(at)
                       : QStringLiteral("\nreceives the message in step %1").arg(at);
    }
    if (!snap.holdings || snap.holdings->requiredCount(v) == 0)
        return {};
    const StepNo s{k};
    const std::size_t held = snap.holdings->requiredHeldAt(v, s), need = snap.holdings->requiredCount(v);
    if (need == 1)
        return held == 1 ? QStringLiteral("\nholds the block it must end with")
                         : QStringLiteral("\ndoes not hold yet the block it must end with");
    return held == need ? QStringLiteral("\nholds all %1 blocks it must end with").arg(need)
                        : QStringLiteral("\nholds %1 of the %2 blocks it must end with").arg(held).arg(need);
}

} // namespace

QString nodeHoverText(const Snapshot& snap, NodeId v, int step, bool predicting)
{
    QString text = QString::fromStdString(snap.topology().nodeName(v));
    if (v < snap.sourceMap.size()) {
        const auto value = [&](double x) {
            return QString::fromStdString(formatSourceMapValue(x, snap.sourceMapMetric, snap.sourceMapTimeUnit));
        };
        const auto [best, worst] = sourceMapRange(snap.sourceMap);
        text +=
            QStringLiteral("\nas the source: %1 %2 (best %3)")
                .arg(QString::fromStdString(metricWords(snap.sourceMapMetric)), value(snap.sourceMap[v]), value(best));
    }
    text += holdingWords(snap, v, step);
    const DivisibleLoadFigures* load =
        snap.schedule.figures ? snap.schedule.figures->get<DivisibleLoadFigures>() : nullptr;
    const int layer = nodeLayer(snap, v);
    if (load) { // a divisible-load layer is the move that reaches it
        text += layer < 0 ? QStringLiteral("\nin no layer (no load)") : QStringLiteral("\nlayer %1").arg(layer);
        if (layer >= 0 && static_cast<std::size_t>(layer) < load->model.alpha.size())
            text += QStringLiteral(", layer load share %1").arg(load->model.alpha[static_cast<std::size_t>(layer)]);
    } else if (hasRoot(snap.schedule.pattern()) && layer >= 0) {
        const Pattern p = snap.schedule.pattern();
        const QString root =
            p == Pattern::Gather || p == Pattern::Reduce ? QStringLiteral("root") : QStringLiteral("source");
        const QString name = QString::fromStdString(snap.topology().nodeName(snap.schedule.source()));
        text += layer == 0   ? QStringLiteral("\nthe %1").arg(root)
                : layer == 1 ? QStringLiteral("\n1 hop from the %1 %2").arg(root, name)
                             : QStringLiteral("\n%1 hops from the %2 %3").arg(layer).arg(root, name);
    }
    text +=
        predicting ? QStringLiteral("\nclick to mark or unmark it") : QStringLiteral("\nclick to make it the source");
    return text;
}

void connectHoverTips(QObject* context, SceneView* scene, Session* session, Timeline* timeline, PredictMode* predict)
{
    QObject::connect(&scene->input(), &SceneInput::nodeHovered, context,
                     [session, timeline, predict](long long node, QPoint globalPos) {
                         const auto snap = session->snapshot();
                         if (node < 0 || !snap) {
                             QToolTip::hideText();
                             return;
                         }
                         QToolTip::showText(globalPos, nodeHoverText(*snap, static_cast<NodeId>(node), timeline->step(),
                                                                     predict->isActive()));
                     });
    QObject::connect(&scene->input(), &SceneInput::messageHovered, context,
                     [session](long long transfer, QPoint globalPos) {
                         if (const auto snap = session->snapshot(); snap && transfer >= 0)
                             QToolTip::showText(globalPos, messageContents(*snap, static_cast<std::size_t>(transfer)));
                     });
}

} // namespace topocast::app
