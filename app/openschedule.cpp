#include "openschedule.h"

#include "topocast/error.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/io/schedule_json.h"

#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>

#include <fstream>
#include <sstream>

namespace topocast::app {

bool scheduleFileNeedsTopology(const QString& path)
{
    const std::string p = path.toStdString();
    if (!isCsvPath(p))
        return false;
    std::ifstream in(p, std::ios::binary);
    if (!in)
        throw Error(p + ": cannot open");
    std::string head(1 << 16, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return !csvTopology(head).has_value();
}

std::optional<Topology> chooseTopology(QWidget* parent, const QString& file, const Topology& suggestion)
{
    QStringList choices{QString::fromStdString(suggestion.spec())};
    for (const char* spec : {"mesh:4x4", "mesh:8x8", "mesh:4x4x4", "torus:8x8", "hypercube:4"})
        if (!choices.contains(QLatin1String(spec)))
            choices << QLatin1String(spec);
    for (;;) {
        bool ok = false;
        const QString text = QInputDialog::getItem(
            parent, QStringLiteral("Topology of the schedule"),
            QStringLiteral("%1 names no topology (a line '# topology: mesh:4x4').\nWhich network is it for?")
                .arg(QFileInfo(file).fileName()),
            choices, 0, true, &ok);
        if (!ok)
            return std::nullopt;
        try {
            return Topology::parse(text.trimmed().toStdString());
        } catch (const Error& e) {
            QMessageBox::warning(parent, QStringLiteral("Topology"), QString::fromStdString(e.what()));
        }
    }
}

OpenedSchedulePtr openScheduleFile(const QString& path, const std::optional<Topology>& topology)
{
    const std::string p = path.toStdString();
    Schedule schedule = isCsvPath(p) ? readScheduleCsv(p, topology) : scheduleFromJson(readJsonFile(p));
    schedule.finalize();
    auto opened = std::make_shared<OpenedSchedule>();
    opened->file = path;
    opened->validation = validate(schedule);
    if (schedule.pattern() == Pattern::Broadcast && schedule.parts == 1)
        opened->reference = broadcastReference(schedule.topology(), schedule.source(), schedule.portModel());
    Scenario scenario;
    scenario.title = QFileInfo(path).fileName().toStdString();
    scenario.algorithm = schedule.algorithm.empty() ? std::string("student") : schedule.algorithm;
    auto snap = std::const_pointer_cast<Snapshot>(snapshotFromSchedule(scenario, std::move(schedule)));
    snap->scheduleFile = path;
    snap->note = QStringLiteral("%1 (from a file)").arg(QFileInfo(path).fileName());
    opened->snapshot = snap;
    return opened;
}

} // namespace topocast::app
