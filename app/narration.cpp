#include "narration.h"

#include "topocast/holdings.h"
#include "topocast/reduction.h"

#include <QStringList>

namespace topocast::app {

namespace {
QString nodeName(const Topology& topo, NodeId v) { return QString::fromStdString(topo.nodeName(v)); }

/// " chunk 3, the sum of 2 of 4 contributions,": what a transfer of a reduction carries, from the
/// sender's partial at the end of step `before`.
QString partialPhrase(const Schedule& s, const Holdings& holdings, const Transfer& t, StepNo before)
{
    const auto payload = s.payload(t.payload);
    const Block& first = payload.front();
    const std::uint64_t chunk = chunkId(s, first);
    if (chunk == kNoChunk)
        return QStringLiteral(" %1 blocks").arg(payload.size());
    const std::uint32_t n = s.topology().nodeCount();
    const std::uint32_t k = holdings.partialSizeAt(t.from, chunk, before);
    const QString what = payload.size() == 1 ? QString::fromStdString(chunkName(s, first))
                                             : QStringLiteral("%1 chunks").arg(payload.size());
    const QString each = payload.size() == 1 ? QString() : QStringLiteral(" each");
    if (k >= n)
        return QStringLiteral(" %1, complete (%2 contributions%3),").arg(what).arg(n).arg(each);
    if (k <= 1)
        return QStringLiteral(" %1 (its own contribution%2)").arg(what, each);
    return QStringLiteral(" %1,%2 the sum of %3 of %4 contributions,").arg(what, each).arg(k).arg(n);
}
} // namespace

QString narrate(const Snapshot& snap, int step, int maxTransfers)
{
    const Schedule& s = snap.schedule;
    const Topology& topo = s.topology();
    if (step <= 0 || s.stepCount() == 0) {
        return QStringLiteral("Start: %1 on the %2%3 — %4 steps, TCD %5")
            .arg(QString::fromStdString(s.algorithm.empty() ? snap.scenario.algorithm : s.algorithm),
                 QString::fromStdString(topo.displayName()), sourcePhrase(s))
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
        QString what = blocks > 1 ? QStringLiteral(" %1 blocks").arg(blocks) : QString();
        if (combines(s.pattern()) && blocks >= 1 && snap.holdings)
            what = partialPhrase(s, *snap.holdings, t, StepNo{st - 1});
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

QString sourcePhrase(const Schedule& schedule)
{
    const Pattern p = schedule.pattern();
    if (!hasRoot(p))
        return {};
    const QString name = QString::fromStdString(schedule.topology().nodeName(schedule.source()));
    return (p == Pattern::Gather || p == Pattern::Reduce ? QStringLiteral(" to ") : QStringLiteral(" from ")) + name;
}

} // namespace topocast::app
