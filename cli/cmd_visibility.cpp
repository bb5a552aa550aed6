// topocast-cli visibility: how many of each step's active nodes (the source, the senders and the
// receivers) the app's default view of a scenario shows, and how large it draws them (core
// measureView, as the app measures its view). --json: the envelope, {"layout", "explode", "width",
// "height", "steps": [{"step", "active", "visible"}, …], "min_fraction", "node_px", "span_x",
// "span_y", "label_px", "label_overlaps", "labels_shown", "labels_hidden"}; text: a line per step
// and the sizes.

#include "commands.h"

#include "envelope.h"

#include "topocast/drawing/drawing.h"
#include "topocast/drawing/label_layout.h"
#include "topocast/drawing/layout.h"
#include "topocast/drawing/visibility.h"
#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace topocast::cli {

namespace {

struct VisibilityCommand {
    ScenarioOptions scenario;
    std::optional<float> explode;
    std::string layout;
    int width = 1280;
    int height = 720;
    int dpi = 96;
    bool json = false;
};

int runVisibility(const VisibilityCommand& opt, Io& io)
{
    const Scenario sc = opt.scenario.resolve();
    if (opt.width <= 0 || opt.height <= 0)
        throw Error(fmt::format("--width {} --height {}: the viewport needs a positive width and height in pixels",
                                opt.width, opt.height));
    DrawingSettings drawing = scenarioDrawing(sc);
    if (opt.explode) {
        if (!(*opt.explode >= 0.0f && *opt.explode <= kMaxExplode))
            throw Error(fmt::format("--explode {:g} is out of range; it must be between 0 and {:g} (extra gap between "
                                    "the planes of a 3-D network, in node spacings)",
                                    *opt.explode, kMaxExplode));
        drawing.explode = *opt.explode;
    }
    if (!opt.layout.empty()) {
        const auto grid = parseGridDrawing(opt.layout);
        const auto cube = parseHypercubeDrawing(opt.layout);
        if (grid && canDrawPlanes(sc.topology))
            drawing.grid = *grid;
        else if (cube && sc.topology.isHypercube() && sc.topology.dims() <= kFlatHypercubeMaxDims)
            drawing.hypercube = *cube;
        else
            throw Error(fmt::format("--layout {}: the {} is drawn as {}", opt.layout, sc.topology.displayName(),
                                    canDrawPlanes(sc.topology) ? "tower or planes"
                                    : sc.topology.isHypercube() && sc.topology.dims() <= kFlatHypercubeMaxDims
                                        ? "cube or flat"
                                        : "it is (no other layout)"));
    }
    const float explode = explodes(sc.topology, drawing) ? drawing.explode : 0.0f;
    const std::string_view layout = canDrawPlanes(sc.topology) ? gridDrawingName(drawing.grid)
                                    : sc.topology.isHypercube() && sc.topology.dims() <= kFlatHypercubeMaxDims
                                        ? hypercubeDrawingName(drawing.hypercube)
                                        : std::string_view("default");
    const Schedule schedule = buildScenario(sc);
    if (opt.dpi < 24 || opt.dpi > 1200)
        throw Error(fmt::format("--dpi {}: the picture's resolution must be 24 to 1200 dots per inch", opt.dpi));
    const VisibilityReport report = measureView(schedule, drawing, opt.width, opt.height, labelPixelHeight(opt.dpi));

    if (opt.json) {
        nlohmann::ordered_json doc = scenarioEnvelope("topocast-visibility", sc);
        doc["layout"] = layout;
        doc["explode"] = roundedForJson(explode);
        doc["unit"] = "px"; // width, height, node_px and label_px: pixels of the output
        doc["width"] = opt.width;
        doc["height"] = opt.height;
        nlohmann::ordered_json steps = nlohmann::ordered_json::array();
        for (const StepVisibility& s : report.steps)
            steps.push_back({{"step", s.step}, {"active", s.active}, {"visible", s.visible}});
        doc["steps"] = std::move(steps);
        doc["min_fraction"] = report.minFraction;
        doc["node_px"] = roundedForJson(report.nodePx);
        doc["span_x"] = roundedForJson(report.spanX);
        doc["span_y"] = roundedForJson(report.spanY);
        doc["label_px"] = report.labelPx > 0 ? nlohmann::ordered_json(report.labelPx) : nlohmann::ordered_json();
        doc["label_overlaps"] = report.labelOverlaps;
        doc["labels_shown"] = report.labelsShown;
        doc["labels_hidden"] = report.labelsHidden;
        io.out << doc.dump() << '\n';
        return 0;
    }
    io.out << fmt::format("{} {}: {}{}, layout {}, explode {:g}, {}×{} view\n", sc.algorithm,
                          toString(schedule.pattern()), schedule.topology().displayName(),
                          hasRoot(schedule.pattern()) ? " from " + schedule.topology().nodeName(schedule.source()) : "",
                          layout, explode, opt.width, opt.height);
    for (const StepVisibility& s : report.steps)
        io.out << fmt::format("step {}: {} of {} active nodes visible\n", s.step, s.visible, s.active);
    io.out << fmt::format("min fraction visible: {:.3f}\n", report.minFraction);
    io.out << fmt::format(
        "nodes {:.1f} px across (median), drawing spans {:.2f} of the width and {:.2f} of the height\n", report.nodePx,
        report.spanX, report.spanY);
    io.out << fmt::format("labels: {} shown ({} px text), {} left out for want of room, {} overlapping\n",
                          report.labelsShown, report.labelPx, report.labelsHidden, report.labelOverlaps);
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "visibility",
    .help = "how many of each step's active nodes (source, senders, receivers) the app's default view shows",
    .setup =
        [](CLI::App& sub) {
            auto opt = std::make_shared<VisibilityCommand>();
            opt->scenario.add(sub);
            sub.add_option(
                "--explode", opt->explode,
                "extra gap between the planes of a 3-D network (0..10; default: the scenario's view.explode or "
                "the default for its size)");
            sub.add_option(
                "--layout", opt->layout,
                "how the network is drawn: tower or planes (3-D meshes and tori), cube or flat (hypercubes of "
                "n ≤ 6); default: the scenario's view.layout, else planes and cube");
            sub.add_option("--width", opt->width, "viewport width in pixels (default 1280)");
            sub.add_option("--height", opt->height, "viewport height in pixels (default 720)");
            sub.add_option("--dpi", opt->dpi,
                           "the picture's resolution, for the label text's size (default 96, a screen; a handout page "
                           "is 300): labels are as tall on paper as on screen");
            sub.add_flag(
                "--json", opt->json,
                "write {format, version, topology, algorithm, parameters, source, layout, explode, width, height, "
                "\"steps\": [{\"step\", \"active\", \"visible\"}, …], \"min_fraction\", \"node_px\", "
                "\"span_x\", \"span_y\", \"label_px\", \"label_overlaps\", \"labels_shown\", \"labels_hidden\"}");
            return [opt](Io& io) { return runVisibility(*opt, io); };
        },
}};

} // namespace

} // namespace topocast::cli
