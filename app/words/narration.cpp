#include "words/narration.h"

#include "topocast/analysis/holdings.h"
#include "topocast/analysis/reduction.h"
#include "topocast/model/units.h"

#include <QFileInfo>
#include <QStringList>

#include <algorithm>

namespace topocast::app {

namespace {
QString nodeName(const Topology& topo, NodeId v)
{
    return QString::fromStdString(topo.nodeName(v));
}

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
        if (!isCollective(s.pattern()))
            what = QStringLiteral(" ") + transferLabel(s, t);
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
        text += shown == 0 ? QStringLiteral("%1 transfers").arg(transfers.size())
                           : QStringLiteral("; … and %1 more").arg(transfers.size() - static_cast<std::size_t>(shown));
    if (transfers.empty())
        text = head + QStringLiteral(": no transfers");
    text += QStringLiteral(" — TCD so far %1").arg(snap.prefixTcd[st]);
    return text;
}

namespace {
/// One block of a message, in words: what makes it this block for the pattern.
QString blockPhrase(const Schedule& s, const Block& b)
{
    const Topology& topo = s.topology();
    auto name = [&](std::uint32_t v) {
        return v < topo.nodeCount() ? nodeName(topo, NodeId{v}) : QStringLiteral("node %1").arg(v);
    };
    const QString part = s.parts > 1 ? QStringLiteral(", part %1").arg(b.part) : QString();
    switch (s.pattern()) {
    case Pattern::Broadcast:
        return QStringLiteral("part %1 of %2's message").arg(b.part).arg(name(b.origin));
    case Pattern::Scatter:
        return QStringLiteral("for %1%2").arg(name(b.dest), part);
    case Pattern::Allgather:
    case Pattern::Gather:
        return QStringLiteral("from %1%2").arg(name(b.origin), part);
    case Pattern::Alltoall:
        return QStringLiteral("from %1 for %2%3").arg(name(b.origin), name(b.dest), part);
    case Pattern::PointToPoint:
        return QStringLiteral("the token of %1's message %2 to %3")
            .arg(name(b.origin))
            .arg(b.part + 1)
            .arg(name(b.dest));
    case Pattern::Reduce:
    case Pattern::Allreduce:
    case Pattern::ReduceScatter:
        break;
    }
    return QString::fromStdString(chunkName(s, b));
}
} // namespace

QString transferLabel(const Schedule& schedule, const Transfer& t)
{
    // A program of messages (GOAL) carries bytes, not blocks of a collective; its tokens are
    // bookkeeping.
    if (!isCollective(schedule.pattern()))
        return QString::fromStdString(formatSize(static_cast<std::uint64_t>(std::max(0.0, t.size))));
    return blockCount(schedule, schedule.payload(t.payload).size());
}

QString blockCount(const Schedule& schedule, std::size_t blocks)
{
    if (combines(schedule.pattern()))
        return blocks == 1 ? QStringLiteral("1 chunk") : QStringLiteral("%1 chunks").arg(blocks);
    return blocks == 1 ? QStringLiteral("1 block") : QStringLiteral("%1 blocks").arg(blocks);
}

QString messageContents(const Snapshot& snap, std::size_t transfer, int maxBlocks)
{
    const Schedule& s = snap.schedule;
    if (transfer >= s.size())
        return {};
    const Topology& topo = s.topology();
    const Transfer& t = s.transfers()[transfer];
    const int hops = s.hops(t);
    QString text = QStringLiteral("Step %1: %2 → %3, %4 %5")
                       .arg(t.step)
                       .arg(nodeName(topo, t.from), nodeName(topo, t.to))
                       .arg(hops)
                       .arg(hops == 1 ? QStringLiteral("hop") : QStringLiteral("hops"));
    const auto payload = s.payload(t.payload);
    if (!isCollective(s.pattern()))
        return text + QStringLiteral("\n%1 (a message of a program: what the bytes are, the file does not say)")
                          .arg(transferLabel(s, t));
    text += QStringLiteral("\n%1:").arg(blockCount(s, payload.size()));
    const std::uint32_t n = topo.nodeCount();
    int shown = 0;
    for (const Block& b : payload) {
        if (shown == maxBlocks)
            break;
        QString line = blockPhrase(s, b);
        const std::uint64_t chunk = chunkId(s, b);
        if (combines(s.pattern()) && snap.holdings && chunk != kNoChunk) {
            // The sender's partial as it stood at the end of the previous step.
            const std::uint32_t k = snap.holdings->partialSizeAt(t.from, chunk, StepNo{t.step - 1});
            line += k >= n ? QStringLiteral(": complete, the sum of all %1 contributions").arg(n)
                           : QStringLiteral(": the sum of %1 of %2 contributions").arg(k).arg(n);
        }
        text += QStringLiteral("\n  ") + line;
        ++shown;
    }
    if (payload.size() > static_cast<std::size_t>(shown))
        text += QStringLiteral("\n  … and %1 more").arg(payload.size() - static_cast<std::size_t>(shown));
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

QString windowTitleFor(const Scenario& s)
{
    QStringList parts;
    for (const std::string* text : {&s.title, &s.description})
        if (!text->empty())
            parts << QString::fromStdString(*text);
    parts << QStringLiteral("topocast");
    return parts.join(QStringLiteral(" — "));
}

QString snapshotStatus(const Snapshot& snap)
{
    const QString msg = QStringLiteral("%1: %2 steps, TCD %3 — computed in %4 ms")
                            .arg(QString::fromStdString(snap.schedule.topology().displayName()))
                            .arg(snap.stepCount())
                            .arg(snap.metrics.tcd)
                            .arg(snap.computeMs, 0, 'f', 1);
    return snap.note.isEmpty() ? msg : snap.note + QStringLiteral(" — ") + msg;
}

QString exportTitle(const Snapshot& snap)
{
    if (!snap.scenario.title.empty())
        return QString::fromStdString(snap.scenario.title);
    const Schedule& s = snap.schedule;
    return QStringLiteral("%1 on the %2%3")
        .arg(QString::fromStdString(s.algorithm.empty() ? snap.scenario.algorithm : s.algorithm),
             QString::fromStdString(s.topology().displayName()), sourcePhrase(s));
}

QString fileSourceStays(const Snapshot& snap)
{
    return QStringLiteral("%1 is a schedule from a file; its source stays %2")
        .arg(QFileInfo(snap.scheduleFile).fileName(),
             QString::fromStdString(snap.topology().nodeName(snap.schedule.source())));
}

} // namespace topocast::app
