#include "topocast/scenario/scenario.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/source_map.h"
#include "topocast/drawing/layout.h"
#include "topocast/model/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <tuple>

namespace topocast {

Scenario defaultScenario()
{
    Scenario s;
    s.title = "8×8×8 mesh: minimum-TCD broadcast from an eye";
    s.topology = Topology::mesh({8, 8, 8});
    s.algorithm = "cang-wu";
    // E(1) of the 8×8×8 mesh (docs/papers/mesh-tcd.md §2: a_3 = 2, eyes at 2 or 5 in every dimension),
    // where the minimum TCD, OD = 525, is reached.
    s.source = s.topology.idUnchecked({2, 2, 2});
    s.params.set("mode", "optimal");
    return s;
}

std::string topologyText(const Topology& t)
{
    return "the " + t.displayName() + " (" + t.spec() + ")";
}

float scenarioExplode(const Scenario& scenario)
{
    if (scenario.view.explode)
        return std::clamp(static_cast<float>(*scenario.view.explode), 0.0f, kMaxExplode);
    return defaultExplode(scenario.topology);
}

DrawingSettings scenarioDrawing(const Scenario& scenario)
{
    DrawingSettings d = defaultDrawing(scenario.topology);
    d.explode = scenarioExplode(scenario);
    if (!scenario.view.layout)
        return d;
    const std::string& layout = *scenario.view.layout;
    if (scenario.topology.isHypercube() && scenario.topology.dims() <= kFlatHypercubeMaxDims)
        d.hypercube = parseHypercubeDrawing(layout).value_or(d.hypercube);
    if (canDrawPlanes(scenario.topology))
        d.grid = parseGridDrawing(layout).value_or(d.grid);
    return d;
}

int scenarioStartStep(const Scenario& scenario)
{
    return scenario.view.step ? static_cast<int>(std::clamp<long long>(*scenario.view.step, 0, 1 << 30)) : 0;
}

std::string scenarioViewMode(const Scenario& scenario)
{
    return scenario.view.mode.value_or("plain");
}

Scenario compareSide(const Scenario& scenario)
{
    if (!scenario.compare)
        throw Error("this scenario has no compare side (add \"compare\": {…} to the file, or use --compare FILE)");
    checkComparable(scenario, *scenario.compare);
    Scenario b = *scenario.compare;
    b.compare.reset();
    // One network drawn twice: B is drawn as A is (its layout and explode) unless it names its own.
    if (!b.view.layout)
        b.view.layout = scenario.view.layout;
    if (!b.view.explode)
        b.view.explode = scenario.view.explode;
    return b;
}

void checkComparable(const Scenario& a, const Scenario& b)
{
    if (!(a.topology == b.topology))
        throw Error("a comparison needs one network on both sides: A is " + topologyText(a.topology) + ", B is " +
                    topologyText(b.topology) + "; give B the topology " + a.topology.spec() + " too");
}

Scenario withCompare(Scenario a, const Scenario& b)
{
    checkComparable(a, b);
    Scenario side = b;
    side.compare.reset();
    // What compareSide takes from A is not written twice.
    if (side.view.layout == a.view.layout)
        side.view.layout.reset();
    if (side.view.explode == a.view.explode)
        side.view.explode.reset();
    a.compare = std::make_shared<const Scenario>(std::move(side));
    return a;
}

namespace {
bool appliesTo(const std::string& algorithm, const Topology& topo)
{
    return !findAlgorithm(algorithm).whyNot(topo).has_value();
}

bool hasPattern(const std::string& algorithm, const std::string& pattern)
{
    const auto& patterns = findAlgorithm(algorithm).patterns;
    return pattern.empty() || std::find(patterns.begin(), patterns.end(), pattern) != patterns.end();
}

/// The other mode or variant of a paper algorithm, or the paper algorithm a hypercube graph or a
/// baseline is best set against; nullopt when there is none.
std::optional<Scenario> otherAlgorithm(const Scenario& a)
{
    Scenario b = a;
    b.compare.reset();
    b.view = {};
    const std::string mode = a.params.find("mode").value_or("");
    if (a.algorithm == "cang-wu") {
        b.params.set("mode", mode == "paper" ? "optimal" : "paper");
        b.title = mode == "paper" ? "Cang-Wu optimal: the minimum TCD" : "Cang-Wu as the paper writes it";
        return b;
    }
    if (a.algorithm == "tsay-wang") {
        const bool paper = a.params.find("variant").value_or("paper") == "paper";
        b.params.set("variant", paper ? "direct" : "paper");
        b.title = paper ? "Tsay-Wang direct variant" : "Tsay-Wang as the paper writes it";
        return b;
    }
    const std::string pattern = a.params.find("pattern").value_or("");
    const std::vector<std::string> graphs = {"hp", "sbt", "tcbt", "nrsbt", "nesbt", "sbnt", "sbntc"};
    if (std::find(graphs.begin(), graphs.end(), a.algorithm) !=
        graphs.end()) { // a hypercube spanning graph: the same message against SBT, SBT against nESBT/SBnT
        for (const char* other : {"sbt", "nesbt", "sbnt"})
            if (a.algorithm != other && hasPattern(other, pattern)) {
                b.algorithm = other;
                b.title = std::string(other) + " with the same message and ports";
                return b;
            }
        return std::nullopt;
    }
    for (const auto& [other, param, value] :
         {std::tuple{"nesbt", "pattern", "broadcast"}, std::tuple{"cang-wu", "mode", "optimal"},
          std::tuple{"tsay-wang", "variant", "direct"}}) {
        if (a.algorithm == other || !appliesTo(other, a.topology))
            continue;
        b.algorithm = other;
        b.params = Params{};
        b.params.set(param, value);
        b.title = fmt::format("{} {}: the paper algorithm for this network", other, value);
        return b;
    }
    return std::nullopt;
}
} // namespace

Scenario contrastScenario(const Scenario& a)
{
    if (auto b = otherAlgorithm(a))
        return withCompare(a, *b);
    const std::vector<SourceMapMetric> metrics = sourceMapMetrics(a.algorithm, a.params);
    if (metrics.empty() || a.topology.nodeCount() < 2)
        throw Error("no contrast for " + a.algorithm + " on the " + a.topology.displayName() +
                    ": give the compare side yourself");
    const SourceMapMetric metric = std::find(metrics.begin(), metrics.end(), SourceMapMetric::Tcd) != metrics.end()
                                       ? SourceMapMetric::Tcd
                                       : metrics.front();
    SourceMapOptions options;
    options.maxSchedules = 1024;
    const auto sourceMap = computeSourceMap(a.algorithm, a.topology, a.params, metric, options);
    const SourceMapSummary best = summarize(*sourceMap);
    if (best.argmin.empty())
        throw Error("no contrast for " + a.algorithm + " on the " + a.topology.displayName() +
                    ": no source has a schedule");
    Scenario b = a;
    b.compare.reset();
    b.view = {};
    b.source = best.argmin.front();
    b.title = fmt::format("{} from its best source {} ({} {})", a.algorithm, a.topology.nodeName(b.source),
                          metricWords(metric), formatSourceMapValue(best.min, metric, sourceMapTimeUnit(a.algorithm)));
    return withCompare(a, b);
}

Schedule buildScenario(const Scenario& scenario)
{
    return buildSchedule(scenario.algorithm, scenario.topology, scenario.source, scenario.params);
}

} // namespace topocast
