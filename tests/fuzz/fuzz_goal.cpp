// libFuzzer target: GOAL (parseGoal), its checks (checkGoal), the time engine on what parses
// (LogGOPSim's preset; it must end, whatever the dependencies), and the program written back out
// and read again as the same ops.
#include "fuzz_common.h"

#include "topocast/analysis/time_engine.h"
#include "topocast/io/goal.h"
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
    OpProgram program;
    try {
        program = parseGoal(text, "fuzz.goal");
    } catch (const Error&) {
        return 0;
    }
    fuzz::require(program.labels.empty() || program.labels.size() == program.ops.size());
    for (const std::string& finding : checkGoal(program, "fuzz.goal", 5))
        fuzz::require(!finding.empty());
    // (num_ranks may be up to 2^24 with no rank given: writing and timing those is work, not a
    // finding, so both stay with programs of at most 4096 ranks.)
    if (program.ranks > 4096 || program.ops.size() > 20000)
        return 0;
    const TimeResult t = timeProgram(program, networkPreset("loggopsim"));
    fuzz::require(t.rankFinish.size() == program.ranks && t.ops.size() == program.ops.size());
    fuzz::require(t.total >= 0 || !t.unfinished.empty());
    std::ostringstream again;
    writeGoal(again, program);
    const OpProgram reread = parseGoal(again.str(), "again.goal");
    fuzz::require(reread.ops.size() == program.ops.size() && reread.ranks == program.ranks &&
                  reread.dependencies.size() == program.dependencies.size());
    return 0;
}
