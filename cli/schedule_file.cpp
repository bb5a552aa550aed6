#include "schedule_file.h"

#include "msccl_commands.h"

#include "topocast/io/msccl_xml.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <optional>

namespace topocast::cli {

Schedule readScheduleFile(const std::string& file, const std::string& topology, const std::string& ranks)
{
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
