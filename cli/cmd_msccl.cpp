// MSCCL XML on the command line: `validate FILE.xml --topology T` checks a program placed on a
// network, `import FILE.xml --topology T --out S.json` writes it as a topocast schedule; `import`
// takes a GOAL program (LogGOPSim's format) the same way.
#include "commands.h"
#include "msccl_commands.h"

#include "envelope.h"
#include "schedule_file.h"

#include "topocast/analysis/import_findings.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/msccl.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/msccl_xml.h"
#include "topocast/io/read_file.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"

#include <algorithm>
#include <memory>
#include <ostream>
#include <sstream>
#include <utility>

namespace topocast::cli {

namespace {

nlohmann::ordered_json mscclFindingsJson(const MscclCheck& check)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const MscclFinding& f : check.findings) {
        nlohmann::ordered_json j;
        j["kind"] = std::string(toString(f.kind));
        j["step"] = f.step ? nlohmann::ordered_json(*f.step) : nlohmann::ordered_json(nullptr);
        j["rank"] = f.rank;
        j["chunk"] = f.chunk ? nlohmann::ordered_json(*f.chunk) : nlohmann::ordered_json(nullptr);
        j["what"] = f.what;
        if (f.tb >= 0) {
            j["tb"] = f.tb;
            j["s"] = f.s;
        }
        list.push_back(j);
    }
    return list;
}

} // namespace

ImportFindings importFindingsOf(const MscclCheck& check, const std::string& file)
{
    ImportFindings out{file, mscclCollective(check.pattern), check.findingCount, {}, {}};
    const nlohmann::ordered_json structured = mscclFindingsJson(check);
    for (std::size_t i = 0; i < check.findings.size(); ++i) {
        const MscclFinding& f = check.findings[i];
        out.texts.push_back((f.step ? "step " + std::to_string(*f.step) + ", " : std::string()) + mscclFindingText(f));
        out.structured.push_back(structured[i].dump());
    }
    return out;
}

int printMscclVerdict(const std::string& file, const MscclCheck& check, const Topology& topo, bool json, Io& io)
{
    if (json) {
        nlohmann::ordered_json o = envelope("topocast-msccl-validation", topo);
        o["file"] = file;
        o["valid"] = check.valid();
        o["collective"] = mscclCollective(check.pattern);
        o["ranks"] = check.ranks;
        o["chunk_transfers"] = check.chunkTransfers;
        o["steps"] = check.steps;
        o["max_hops"] = check.maxHops;
        o["finding_count"] = check.findingCount;
        o["findings"] = mscclFindingsJson(check);
        io.out << o.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
        return check.valid() ? 0 : 1;
    }
    io.out << file << ": " << mscclCollective(check.pattern) << " of " << check.ranks << " ranks on "
           << topo.displayName() << ", " << check.chunkTransfers << " chunk transfers in " << check.steps
           << " steps, longest send " << check.maxHops << " hop" << (check.maxHops == 1 ? "" : "s") << "\n";
    if (check.valid()) {
        io.out << "valid\n";
        return 0;
    }
    io.out << "INVALID: " << check.findingCount << " finding" << (check.findingCount == 1 ? "" : "s") << "\n";
    for (const MscclFinding& f : check.findings)
        io.out << "  - " << (f.step ? "step " + std::to_string(*f.step) + ", " : std::string()) << mscclFindingText(f)
               << "\n";
    if (check.findings.size() < check.findingCount)
        io.out << "  … " << check.findingCount - check.findings.size() << " more\n";
    return 1;
}

