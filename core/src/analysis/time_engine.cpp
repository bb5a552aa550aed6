// A program of sends, receives and calcs timed by LogGOPSim's rules (the loop is in
// loggp_engine.h).
#include "loggp_engine.h"

#include "topocast/model/limits.h"

namespace topocast {

using namespace loggp;

void loggp::checkProgramMemory(const OpProgram& program)
{
    checkMemory("timing a program of " + std::to_string(program.ops.size()) + " ops on " +
                    std::to_string(program.ranks) + " ranks",
                saturatingAdd(saturatingMul(program.ranks, kEngineBytesPerRank),
                              saturatingMul(program.ops.size() / 2 + 1, kEngineBytesPerTransfer)),
                std::to_string(kEngineBytesPerRank) + " B a rank, " + std::to_string(kEngineBytesPerTransfer) +
                    " B a pair of ops");
}

TimeResult timeProgram(const OpProgram& program, const NetworkModel& network)
{
    checkNetworkModel(network);
    checkProgramMemory(program);
    TimeResult r;
    r.model = "loggp";
    r.network = network;
    r.ops.assign(program.ops.size(), OpTiming{});
    std::vector<std::uint8_t> done(program.ops.size(), 0);
    Engine engine(program.ranks, countOf(program, &ProgramOp::cpu), nicCount(program), Params(network),
                  hasWildcards(program));
    if (!program.pairedByIndex) {
        r.matchedSend.assign(program.ops.size(), TimeResult::kNoOp);
        engine.recordMatches(&r.matchedSend);
    }
    engine.run(program, 0.0, r.ops, done);
    finish(r, engine, program, done);
    return r;
}

} // namespace topocast
