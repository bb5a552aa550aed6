// libFuzzer target: a student's schedule CSV (scheduleFromCsv), then the checker with
// its structured findings on whatever parses. The topology comes from the file or, when it names
// none, is the 4×4 mesh.
#include "fuzz_common.h"

#include "topocast/analysis/validate.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/model/error.h"

#include <optional>
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
        std::optional<Topology> given;
        if (!csvTopology(text))
            given = Topology::mesh({4, 4});
        s = scheduleFromCsv(text, "fuzz.csv", given);
    } catch (const Error&) {
        return 0;
    }
    fuzz::require(s.finalized());
    fuzz::require(s.pattern() == Pattern::Broadcast);
    try {
        const Validation v = validate(s);
        // Every violation has its finding, with nodes inside the topology and a step within the schedule.
        fuzz::require(v.findings.size() == v.violations.size());
        for (const Finding& f : v.findings) {
            fuzz::require(f.step <= s.stepCount());
            for (NodeId n : f.nodes)
                fuzz::require(n < s.topology().nodeCount());
            (void)findingLine(s.topology(), f);
        }
    } catch (const Error&) {
    }
    return 0;
}
