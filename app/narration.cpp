#include "narration.h"

#include <QStringList>

namespace topocast::app {

namespace {
QString nodeName(const Topology& topo, NodeId v) { return QString::fromStdString(topo.nodeName(v)); }
} // namespace

QString narrate(const Snapshot& snap, int step, int maxTransfers)
{
    const Schedule& s = snap.schedule;
    const Topology& topo = s.topology();
    if (step <= 0 || s.stepCount() == 0) {
        return QStringLiteral("Start: %1 on the %2 from %3 — %4 steps, TCD %5")
            .arg(QString::fromStdString(s.algorithm.empty() ? snap.scenario.algorithm : s.algorithm),
                 QString::fromStdString(topo.displayName()), nodeName(topo, s.source()))
            .arg(s.stepCount())
            .arg(snap.metrics.tcd);
    }
    const auto st = static_cast<std::uint32_t>(std::min<int>(step, static_cast<int>(s.stepCount())));
    QString head = QStringLiteral("Step %1").arg(st);
    if (st - 1 < s.stepLabels.size() && !s.stepLabels[st - 1].empty())
        head += QStringLiteral(" (%1)").arg(QString::fromStdString(s.stepLabels[st - 1]));
    const auto transfers = s.stepTransfers(StepNo{st});
    QStringList parts;
    int shown = 0;
    for (const Transfer& t : transfers) {
        if (shown == maxTransfers)
            break;
        const int hops = s.hops(t);
        // What moves, where a message carries more than the one block of a broadcast: "0000
        // sends 8 blocks to 1000".
        const std::size_t blocks = s.payload(t.payload).size();
        const QString what = blocks > 1 ? QStringLiteral(" %1 blocks").arg(blocks) : QString();
        parts << QStringLiteral("%1 sends%2 to %3, %4 %5")
                     .arg(nodeName(topo, t.from), what, nodeName(topo, t.to))
                     .arg(hops)
                     .arg(hops == 1 ? QStringLiteral("hop") : QStringLiteral("hops"));
        ++shown;
    }
    QString text = head + QStringLiteral(": ") + parts.join(QStringLiteral("; "));
    if (transfers.size() > static_cast<std::size_t>(shown))
        text += QStringLiteral("; … and %1 more").arg(transfers.size() - static_cast<std::size_t>(shown));
    if (transfers.empty())
        text = head + QStringLiteral(": no transfers");
    text += QStringLiteral(" — TCD so far %1").arg(snap.prefixTcd[st]);
    return text;
}

} // namespace topocast::app
