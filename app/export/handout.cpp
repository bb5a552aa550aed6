#include "export/handout.h"

#include "export/exportactions.h"
#include "export/picturerenderer.h"
#include "export/printpage.h"
#include "export/stepsdialog.h"
#include "panels/metricsmodel.h"
#include "scene/sceneview.h"
#include "session/output.h"
#include "session/session.h"
#include "words/narration.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/grade.h"
#include "topocast/analysis/step_summary.h"
#include "topocast/model/error.h"

#include <QAction>
#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QMenu>
#include <QPainter>
#include <QPdfWriter>
#include <QSpinBox>

#include <cmath>

namespace topocast::app {

namespace {

/// The standard deviation of an image's grey levels (0 for a blank picture), on a sample grid.
double pixelStdDev(const QImage& image)
{
    if (image.isNull())
        return 0;
    double sum = 0, sum2 = 0;
    std::uint64_t n = 0;
    const int stepX = std::max(1, image.width() / 200), stepY = std::max(1, image.height() / 200);
    for (int y = 0; y < image.height(); y += stepY)
        for (int x = 0; x < image.width(); x += stepX) {
            const double g = qGray(image.pixel(x, y));
            sum += g;
            sum2 += g * g;
            ++n;
        }
    const double mean = sum / static_cast<double>(n);
    return std::sqrt(std::max(0.0, sum2 / static_cast<double>(n) - mean * mean));
}

} // namespace

std::optional<QPageSize::PageSizeId> parseHandoutPageSize(const QString& text)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("a4"))
        return QPageSize::A4;
    if (t == QLatin1String("letter"))
        return QPageSize::Letter;
    return std::nullopt;
}

