// One source of truth: core computes, the app shows. No file under app/ may compute
// a schedule figure that core has (routes walked for loads, hops summed, schedules built outside
// the Session bridge, the torus wrap rule, informed steps, TCD so far, number formats) or bring back a removed helper.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

struct Rule {
    const char* what;                 ///< what core offers instead
    std::regex pattern;               ///< matched against each line with its // comment removed
    std::vector<std::string> allowed; ///< app/ files (relative to the source root) that may
    const char* example;              ///< a line the app used to hold that the rule catches
};

const std::vector<Rule>& rules()
{
    static const std::vector<Rule> list = {
        {"schedules are built by Session through buildSnapshot (app/session/snapshot.cpp, app/session/session.cpp)",
         std::regex(R"(\b(buildSchedule|buildScenario)\s*\()"),
         {"app/session/snapshot.cpp", "app/session/session.cpp"},
         "        const Schedule s = buildSchedule(sc.algorithm, sc.topology, v, sc.params);"},
        {"metrics and channel loads come from core computeMetrics, once per snapshot (app/session/snapshot.cpp)",
         std::regex(R"(\bcomputeMetrics\s*\()"),
         {"app/session/snapshot.cpp"},
         "    snap.metrics = computeMetrics(snap.schedule, 2000);"},
        {"the source map (TCD source map) and informed steps come from core, once per snapshot "
         "(app/session/snapshot.cpp)",
         std::regex(R"(\b(computeSourceMap|informedSteps|firstInformers)\s*\()"),
         {"app/session/snapshot.cpp"},
         "    const auto first = firstInformers(snap->schedule);"},
        {"channel loads: Snapshot::channelLoads (core ChannelLoadHistory), never a walk over the routes",
         std::regex(R"(\b(forEachChannel|expandRoute|cumulativeChannelLoad|stepChannelLoad)\s*\()"),
         {},
         "            forEachChannel(topo, t.from, t.to, t.route, s.dimensionOrder, [&](ChannelId ch) {"},
        {"TCD: Metrics::tcd / tcdPerStep / the source map, never a sum of hops",
         std::regex(R"(\+=[^;]*\b(hops|routeLength)\s*\(|\brouteLength\s*\()"),
         {},
         "            tcd += static_cast<std::uint64_t>(s.hops(t));"},
        {"the closed-form TCD source map: core computeSourceMap, not AlgorithmInfo::tcdSourceMap",
         std::regex(R"(\.tcdSourceMap\s*\()"),
         {},
         "        return info.tcdSourceMap(sc.topology, sc.params);"},
        {"removed app helpers: core ChannelLoadHistory / Topology::channelBetween / computeSourceMap",
         std::regex(R"(\b(channelLoads|computeTcdMap|hasSeveralTags)\s*\(|(^|[^.>\w])channelBetween\s*\()"),
         {},
         "                const auto ch = channelBetween(topo, e.parent, e.child);"},
        {"the torus wrap rule: Topology::isWrapChannel",
         std::regex(R"(coord\s*\([^;]*\)\s*(==|<|>)[^;]*side\s*\(|==\s*[^;]*side\s*\([^;]*\)\s*-\s*1\b)"),
         {},
         "                wrap = (port.sign > 0 && c == topo.side(port.dim) - 1) || (port.sign < 0 && c == 0);"},
        {"informed steps: core informedSteps(), stored in Snapshot::informedStep",
         std::regex(R"(informedStep\s*\[[^\]]*\]\s*=[^=])"),
         {},
         "        snap.informedStep[t.to] = std::min(snap.informedStep[t.to], t.step);"},
        {"algorithm figures: typed fields of Schedule::figures (core figures.h), never keys of a JSON info object",
         std::regex(R"(\.(info|fileInfo)\b)"),
         {},
         "    const auto& info = snap->schedule.info;"},
        {"divisible-load speedups: DivisibleLoadFigures::speedupByLayers (core figures.h)",
         std::regex(R"(\bdivisibleLoad(Speedup\w*|Timeline|ParamsFrom)\s*\()"),
         {},
         "            const double s = divisibleLoadSpeedup(pr);"},
        {"TCD so far: core cumulativeTcd(), stored in Snapshot::prefixTcd, never a sum over Metrics::tcdPerStep",
         std::regex(R"(\btcdPerStep\w*\s*\[)"),
         {},
         "                            (s - 1 < snap.metrics.tcdPerStep.size() ? snap.metrics.tcdPerStep[s - 1] : 0);"},
        {"numbers: core formatSignificant / formatFixed / formatNumber (numbers.h, on {fmt}), never a hand-made "
         "formatter",
         std::regex(
             R"(QString::number\s*\([^;]*'[gfeGE]'|\bsetprecision\s*\(|\bsnprintf\s*\([^;]*%[-+ #0-9.]*[gfeGE])"),
         {},
         "    return QString::number(v, 'g', 6);"},
    };
    return list;
}

std::string withoutLineComment(const std::string& line)
{
    // Good enough for this code base: no "//" inside the string literals these rules look at.
    const auto at = line.find("//");
    return at == std::string::npos ? line : line.substr(0, at);
}

} // namespace

TEST_CASE("no file under app/ computes what core computes", "[layout][one-source]")
{
    namespace fs = std::filesystem;
    const fs::path root(TOPOCAST_SOURCE_DIR);
    const fs::path app = root / "app";
    REQUIRE(fs::exists(app));
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(app)) {
        const auto ext = entry.path().extension();
        if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
            continue;
        ++files;
        const std::string rel = fs::relative(entry.path(), root).generic_string();
        std::ifstream in(entry.path());
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            const std::string code = withoutLineComment(line);
            for (const Rule& rule : rules()) {
                if (std::find(rule.allowed.begin(), rule.allowed.end(), rel) != rule.allowed.end())
                    continue;
                INFO(rel << ":" << number << ": " << line << "\n  → " << rule.what);
                CHECK_FALSE(std::regex_search(code, rule.pattern));
            }
        }
    }
    CHECK(files > 30);
}

TEST_CASE("the app guard's rules catch the lines the app used to hold", "[layout][one-source]")
{
    // A rule that matches nothing would let the guard above pass without guarding anything.
    for (const Rule& rule : rules()) {
        INFO(rule.what << "\n  example: " << rule.example);
        CHECK(std::regex_search(withoutLineComment(rule.example), rule.pattern));
    }
    // Calls on core's own objects stay allowed.
    const Rule& helpers = rules()[6];
    CHECK_FALSE(std::regex_search("const auto ch = topo.channelBetween(e.parent, e.child);", helpers.pattern));
    CHECK_FALSE(std::regex_search("const ChannelLoads loads = snap.channelLoads.at(step);", helpers.pattern));
    // Plotting the per-step TCD is reading it, not summing it; file names are not numbers.
    CHECK_FALSE(std::regex_search("const std::vector<std::uint64_t>* perStep[2] = {&c.tcdPerStepA, &c.tcdPerStepB};",
                                  rules()[11].pattern));
    CHECK_FALSE(
        std::regex_search(R"(std::snprintf(buf.data(), buf.size(), "frame_%05d.png", index);)", rules()[12].pattern));
    CHECK(std::regex_search("    o << std::fixed << std::setprecision(digits) << value;", rules()[12].pattern));
    CHECK(std::regex_search(R"(    std::snprintf(buf, sizeof buf, "%.4g", v * scale);)", rules()[12].pattern));
}
