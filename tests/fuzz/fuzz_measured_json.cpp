// libFuzzer target: the measured-times document (parseJsonText → measuredFromJson, what
// readMeasuredTimes does with a file's text), the invariants the reader promises, the round trip
// through toJson, and measuredMismatch against the schedule of resources/measured/ (Cang-Wu,
// paper mode, 4×4 mesh from (1,0)), so the seed from that folder matches it.
#include "fuzz_common.h"

#include "topocast/algorithms/registry.h"
#include "topocast/io/measured_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <cmath>
#include <string_view>

namespace {

const topocast::Schedule& measuredSchedule()
{
    using namespace topocast;
    static const Schedule s = buildSchedule("cang-wu", Topology::mesh({4, 4}), NodeId{1}, Params{{"mode", "paper"}});
    return s;
}

void requireStats(const topocast::TimeStats& t)
{
    using topocast::fuzz::require;
    require(std::isfinite(t.min) && std::isfinite(t.median) && t.min >= 0 && t.min <= t.median);
    for (double x : t.samples)
        require(std::isfinite(x) && x >= 0);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    topocast::fuzz::initLimits();
    (void)measuredSchedule();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace topocast;
    using fuzz::require;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    MeasuredTimes m;
    try {
        m = measuredFromJson(parseJsonText(text, "fuzz.json"));
    } catch (const Error&) {
        return 0;
    }
    // One entry per step, in order from 1, times that are seconds ≥ 0 with min ≤ median.
    require(m.steps.size() == m.stepCount);
    for (std::size_t i = 0; i < m.steps.size(); ++i) {
        require(m.steps[i].step == i + 1);
        requireStats(m.steps[i].time);
    }
    requireStats(m.total);
    for (const MeasuredTransfer& t : m.transfers) {
        require(t.step >= 1 && t.step <= m.stepCount);
        requireStats(t.time);
    }
    if (m.library)
        requireStats(m.library->time);
    // What was read writes back and reads again as the same document.
    const auto doc = toJson(m);
    const MeasuredTimes again = measuredFromJson(parseJsonText(doc.dump(), "round-trip"));
    require(toJson(again).dump() == doc.dump());
    // Matching it to a schedule never throws.
    (void)measuredMismatch(m, measuredSchedule());
    return 0;
}
