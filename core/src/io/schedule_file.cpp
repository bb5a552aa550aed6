#include "topocast/io/schedule_file.h"

#include "topocast/analysis/goal_schedule.h"
#include "topocast/io/goal.h"
#include "topocast/io/msccl_xml.h"
#include "topocast/io/read_file.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"

#include <algorithm>
#include <utility>

namespace topocast {

namespace {

/// The largest rank placement file (one node per line).
constexpr std::uint64_t kMaxPlacementBytes = std::uint64_t{1} << 24;

std::string needsNetwork(const std::string& file, const char* what)
{
    return file + " is " + what +
           ", which names no network: give the network it runs on, one node per rank (mesh:4x4, torus:4x4, "
           "hypercube:3, …; --topology on the command line)";
}

/// Where the ranks of a program of `ranks` ranks sit: the placement file, or empty (rank r on node r).
std::vector<NodeId> readPlacement(const ScheduleFileRequest& request, const Topology& topology, int ranks)
{
    return request.ranks.empty() ? std::vector<NodeId>{} : readRankPlacement(request.ranks, topology, ranks);
}

void openMsccl(const ScheduleFileRequest& request, OpenedScheduleFile& out)
{
    const std::string file = request.file.string();
    if (!request.topology)
        throw Error(needsNetwork(file, "an MSCCL XML program"));
    const MscclProgram program = readMscclXml(request.file);
    const std::vector<NodeId> placement = readPlacement(request, *request.topology, program.ranks);
    MscclCheck check = checkMscclProgram(program, *request.topology, placement);
    out.validation = mscclValidation(check, *request.topology, placement);
    out.schedule = std::exchange(check.schedule, Schedule{}); // kept once: the file's schedule
    out.options = promisedValidateOptions(out.schedule);
    out.msccl = std::move(check);
}

void openGoal(const ScheduleFileRequest& request, OpenedScheduleFile& out)
{
    const std::string file = request.file.string();
    if (!request.topology)
        throw Error(needsNetwork(file, "a GOAL program"));
    const Topology& topo = *request.topology;
    OpProgram program = readGoal(request.file);
    requireGoalRuns(program, file);
    std::vector<NodeId> placement = readPlacement(request, topo, static_cast<int>(program.ranks));
    if (placement.empty())
        placement = goalIdentityPlacement(program, topo, file);
    GoalSchedule g = scheduleFromGoal(program, topo, placement, file);
    for (ProgramOp& op : program.ops)
        if (op.kind == ProgramOp::Kind::Send)
            op.hops = static_cast<std::uint32_t>(topo.distance(placement[op.rank], placement[op.peer]));
    out.schedule = std::move(g.schedule);
    out.notes = std::move(g.notes);
    out.program = std::move(program);
}

} // namespace

std::string toString(ScheduleFileKind kind)
{
    switch (kind) {
    case ScheduleFileKind::Json:
        return "json";
    case ScheduleFileKind::Csv:
        return "csv";
    case ScheduleFileKind::MscclXml:
        return "msccl-xml";
    case ScheduleFileKind::Goal:
        return "goal";
    }
    return "json";
}

ScheduleFileKind scheduleFileKind(const std::filesystem::path& path)
{
    if (isMscclXmlPath(path))
        return ScheduleFileKind::MscclXml;
    if (isGoalPath(path))
        return ScheduleFileKind::Goal;
    if (isCsvPath(path))
        return ScheduleFileKind::Csv;
    return ScheduleFileKind::Json;
}

OpenedScheduleFile openScheduleFile(const ScheduleFileRequest& request)
{
    const std::string file = request.file.string();
    OpenedScheduleFile out;
    out.kind = scheduleFileKind(request.file);
    const bool program = out.kind == ScheduleFileKind::MscclXml || out.kind == ScheduleFileKind::Goal;
    if (!program && !request.ranks.empty())
        throw Error("a rank placement places the ranks of an MSCCL XML or a GOAL program; " + file + " is neither");
    switch (out.kind) {
    case ScheduleFileKind::MscclXml:
        openMsccl(request, out);
        return out; // its findings are the verdict
    case ScheduleFileKind::Goal:
        openGoal(request, out);
        break;
    case ScheduleFileKind::Csv:
        out.schedule = readScheduleCsv(request.file, request.topology);
        break;
    case ScheduleFileKind::Json:
        if (request.topology)
            throw Error("a network is given to a CSV schedule, an MSCCL XML or a GOAL program; " + file +
                        " is read as schedule JSON, which names its topology");
        out.schedule = scheduleFromJson(readJsonFile(request.file));
        break;
    }
    out.schedule.finalize();
    out.options = promisedValidateOptions(out.schedule);
    if (request.allowContention)
        out.options.forbidStepContention = false;
    out.validation = validate(out.schedule, out.options);
    return out;
}

std::vector<NodeId> readRankPlacement(const std::filesystem::path& file, const Topology& topology, int ranks)
{
    const std::string name = file.string();
    ReadFileLimits limits;
    limits.kind = "rank placement";
    limits.maxBytes = kMaxPlacementBytes;
    limits.whenPast = [&] { throw Error(name + ": past 16 MiB; a placement is one node per line"); };
    return parseRankPlacement(readFileText(file, limits), topology, ranks, name);
}

std::optional<std::string> cannotShow(const OpenedScheduleFile& opened, const std::string& file)
{
    if (opened.schedule.size() > 0 || !(opened.msccl || opened.program))
        return std::nullopt;
    if (opened.msccl) {
        // What keeps it from running: the first finding about its structure, else the first
        // deadlock (a dependency cycle, a receive never sent); none: it sends nothing.
        const auto& findings = opened.msccl->findings;
        auto first = std::find_if(findings.begin(), findings.end(),
                                  [](const MscclFinding& f) { return f.kind == MscclFindingKind::Structure; });
        const bool structure = first != findings.end();
        if (!structure)
            first = std::find_if(findings.begin(), findings.end(),
                                 [](const MscclFinding& f) { return f.kind == MscclFindingKind::Deadlock; });
        if (first != findings.end()) {
            const std::size_t n = opened.msccl->findingCount;
            return file + " cannot run: " + std::to_string(n) + " problem" + (n == 1 ? "" : "s") +
                   (structure ? " with its structure" : "") + ", the first: rank " + std::to_string(first->rank) +
                   ": " + first->what;
        }
    }
    return file + " sends nothing: there is no schedule in it";
}

Validation mscclValidation(const MscclCheck& check, const Topology& topology, std::span<const NodeId> placement)
{
    Validation v;
    v.violationCount = check.findingCount;
    for (const MscclFinding& m : check.findings) {
        Finding f;
        switch (m.kind) {
        case MscclFindingKind::Incomplete:
            f.kind = FindingKind::NeverReached;
            break;
        case MscclFindingKind::Data:
            f.kind = FindingKind::WrongData;
            break;
        default:
            f.kind = FindingKind::BadTransfer;
        }
        f.step = StepNo{m.step.value_or(0)};
        const auto rank = static_cast<std::size_t>(m.rank);
        if (m.rank >= 0 && !placement.empty() && rank < placement.size())
            f.nodes.push_back(placement[rank]);
        else if (m.rank >= 0 && placement.empty() && rank < topology.nodeCount())
            f.nodes.push_back(NodeId{static_cast<std::uint32_t>(m.rank)});
        f.text = mscclFindingText(m);
        v.violations.push_back(f.text);
        v.findings.push_back(std::move(f));
    }
    return v;
}

} // namespace topocast
