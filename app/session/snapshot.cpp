#include "session/snapshot.h"

#include "topocast/model/error.h"
#include "topocast/model/limits.h"

namespace topocast::app {

SnapshotPtr snapshotFromSchedule(Scenario scenario, Schedule schedule)
{
    checkViewMemory(schedule.topology());
    auto snap = std::make_shared<Snapshot>();
    runSchedule(std::move(scenario), std::move(schedule), *snap);
    return snap;
}

std::uint64_t viewMemoryBytes(const Topology& topology)
{
    return saturatingAdd(saturatingMul(topology.nodeCount(), kViewBytesPerNode),
                         saturatingMul(topology.channelCount(), kViewBytesPerChannel));
}

void checkViewMemory(const Topology& topology)
{
    const std::uint64_t nodes = topology.nodeCount();
    const std::uint64_t channels = topology.channelCount();
    const std::uint64_t need = viewMemoryBytes(topology);
    if (need <= kViewMemoryLimit)
        return;
    throw Error("the 3-D view of the " + topology.displayName() + " would need " + formatBytes(need) + " (" +
                std::to_string(nodes) + " nodes × " + std::to_string(kViewBytesPerNode) + " B + " +
                std::to_string(channels) + " channels × " + std::to_string(kViewBytesPerChannel) +
                " B); the view's limit is " + formatBytes(kViewMemoryLimit) +
                " — topocast-cli schedules, checks and exports networks this large");
}

QString buildStageText(const RunProgress& progress)
{
    return QString::fromStdString(runStageText(progress));
}

SnapshotPtr buildSnapshot(const Scenario& scenario, const RunOptions& options)
{
    checkViewMemory(scenario.topology);
    auto snap = std::make_shared<Snapshot>();
    runScenario(scenario, *snap, options);
    snap->note = QString::fromStdString(snap->fallback);
    return snap;
}

} // namespace topocast::app
