// libFuzzer target: MSCCL XML (parseMscclXml), then the program run and checked on a line of as
// many nodes as it has ranks (up to 64), and a valid program written back out (mscclFromSchedule).
#include "fuzz_common.h"

#include "topocast/analysis/msccl.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/msccl_xml.h"
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
    MscclProgram program;
    try {
        program = parseMscclXml(text, "fuzz.xml");
    } catch (const Error&) {
        return 0;
    }
    // What was read writes back and reads again as the same structure.
    std::ostringstream again;
    writeMscclXml(again, program);
    const MscclProgram reread = parseMscclXml(again.str(), "again.xml");
    fuzz::require(reread.gpus.size() == program.gpus.size() && reread.ranks == program.ranks);
    if (program.ranks < 1 || program.ranks > 64)
        return 0;
    try {
        const MscclCheck check = checkMscclProgram(program, Topology::mesh({program.ranks}));
        fuzz::require(check.findings.size() <= kMaxMscclFindings && check.findings.size() <= check.findingCount);
        for (const MscclFinding& f : check.findings)
            fuzz::require(!f.what.empty());
        if (check.schedule.size() > 0) {
            fuzz::require(check.schedule.finalized());
            fuzz::require(check.schedule.stepCount() == check.steps);
            (void)validate(check.schedule, promisedValidateOptions(check.schedule));
            if (check.valid())
                (void)mscclFromSchedule(check.schedule);
        }
    } catch (const Error&) {
    }
    return 0;
}
