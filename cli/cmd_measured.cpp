// topocast-cli measured FILE [--schedule S]: show a topocast-mpi measured-times file, step by step
// next to the schedule's model figures (transfers, TCD), and check that it belongs to the schedule.
#include "commands.h"

#include "topocast/analysis/cost_model.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/atomic_file.h"
#include "topocast/io/measured_json.h"
#include "topocast/io/network_json.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/text/durations.h"

#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>

namespace topocast::cli {

namespace {

struct MeasuredCommand {
    std::string file;
    std::string schedule;
    std::string networkOut;
    bool json = false;
};

const CommandRegistrar reg{Command{
    .name = "measured",
    .help = "show a topocast-mpi measured-times file beside its schedule's model (steps, TCD)",
    .setup =
        [](CLI::App& sub) {
            auto opts = std::make_shared<MeasuredCommand>();
            sub.add_option("file", opts->file, "measured-times JSON written by `topocast-mpi --out`")->required();
            sub.add_option("--schedule,-s", opts->schedule,
                           "the schedule JSON it was measured on: adds the model's TCD per step and checks the match");
            sub.add_flag("--json", opts->json, "print the measured document as read (normalized JSON)");
            sub.add_option(
                "--network-out", opts->networkOut,
                "with --schedule: write the fitted constants as a network model (JSON, preset \"measured\") that "
                "time, sweep and compare take with --network FILE");
            return [opts](Io& io) {
                if (!opts->networkOut.empty() && opts->schedule.empty())
                    throw Error("--network-out needs --schedule: the fit takes each measured transfer's hops from its "
                                "schedule");
                const MeasuredTimes m = readMeasuredTimes(opts->file);
                std::optional<Schedule> schedule;
                std::optional<Metrics> metrics;
                std::optional<CostFit> fit;
                std::vector<double> model;
                if (!opts->schedule.empty()) {
                    schedule = scheduleFromJson(readJsonFile(opts->schedule));
                    if (const auto why = measuredMismatch(m, *schedule))
                        throw Error(opts->file + " does not belong to " + opts->schedule + ": " + *why);
                    metrics = computeMetrics(*schedule);
                    const auto samples = costSamples(m, *schedule);
                    fit = fitLinearCost(samples);
                    model = modelStepTimes(*schedule, fit->cost, m.bytesPerBlock);
                    if (!opts->networkOut.empty()) {
                        nlohmann::ordered_json doc{
                            {"network", networkJson(networkFromFit(fit->cost))},
                            {"measured", opts->file},
                            {"schedule", opts->schedule},
                            {"fit", {{"samples", fit->samples}, {"rms", {{"value", fit->rms * 1e6}, {"unit", "us"}}}}}};
                        writeFileAtomic(opts->networkOut, doc.dump(2) + "\n");
                    }
                }
                if (opts->json) {
                    io.out << toJson(m).dump(2) << "\n";
                    return m.verified ? 0 : 1;
                }
                io.out << m.topology << " " << m.algorithm << " " << m.pattern << ": " << m.ranks << " ranks on "
                       << m.hosts << " host" << (m.hosts == 1 ? "" : "s") << ", " << m.bytesPerBlock << " B per block, "
                       << m.repeat << " repetitions, " << (m.mode == "async" ? "async (no barriers), " : "stepped, ")
                       << m.mpiLibrary << (m.date.empty() ? "" : ", " + m.date) << "\n";
                io.out << (m.verified ? "verified byte for byte" : "NOT verified (the run reported mismatches)")
                       << (schedule ? "; matches " + opts->schedule : std::string()) << "\n";
                io.out << "step  transfers" << (metrics ? "    TCD" : "") << "        bytes      min_us   median_us"
                       << (fit ? "    model_us" : "") << "\n";
                for (const MeasuredStep& st : m.steps) {
                    io.out << std::setw(4) << st.step << std::setw(11) << st.transfers;
                    if (metrics)
                        io.out << std::setw(7) << metrics->tcdPerStep[st.step - 1];
                    io.out << std::setw(13) << st.bytes << std::setw(12) << formatMicroseconds(st.time.min)
                           << std::setw(12) << formatMicroseconds(st.time.median);
                    if (fit && st.step >= 1 && st.step <= model.size())
                        io.out << std::setw(12) << formatMicroseconds(model[st.step - 1]);
                    io.out << "\n";
                }
                const int prefix = metrics ? 35 : 28; // width of the columns before min_us
                io.out << std::left << std::setw(prefix) << "total (sum of steps)" << std::right << std::setw(12)
                       << formatMicroseconds(m.total.min) << std::setw(12) << formatMicroseconds(m.total.median);
                if (fit) {
                    double sum = 0.0;
                    for (double t : model)
                        sum += t;
                    io.out << std::setw(12) << formatMicroseconds(sum);
                }
                io.out << "\n";
                for (const auto& [label, stats] :
                     {std::pair{"barriers between steps", &m.barriers}, std::pair{"end to end", &m.endToEnd}})
                    if (*stats)
                        io.out << std::left << std::setw(prefix) << label << std::right << std::setw(12)
                               << formatMicroseconds((*stats)->min) << std::setw(12)
                               << formatMicroseconds((*stats)->median) << "\n";
                if (fit)
                    io.out << "model: wormhole t_s + h*t_h + m*t_b, slowest message per step; fitted to "
                           << fit->samples
                           << " samples (non-negative least squares): t_s = " << formatMicroseconds(fit->cost.startup)
                           << " us, t_h = " << formatMicroseconds(fit->cost.perHop) << " us, t_b = " << std::fixed
                           << std::setprecision(3) << fit->cost.perByte * 1e9 << " ns/B, rms "
                           << formatMicroseconds(fit->rms) << " us\n";
                if (fit)
                    for (const std::string& w : confoundedConstants(costSamples(m, *schedule)))
                        io.out << "warning: " << w << "\n";
                if (m.library)
                    io.out << m.library->operation << " (" << m.library->bytes << " B per rank): min "
                           << formatMicroseconds(m.library->time.min) << " us, median "
                           << formatMicroseconds(m.library->time.median) << " us\n";
                return m.verified ? 0 : 1;
            };
        },
}};

} // namespace

} // namespace topocast::cli
