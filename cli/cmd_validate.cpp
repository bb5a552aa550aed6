// topocast-cli validate FILE: check a schedule document with the core checker.
#include "commands.h"

#include "envelope.h"
#include "msccl_commands.h"
#include "schedule_file.h"

#include "topocast/analysis/metrics.h"
#include "topocast/analysis/reference.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/goal.h"
#include "topocast/io/schedule_file.h"
#include "topocast/io/schedule_json.h"

#include "topocast/model/error.h"

#include <memory>
#include <optional>
#include <ostream>

namespace topocast::cli {

namespace {

struct ValidateCommand {
    std::string file;
    std::string topology;
    std::string ranks;
    bool json = false;
    bool allowContention = false;
};

/// Largest network for which a schedule JSON is also set against the best known broadcast (the
/// reference builds every applicable algorithm once).
constexpr std::uint32_t kReferenceNodeLimit = 4096;

nlohmann::ordered_json findingsJson(const Schedule& s, const Validation& v)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Finding& f : v.findings) {
        nlohmann::ordered_json j;
        j["rule"] = toString(f.kind);
        j["step"] = f.step;
        nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
        for (NodeId n : f.nodes)
            nodes.push_back(nodeToJson(s.topology(), n));
        j["nodes"] = nodes;
        if (f.channel >= 0)
            j["channel"] = s.topology().channelName(static_cast<ChannelId>(f.channel));
        j["text"] = f.text;
        list.push_back(j);
    }
    return list;
}

nlohmann::ordered_json referenceJson(const std::optional<BroadcastReference>& ref)
{
    if (!ref)
        return nullptr;
    nlohmann::ordered_json r;
    r["min_steps"] = ref->minSteps;
    r["min_steps_reason"] = ref->minStepsReason;
    if (ref->bestTcd) {
        r["best_tcd"] = *ref->bestTcd;
        r["best_tcd_steps"] = ref->bestTcdSteps;
        r["best_tcd_algorithm"] = ref->bestTcdAlgorithm;
    }
    return r;
}

