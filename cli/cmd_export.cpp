// topocast-cli export: write a schedule, its topology or its broadcast tree in a data format
// (schedule JSON, transfer CSV, channel-load CSV, Chrome/Perfetto trace, GraphML, DOT).
#include "commands.h"
#include "msccl_commands.h"
#include "schedule_file.h"

#include "topocast/analysis/cost_model.h"
#include "topocast/analysis/import_findings.h"
#include "topocast/analysis/msccl.h"
#include "topocast/analysis/time_engine.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/export.h"
#include "topocast/io/goal.h"
#include "topocast/io/measured_json.h"
#include "topocast/io/msccl_xml.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"

#include <cmath>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

namespace topocast::cli {

namespace {

struct ExportCommand {
    ScenarioOptions scenario;
    std::string file; ///< a schedule file to export instead of a scenario's schedule
    std::string format = "json";
    std::string graph = "topology";
    std::string outFile;
    bool longLayout = false;
    double stepMicros = 1000.0;
    std::string times;        ///< trace: fixed, model or measured (empty: measured with --measured, else fixed)
    std::string measuredFile; ///< trace: topocast-mpi's measured times of this schedule
    std::string size;         ///< goal: the collective's size with its unit (empty: the scenario's network's)
};

/// Seconds as µs to the picosecond (72.758, not 72.75799999999916).
double micros(double seconds)
{
    return std::round(seconds * 1e12) / 1e6;
}

/// The trace's step lengths in µs: fixed (--step-us each), the wormhole model's (cost_model.h: its
/// default constants, or the ones fitted to --measured FILE with its block size), or the measured
/// medians of FILE.
TraceOptions traceOptions(const ExportCommand& opts, const Schedule& schedule)
{
    TraceOptions o;
    o.stepMicros = opts.stepMicros;
    const std::string times = !opts.times.empty() ? opts.times : opts.measuredFile.empty() ? "fixed" : "measured";
    if (times != "fixed" && times != "model" && times != "measured")
        throw Error("--times '" + times +
                    "' is not known; use fixed (every step --step-us long), model (the "
                    "wormhole model's time of each step) or measured (the measured medians of --measured FILE)");
    if (times == "fixed") {
        if (!opts.measuredFile.empty())
            throw Error("--measured FILE gives step times; use it with --times measured or --times model, not fixed");
        return o;
    }
    std::optional<MeasuredTimes> measured;
    if (!opts.measuredFile.empty()) {
        measured = readMeasuredTimes(opts.measuredFile);
        if (const auto why = measuredMismatch(*measured, schedule))
            throw Error(opts.measuredFile + " does not belong to this schedule: " + *why);
    } else if (times == "measured") {
        throw Error("--times measured needs --measured FILE (topocast-mpi's measured times of this schedule)");
    }
    o.timesFrom = times;
    if (times == "measured") {
        for (const MeasuredStep& step : measured->steps)
            o.stepTimes.push_back(micros(step.time.median));
        return o;
    }
    LinearCost cost = kDefaultWormholeCost;
    std::uint64_t bytesPerBlock = kDefaultBytesPerBlock;
    if (measured) {
        cost = fitLinearCost(costSamples(*measured, schedule)).cost;
        bytesPerBlock = measured->bytesPerBlock;
    }
    for (double seconds : modelStepTimes(schedule, cost, bytesPerBlock))
        o.stepTimes.push_back(micros(seconds));
    return o;
}

/// The schedule to export: the file's (schedule JSON, a CSV, or an MSCCL XML program placed on
/// --topology), else the scenario's. Throws Error where neither names one.
Schedule exportSchedule(const ExportCommand& opts, const std::string& format)
{
    if (opts.file.empty()) {
        const Scenario sc = opts.scenario.resolve();
        if (sc.algorithm.empty())
            throw Error("--format " + format +
                        " needs a schedule; give a schedule file, --algorithm NAME or a --scenario file");
        return buildScenario(sc);
    }
    Schedule s = readScheduleFile(opts.file, opts.scenario.topologyText(), "");
    // A file that records the findings of the program it came from keeps them (json); any other
    // format would drop them and make a correct-looking file of a wrong program.
    if (const std::optional<ImportFindings> found = importFindings(s); found && format != "json")
        throw Error(opts.file + " was imported from " + found->file + ", which the " + found->collective +
                    " check found wrong (" + std::to_string(found->count) + " finding" +
                    (found->count == 1 ? "" : "s") + ", `validate " + opts.file + "` lists them): as " + format +
                    " it would read as a correct program; mend " + found->file +
                    " and import it again (--format json keeps the findings)");
    return s;
}

/// The schedule as an MSCCL program (one rank per node; msccl.h).
std::string mscclText(const ExportCommand& opts, std::ostream& err)
{
    const Schedule schedule = exportSchedule(opts, "msccl-xml");
    std::ostringstream out;
    writeMscclXml(out, mscclFromSchedule(schedule));
    if (const std::size_t waiting = mscclWaitingSends(schedule))
        err << "note: " << waiting << " of " << schedule.size() << " sends follow a step in which their node waits; an "
            << "MSCCL program cannot wait without a message, so the executor runs them sooner (`import` shows the "
            << "steps it takes)\n";
    return std::move(out).str();
}

/// The scenario's schedule as a GOAL program (LogGOPSim's format; analysis/time_engine.h's
/// scheduleProgram: a send waits for the receives that brought its blocks).
std::string goalText(const ExportCommand& opts)
{
    NetworkModel net = opts.file.empty() ? opts.scenario.resolve().network.value_or(NetworkModel{}) : NetworkModel{};
    if (!opts.size.empty()) {
        net.message = parseBytes(opts.size, "--size");
        if (net.message < 1)
            throw Error("--size must be at least 1B");
    }
    const Schedule schedule = exportSchedule(opts, "goal");
    std::ostringstream out;
    out << "// " << schedule.algorithm << " " << toString(schedule.pattern()) << " on the "
        << schedule.topology().displayName() << ", rank r on node r, M = " << formatSize(net.message)
        << " (topocast-cli export --format goal)\n";
    writeGoal(out, scheduleProgram(schedule, net));
    return std::move(out).str();
}

std::string exportText(const ExportCommand& opts, std::ostream& err)
{
    if (opts.format == "msccl-xml")
        return mscclText(opts, err);
    if (opts.format == "goal")
        return goalText(opts);
    if (!opts.size.empty())
        throw Error("--size gives a GOAL program's message size; use it with --format goal");
    ExportFormat format{};
    try {
        format = parseExportFormat(opts.format);
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + ", goal or msccl-xml");
    }
    const ExportGraph graph = parseExportGraph(opts.graph);
    const bool graphFormat = format == ExportFormat::GraphML || format == ExportFormat::Dot;

