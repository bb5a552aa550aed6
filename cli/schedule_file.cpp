#include "schedule_file.h"

#include "msccl_commands.h"

#include "topocast/io/goal.h"
#include "topocast/io/msccl_xml.h"
#include "topocast/io/read_file.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <optional>

namespace topocast::cli {

std::vector<NodeId> goalPlacement(const OpProgram& program, const Topology& topology, const std::string& ranksFile,
                                  const std::string& file)
{
    if (!ranksFile.empty()) {
        ReadFileLimits limits;
        limits.kind = "rank placement";
        limits.maxBytes = std::uint64_t{1} << 24;
        limits.whenPast = [&] { throw Error(ranksFile + ": past 16 MiB; a placement is one node per line"); };
        return parseRankPlacement(readFileText(ranksFile, limits), topology, static_cast<int>(program.ranks),
                                  ranksFile);
    }
    return goalIdentityPlacement(program, topology, file);
}

GoalSchedule readGoalScheduleFile(const std::string& file, const std::string& topology, const std::string& ranksFile,
                                  OpProgram* programOut)
{
    if (topology.empty())
        throw Error(file + " is a GOAL program, which names no network: give --topology (mesh:4x4, torus:4x4, "
                           "hypercube:3, …) with one node per rank");
    const Topology topo = Topology::parse(topology);
    OpProgram program = readGoal(file);
    requireGoalRuns(program, file);
    const std::vector<NodeId> placement = goalPlacement(program, topo, ranksFile, file);
    GoalSchedule out = scheduleFromGoal(program, topo, placement, file);
    if (programOut) {
        for (ProgramOp& op : program.ops)
            if (op.kind == ProgramOp::Kind::Send)
                op.hops = static_cast<std::uint32_t>(topo.distance(placement[op.rank], placement[op.peer]));
        *programOut = std::move(program);
    }
    return out;
}

Schedule readScheduleFile(const std::string& file, const std::string& topology, const std::string& ranks)
{
    if (isGoalPath(file))
        return readGoalScheduleFile(file, topology, ranks).schedule;
    if (isMscclXmlPath(file)) {
        MscclCheck check = checkMscclFile(file, topology, ranks);
        if (!check.valid())
            throw Error(file + " is not a correct " + mscclCollective(check.pattern) + " (" +
                        std::to_string(check.findingCount) + " findings; `topocast-cli validate " + file +
                        " --topology " + topology + "` lists them): a wrong program is neither timed nor exported");
        return std::move(check.schedule);
    }
    if (!ranks.empty())
        throw Error("--ranks places the ranks of an MSCCL XML program or a GOAL file; " + file + " is neither");
    if (isCsvPath(file)) {
        std::optional<Topology> topo;
        if (!topology.empty())
            topo = Topology::parse(topology);
        return readScheduleCsv(file, topo);
    }
    if (!topology.empty())
        throw Error("--topology applies to a CSV schedule, an MSCCL XML program or a GOAL file; " + file +
                    " is read as schedule JSON, which names its topology");
    return scheduleFromJson(readJsonFile(file));
}

} // namespace topocast::cli
