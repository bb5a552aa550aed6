// libFuzzer target: schedule JSON (parseJsonText → scheduleFromJson), then the checker and the
// metrics on whatever parses, and the round trip through writeScheduleJson.
#include "fuzz_common.h"

#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <sstream>
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
    Schedule s;
    try {
        s = scheduleFromJson(parseJsonText(text, "fuzz.json"));
    } catch (const Error&) {
        return 0;
    }
    try {
        ValidateOptions strict;
        (void)validate(s, strict);
        ValidateOptions loose;
        loose.forbidStepContention = false;
        loose.forbidDuplicateReceives = false;
        (void)validate(s, loose);
        const Metrics m = computeMetrics(s);
        fuzz::require(m.transfers == s.size());
        // Written out and read back, the schedule has the same transfers.
        std::ostringstream out;
        writeScheduleJson(out, s, m);
        const Schedule again = scheduleFromJson(parseJsonText(out.str(), "round-trip"));
        fuzz::require(again.size() == s.size());
        for (std::size_t i = 0; i < s.size(); ++i) {
            const Transfer& a = s.transfers()[i];
            const Transfer& b = again.transfers()[i];
            fuzz::require(a.from == b.from && a.to == b.to && a.step == b.step && a.route == b.route &&
                          a.payload == b.payload && a.tag == b.tag);
        }
    } catch (const Error&) {
    }
    return 0;
}
