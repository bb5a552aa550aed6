// topocast-cli html: a scenario as one self-contained web page that plays in any browser, offline
// (the app's narration and layout, three.js inlined; see app/export/webpage.h).
#include "commands.h"
#include "render_options.h"

#include "compare/comparesnapshot.h"
#include "export/webpage.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"

#include "topocast/io/scenario_file.h"
#include "topocast/model/error.h"
#include "topocast/scenario/scenario.h"

#include <fmt/format.h>

#include <QFileInfo>

#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

struct HtmlCommand {
    std::string scenario;
    std::string out;
    std::string mode; ///< empty: the scenario's own
};

/// The colouring of the page: --mode, else the scenario's own.
ViewMode pageMode(const HtmlCommand& o, const Scenario& scenario)
{
    if (!o.mode.empty())
        return *app::parseViewMode(QString::fromStdString(chosenModeName(o.mode, scenario)));
    return app::parseViewMode(QString::fromStdString(scenarioViewMode(scenario))).value_or(ViewMode::Plain);
}

int html(const HtmlCommand& o, Io& io)
{
    const Scenario scenario = loadScenario(o.scenario);
    const ViewMode mode = pageMode(o, scenario);
    const QString path = QString::fromStdString(o.out);
    std::uint32_t steps = 0;
    std::string network;
    if (scenario.compare) { // both sides, side by side on one timeline
        const app::CompareSnapshotPtr cmp = app::buildCompareSnapshot(scenario);
        app::writeWebPage(*cmp, path, mode);
        steps = cmp->comparison.steps;
        network = cmp->a->topology().displayName() + ", two schedules side by side";
    } else {
        const app::SnapshotPtr snap = app::buildSnapshot(scenario);
        app::writeWebPage(*snap, path, mode);
        steps = snap->stepCount();
        network = snap->topology().displayName();
    }
    io.out << fmt::format(
        "wrote {}: {} steps on the {}, mode {}, {} KiB; opens in any browser, offline ({}#step=K opens at step K)\n",
        o.out, steps, network, app::viewModeName(mode).toStdString(), (QFileInfo(path).size() + 1023) / 1024,
        QFileInfo(path).fileName().toStdString());
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "html",
    .help =
        "a scenario as one self-contained web page: the network in 3-D, play, step, slider, narration, hover, predict "
        "mode, a compare scenario's two sides side by side; opens in any browser from disk, nothing fetched",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<HtmlCommand>();
            addScenarioToFileOptions(sub, o->scenario, o->out, "the .html file to write (atomically)");
            sub.add_option("--mode", o->mode,
                           "colouring: plain | contention | heatmap | source-map | layers | trees | data, as the app "
                           "colours the view (trees: the member trees' edges; data: the Data held glyphs) (default: "
                           "the scenario's own, its view.mode; plain where it names none)");
            return [o](Io& io) { return html(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