namespace {

/// What every page of one handout shares.
struct HandoutJob {
    const SnapshotPtr& snap;
    const HandoutSettings& settings;
    QPainter& painter;
    QRect area;
    PictureRenderer& renderer;
    QSize pictureSize;
    std::vector<std::pair<QColor, QString>> legend;
    std::uint32_t first = 1;
    std::uint32_t last = 1;
    int pageCount = 1;
    QString footerBase;
};

QString pageFooter(const HandoutJob& job, int page)
{
    return QStringLiteral("%1 — page %2 of %3").arg(job.footerBase).arg(page).arg(job.pageCount);
}

void titlePage(const HandoutJob& job)
{
    const Snapshot& snap = *job.snap;
    const Schedule& schedule = snap.schedule;
    const Topology& topo = schedule.topology();
    PrintPage page(job.painter, job.area, job.settings.dpi);
    page.text(exportTitle(snap), 20, true);
    QString what =
        QStringLiteral("%1 on the %2%3")
            .arg(QString::fromStdString(schedule.algorithm.empty() ? snap.scenario.algorithm : schedule.algorithm),
                 QString::fromStdString(topo.displayName()),
                 hasRoot(schedule.pattern()) ? QStringLiteral(", %1 %2").arg(
                                                   combines(schedule.pattern()) || schedule.pattern() == Pattern::Gather
                                                       ? QStringLiteral("root")
                                                       : QStringLiteral("source"),
                                                   QString::fromStdString(topo.nodeName(schedule.source())))
                                             : QString());
    if (!schedule.mode.empty())
        what += QStringLiteral(" (mode %1)").arg(QString::fromStdString(schedule.mode));
    page.text(what, 12);
    const std::string reference = algorithmReference(snap.scenario.algorithm);
    if (!reference.empty())
        page.text(QStringLiteral("From: ") + QString::fromStdString(reference), 11, false, QColor(40, 40, 90));
    MetricsModel metrics;
    metrics.setSnapshot(job.snap);
    QString totals;
    for (int r = 0; r < metrics.rowCount(); ++r)
        totals += metrics.index(r, MetricsModel::NameColumn).data().toString() + QStringLiteral(": ") +
                  metrics.index(r, MetricsModel::ValueColumn).data().toString() + QStringLiteral("\n");
    page.text(QStringLiteral("Totals"), 13, true);
    page.text(totals.trimmed(), 10);
    // The network before the first printed step: a class set of steps 1-3 does not give away
    // what steps 4-6 are for the students to fill in.
    page.text(
        job.settings.exercise
            ? QStringLiteral("Steps %1 to %2 follow, one a page, for you to fill in; the answers are on the last "
                             "page%3. The picture below: the network before step %1.")
                  .arg(job.first)
                  .arg(job.last)
                  .arg(job.pageCount > 2 + static_cast<int>(job.last - job.first) + 1 ? QStringLiteral("s") : QString())
            : QStringLiteral("Steps %1 to %2 follow, one a page. The picture below: the network before step %1.")
                  .arg(job.first)
                  .arg(job.last),
        10);
    QImage overview = job.renderer.render(static_cast<int>(job.first) - 1);
    const int room = page.remaining() - page.pt(20);
    if (room > job.pictureSize.height() / 4) {
        if (overview.height() > room)
            overview = overview.scaledToHeight(room, Qt::SmoothTransformation);
        page.picture(overview);
    }
    page.footer(QStringLiteral("page 1 of %1 — made with topocast").arg(job.pageCount));
}

/// A step's page: its picture, legend, narration and figures. Returns the picture's deviation.
double stepPage(const HandoutJob& job, const StepSummary& s, std::uint32_t k)
{
    PrintPage page(job.painter, job.area, job.settings.dpi);
    QString head = QStringLiteral("Step %1 of %2").arg(k).arg(job.snap->stepCount());
    if (!s.label.empty())
        head += QStringLiteral(" — %1").arg(QString::fromStdString(s.label));
    page.text(head, 16, true);
    const QImage image = job.renderer.render(static_cast<int>(k));
    page.picture(image);
    page.legend(job.legend, 9);
    page.text(narrate(*job.snap, static_cast<int>(k), 12), 11);
    page.text(QStringLiteral("This step: ") +
                  QString::fromStdString(describeStepSummary(s, job.snap->schedule.topology().nodeCount())),
              11, false, QColor(40, 40, 40));
    page.footer(pageFooter(job, 2 + static_cast<int>(k - job.first)));
    return pixelStdDev(image);
}

/// A step to fill in: the network before the step (its receivers still blank), what to do, and an
/// empty table of its transfers. Nothing on it names the step's receivers.
double exercisePage(const HandoutJob& job, std::uint32_t k)
{
    PrintPage page(job.painter, job.area, job.settings.dpi);
    page.text(QStringLiteral("Step %1 of %2 — your turn").arg(k).arg(job.snap->stepCount()), 16, true);
    const QImage image = job.renderer.render(static_cast<int>(k) - 1);
    page.picture(image);
    page.legend(job.legend, 9);
    const auto transfers = static_cast<int>(job.snap->schedule.stepTransfers(StepNo{k}).size());
    page.text(
        QStringLiteral("The picture shows the network before step %1. Colour the nodes that receive in step %1, draw "
                       "an arrow from each sender, and fill in the table: %2 transfer%3 in this step.")
            .arg(k)
            .arg(transfers)
            .arg(transfers == 1 ? QString() : QStringLiteral("s")),
        11);
    const int rows =
        page.blankTable({QStringLiteral("Sender"), QStringLiteral("Receiver"), QStringLiteral("Hops")}, transfers, 10);
    if (rows < transfers)
        page.text(QStringLiteral("%1 more rows: continue on the back.").arg(transfers - rows), 10, false,
                  QColor(40, 40, 40));
    page.footer(pageFooter(job, 2 + static_cast<int>(k - job.first)));
    return pixelStdDev(image);
}

/// The answer key's text for step k: who receives and every transfer (the first 400 of a bigger step).
QString keyText(const Snapshot& snap, std::uint32_t k)
{
    const Topology& topo = snap.schedule.topology();
    QStringList receivers, sent;
    for (NodeId n : stepReceivers(snap.schedule, StepNo{k}))
        receivers << QString::fromStdString(topo.nodeName(n));
    const auto transfers = snap.schedule.stepTransfers(StepNo{k});
    constexpr std::size_t kMostListed = 400;
    for (std::size_t i = 0; i < std::min(transfers.size(), kMostListed); ++i)
        sent << QStringLiteral("%1 → %2 (%3)")
                    .arg(QString::fromStdString(topo.nodeName(transfers[i].from)),
                         QString::fromStdString(topo.nodeName(transfers[i].to)))
                    .arg(snap.schedule.hops(transfers[i]));
    if (transfers.size() > kMostListed)
        sent << QStringLiteral("… and %1 more (topocast-cli schedule lists them all)")
                    .arg(transfers.size() - kMostListed);
    if (receivers.size() > static_cast<qsizetype>(kMostListed))
        receivers = receivers.mid(0, kMostListed) << QStringLiteral("…");
    return QStringLiteral("Receive (%1): %2\nTransfers (hops): %3")
        .arg(stepReceivers(snap.schedule, StepNo{k}).size())
        .arg(receivers.join(QStringLiteral(", ")), sent.join(QStringLiteral(", ")));
}

/// Lays out the answer key from a fresh page on `painter`; `newPage` starts another and `footer`
/// writes a page's footer (its number in the key from 1). Returns the pages it took.
int answerKey(const HandoutJob& job, QPainter& painter, const std::function<void()>& newPage,
              const std::function<void(PrintPage&, int)>& footer)
{
    int pages = 1;
    auto page = std::make_unique<PrintPage>(painter, job.area, job.settings.dpi);
    page->text(QStringLiteral("Answer key"), 18, true);
    page->text(QStringLiteral("%1, steps %2 to %3").arg(exportTitle(*job.snap)).arg(job.first).arg(job.last), 11);
    for (std::uint32_t k = job.first; k <= job.last; ++k) {
        const QString head = QStringLiteral("Step %1").arg(k), body = keyText(*job.snap, k);
        if (page->measure(head, 12, true) + page->measure(body, 10) > page->remaining() - page->pt(20) &&
            !page->atTop()) {
            footer(*page, pages++);
            newPage();
            page = std::make_unique<PrintPage>(painter, job.area, job.settings.dpi);
        }
        page->text(head, 12, true);
        page->text(body, 10);
    }
    footer(*page, pages);
    return pages;
}

/// The pages the answer key takes, laid out once on a scratch picture of the page's size.
int answerKeyPages(const HandoutJob& job)
{
    QImage scratch(job.area.size() + QSize(job.area.left() * 2, job.area.top() * 2), QImage::Format_Mono);
    QPainter painter(&scratch);
    return answerKey(
        job, painter, [] {}, [](PrintPage&, int) {});
}

} // namespace

