// topocast-cli validate FILE: check a schedule document with the core checker.
#include "commands.h"

#include "topocast/io/schedule_json.h"
#include "topocast/metrics.h"
#include "topocast/validate.h"

#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

struct ValidateCommand {
    std::string file;
    bool json = false;
    bool allowContention = false;
};

const CommandRegistrar reg{Command{
    "validate",
    "check a schedule file: delivery, causality, port limits, routes, step contention",
    [](CLI::App& sub) {
        auto opts = std::make_shared<ValidateCommand>();
        sub.add_option("file", opts->file, "schedule JSON (as written by `schedule --json`)")->required();
        sub.add_flag("--json", opts->json, "print the verdict as JSON");
        sub.add_flag("--allow-contention", opts->allowContention,
                     "do not count step contention as a violation (store-and-forward schedules)");
        return [opts](Io& io) {
            const Schedule s = scheduleFromJson(readJsonFile(opts->file));
            ValidateOptions vo;
            vo.forbidStepContention = !opts->allowContention;
            const Validation v = validate(s, vo);
            const Metrics m = computeMetrics(s);
            if (opts->json) {
                nlohmann::ordered_json o;
                o["file"] = opts->file;
                o["valid"] = v.ok();
                o["violation_count"] = v.violationCount;
                o["violations"] = v.violations;
                o["steps"] = m.steps;
                o["tcd"] = m.tcd;
                o["contention"] = m.contentionUses;
                o["max_link_load"] = m.maxLinkLoad;
                // The file name may not be UTF-8 (any bytes are a valid Linux path).
                io.out << o.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
            } else {
                io.out << opts->file << ": " << s.topology().displayName() << ", " << m.transfers << " transfers, "
                       << m.steps << " steps, TCD " << m.tcd << "\n";
                if (v.ok())
                    io.out << "valid\n";
                else {
                    io.out << "INVALID: " << v.violationCount << " violation" << (v.violationCount == 1 ? "" : "s")
                           << "\n";
                    for (const std::string& line : v.violations)
                        io.out << "  - " << line << "\n";
                    if (v.violations.size() < v.violationCount)
                        io.out << "  … " << v.violationCount - v.violations.size() << " more\n";
                }
            }
            return v.ok() ? 0 : 1;
        };
    },
}};

} // namespace

} // namespace topocast::cli
