#include "export/handout.h"

#include "export/exportactions.h"
#include "export/picturerenderer.h"
#include "export/output.h"
#include "panels/metricsmodel.h"
#include "panels/narration.h"
#include "scene/sceneview.h"
#include "session/session.h"

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/step_summary.h"
#include "topocast/model/error.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QMenu>
#include <QMessageBox>
#include <QSpinBox>
#include <QFileInfo>
#include <QPainter>
#include <QPdfWriter>

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

/// Lays out one page: text flows down from the top of the printable area.
class Page {
public:
    Page(QPainter& p, const QRect& area, int dpi) : m_p(p), m_area(area), m_y(area.top()), m_dpi(dpi) {}

    int pt(double points) const { return static_cast<int>(std::lround(points * m_dpi / 72.0)); }

    void text(const QString& s, double points, bool bold = false, const QColor& colour = Qt::black)
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pt(points));
        f.setBold(bold);
        m_p.setFont(f);
        m_p.setPen(colour);
        const QRect box(m_area.left(), m_y, m_area.width(), m_area.bottom() - m_y);
        const QRect used = m_p.boundingRect(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, s);
        m_p.drawText(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, s);
        m_y += used.height() + pt(points * 0.45);
    }

    void picture(const QImage& image)
    {
        const QRect target(m_area.left() + (m_area.width() - image.width()) / 2, m_y, image.width(), image.height());
        m_p.drawImage(target, image);
        m_p.setPen(QPen(QColor(120, 120, 120), pt(0.5)));
        m_p.setBrush(Qt::NoBrush);
        m_p.drawRect(target);
        m_y += image.height() + pt(10);
    }

    void footer(const QString& s)
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pt(8));
        m_p.setFont(f);
        m_p.setPen(QColor(110, 110, 110));
        m_p.drawText(QRect(m_area.left(), m_area.bottom() - pt(12), m_area.width(), pt(12)), Qt::AlignRight | Qt::AlignBottom, s);
    }

    /// Colour swatches with their meaning, in rows across the page.
    void legend(const std::vector<std::pair<QColor, QString>>& entries, double points)
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPixelSize(pt(points));
        m_p.setFont(f);
        const QFontMetrics fm(f);
        const int box = fm.height() * 3 / 4, gap = pt(points);
        int x = m_area.left();
        for (const auto& [colour, label] : entries) {
            const int w = box + pt(3) + fm.horizontalAdvance(label) + gap;
            if (x + w > m_area.right() && x > m_area.left()) {
                x = m_area.left();
                m_y += fm.height() + pt(2);
            }
            m_p.setPen(QPen(Qt::black, pt(0.4)));
            m_p.setBrush(colour);
            m_p.drawRect(x, m_y + (fm.height() - box) / 2, box, box);
            m_p.setPen(Qt::black);
            m_p.drawText(QRect(x + box + pt(3), m_y, w, fm.height()), Qt::AlignVCenter | Qt::AlignLeft, label);
            x += w;
        }
        m_y += fm.height() + pt(points * 0.8);
    }

    int remaining() const { return m_area.bottom() - m_y; }

private:
    QPainter& m_p;
    QRect m_area;
    int m_y;
    int m_dpi;
};

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