HandoutResult writeHandout(const SnapshotPtr& snap, const QString& path, const HandoutSettings& settings)
{
    const auto [first, last] = checkedStepRange(snap, settings.firstStep, settings.lastStep, "put in a handout");
    if (settings.dpi < 72 || settings.dpi > 600)
        throw Error("handout resolution " + std::to_string(settings.dpi) + " dpi is out of range 72..600");

    QBuffer pdf; // the whole PDF in memory first: the file is replaced only when it is complete
    pdf.open(QIODevice::WriteOnly);
    QPdfWriter writer(&pdf);
    writer.setPageSize(QPageSize(settings.pageSize));
    writer.setPageMargins(QMarginsF(16, 16, 16, 16), QPageLayout::Millimeter);
    writer.setResolution(settings.dpi);
    writer.setCreator(QStringLiteral("topocast"));
    writer.setTitle(QStringLiteral("topocast handout: ") + exportTitle(*snap));
    QPainter painter;
    if (!painter.begin(&writer))
        throw Error("could not start the PDF for the handout");
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);

    // The pictures: the printable width, 4:5 high (room for a cube seen from above), at print
    // resolution.
    ViewSettings view = settings.view;
    view.size = QSize(painter.viewport().width(), painter.viewport().width() * 4 / 5);
    PictureRenderer renderer(snap, view, settings.dpi);
    HandoutJob job{snap,
                   settings,
                   painter,
                   painter.viewport(),
                   renderer,
                   view.size,
                   legendEntries(snap.get(), view.mode, Palette::of(view.highContrast, view.print)),
                   first,
                   last,
                   1 + static_cast<int>(last - first + 1),
                   exportTitle(*snap)};
    const int keyPages = settings.exercise ? answerKeyPages(job) : 0;
    job.pageCount += keyPages;

    HandoutResult result;
    result.path = path;
    result.pictureSize = view.size;
    result.minPictureStdDev = -1;
    titlePage(job);
    const std::vector<StepSummary> summaries = summarizeSteps(snap->schedule, snap->metrics);
    for (std::uint32_t k = first; k <= last; ++k) {
        writer.newPage();
        const double deviation = settings.exercise ? exercisePage(job, k) : stepPage(job, summaries[k - 1], k);
        result.minPictureStdDev =
            result.minPictureStdDev < 0 ? deviation : std::min(result.minPictureStdDev, deviation);
    }
    if (settings.exercise) {
        writer.newPage();
        const int keyFirst = job.pageCount - keyPages + 1;
        answerKey(
            job, painter, [&writer] { writer.newPage(); },
            [&](PrintPage& page, int n) { page.footer(pageFooter(job, keyFirst + n - 1)); });
    }
    painter.end();
    pdf.close();
    result.pages = job.pageCount;
    result.answerKeyPages = keyPages;

    saveBytes(pdf.data(), path);
    result.frames = renderer.drawn();
    return result;
}

