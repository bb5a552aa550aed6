#include "compare/comparesnapshot.h"

#include "words/narration.h"

#include "topocast/model/error.h"

#include <QFileInfo>
#include <QStringList>

namespace topocast::app {

int CompareSnapshot::sideStep(int i, int step) const
{
    return static_cast<int>(topocast::sideStep(static_cast<std::uint32_t>(std::max(0, step)), side(i).stepCount()));
}

CompareSnapshotPtr pairSnapshots(SnapshotPtr a, SnapshotPtr b)
{
    if (!a || !b)
        throw Error("a comparison needs both sides computed");
    auto c = std::make_shared<CompareSnapshot>();
    c->comparison = compareSchedules(a->schedule, a->metrics, b->schedule, b->metrics);
    c->a = std::move(a);
    c->b = std::move(b);
    return c;
}

CompareSnapshotPtr buildCompareSnapshot(const Scenario& scenario)
{
    const Scenario sideB = compareSide(scenario);
    checkComparable(scenario, sideB);
    SnapshotPtr a, b;
    try {
        a = buildSnapshot(scenario);
    } catch (const Error& e) {
        throw Error(std::string("A: ") + e.what());
    }
    try {
        b = buildSnapshot(sideB, {.previous = a.get()});
    } catch (const Error& e) {
        throw Error(std::string("B: ") + e.what());
    }
    return pairSnapshots(std::move(a), std::move(b));
}

QString sideTitle(int side, const Snapshot& snap)
{
    const Scenario& sc = snap.scenario;
    if (!snap.scheduleFile.isEmpty()) // a schedule read from a file: its name says what it is
        return QStringLiteral("%1: %2 (%3 from a file)")
            .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"), QFileInfo(snap.scheduleFile).fileName(),
                 QString::fromStdString(toString(snap.schedule.pattern())));
    QStringList words{QString::fromStdString(sc.algorithm)};
    for (const char* key : {"mode", "variant", "pattern", "ports"})
        if (auto v = sc.params.find(key); v && !(std::string_view(key) == "pattern" && *v == "broadcast"))
            words << QString::fromStdString(*v) +
                         (std::string_view(key) == "ports" ? QStringLiteral("-port") : QString());
    return QStringLiteral("%1: %2%3")
        .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"), words.join(QLatin1Char(' ')),
             sourcePhrase(snap.schedule));
}

QString sideFigures(const Snapshot& snap)
{
    return QStringLiteral("%1 steps, TCD %2").arg(snap.stepCount()).arg(snap.metrics.tcd);
}

QString sideFigures(const CompareSnapshot& cmp, int side)
{
    QString text = sideFigures(cmp.side(side));
    for (const Comparison::Row& row : cmp.comparison.rows)
        if (row.name == "time (cost model)")
            text += QStringLiteral(", time %1").arg(side == 0 ? row.a : row.b);
    return text;
}

} // namespace topocast::app
