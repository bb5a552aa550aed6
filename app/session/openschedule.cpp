#include "session/openschedule.h"

#include "topocast/io/goal.h"
#include "topocast/io/msccl_xml.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/io/schedule_file.h"
#include "topocast/model/error.h"

#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace topocast::app {

namespace {

/// A CSV names its topology in its first lines, if at all.
bool csvNamesTopology(const std::string& p)
{
    std::ifstream in(p, std::ios::binary);
    if (!in)
        throw Error(p + ": cannot open");
    std::string head(1 << 16, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return csvTopology(head).has_value();
}

} // namespace

TopologyNeed scheduleFileTopology(const QString& path, const Topology& current)
{
    const std::string p = path.toStdString();
    const QString name = QFileInfo(path).fileName();
    TopologyNeed need;
    const ScheduleFileKind kind = scheduleFileKind(p);
    if (kind == ScheduleFileKind::MscclXml) {
        const int ranks = readMscclXml(p).ranks;
        if (ranks > 0 && static_cast<std::uint64_t>(ranks) == current.nodeCount()) {
            need.given = current;
            return need;
        }
        need.choose = true;
        need.question = QStringLiteral("%1 is an MSCCL program of %2 ranks; the %3 has %4 nodes.\n"
                                       "On which network of %2 nodes should it run (rank r on node r)?")
                            .arg(name)
                            .arg(ranks)
                            .arg(QString::fromStdString(current.displayName()))
                            .arg(current.nodeCount());
        return need;
    }
    if (kind == ScheduleFileKind::Goal) {
        const std::uint32_t ranks = readGoal(p).ranks;
        if (ranks <= current.nodeCount()) {
            need.given = current;
            return need;
        }
        need.choose = true;
        need.question = QStringLiteral("%1 is a GOAL program of %2 ranks; the %3 has %4 nodes.\n"
                                       "On which network of at least %2 nodes should it run (rank r on node r)?")
                            .arg(name)
                            .arg(ranks)
                            .arg(QString::fromStdString(current.displayName()))
                            .arg(current.nodeCount());
        return need;
    }
    if (kind == ScheduleFileKind::Csv && !csvNamesTopology(p)) {
        need.choose = true;
        need.question =
            QStringLiteral("%1 names no topology (a line '# topology: mesh:4x4').\nWhich network is it for?").arg(name);
    }
    return need;
}

std::optional<Topology> chooseTopology(QWidget* parent, const QString& question, const Topology& suggestion)
{
    QStringList choices{QString::fromStdString(suggestion.spec())};
    for (const char* spec : {"mesh:4x4", "mesh:8x8", "mesh:4x4x4", "torus:8x8", "hypercube:4"})
        if (!choices.contains(QLatin1String(spec)))
            choices << QLatin1String(spec);
    for (;;) {
        bool ok = false;
        const QString text =
            QInputDialog::getItem(parent, QStringLiteral("Topology of the schedule"), question, choices, 0, true, &ok);
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
    ScheduleFileRequest request;
    request.file = p;
    request.topology = topology;
    OpenedScheduleFile file = topocast::openScheduleFile(request);
    if (const auto why = cannotShow(file, p))
        throw Error(*why);
    auto opened = std::make_shared<OpenedSchedule>();
    opened->file = path;
    opened->validation = std::move(file.validation);
    Schedule schedule = std::move(file.schedule);
    const std::vector<std::string> notes = std::move(file.notes);
    if (schedule.pattern() == Pattern::Broadcast && schedule.parts == 1)
        opened->reference = broadcastReference(schedule.topology(), schedule.source(), schedule.portModel());
    Scenario scenario;
    scenario.title = QFileInfo(path).fileName().toStdString();
    scenario.algorithm = schedule.algorithm.empty() ? std::string("student") : schedule.algorithm;
    auto snap = std::const_pointer_cast<Snapshot>(snapshotFromSchedule(scenario, std::move(schedule)));
    snap->scheduleFile = path;
    snap->note = QStringLiteral("%1 (from a file)").arg(QFileInfo(path).fileName());
    for (const std::string& n : notes)
        snap->note += QStringLiteral("; ") + QString::fromStdString(n);
    opened->snapshot = snap;
    return opened;
}

} // namespace topocast::app