QAction* addHandoutAction(QMenu* exportMenu, QWidget* window, Session* session, ExportActions* exportActions,
                          std::function<void(const QString&)> report)
{
    QAction* action = exportMenu->addAction(QStringLiteral("&Handout (PDF)…"));
    QObject::connect(action, &QAction::triggered, window, [=] {
        const SnapshotPtr snap = session->snapshot();
        if (!snap || snap->stepCount() == 0) {
            report(QStringLiteral("handout not written: no schedule with steps is shown"));
            return;
        }
        QComboBox* size = nullptr;
        QComboBox* theme = nullptr;
        QCheckBox* exercise = nullptr;
        const auto range = askStepRange(
            window, QStringLiteral("Handout (PDF)"), static_cast<int>(snap->stepCount()), [&](QFormLayout* form) {
                size = new QComboBox;
                size->addItems({QStringLiteral("A4"), QStringLiteral("letter")});
                form->addRow(QStringLiteral("Page size"), size);
                theme = new QComboBox;
                theme->addItems({QStringLiteral("light, for print"), QStringLiteral("dark, as the window")});
                form->addRow(QStringLiteral("Pictures"), theme);
                exercise = new QCheckBox(QStringLiteral("Exercise: receivers left blank, an answer key at the end"));
                form->addRow(QString(), exercise);
            });
        if (!range)
            return;
        const QString path = QFileDialog::getSaveFileName(window, QStringLiteral("Save handout"),
                                                          QStringLiteral("handout.pdf"), QStringLiteral("PDF (*.pdf)"));
        if (path.isEmpty())
            return;
        HandoutSettings settings;
        settings.pageSize = *parseHandoutPageSize(size->currentText());
        settings.firstStep = range->first;
        settings.lastStep = range->last;
        settings.exercise = exercise->isChecked();
        settings.view = exportActions->currentView(QSize(1280, 720));
        settings.view.print = theme->currentIndex() == 0;
        writeReported(
            window, QStringLiteral("Handout"), QStringLiteral("handout"),
            [&] {
                const HandoutResult r = writeHandout(snap, path, settings);
                return QStringLiteral("wrote %1: %2 pages").arg(r.path).arg(r.pages);
            },
            report);
    });
    return action;
}

} // namespace topocast::app
