#include "export/compareexport.h"

#include "export/frameoverlay.h"
#include "scene/sceneview.h"
#include "session/output.h"
#include "words/narration.h"

#include "topocast/io/export.h"
#include "topocast/model/error.h"

#include <QElapsedTimer>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>

#include <array>
#include <memory>
#include <string>

namespace topocast::app {

namespace {

double elapsedMs(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

void checkSize(QSize size)
{
    if (size.width() < 32 || size.height() < 32 || size.width() > 8192 || size.height() > 8192)
        throw Error("compare picture size " + sizeText(size).toStdString() + " is out of range 32..8192 a side");
}

/// One side's scene in a window of its own at its frame's size, viewed as `view` says.
void prepareSide(SceneView& scene, const CompareSnapshot& cmp, int side, const ViewSettings& view, QSize frame)
{
    scene.setCompactLabels(true); // half-width frames, as in the window's compare view
    showForExport(scene, side == 0 ? cmp.a : cmp.b, view, frame,
                  QStringLiteral("topocast — rendering side %1").arg(side == 0 ? QLatin1Char('A') : QLatin1Char('B')));
}

/// Both sides' scenes, rendering frames of timeline position (step, fraction).
class SidePair {
public:
    SidePair(const CompareSnapshotPtr& cmp, const ViewSettings& view, bool highlight)
        : m_cmp(cmp), m_highlight(highlight)
    {
        if (!cmp)
            throw Error("nothing to render: no comparison has been computed");
        checkSize(view.size);
        const CompareLayout layout = compareLayout(view.size);
        for (int i = 0; i < 2; ++i) {
            m_frame[static_cast<std::size_t>(i)] = layout.frameRect(i).size();
            prepareSide(m_scenes[static_cast<std::size_t>(i)], *cmp, i, view, m_frame[static_cast<std::size_t>(i)]);
        }
    }

    std::array<QImage, 2> render(int step, float fraction, bool dropFirst)
    {
        std::array<QImage, 2> out;
        for (int i = 0; i < 2; ++i) {
            SceneView& scene = m_scenes[static_cast<std::size_t>(i)];
            const int own = m_cmp->sideStep(i, step);
            scene.setHighlight(m_highlight ? m_cmp->comparison.informedOnOneSide(static_cast<std::uint32_t>(step))
                                           : std::vector<NodeId>{});
            scene.setStep(own);
            scene.setFraction(own < step ? 1.0f : fraction); // a side past its last step holds it
            QImage image = scene.capture().frame(10000, dropFirst);
            if (image.isNull())
                throw Error(
                    "no frame was rendered (no OpenGL context?); run under xvfb-run -a with QT3D_RENDERER=opengl");
            const QSize want = m_frame[static_cast<std::size_t>(i)];
            if (image.size() != want)
                image = image.scaled(want, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
            out[static_cast<std::size_t>(i)] = image;
        }
        return out;
    }

private:
    CompareSnapshotPtr m_cmp;
    bool m_highlight = true;
    std::array<SceneView, 2> m_scenes;
    std::array<QSize, 2> m_frame;
};

} // namespace

QRect CompareLayout::sideRect(int side) const
{
    const int half = size.width() / 2;
    return side == 0 ? QRect(0, 0, half, size.height()) : QRect(half, 0, size.width() - half, size.height());
}

QRect CompareLayout::frameRect(int side) const
{
    const QRect r = sideRect(side);
    // One pixel of divider on each side of the middle line.
    return QRect(r.x() + (side == 1 ? 1 : 0), header, r.width() - 1, size.height() - header - footer);
}

CompareLayout compareLayout(QSize size)
{
    CompareLayout l;
    l.size = size;
    l.header = std::max(8, size.height() * 9 / 100);
    l.footer = std::max(8, size.height() * 15 / 100);
    return l;
}

QImage composeCompareFrame(const CompareSnapshot& cmp, const QImage& frameA, const QImage& frameB, int step, QSize size,
                           bool highContrast)
{
    const CompareLayout layout = compareLayout(size);
    QImage out(size, QImage::Format_RGB32);
    const QColor background = (highContrast ? Palette::highContrast() : Palette::normal()).background.to<QColor>();
    const QColor text = Qt::white;
    const QColor muted = highContrast ? QColor(Qt::white) : QColor(200, 205, 215);
    out.fill(background);
    QPainter p(&out);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    const std::array<QColor, 2> accent{QColor(255, 170, 40), QColor(90, 200, 255)};
    for (int i = 0; i < 2; ++i) {
        const Snapshot& snap = cmp.side(i);
        const QRect column = layout.sideRect(i);
        const QRect frame = layout.frameRect(i);
        p.drawImage(frame.topLeft(), i == 0 ? frameA : frameB);

        // Title band: "A: cang-wu paper from (2,3)" over "6 steps, TCD 71".
        const int pad = std::max(2, layout.header / 10);
        QFont title;
        title.setBold(true);
        title.setPixelSize(std::max(6, layout.header * 45 / 100));
        QFont small;
        small.setPixelSize(std::max(5, layout.header * 30 / 100));
        const QRect titleRect(column.x() + pad * 2, pad, column.width() - pad * 4, layout.header * 55 / 100);
        p.setFont(title);
        p.setPen(accent[static_cast<std::size_t>(i)]);
        p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(title).elidedText(sideTitle(i, snap), Qt::ElideRight, titleRect.width()));
        p.setFont(small);
        p.setPen(muted);
        const QRect figureRect(titleRect.x(), titleRect.bottom(), titleRect.width(),
                               layout.header - titleRect.bottom() - 1);
        QString figures = sideFigures(cmp, i);
        if (step > static_cast<int>(snap.stepCount()))
            figures += QStringLiteral(" — done, holds its last state");
        else if (const auto ahead =
                     cmp.comparison.informedOnOneSide(static_cast<std::uint32_t>(std::max(0, step))).size())
            figures += QStringLiteral(" — magenta: %1 on one side only").arg(ahead);
        p.drawText(figureRect, Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(small).elidedText(figures, Qt::ElideRight, figureRect.width()));

        // Narration band under the view.
        QFont body;
        body.setPixelSize(std::max(5, layout.footer * 20 / 100));
        p.setFont(body);
        p.setPen(text);
        const QRect narrationRect(column.x() + pad * 2, size.height() - layout.footer + pad, column.width() - pad * 4,
                                  layout.footer - pad * 2);
        // Whole lines only: as many transfers spelled out as the band holds.
        const int lines = std::max(1, narrationRect.height() / QFontMetrics(body).lineSpacing());
        p.drawText(narrationRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   fittedNarrationText(snap, cmp.sideStep(i, step), body, narrationRect.width(), lines));
        // The side's colour as a bar at the top so A and B read apart at a glance.
        p.fillRect(QRect(column.x(), 0, column.width(), std::max(2, layout.header / 14)),
                   accent[static_cast<std::size_t>(i)]);
    }
    p.fillRect(QRect(size.width() / 2 - 1, 0, 2, size.height()), muted);
    p.end();
    return out;
}

QImage renderComparePicture(const CompareSnapshotPtr& cmp, const ViewSettings& view, int step, float fraction,
                            bool highlight)
{
    if (!cmp)
        throw Error("nothing to render: no comparison has been computed");
    const int steps = static_cast<int>(cmp->comparison.steps);
    if (step < 0 || step > steps)
        throw Error("step " + std::to_string(step) + " is not within the comparison's steps 0.." +
                    std::to_string(steps) + " (the longer schedule's)");
    SidePair pair(cmp, view, highlight);
    const auto frames = pair.render(step, fraction, true);
    return composeCompareFrame(*cmp, frames[0], frames[1], step, view.size, view.highContrast);
}

std::optional<video::VideoResult> exportCompareAnimation(const CompareSnapshotPtr& cmp,
                                                         const AnimationSettings& settings,
                                                         const ExportProgress& progress, ExportTimings* timings)
{
    QElapsedTimer total;
    total.start();
    if (!cmp)
        throw Error("nothing to export: no comparison has been computed");
    const std::uint32_t steps = cmp->comparison.steps;
    if (steps == 0)
        throw Error("the schedules have no steps to animate (a single node?)");
    if (settings.fps < 1 || settings.fps > 240)
        throw Error("frame rate " + std::to_string(settings.fps) + " is out of range 1..240");
    const std::uint32_t last = settings.lastStep == 0 ? steps : settings.lastStep;
    const std::vector<FrameTime> frames =
        animationFrames(steps, settings.firstStep, last, framesPerStepFor(settings), holdFramesFor(settings));
    const QSize size = settings.view.size;
    if (settings.format == video::VideoFormat::Mp4 && (size.width() % 2 != 0 || size.height() % 2 != 0))
        throw Error("an MP4 needs an even width and height; got " + sizeText(size).toStdString());

    SidePair pair(cmp, settings.view, true);
    const FrameSource source = [&](int i, const FrameTime& f, ExportTimings& spent) {
        QElapsedTimer t;
        t.start();
        const auto sides = pair.render(static_cast<int>(f.step), static_cast<float>(f.fraction), i == 0);
        spent.renderMs += elapsedMs(t);
        t.restart();
        // Format_RGB32 words are B, G, R, A bytes on x86.
        EncoderFrame out{
            composeCompareFrame(*cmp, sides[0], sides[1], static_cast<int>(f.step), size, settings.view.highContrast),
            video::PixelLayout::Bgra};
        spent.convertMs += elapsedMs(t);
        return out;
    };
    // Captions: one cue per step with both sides' narrations, "A: …" over "B: …".
    const StepCaption caption = [&](std::uint32_t s) {
        const int step = static_cast<int>(s);
        return QStringLiteral("A: %1\nB: %2")
            .arg(narrate(cmp->side(0), cmp->sideStep(0, step)), narrate(cmp->side(1), cmp->sideStep(1, step)))
            .toStdString();
    };
    return encodeAnimation(frames, settings, source, caption, progress, timings, elapsedMs(total));
}

} // namespace topocast::app