    std::ostringstream out;
    if (graphFormat && graph == ExportGraph::Topology && opts.file.empty()) {
        // The topology alone needs no schedule (and no algorithm).
        const Scenario sc = opts.scenario.resolve();
        if (format == ExportFormat::GraphML)
            writeTopologyGraphml(out, sc.topology);
        else
            writeTopologyDot(out, sc.topology);
        return std::move(out).str();
    }
    const Schedule schedule = exportSchedule(opts, opts.format + (graphFormat ? " --graph tree" : ""));
    if (graphFormat && graph == ExportGraph::Topology) {
        if (format == ExportFormat::GraphML)
            writeTopologyGraphml(out, schedule.topology());
        else
            writeTopologyDot(out, schedule.topology());
        return std::move(out).str();
    }
    if (format == ExportFormat::ChannelsCsv)
        writeChannelLoadCsv(out, schedule, opts.longLayout ? ChannelCsvLayout::Long : ChannelCsvLayout::Wide);
    else if (format == ExportFormat::Trace)
        writeChromeTrace(out, schedule, traceOptions(opts, schedule));
    else
        writeExport(out, schedule, format, graph);
    return std::move(out).str();
}

Command makeCommand()
{
    return Command{
        .name = "export",
        .help = "write a schedule as json|csv|channels-csv|trace|msccl-xml|goal, or the topology / broadcast tree as "
                "graphml|dot",
        .setup =
            [](CLI::App& sub) {
                auto opts = std::make_shared<ExportCommand>();
                sub.add_option(
                    "file", opts->file,
                    "a schedule file to export — schedule JSON, a CSV (with --topology where it names none) or an "
                    "MSCCL XML program (with --topology) — instead of the scenario's schedule");
                opts->scenario.add(sub, false);
                sub.add_option("--format,-f", opts->format,
                               "json (schedule document) | csv (transfers) | channels-csv (per-channel loads) | "
                               "trace (Chrome/Perfetto trace JSON) | msccl-xml (an MSCCL program, rank r on node r) | "
                               "goal (LogGOPSim's "
                               "GOAL, rank r on node r) | graphml | dot")
                    ->capture_default_str();
                sub.add_option("--graph", opts->graph,
                               "graphml/dot: topology (nodes and links) or tree (who first informs whom)")
                    ->capture_default_str();
                sub.add_option(
                    "--size", opts->size,
                    "goal: the collective's size M with its unit, as nccl-tests counts it (8B, 1MiB); default the "
                    "scenario's network's, else 1KiB");
                sub.add_option("--out,-o", opts->outFile, "write to FILE atomically (temp + rename) instead of stdout");
                sub.add_flag("--long", opts->longLayout,
                             "channels-csv: one row per (step, channel) instead of one column per step");
                sub.add_option("--step-us", opts->stepMicros,
                               "trace with --times fixed: length of one step in microseconds")
                    ->capture_default_str();
                sub.add_option(
                    "--times", opts->times,
                    "trace: each step's length from fixed (--step-us), model (the wormhole model of "
                    "cost_model.h: t_s + h·t_h + m·t_b per message, the slowest per step; its default constants, "
                    "or fitted to --measured) or measured (the medians of --measured FILE); default measured "
                    "with --measured, else fixed");
                sub.add_option(
                    "--measured", opts->measuredFile,
                    "trace: measured times of this schedule (topocast-mpi --out), for --times measured or model");
                return [opts](Io& io) {
                    if (!opts->file.empty() && !opts->scenario.algorithmText().empty())
                        throw Error("export writes a schedule file (" + opts->file +
                                    ") or a scenario's schedule (--algorithm " + opts->scenario.algorithmText() +
                                    "), not both");
                    const std::string text = exportText(*opts, io.err);
                    if (opts->outFile.empty())
                        io.out << text;
                    else
                        writeFileAtomic(opts->outFile, text);
                    return 0;
                };
            },
    };
}

const CommandRegistrar reg{makeCommand()};

} // namespace

} // namespace topocast::cli
