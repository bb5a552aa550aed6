#include "export/quiz.h"

#include "export/exportactions.h"
#include "export/frameoverlay.h"
#include "export/picturerenderer.h"
#include "export/stepsdialog.h"
#include "session/output.h"
#include "session/session.h"
#include "words/narration.h"

#include "topocast/io/moodle_quiz.h"
#include "topocast/model/error.h"

#include <QAction>
#include <QBuffer>
#include <QFileDialog>
#include <QMenu>

namespace topocast::app {

namespace {

std::string pngBytes(const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        throw Error("could not encode a quiz picture as PNG");
    return bytes.toStdString();
}

} // namespace

QuizResult writeQuiz(const SnapshotPtr& snap, const QString& path, const QuizSettings& settings)
{
    const auto [first, last] = checkedStepRange(snap, settings.firstStep, settings.lastStep, "make a quiz of");
    // Each picture: the view with its legend strip below, so a student reads the colours.
    const Palette& palette = settings.view.highContrast ? Palette::highContrast() : Palette::normal();
    const LegendStrip legend = legendStrip(*snap, settings.view.mode, settings.view.cumulativeHeat, palette);
    FrameOverlay overlay;
    overlay.legend = true;
    const OverlayLayout layout = overlayLayout(settings.view.size, overlay, legend);
    ViewSettings view = settings.view;
    view.size = layout.view.size();
    PictureRenderer renderer(snap, view, 96, QStringLiteral("a quiz"));

    const QString title = exportTitle(*snap);
    std::vector<QuizQuestion> questions;
    QuizResult result;
    result.path = path;
    result.pictureSize = settings.view.size;
    for (std::uint32_t k = first; k <= last; ++k) {
        QuizQuestion q = stepQuestion(snap->schedule, k);
        q.name = QStringLiteral("%1 — step %2").arg(title).arg(k).toStdString();
        q.lead =
            (k == 1 ? QStringLiteral("%1. The network before the first step:").arg(title)
                    : QStringLiteral("%1. The network after step %2, before step %3:").arg(title).arg(k - 1).arg(k))
                .toStdString();
        const QImage picture =
            composeFrame(renderer.render(static_cast<int>(k) - 1), layout, FrameText{}, legend, palette);
        q.imageName = "step-" + std::to_string(k) + ".png";
        q.imagePng = pngBytes(picture);
        q.imageAlt = QStringLiteral("%1 before step %2").arg(title).arg(k).toStdString();
        q.generalFeedback = narrate(*snap, static_cast<int>(k), 12).toStdString();
        result.numerical += q.kind == QuizQuestion::Kind::Numerical ? 1 : 0;
        questions.push_back(std::move(q));
    }
    const std::string xml = moodleXml(title.toStdString(), questions, settings.request.toStdString());
    saveBytes(QByteArray::fromStdString(xml), path);
    result.questions = static_cast<int>(questions.size());
    return result;
}

QAction* addQuizAction(QMenu* exportMenu, QWidget* window, Session* session, ExportActions* exportActions,
                       std::function<void(const QString&)> report)
{
    QAction* action = exportMenu->addAction(QStringLiteral("&Quiz (Moodle XML)…"));
    action->setToolTip(
        QStringLiteral("one question a step — which nodes receive? — with the picture before it, for Moodle "
                       "and the course platforms that import its question format"));
    QObject::connect(action, &QAction::triggered, window, [=] {
        const SnapshotPtr snap = session->snapshot();
        if (!snap || snap->stepCount() == 0) {
            report(QStringLiteral("quiz not written: no schedule with steps is shown"));
            return;
        }
        const auto range =
            askStepRange(window, QStringLiteral("Quiz (Moodle XML)"), static_cast<int>(snap->stepCount()));
        if (!range)
            return;
        const QString path = QFileDialog::getSaveFileName(
            window, QStringLiteral("Save quiz"), QStringLiteral("quiz.xml"), QStringLiteral("Moodle XML (*.xml)"));
        if (path.isEmpty())
            return;
        QuizSettings settings;
        settings.firstStep = range->first;
        settings.lastStep = range->last;
        settings.view = exportActions->currentView(QSize(800, 640));
        settings.view.camera.reset(); // the network framed whole, whatever the window shows
        settings.request =
            QStringLiteral("File ▸ Export ▸ Quiz, steps %1-%2").arg(settings.firstStep).arg(settings.lastStep);
        writeReported(
            window, QStringLiteral("Quiz"), QStringLiteral("quiz"),
            [&] {
                const QuizResult r = writeQuiz(snap, path, settings);
                return QStringLiteral("wrote %1: %2 questions").arg(r.path).arg(r.questions);
            },
            report);
    });
    return action;
}

} // namespace topocast::app