/// One JSON structure for CSV and JSON inputs.
void printJson(const ValidateCommand& opts, const Schedule& s, const Validation& v, const Metrics& m,
               const std::optional<BroadcastReference>& ref, Io& io)
{
    nlohmann::ordered_json o = envelope("topocast-validation", s.topology());
    o["algorithm"] = s.algorithm;
    o["file"] = opts.file;
    o["input"] = toString(scheduleFileKind(opts.file));
    o["pattern"] = toString(s.pattern());
    o["port_model"] = toString(s.portModel());
    o["step_contention"] = s.contentionFree && !opts.allowContention ? "forbidden" : "allowed";
    o["valid"] = v.ok();
    o["violation_count"] = v.violationCount;
    o["violations"] = v.violations;
    o["findings"] = findingsJson(s, v);
    o["best_known"] = referenceJson(ref);
    o["steps"] = m.steps;
    o["tcd"] = m.tcd;
    o["contention"] = m.contentionUses;
    o["max_link_load"] = m.maxLinkLoad;
    // The file name may not be UTF-8 (any bytes are a valid Linux path).
    io.out << o.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

void printText(const ValidateCommand& opts, const Schedule& s, const Validation& v, const Metrics& m,
               const std::optional<BroadcastReference>& ref, Io& io)
{
    const bool csv = scheduleFileKind(opts.file) == ScheduleFileKind::Csv;
    io.out << opts.file << ": " << s.topology().displayName() << ", " << m.transfers << " transfers, " << m.steps
           << " steps, TCD " << m.tcd << "\n";
    if (ref && csv) {
        io.out << "best known: at least " << ref->minSteps << " steps (" << ref->minStepsReason << ")";
        if (ref->bestTcd)
            io.out << "; TCD " << *ref->bestTcd << " in " << ref->bestTcdSteps << " steps by " << ref->bestTcdAlgorithm;
        io.out << "\n";
    }
    if (v.ok()) {
        if (s.contentionFree || opts.allowContention)
            io.out << "valid\n";
        else
            io.out << "valid (step contention not counted: the file's step_contention is allowed, as "
                   << (s.algorithm.empty() ? std::string("its algorithm") : s.algorithm)
                   << " does not promise contention-free steps)\n";
        return;
    }
    io.out << "INVALID: " << v.violationCount << " violation" << (v.violationCount == 1 ? "" : "s") << "\n";
    if (csv) // one line per broken rule: its step, rule and nodes first
        for (const Finding& f : v.findings)
            io.out << "  - " << findingLine(s.topology(), f) << "\n";
    else
        for (const std::string& line : v.violations)
            io.out << "  - " << line << "\n";
    if (v.violations.size() < v.violationCount)
        io.out << "  … " << v.violationCount - v.violations.size() << " more\n";
}

int validateSchedule(const ValidateCommand& opts, const OpenedScheduleFile& f, Io& io);

/// A GOAL program that cannot run to its end (a receive never matched, a send never received, a
/// cycle of dependencies), each finding with its file and line, or one given no --topology: what
/// the program alone says. A program that runs, placed on --topology, is checked as the schedule
/// it makes (validateSchedule).
int validateGoalProgram(const ValidateCommand& opts, const OpProgram& program, const std::vector<std::string>& findings,
                        Io& io)
{
    if (!opts.ranks.empty())
        throw Error("--ranks places ranks on the nodes of --topology; give --topology too");
    if (opts.json) {
        nlohmann::ordered_json o = envelope("topocast-goal-validation");
        o["file"] = opts.file;
        o["input"] = "goal";
        o["valid"] = findings.empty();
        o["ranks"] = program.ranks;
        o["ops"] = program.ops.size();
        o["findings"] = findings;
        io.out << o.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
        return findings.empty() ? 0 : 1;
    }
    io.out << opts.file << ": " << program.ranks << " ranks, " << program.ops.size() << " ops\n";
    if (findings.empty()) {
        io.out << "valid: every receive matched, every send received, no cycle of dependencies (give --topology to "
                  "check it as a schedule placed on a network)\n";
        return 0;
    }
    io.out << "INVALID: it cannot run to its end\n";
    for (const std::string& f : findings)
        io.out << "  - " << f << "\n";
    return 1;
}

int runValidate(const ValidateCommand& opts, Io& io)
{
    if (scheduleFileKind(opts.file) == ScheduleFileKind::Goal) {
        const OpProgram program = readGoal(opts.file);
        const std::vector<std::string> findings = checkGoal(program, opts.file);
        if (!findings.empty() || opts.topology.empty())
            return validateGoalProgram(opts, program, findings, io);
    }
    const ScheduleFileRequest request = scheduleFileRequest(opts.file, opts.topology, opts.ranks, opts.allowContention);
    const OpenedScheduleFile f = openScheduleFile(request);
    if (f.msccl)
        return printMscclVerdict(opts.file, *f.msccl, *request.topology, opts.json, io);
    if (!opts.json)
        for (const std::string& n : f.notes)
            io.out << "note: " << n << "\n";
    return validateSchedule(opts, f, io);
}

int validateSchedule(const ValidateCommand& opts, const OpenedScheduleFile& f, Io& io)
{
    const Schedule& s = f.schedule;
    const Validation& v = f.validation;
    const Metrics m = computeMetrics(s);
    std::optional<BroadcastReference> ref;
    const std::uint32_t nodes = s.topology().nodeCount();
    if (nodes > 0 && s.pattern() == Pattern::Broadcast &&
        (f.kind == ScheduleFileKind::Csv || nodes <= kReferenceNodeLimit))
        ref = broadcastReference(s.topology(), s.source(), s.portModel());
    if (opts.json)
        printJson(opts, s, v, m, ref, io);
    else
        printText(opts, s, v, m, ref, io);
    return v.ok() ? 0 : 1;
}

const CommandRegistrar reg{Command{
    .name = "validate",
    .help = "check a schedule file: delivery, causality, port limits, routes, step contention",
    .setup =
        [](CLI::App& sub) {
            auto opts = std::make_shared<ValidateCommand>();
            sub.add_option(
                   "file", opts->file,
                   "schedule JSON (as written by `schedule --json`), a student's CSV (step,from,to[,route]; "
                   "a .csv file), an MSCCL XML program (a .xml file; needs --topology) or a GOAL program (a .goal "
                   "file; with --topology also checked as the schedule it makes)")
                ->required();
            sub.add_option(
                "--topology,-t", opts->topology,
                "CSV, MSCCL XML and GOAL: the topology (mesh:4x4, torus:5x5, hypercube:4); a CSV may name its own");
            sub.add_option(
                "--ranks", opts->ranks,
                "MSCCL XML and GOAL: rank placement, one node per line, line r for rank r (default: rank r on node r)");
            sub.add_flag("--json", opts->json, "print the verdict as JSON");
            sub.add_flag(
                "--allow-contention", opts->allowContention,
                "do not count step contention as a violation, even where the file promises none (its step_contention; "
                "store-and-forward schedules)");
            return [opts](Io& io) { return runValidate(*opts, io); };
        },
}};

} // namespace

} // namespace topocast::cli
