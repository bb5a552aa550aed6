// topocast-cli html: a scenario as one self-contained web page that plays in any browser, offline
// (the app's narration and layout, three.js inlined; see app/export/webpage.h).
#include "commands.h"
#include "render_options.h"

#include "compare/comparesnapshot.h"
#include "export/webpage.h"
#include "session/snapshot.h"

#include "topocast/io/scenario_file.h"

#include <fmt/format.h>

#include <QFileInfo>

#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

struct HtmlCommand {
    std::string scenario;
    std::string out;
};

int html(const HtmlCommand& o, Io& io)
{
    const Scenario scenario = loadScenario(o.scenario);
    const QString path = QString::fromStdString(o.out);
    std::uint32_t steps = 0;
    std::string network;
    if (scenario.compare) { // both sides, side by side on one timeline
        const app::CompareSnapshotPtr cmp = app::buildCompareSnapshot(scenario);
        app::writeWebPage(*cmp, path);
        steps = cmp->comparison.steps;
        network = cmp->a->topology().displayName() + ", two schedules side by side";
    } else {
        const app::SnapshotPtr snap = app::buildSnapshot(scenario);
        app::writeWebPage(*snap, path);
        steps = snap->stepCount();
        network = snap->topology().displayName();
    }
    io.out << fmt::format(
        "wrote {}: {} steps on the {}, {} KiB; opens in any browser, offline ({}#step=K opens at step K)\n", o.out,
        steps, network, (QFileInfo(path).size() + 1023) / 1024, QFileInfo(path).fileName().toStdString());
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
            return [o](Io& io) { return html(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
