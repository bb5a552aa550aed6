// topocast-cli visibility: how many of each step's active nodes (the source, the senders and the
// receivers) the app's default view of a scenario shows (core measureVisibility). --json: the
// envelope, {"steps": [{"step", "active", "visible"}, …], "min_fraction"}; text: a line per step.

#include "commands.h"

#include "envelope.h"

#include "topocast/error.h"
#include "topocast/layout.h"
#include "topocast/visibility.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <ostream>

namespace topocast::cli {

namespace {

struct VisibilityCommand {
    ScenarioOptions scenario;
    std::optional<float> explode;
    int width = 1280;
    int height = 720;
    bool json = false;
};

int runVisibility(const VisibilityCommand& opt, Io& io)
{
    const Scenario sc = opt.scenario.resolve();
    if (opt.width <= 0 || opt.height <= 0)
        throw Error(fmt::format("--width {} --height {}: the viewport needs a positive width and height in pixels",
                                opt.width, opt.height));
    const float explode = opt.explode ? *opt.explode : scenarioExplode(sc);
    const Schedule schedule = buildScenario(sc);
    const VisibilityReport report =
        measureVisibility(schedule, explode, static_cast<float>(opt.width) / static_cast<float>(opt.height));

    if (opt.json) {
        nlohmann::ordered_json doc = scenarioEnvelope("topocast-visibility", sc);
        doc["explode"] = roundedForJson(explode);
        doc["width"] = opt.width;
        doc["height"] = opt.height;
        nlohmann::ordered_json steps = nlohmann::ordered_json::array();
        for (const StepVisibility& s : report.steps)
            steps.push_back({{"step", s.step}, {"active", s.active}, {"visible", s.visible}});
        doc["steps"] = std::move(steps);
        doc["min_fraction"] = report.minFraction;
        io.out << doc.dump() << '\n';
        return 0;
    }
    io.out << fmt::format("{}: {} from {}, explode {:g}, {}×{} view\n", sc.algorithm, schedule.topology().displayName(),
                          schedule.topology().nodeName(schedule.source()), explode, opt.width, opt.height);
    for (const StepVisibility& s : report.steps)
        io.out << fmt::format("step {}: {} of {} active nodes visible\n", s.step, s.visible, s.active);
    io.out << fmt::format("min fraction visible: {:.3f}\n", report.minFraction);
    return 0;
}

const CommandRegistrar reg{Command{
    "visibility",
    "how many of each step's active nodes (source, senders, receivers) the app's default view shows",
    [](CLI::App& sub) {
        auto opt = std::make_shared<VisibilityCommand>();
        opt->scenario.add(sub);
        sub.add_option("--explode", opt->explode,
                       "extra gap between the planes of a 3-D network (0..10; default: the scenario's view.explode or "
                       "the default for its size)");
        sub.add_option("--width", opt->width, "viewport width in pixels (default 1280)");
        sub.add_option("--height", opt->height, "viewport height in pixels (default 720)");
        sub.add_flag("--json", opt->json,
                     "write {format, version, topology, algorithm, parameters, source, explode, width, height, "
                     "\"steps\": [{\"step\", \"active\", \"visible\"}, …], \"min_fraction\"}");
        return [opt](Io& io) { return runVisibility(*opt, io); };
    },
}};

} // namespace

} // namespace topocast::cli
