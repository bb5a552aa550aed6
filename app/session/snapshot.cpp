#include "session/snapshot.h"

#include "topocast/analysis/time_engine.h"

#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/hypercube.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/landscape.h"
#include "topocast/analysis/landscape_estimate.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stop_token>

namespace topocast::app {

namespace {

bool isRegistered(const std::string& name)
{
    const auto& list = algorithms();
    return std::any_of(list.begin(), list.end(), [&](const AlgorithmInfo& a) { return a.name == name; });
}

void checkCancelled(const BuildControl* control)
{
    if (control && control->cancelled.load(std::memory_order_relaxed))
        throw BuildCancelled();
}

/// The source map from core's landscape: the closed form where the algorithm has one, else one
/// schedule per source on all cores. Beyond kBruteForceTcdMapLimit sources core refuses (Error)
/// and buildSnapshot shows no map.
std::vector<double> landscapeMap(const Scenario& sc, LandscapeMetric metric, BuildControl* control)
{
    // BuildControl::cancelled is what Session and the tests set; the workers stop on a
    // stop_token, requested from the progress callback that runs after each source.
    std::stop_source stop;
    LandscapeOptions options;
    options.maxSchedules = kBruteForceTcdMapLimit;
    options.stop = stop.get_token();
    if (control) {
        if (control->cancelled.load(std::memory_order_relaxed))
            stop.request_stop();
        options.progress = [control, &stop](std::uint32_t done, std::uint32_t total) {
            control->mapTotal = total;
            control->mapDone = done;
            if (control->cancelled.load(std::memory_order_relaxed))
                stop.request_stop();
        };
    }
    if (control && sc.topology.nodeCount() >= kEstimateSourceMapFrom &&
        sc.topology.nodeCount() <= kBruteForceTcdMapLimit &&
        landscapeMethod(sc.algorithm, sc.topology, sc.params, metric) == LandscapeMethod::EverySource) {
        const LandscapeEstimate estimate = estimateLandscape(sc.algorithm, sc.topology, sc.params, metric);
        control->mapWorkers = estimate.workers;
        control->mapSeconds = estimate.seconds;
    }
    std::optional<Landscape> map = computeLandscape(sc.algorithm, sc.topology, sc.params, metric, options);
    if (!map)
        throw BuildCancelled();
    return std::move(map->values);
}

void fillDerived(Snapshot& snap, const std::vector<Vec3>* positions)
{
    snap.metrics = computeMetrics(snap.schedule, 2000, snap.channelLoads);
    snap.drawing = scenarioDrawing(snap.scenario);
    if (positions) {
        snap.positions = *positions;
    } else {
        DrawingSettings unexploded = snap.drawing;
        unexploded.explode = 0.0f;
        snap.positions = drawingPositions(snap.schedule.topology(), unexploded, 16.0f / 9.0f);
    }
    snap.informedStep = informedSteps(snap.schedule);
    snap.holdings = std::make_shared<const Holdings>(snap.schedule);
    snap.trees = scheduleTrees(snap.schedule);
    snap.prefixTcd = cumulativeTcd(snap.metrics.tcdPerStep, snap.schedule.stepCount());
    // The time on the scenario's network (folded where every rank runs the same program, so a
    // ring on a large torus costs one rank); past a few million transfers, the CLI times it.
    const NetworkModel net = snap.scenario.network.value_or(NetworkModel{});
    constexpr std::size_t kTimedTransfers = std::size_t{1} << 22;
    if (snap.schedule.size() > kTimedTransfers) {
        snap.networkTimeWhy = "more than " + std::to_string(kTimedTransfers) + " transfers: topocast-cli time times it";
        return;
    }
    try {
        snap.networkTime = timeSchedule(snap.schedule, net, {.totalOnly = true}).total;
        snap.networkBound = timeBound(snap.schedule, net);
    } catch (const Error& e) {
        snap.networkTime.reset();
        snap.networkTimeWhy = e.what();
    }
}

} // namespace

SnapshotPtr snapshotFromSchedule(Scenario scenario, Schedule schedule)
{
    checkViewMemory(schedule.topology());
    auto snap = std::make_shared<Snapshot>();
    schedule.finalize();
    scenario.topology = schedule.topology();
    scenario.source = schedule.source();
    snap->scenario = std::move(scenario);
    snap->schedule = std::move(schedule);
    fillDerived(*snap, nullptr);
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

QString buildStageText(const BuildControl& control)
{
    switch (control.stage.load()) {
    case BuildControl::Schedule:
        return QStringLiteral("building the schedule");
    case BuildControl::Derived:
        return QStringLiteral("metrics, contention and layout");
    case BuildControl::TcdMap:
        if (const std::uint32_t total = control.mapTotal.load()) {
            QString text = QStringLiteral("source map: source %1 of %2")
                               .arg(std::min(control.mapDone.load() + 1, total))
                               .arg(total);
            if (const unsigned workers = control.mapWorkers.load()) {
                LandscapeEstimate estimate;
                estimate.seconds = control.mapSeconds.load();
                estimate.workers = workers;
                text += QStringLiteral(" (%1)").arg(QString::fromStdString(estimateText(estimate)));
            }
            return text;
        }
        return QStringLiteral("source map");
    default:
        return QStringLiteral("done");
    }
}

SnapshotPtr buildSnapshot(const Scenario& scenarioIn, bool allowFallback, const Snapshot* previous,
                          BuildControl* control, LandscapeMetric metric)
{
    const auto start = std::chrono::steady_clock::now();
    checkViewMemory(scenarioIn.topology);
    auto snap = std::make_shared<Snapshot>();
    snap->scenario = scenarioIn;
    Scenario& sc = snap->scenario;
    if (allowFallback && !isRegistered(sc.algorithm)) {
        const std::string wanted = sc.algorithm;
        sc.algorithm = "recursive-doubling";
        if (findAlgorithm(sc.algorithm).whyNot(sc.topology))
            sc.algorithm = "bfs";
        snap->note = QString::fromStdString(wanted + " is not available in this build; showing " + sc.algorithm);
    }
    checkCancelled(control);
    snap->schedule = buildScenario(sc);
    snap->schedule.finalize();
    checkCancelled(control);
    if (control)
        control->stage = BuildControl::Derived;
    const bool sameNetwork = previous && previous->scenario.topology == sc.topology &&
                             previous->scenario.algorithm == sc.algorithm && previous->scenario.params == sc.params;
    const DrawingSettings was = previous ? previous->drawing : DrawingSettings{};
    const DrawingSettings now = scenarioDrawing(sc);
    const bool sameDrawing = sameNetwork && was.hypercube == now.hypercube && was.grid == now.grid;
    fillDerived(*snap, sameDrawing ? &previous->positions : nullptr);
    checkCancelled(control);
    if (control)
        control->stage = BuildControl::TcdMap;

    snap->landscapeMetric = metric;
    try {
        snap->landscapeMetrics = landscapeMetrics(sc.algorithm, sc.params);
        snap->landscapeTimeUnit = landscapeTimeUnit(sc.algorithm);
        if (sameNetwork && previous->landscapeMetric == metric)
            snap->landscape = previous->landscape;
        else
            snap->landscape = landscapeMap(sc, metric, control);
    } catch (const Error&) {
        snap->landscape.clear(); // the map is an extra; the schedule itself is fine
    }
    // A landscape is NaN where the algorithm has no schedule from that node: kNoTcd in the TCD map
    // (converting NaN to an integer is undefined behaviour; clang's UBSan caught it).
    auto tcdValues = [](const std::vector<double>& tcd) {
        std::vector<std::uint64_t> out(tcd.size(), Snapshot::kNoTcd);
        for (std::size_t v = 0; v < tcd.size(); ++v)
            if (std::isfinite(tcd[v]) && tcd[v] >= 0)
                out[v] = static_cast<std::uint64_t>(tcd[v]);
        return out;
    };
    if (metric == LandscapeMetric::Tcd) {
        snap->tcdMap = tcdValues(snap->landscape);
    } else if (sameNetwork && !previous->tcdMap.empty()) {
        snap->tcdMap = previous->tcdMap;
    } else {
        // The TCD map also gives the optimum TCD (the metrics table's gap), whatever the map shows.
        try {
            const std::vector<double> tcd = landscapeMap(sc, LandscapeMetric::Tcd, control);
            snap->tcdMap = tcdValues(tcd);
        } catch (const Error&) {
            snap->tcdMap.clear();
        }
    }
    const CangWuFigures* cangWu = snap->schedule.figures ? snap->schedule.figures->get<CangWuFigures>() : nullptr;
    if (cangWu) {
        snap->optimum = cangWu->optimum;
        snap->optimumFromFigures = true;
    } else if (!snap->tcdMap.empty() &&
               *std::min_element(snap->tcdMap.begin(), snap->tcdMap.end()) != Snapshot::kNoTcd) {
        snap->optimum = *std::min_element(snap->tcdMap.begin(), snap->tcdMap.end());
    }

    checkCancelled(control);
    if (control)
        control->stage = BuildControl::Done;
    snap->computeMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return snap;
}

std::vector<NodeState> nodeStates(const Snapshot& snap, std::uint32_t step)
{
    std::vector<NodeState> out(snap.informedStep.size(), NodeState::Uninformed);
    for (std::size_t v = 0; v < out.size(); ++v) {
        const std::uint32_t at = snap.informedStep[v];
        // at == 0: it holds data before step 1 (every node of an all-gather or all-to-all).
        if (at < step || at == 0)
            out[v] = NodeState::Informed;
        else if (at == step && step > 0)
            out[v] = NodeState::Receiving;
    }
    // Allgather, alltoall, reduce-scatter, allreduce: every node starts with data, none is the source.
    if (snap.schedule.source() < out.size() && hasRoot(snap.schedule.pattern()))
        out[snap.schedule.source()] = NodeState::Source;
    return out;
}

} // namespace topocast::app
