// topocast-cli export: write a schedule, its topology or its broadcast tree in a data format
// (schedule JSON, transfer CSV, channel-load CSV, Chrome/Perfetto trace, GraphML, DOT).
#include "commands.h"

#include "topocast/error.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/export.h"
#include "topocast/io/schedule_json.h"

#include <memory>
#include <ostream>
#include <sstream>

namespace topocast::cli {

namespace {

struct ExportCommand {
    ScenarioOptions scenario;
    std::string format = "json";
    std::string graph = "topology";
    std::string outFile;
    bool longLayout = false;
    double stepMicros = 1000.0;
};

std::string exportText(const ExportCommand& opts)
{
    const ExportFormat format = parseExportFormat(opts.format);
    const ExportGraph graph = parseExportGraph(opts.graph);
    const Scenario sc = opts.scenario.resolve();
    const bool graphFormat = format == ExportFormat::GraphML || format == ExportFormat::Dot;

    std::ostringstream out;
    if (graphFormat && graph == ExportGraph::Topology) {
        // The topology alone needs no schedule (and no algorithm).
        if (format == ExportFormat::GraphML)
            writeTopologyGraphml(out, sc.topology);
        else
            writeTopologyDot(out, sc.topology);
        return std::move(out).str();
    }
    if (sc.algorithm.empty())
        throw Error("--format " + opts.format + (graphFormat ? " --graph tree" : "") +
                    " needs a schedule; give --algorithm NAME or a --scenario file");
    const Schedule schedule = buildScenario(sc);
    if (format == ExportFormat::ChannelsCsv)
        writeChannelLoadCsv(out, schedule, opts.longLayout ? ChannelCsvLayout::Long : ChannelCsvLayout::Wide);
    else if (format == ExportFormat::Trace)
        writeChromeTrace(out, schedule, TraceOptions{opts.stepMicros});
    else
        writeExport(out, schedule, format, graph);
    return std::move(out).str();
}

Command makeCommand()
{
    return Command{
        "export",
        "write a schedule as json|csv|channels-csv|trace, or the topology / broadcast tree as graphml|dot",
        [](CLI::App& sub) {
            auto opts = std::make_shared<ExportCommand>();
            opts->scenario.add(sub, false);
            sub.add_option("--format,-f", opts->format,
                           "json (schedule document) | csv (transfers) | channels-csv (per-channel loads) | "
                           "trace (Chrome/Perfetto trace JSON) | graphml | dot")
                ->capture_default_str();
            sub.add_option("--graph", opts->graph,
                           "graphml/dot: topology (nodes and links) or tree (who first informs whom)")
                ->capture_default_str();
            sub.add_option("--out,-o", opts->outFile, "write to FILE atomically (temp + rename) instead of stdout");
            sub.add_flag("--long", opts->longLayout,
                         "channels-csv: one row per (step, channel) instead of one column per step");
            sub.add_option("--step-us", opts->stepMicros, "trace: length of one step in microseconds")
                ->capture_default_str();
            return [opts](Io& io) {
                const std::string text = exportText(*opts);
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