namespace {

struct ImportCommand {
    std::string file, topology, ranks, out;
    bool force = false; ///< write a program found wrong, its findings recorded in the file
};

/// `import FILE.goal`: the program as a schedule of point-to-point messages, its time beside the
/// program's (LogGOPSim's defaults), and what the schedule leaves out of it.
int runImportGoal(const ImportCommand& opts, Io& io)
{
    const OpenedScheduleFile g = openScheduleFile(scheduleFileRequest(opts.file, opts.topology, opts.ranks));
    if (const auto why = cannotShow(g, opts.file))
        throw Error(*why + "; nothing written");
    const Schedule& s = g.schedule;
    const OpProgram& program = *g.program;
    std::ostringstream text;
    writeScheduleJson(text, s, computeMetrics(s));
    writeFileAtomic(opts.out, text.str());
    io.out << opts.out << ": " << s.size() << " transfers in " << s.stepCount()
           << " steps (a program of point-to-point "
           << "messages, " << program.ranks << " ranks on the " << s.topology().displayName()
           << "; a step is a level of its dependencies)\n";
    const NetworkModel net = networkPreset("loggopsim");
    const double schedule = timeSchedule(s, net, {.totalOnly = true}).total, file = timeProgram(program, net).total;
    io.out << "time with LogGOPSim's defaults (LogGP): the schedule " << formatSeconds(schedule * 1e-9) << ", the file "
           << formatSeconds(file * 1e-9)
           << (schedule == file ? std::string(" (the same)")
               : g.notes.empty()
                   ? " (they differ: a schedule's rank starts its sends one after another, in the order they ran)"
                   : " (they differ: the notes below say what the schedule leaves out)")
           << "\n";
    for (const std::string& n : g.notes)
        io.out << "note: " << n << "\n";
    return 0;
}

int runImport(const ImportCommand& opts, Io& io)
{
    if (scheduleFileKind(opts.file) == ScheduleFileKind::Goal)
        return runImportGoal(opts, io);
    if (scheduleFileKind(opts.file) != ScheduleFileKind::MscclXml)
        throw Error(opts.file + " is neither MSCCL XML (.xml) nor a GOAL program (.goal); import reads those two");
    OpenedScheduleFile opened = openScheduleFile(scheduleFileRequest(opts.file, opts.topology, opts.ranks));
    const MscclCheck& check = *opened.msccl;
    if (const auto why = cannotShow(opened, opts.file)) {
        for (const MscclFinding& f : check.findings)
            io.err << "topocast-cli: " << mscclFindingText(f) << "\n";
        throw Error(*why + "; nothing written");
    }
    const std::string findings = std::to_string(check.findingCount) + " finding" + (check.findingCount == 1 ? "" : "s");
    if (!check.valid() && !opts.force) {
        // A wrong program written as a schedule would read as a right one: its moves are the same,
        // whether a receive adds or copies is in the program only. Nothing is written.
        io.out << opts.file << ": the program is not a correct " << mscclCollective(check.pattern) << ": " << findings
               << "; nothing written (--force writes it with its findings recorded, so validate and topocast-mpi "
                  "judge the file as this check did)\n";
        for (const MscclFinding& f : check.findings)
            io.out << "  - " << (f.step ? "step " + std::to_string(*f.step) + ", " : std::string())
                   << mscclFindingText(f) << "\n";
        return 1;
    }
    Schedule schedule = std::move(opened.schedule);
    if (!check.valid())
        recordImportFindings(schedule, importFindingsOf(check, opts.file));
    std::ostringstream text;
    writeScheduleJson(text, schedule, computeMetrics(schedule));
    writeFileAtomic(opts.out, text.str());
    io.out << opts.out << ": " << schedule.size() << " transfers in " << check.steps << " steps ("
           << mscclCollective(check.pattern) << ", " << check.ranks << " ranks)\n";
    if (!check.valid()) {
        io.out << "the program is not a correct " << mscclCollective(check.pattern) << ": " << findings
               << ", recorded in " << opts.out << " (validate and topocast-mpi report them)\n";
        return 1;
    }
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "import",
    .help = "read an MSCCL XML or a GOAL program, place it on a network and write it as a topocast schedule JSON",
    .setup =
        [](CLI::App& sub) {
            auto opts = std::make_shared<ImportCommand>();
            sub.add_option(
                   "file", opts->file,
                   "MSCCL XML (from the MSCCL tools, TACOS, TE-CCL or `export --format msccl-xml`) or a GOAL program "
                   "(.goal: LogGOPSim's schedule generator, ATLAHS, `export --format goal`)")
                ->required();
            sub.add_option("--topology,-t", opts->topology,
                           "the network, one node per rank (torus:4x4, hypercube:3, …)")
                ->required();
            sub.add_option("--ranks", opts->ranks,
                           "rank placement: one node per line, line r for rank r (default: rank r on node r)");
            sub.add_option("--out,-o", opts->out, "the schedule JSON to write (atomically)")->required();
            sub.add_flag(
                "--force", opts->force,
                "write a program found wrong too, its findings recorded in the file (validate and topocast-mpi "
                "then report them); without it such a program writes nothing (exit 1)");
            return [opts](Io& io) { return runImport(*opts, io); };
        },
}};

} // namespace

} // namespace topocast::cli
