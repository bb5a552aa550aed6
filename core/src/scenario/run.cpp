#include "topocast/scenario/run.h"

#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/hypercube.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/source_map_estimate.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stop_token>

namespace topocast {

namespace {

bool isRegistered(const std::string& name)
{
    const auto& list = algorithms();
    return std::any_of(list.begin(), list.end(), [&](const AlgorithmInfo& a) { return a.name == name; });
}

void checkCancelled(const RunProgress* progress)
{
    if (progress && progress->cancelled.load(std::memory_order_relaxed))
        throw RunCancelled();
}

void setStage(RunProgress* progress, RunProgress::Stage stage)
{
    checkCancelled(progress);
    if (progress)
        progress->stage = stage;
}

/// The source map from the source map: the closed form where the algorithm has one, else one
/// schedule per source on all cores. Beyond kBruteForceSourceMapLimit sources computeSourceMap
/// refuses (Error) and the run has no map.
std::vector<double> sourceMap(const Scenario& sc, SourceMapMetric metric, RunProgress* progress)
{
    // RunProgress::cancelled is what a front end sets; the workers stop on a stop_token,
    // requested from the progress callback that runs after each source.
    std::stop_source stop;
    SourceMapOptions options;
    options.maxSchedules = kBruteForceSourceMapLimit;
    options.stop = stop.get_token();
    if (progress) {
        if (progress->cancelled.load(std::memory_order_relaxed))
            stop.request_stop();
        options.progress = [progress, &stop](std::uint32_t done, std::uint32_t total) {
            progress->mapTotal = total;
            progress->mapDone = done;
            if (progress->cancelled.load(std::memory_order_relaxed))
                stop.request_stop();
        };
    }
    if (progress && sc.topology.nodeCount() >= kEstimateSourceMapFrom &&
        sc.topology.nodeCount() <= kBruteForceSourceMapLimit &&
        sourceMapMethod(sc.algorithm, sc.topology, sc.params, metric) == SourceMapMethod::EverySource) {
        const SourceMapEstimate estimate = estimateSourceMap(sc.algorithm, sc.topology, sc.params, metric);
        progress->mapWorkers = estimate.workers;
        progress->mapSeconds = estimate.seconds;
    }
    std::optional<SourceMap> map = computeSourceMap(sc.algorithm, sc.topology, sc.params, metric, options);
    if (!map)
        throw RunCancelled();
    return std::move(map->values);
}

void fillDerived(ScenarioRun& run, const std::vector<Vec3>* positions)
{
    run.metrics = computeMetrics(run.schedule, 2000, run.channelLoads);
    run.drawing = scenarioDrawing(run.scenario);
    if (positions) {
        run.positions = *positions;
    } else {
        DrawingSettings unexploded = run.drawing;
        unexploded.explode = 0.0f;
        run.positions = drawingPositions(run.schedule.topology(), unexploded, 16.0f / 9.0f);
    }
    run.informedStep = informedSteps(run.schedule);
    run.holdings = std::make_shared<const Holdings>(run.schedule);
    run.trees = scheduleTrees(run.schedule);
    run.prefixTcd = cumulativeTcd(run.metrics.tcdPerStep, run.schedule.stepCount());
    // The time on the scenario's network (folded where every rank runs the same program, so a
    // ring on a large torus costs one rank); past a few million transfers, the CLI times it.
    const NetworkModel net = run.scenario.network.value_or(NetworkModel{});
    if (run.schedule.size() > kRunTimedTransfers) {
        run.networkTimeWhy =
            "more than " + std::to_string(kRunTimedTransfers) + " transfers: topocast-cli time times it";
        return;
    }
    try {
        run.networkTime = timeSchedule(run.schedule, net, {.totalOnly = true}).total;
        run.networkBound = timeBound(run.schedule, net);
    } catch (const Error& e) {
        run.networkTime.reset();
        run.networkTimeWhy = e.what();
    }
}

/// The source map the options ask for and the optimum: the algorithm's own figure, else the least
/// TCD over every source (from the map when it shows TCD, else from a map of TCDs of its own).
void fillSourceMap(ScenarioRun& run, const RunOptions& options, bool sameNetwork)
{
    const Scenario& sc = run.scenario;
    const ScenarioRun* previous = options.previous;
    run.sourceMapMetric = options.metric;
    try {
        run.sourceMapMetrics = sourceMapMetrics(sc.algorithm, sc.params);
        run.sourceMapTimeUnit = sourceMapTimeUnit(sc.algorithm);
        run.sourceMap = sameNetwork && previous->sourceMapMetric == options.metric
                            ? previous->sourceMap
                            : sourceMap(sc, options.metric, options.progress);
    } catch (const Error&) {
        run.sourceMap.clear(); // the map is an extra; the schedule itself is fine
    }
    if (const auto* cangWu = run.schedule.figures ? run.schedule.figures->get<CangWuFigures>() : nullptr) {
        run.optimum = cangWu->optimum;
        run.optimumFromFigures = true;
    }
    if (sameNetwork && (options.metric != SourceMapMetric::Tcd || previous->sourceMapMetric != SourceMapMetric::Tcd)) {
        // The TCDs from every source do not change with the source: the previous run's optimum holds.
        run.optimumSources = previous->optimumSources;
        if (!run.optimum)
            run.optimum = previous->optimum;
        return;
    }
    std::vector<double> tcd;
    try {
        tcd = options.metric == SourceMapMetric::Tcd ? run.sourceMap
                                                     : sourceMap(sc, SourceMapMetric::Tcd, options.progress);
    } catch (const Error&) {
        return;
    }
    const auto best = std::min_element(
        tcd.begin(), tcd.end(), [](double a, double b) { return std::isfinite(a) && (!std::isfinite(b) || a < b); });
    if (best == tcd.end() || !std::isfinite(*best) || *best < 0)
        return;
    if (!run.optimum)
        run.optimum = static_cast<std::uint64_t>(*best);
    for (std::size_t v = 0; v < tcd.size(); ++v)
        if (std::isfinite(tcd[v]) && tcd[v] == static_cast<double>(*run.optimum))
            run.optimumSources.push_back(NodeId{static_cast<std::uint32_t>(v)});
}

} // namespace

std::string runStageText(const RunProgress& progress)
{
    switch (progress.stage.load()) {
    case RunProgress::Schedule:
        return "building the schedule";
    case RunProgress::Derived:
        return "metrics, contention and layout";
    case RunProgress::SourceMap:
        if (const std::uint32_t total = progress.mapTotal.load()) {
            std::string text = "source map: source " + std::to_string(std::min(progress.mapDone.load() + 1, total)) +
                               " of " + std::to_string(total);
            if (const unsigned workers = progress.mapWorkers.load()) {
                SourceMapEstimate estimate;
                estimate.seconds = progress.mapSeconds.load();
                estimate.workers = workers;
                text += " (" + estimateText(estimate) + ")";
            }
            return text;
        }
        return "source map";
    default:
        return "done";
    }
}

void runSchedule(Scenario scenario, Schedule schedule, ScenarioRun& out)
{
    schedule.finalize();
    scenario.topology = schedule.topology();
    scenario.source = schedule.source();
    out.scenario = std::move(scenario);
    out.schedule = std::move(schedule);
    fillDerived(out, nullptr);
}

void runScenario(const Scenario& scenario, ScenarioRun& out, const RunOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    out.scenario = scenario;
    Scenario& sc = out.scenario;
    if (options.allowFallback && !isRegistered(sc.algorithm)) {
        const std::string wanted = sc.algorithm;
        sc.algorithm = "recursive-doubling";
        if (findAlgorithm(sc.algorithm).whyNot(sc.topology))
            sc.algorithm = "bfs";
        out.fallback = wanted + " is not available in this build; showing " + sc.algorithm;
    }
    checkCancelled(options.progress);
    out.schedule = buildScenario(sc);
    out.schedule.finalize();
    setStage(options.progress, RunProgress::Derived);
    const ScenarioRun* previous = options.previous;
    const bool sameNetwork = previous && previous->scenario.topology == sc.topology &&
                             previous->scenario.algorithm == sc.algorithm && previous->scenario.params == sc.params;
    const DrawingSettings was = previous ? previous->drawing : DrawingSettings{};
    const DrawingSettings now = scenarioDrawing(sc);
    const bool sameDrawing = sameNetwork && was.hypercube == now.hypercube && was.grid == now.grid;
    fillDerived(out, sameDrawing ? &previous->positions : nullptr);
    setStage(options.progress, RunProgress::SourceMap);
    fillSourceMap(out, options, sameNetwork);
    setStage(options.progress, RunProgress::Done);
    out.computeMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace topocast
