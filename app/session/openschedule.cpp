#include "session/openschedule.h"

#include "topocast/analysis/msccl.h"
#include "topocast/io/goal.h"
#include "topocast/io/msccl_xml.h"
#include "topocast/io/schedule_csv.h"
#include "topocast/io/schedule_json.h"
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

/// MSCCL findings as the findings panel lists them: the rank's node, the step, a rule by kind.
Validation mscclValidation(const MscclCheck& check, const Topology& topo)
{
    Validation v;
    v.violationCount = check.findingCount;
    for (const MscclFinding& m : check.findings) {
        Finding f;
        switch (m.kind) {
        case MscclFindingKind::Incomplete:
            f.kind = FindingKind::NeverReached;
            break;
        case MscclFindingKind::Data:
            f.kind = FindingKind::WrongData;
            break;
        default:
            f.kind = FindingKind::BadTransfer;
        }
        f.step = StepNo{m.step.value_or(0)};
        if (m.rank >= 0 && static_cast<std::uint32_t>(m.rank) < topo.nodeCount())
            f.nodes.push_back(NodeId{static_cast<std::uint32_t>(m.rank)});
        f.text = mscclFindingText(m);
        v.violations.push_back(f.text);
        v.findings.push_back(std::move(f));
    }
    return v;
}

} // namespace

TopologyNeed scheduleFileTopology(const QString& path, const Topology& current)
{
    const std::string p = path.toStdString();
    const QString name = QFileInfo(path).fileName();
    TopologyNeed need;
    if (isMscclXmlPath(p)) {
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
    if (isGoalPath(p)) {
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
    if (isCsvPath(p) && !csvNamesTopology(p)) {
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
    auto opened = std::make_shared<OpenedSchedule>();
    opened->file = path;
    Schedule schedule;
    std::vector<std::string> notes; // what a GOAL program's schedule leaves out of it
    if (isMscclXmlPath(p)) {
        if (!topology)
            throw Error(p + " is an MSCCL program, which names no network: choose one with a node per rank");
        const MscclCheck check = checkMscclProgram(readMscclXml(p), *topology);
        if (check.schedule.size() == 0 &&
            std::none_of(check.findings.begin(), check.findings.end(),
                         [](const MscclFinding& f) { return f.kind == MscclFindingKind::Structure; }))
            throw Error(p + " sends nothing: there is no schedule to show");
        if (check.schedule.size() == 0)
            throw Error(p + " cannot run: " + std::to_string(check.findingCount) + " problem" +
                        (check.findingCount == 1 ? "" : "s") + " with its structure, the first: rank " +
                        std::to_string(check.findings.front().rank) + ": " + check.findings.front().what);
        schedule = check.schedule;
        opened->validation = mscclValidation(check, *topology);
    } else if (isGoalPath(p)) {
        if (!topology)
            throw Error(p + " is a GOAL program, which names no network: choose one with a node per rank");
        GoalSchedule g = readGoalSchedule(p, *topology);
        schedule = std::move(g.schedule);
        opened->validation = validate(schedule, promisedValidateOptions(schedule));
        notes = std::move(g.notes);
    } else {
        schedule = isCsvPath(p) ? readScheduleCsv(p, topology) : scheduleFromJson(readJsonFile(p));
        schedule.finalize();
        // What the file promises (its step_contention), as topocast-cli validate judges it.
        opened->validation = validate(schedule, promisedValidateOptions(schedule));
    }
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
