// Every scenario shipped in resources/scenarios/ loads, builds, and passes the checker.
#include "topocast/io/scenario.h"
#include "topocast/metrics.h"
#include "topocast/validate.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace topocast;
namespace fs = std::filesystem;

TEST_CASE("shipped scenarios load, build and validate", "[scenario]")
{
    const fs::path dir = fs::path(TOPOCAST_SOURCE_DIR) / "resources/scenarios";
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".json")
            continue;
        ++count;
        INFO(entry.path().filename().string());
        const Scenario sc = loadScenario(entry.path());
        CHECK_FALSE(sc.title.empty());
        const Schedule s = buildScenario(sc);
        CHECK(s.size() > 0);
        ValidateOptions o;
        o.forbidStepContention = false;  // some presets show contention on purpose
        const Validation v = validate(s, o);
        INFO((v.violations.empty() ? std::string() : v.violations.front()));
        CHECK(v.ok());
    }
    CHECK(count >= 5);
}

TEST_CASE("the default scenario is the 8×8×8 minimum-TCD broadcast from an eye (OD = 525)", "[scenario][cangwu]")
{
    const Scenario sc = defaultScenario();
    const Scenario file = loadScenario(fs::path(TOPOCAST_SOURCE_DIR) / "resources/scenarios/default.json");
    CHECK(file.topology == sc.topology);
    CHECK(file.algorithm == sc.algorithm);
    CHECK(file.source == sc.source);
    CHECK(file.params == sc.params);
    const Schedule s = buildScenario(sc);
    const Metrics m = computeMetrics(s);
    CHECK(m.steps == 9);
    CHECK(m.tcd == 525);  // spec mesh-tcd §6.1: OD for 8×8×8
    CHECK(m.contentionUses == 0);
}
