// topocast-cli schedule: build one schedule and print a summary, or the schedule document as JSON.
#include "commands.h"

#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/analysis/validate.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/figures_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/model/limits.h"

#include <algorithm>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>

namespace topocast::cli {

namespace {

constexpr std::size_t kListLimit = 256; // transfers listed in the readable summary

void printSummary(std::ostream& out, const Schedule& s, const Metrics& m, const Validation& v)
{
    const Topology& topo = s.topology();
    out << topo.displayName() << ", " << s.algorithm;
    if (!s.mode.empty())
        out << " (" << s.mode << ")";
    const bool cyclic = std::any_of(s.transfers().begin(), s.transfers().end(),
                                    [](const Transfer& t) { return t.route.kind == RouteKind::Cyclic; });
    out << " " << toString(s.pattern()) << (hasRoot(s.pattern()) ? " from " + topo.nodeName(s.source()) : std::string())
        << ", " << toString(s.portModel()) << ", routing "
        << (cyclic ? std::string("cyclic dimension order (per transfer)") : orderName(s.dimensionOrder)) << "\n";
    out << "steps " << m.steps << "   TCD " << m.tcd << "   contention " << m.contentionUses << "   max link load "
        << m.maxLinkLoad << "   transfers " << m.transfers << "\n";
    const nlohmann::ordered_json info = scheduleInfo(s);
    for (const auto& [key, value] : info.items())
        if (value.is_primitive())
            out << key << " " << value.dump() << "   ";
    if (!info.empty())
        out << "\n";
    // Step contention is reported by the metrics line above; the checker line covers delivery,
    // causality, port limits and routes, so a baseline with contention still reads as correct.
    out << "checker: "
        << (v.ok() ? "every node served, causality, ports and routes valid"
                   : "INVALID (" + std::to_string(v.violationCount) + " violations)")
        << (m.contentionUses
                ? "; step contention on " + std::to_string(m.contentions.size()) + " channel-steps (see below)"
                : "")
        << "\n";
    for (const std::string& line : v.violations)
        out << "  - " << line << "\n";

    const bool list = m.transfers <= kListLimit;
    for (StepNo step{1}; step <= m.steps; ++step) {
        const auto transfers = s.stepTransfers(step);
        out << "step " << step;
        if (step <= s.stepLabels.size() && !s.stepLabels[step - 1].empty())
            out << " [" << s.stepLabels[step - 1] << "]";
        out << ": " << transfers.size() << " transfer" << (transfers.size() == 1 ? "" : "s") << ", TCD "
            << m.tcdPerStep[step - 1] << "\n";
        if (!list)
            continue;
        for (const Transfer& t : transfers)
            out << "  " << topo.nodeName(t.from) << " → " << topo.nodeName(t.to) << "  " << s.hops(t) << " hop"
                << (s.hops(t) == 1 ? "" : "s") << "\n";
    }
    if (!list)
        out << "(" << m.transfers << " transfers; use --json to list them all)\n";
    for (const Contention& c : m.contentions) {
        out << "contention: step " << c.step << ", channel " << topo.channelName(c.channel) << ", "
            << c.transfers.size() << " transfers\n";
    }
}

struct ScheduleCommand {
    ScenarioOptions scenario;
    bool json = false;
    std::string outFile;
};

Command makeCommand()
{
    return Command{
        .name = "schedule",
        .help = "build a schedule and print its summary (or --json)",
        .setup =
            [](CLI::App& sub) {
                auto opts = std::make_shared<ScheduleCommand>();
                opts->scenario.add(sub);
                sub.add_flag("--json", opts->json, "print the schedule document as JSON");
                sub.add_option("--out,-o", opts->outFile,
                               "write the JSON schedule to FILE (atomically) instead of stdout");
                return [opts](Io& io) {
                    const Scenario sc = opts->scenario.resolve();
                    const Schedule s = buildScenario(sc);
                    const Metrics m = computeMetrics(s);
                    if (opts->json && opts->outFile.empty()) {
                        writeScheduleJson(io.out, s, m); // streamed: no copy of the text in memory
                        return 0;
                    }
                    if (!opts->outFile.empty()) {
                        // The file is written atomically from one buffer: ~80 B of text per transfer,
                        // up to twice that while the string grows.
                        checkMemory("the JSON text of " + std::to_string(s.size()) + " transfers for " + opts->outFile,
                                    saturatingMul(s.size(), 160), std::to_string(s.size()) + " transfers × 160 B");
                        std::ostringstream buffer;
                        writeScheduleJson(buffer, s, m);
                        writeFileAtomic(opts->outFile, buffer.str());
                        return 0;
                    }
                    ValidateOptions vo;
                    vo.forbidStepContention = false;
                    printSummary(io.out, s, m, validate(s, vo));
                    return 0;
                };
            },
    };
}

const CommandRegistrar reg{makeCommand()};

} // namespace

} // namespace topocast::cli
