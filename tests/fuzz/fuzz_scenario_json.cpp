// libFuzzer target: scenario JSON (parseJsonText → scenarioFromJson), the round trip through
// toJson, and building the scenario's schedule under the fuzzers' memory budget.
#include "fuzz_common.h"

#include "topocast/io/scenario_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <string_view>

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    topocast::fuzz::initLimits();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace topocast;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Scenario s;
    try {
        s = scenarioFromJson(parseJsonText(text, "fuzz.json"));
    } catch (const Error&) {
        return 0;
    }
    // What was read writes back and reads again as the same scenario.
    const Scenario again = scenarioFromJson(parseJsonText(toJson(s).dump(2), "round-trip"));
    fuzz::require(again == s);
    try {
        const Schedule schedule = buildScenario(s);
        fuzz::require(schedule.finalized());
    } catch (const Error&) {
    }
    return 0;
}
