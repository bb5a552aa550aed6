#include "schedule_file.h"

#include "msccl_commands.h"

#include "topocast/io/goal.h"
#include "topocast/model/error.h"

namespace topocast::cli {

ScheduleFileRequest scheduleFileRequest(const std::string& file, const std::string& topology, const std::string& ranks,
                                        bool allowContention)
{
    // The command line's own words for its flags; the rest is openScheduleFile's.
    const ScheduleFileKind kind = scheduleFileKind(file);
    const bool program = kind == ScheduleFileKind::MscclXml || kind == ScheduleFileKind::Goal;
    if (program && topology.empty())
        throw Error(file + " is " + (kind == ScheduleFileKind::Goal ? "a GOAL program" : "MSCCL XML") +
                    ", which names no network: give --topology (mesh:4x4, torus:4x4, hypercube:3, …) with one node "
                    "per rank");
    if (!program && !ranks.empty())
        throw Error("--ranks places the ranks of an MSCCL XML or a GOAL program; " + file + " is neither");
    if (kind == ScheduleFileKind::Json && !topology.empty())
        throw Error("--topology applies to a CSV schedule, an MSCCL XML or a GOAL program; " + file +
                    " is read as schedule JSON, which names its topology");
    ScheduleFileRequest request;
    request.file = file;
    if (!topology.empty())
        request.topology = Topology::parse(topology);
    request.ranks = ranks;
    request.allowContention = allowContention;
    return request;
}

std::vector<NodeId> goalPlacement(const OpProgram& program, const Topology& topology, const std::string& ranksFile,
                                  const std::string& file)
{
    if (!ranksFile.empty())
        return readRankPlacement(ranksFile, topology, static_cast<int>(program.ranks));
    return goalIdentityPlacement(program, topology, file);
}

Schedule readScheduleFile(const std::string& file, const std::string& topology, const std::string& ranks)
{
    OpenedScheduleFile opened = openScheduleFile(scheduleFileRequest(file, topology, ranks));
    if (opened.msccl && !opened.msccl->valid())
        throw Error(file + " is not a correct " + mscclCollective(opened.msccl->pattern) + " (" +
                    std::to_string(opened.msccl->findingCount) + " findings; `topocast-cli validate " + file +
                    " --topology " + topology + "` lists them): a wrong program is neither timed nor exported");
    if (const auto why = cannotShow(opened, file))
        throw Error(*why);
    return std::move(opened.schedule);
}

} // namespace topocast::cli