HandoutResult writeHandout(const SnapshotPtr& snap, const QString& path, const HandoutSettings& settings)
{
    if (!snap)
        throw Error("nothing to put in a handout: no schedule has been computed");
    const std::uint32_t steps = snap->stepCount();
    const std::uint32_t first = settings.firstStep;
    const std::uint32_t last = settings.lastStep == 0 ? steps : settings.lastStep;
    if (steps == 0)
        throw Error("the schedule has no steps to put in a handout (a single node?)");
    if (first < 1 || first > last || last > steps)
        throw Error("steps " + std::to_string(first) + "-" + std::to_string(last) + " are not within the schedule's steps 1.." +
                    std::to_string(steps));
    if (settings.dpi < 72 || settings.dpi > 600)
        throw Error("handout resolution " + std::to_string(settings.dpi) + " dpi is out of range 72..600");

    QBuffer pdf;  // the whole PDF in memory first: the file is replaced only when it is complete
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
    const QRect area = painter.viewport();
    const int dpi = settings.dpi;

    // The pictures: the printable width, 4:5 high (room for a cube seen from above), at print
    // resolution.
    ViewSettings view = settings.view;
    view.size = QSize(area.width(), area.width() * 4 / 5);
    PictureRenderer renderer(snap, view, dpi);

    const Schedule& schedule = snap->schedule;
    const Topology& topo = schedule.topology();
    const std::vector<StepSummary> summaries = summarizeSteps(schedule, snap->metrics);
    HandoutResult result;
    result.path = path;
    result.pictureSize = view.size;
    result.minPictureStdDev = -1;
    const QString algorithm = QString::fromStdString(schedule.algorithm.empty() ? snap->scenario.algorithm : schedule.algorithm);
    const QString footerBase = exportTitle(*snap);
    const int pageCount = 1 + static_cast<int>(last - first + 1);
    const auto legend = legendEntries(snap.get(), view.mode, view.highContrast ? Palette::highContrast() : Palette::normal());

    // Title page.
    {
        Page page(painter, area, dpi);
        page.text(exportTitle(*snap), 20, true);
        QString what = QStringLiteral("%1 on the %2%3")
                           .arg(algorithm, QString::fromStdString(topo.displayName()),
                                hasRoot(schedule.pattern())
                                    ? QStringLiteral(", %1 %2")
                                          .arg(combines(schedule.pattern()) || schedule.pattern() == Pattern::Gather
                                                   ? QStringLiteral("root")
                                                   : QStringLiteral("source"),
                                               QString::fromStdString(topo.nodeName(schedule.source())))
                                    : QString());
        if (!schedule.mode.empty())
            what += QStringLiteral(" (mode %1)").arg(QString::fromStdString(schedule.mode));
        page.text(what, 12);
        const std::string reference = algorithmReference(snap->scenario.algorithm);
        if (!reference.empty())
            page.text(QStringLiteral("From: ") + QString::fromStdString(reference), 11, false, QColor(40, 40, 90));
        MetricsModel metrics;
        metrics.setSnapshot(snap);
        QString totals;
        for (int r = 0; r < metrics.rowCount(); ++r)
            totals += metrics.index(r, MetricsModel::NameColumn).data().toString() + QStringLiteral(": ") +
                      metrics.index(r, MetricsModel::ValueColumn).data().toString() + QStringLiteral("\n");
        page.text(QStringLiteral("Totals"), 13, true);
        page.text(totals.trimmed(), 10);
        // The network before the first printed step: a class set of steps 1-3 does not give away
        // what steps 4-6 are for the students to fill in.
        page.text(QStringLiteral("Steps %1 to %2 follow, one a page. The picture below: the network before step %1.")
                      .arg(first)
                      .arg(last),
                  10);
        QImage overview = renderer.render(static_cast<int>(first) - 1);
        const int room = page.remaining() - page.pt(20);
        if (room > view.size.height() / 4) {
            if (overview.height() > room)
                overview = overview.scaledToHeight(room, Qt::SmoothTransformation);
            page.picture(overview);
        }
        page.footer(QStringLiteral("page 1 of %1 — made with topocast").arg(pageCount));
    }

    for (std::uint32_t k = first; k <= last; ++k) {
        writer.newPage();
        Page page(painter, area, dpi);
        const StepSummary& s = summaries[k - 1];
        QString head = QStringLiteral("Step %1 of %2").arg(k).arg(steps);
        if (!s.label.empty())
            head += QStringLiteral(" — %1").arg(QString::fromStdString(s.label));
        page.text(head, 16, true);
        const QImage image = renderer.render(static_cast<int>(k));
        const double deviation = pixelStdDev(image);
        result.minPictureStdDev = result.minPictureStdDev < 0 ? deviation : std::min(result.minPictureStdDev, deviation);
        page.picture(image);
        page.legend(legend, 9);
        page.text(narrate(*snap, static_cast<int>(k), 12), 11);
        page.text(QStringLiteral("This step: ") + QString::fromStdString(describeStepSummary(s, topo.nodeCount())), 11,
                  false, QColor(40, 40, 40));
        page.footer(QStringLiteral("%1 — page %2 of %3").arg(footerBase).arg(2 + k - first).arg(pageCount));
    }
    painter.end();
    pdf.close();
    result.pages = pageCount;

    saveBytes(pdf.data(), path);
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
        QDialog dialog(window);
        dialog.setWindowTitle(QStringLiteral("Handout (PDF)"));
        auto* form = new QFormLayout(&dialog);
        auto* size = new QComboBox;
        size->addItems({QStringLiteral("A4"), QStringLiteral("letter")});
        form->addRow(QStringLiteral("Page size"), size);
        const int steps = static_cast<int>(snap->stepCount());
        auto* first = new QSpinBox;
        first->setRange(1, steps);
        auto* last = new QSpinBox;
        last->setRange(1, steps);
        last->setValue(steps);
        form->addRow(QStringLiteral("First step"), first);
        form->addRow(QStringLiteral("Last step"), last);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
        QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
        form->addRow(buttons);
        if (dialog.exec() != QDialog::Accepted)
            return;
        const QString path = QFileDialog::getSaveFileName(window, QStringLiteral("Save handout"),
                                                          QStringLiteral("handout.pdf"), QStringLiteral("PDF (*.pdf)"));
        if (path.isEmpty())
            return;
        HandoutSettings settings;
        settings.pageSize = *parseHandoutPageSize(size->currentText());
        settings.firstStep = static_cast<std::uint32_t>(std::min(first->value(), last->value()));
        settings.lastStep = static_cast<std::uint32_t>(std::max(first->value(), last->value()));
        settings.view = exportActions->currentView(QSize(1280, 720));
        QApplication::setOverrideCursor(Qt::WaitCursor);
        try {
            const HandoutResult r = writeHandout(snap, path, settings);
            QApplication::restoreOverrideCursor();
            report(QStringLiteral("wrote %1: %2 pages").arg(r.path).arg(r.pages));
        } catch (const std::exception& e) {
            QApplication::restoreOverrideCursor();
            report(QStringLiteral("handout not written: ") + QString::fromStdString(e.what()));
            QMessageBox::warning(window, QStringLiteral("Handout"), QString::fromStdString(e.what()));
        }
    });
    return action;
}

} // namespace topocast::app
