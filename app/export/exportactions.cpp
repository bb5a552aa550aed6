#include "export/exportactions.h"

#include "export/compareexport.h"
#include "session/output.h"

#include "panels/layercharts.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/model/error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>

#include <array>
#include <cmath>
#include <memory>

namespace topocast::app {

namespace {

struct DataChoice {
    const char* label;
    const char* filter;
    const char* suffix;
    ExportFormat format;
    ExportGraph graph;
};

constexpr std::array<DataChoice, 8> kDataChoices{{
    {"Schedule (JSON)", "Schedule JSON (*.json)", "json", ExportFormat::Json, ExportGraph::Topology},
    {"Transfers (CSV)", "CSV (*.csv)", "csv", ExportFormat::Csv, ExportGraph::Topology},
    {"Channel loads per step (CSV)", "CSV (*.csv)", "csv", ExportFormat::ChannelsCsv, ExportGraph::Topology},
    {"Trace for Perfetto / chrome://tracing (JSON)", "Trace JSON (*.json)", "json", ExportFormat::Trace,
     ExportGraph::Topology},
    {"Topology (GraphML)", "GraphML (*.graphml)", "graphml", ExportFormat::GraphML, ExportGraph::Topology},
    {"Broadcast tree (GraphML)", "GraphML (*.graphml)", "graphml", ExportFormat::GraphML, ExportGraph::Tree},
    {"Topology (DOT)", "Graphviz DOT (*.dot)", "dot", ExportFormat::Dot, ExportGraph::Topology},
    {"Broadcast tree (DOT)", "Graphviz DOT (*.dot)", "dot", ExportFormat::Dot, ExportGraph::Tree},
}};

QSpinBox* spin(int lo, int hi, int value, const QString& suffix = {})
{
    auto* box = new QSpinBox;
    box->setRange(lo, hi);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}

/// Two widgets side by side in one form row.
QHBoxLayout* pair(QWidget* a, QWidget* b, int stretchA = 0)
{
    auto* row = new QHBoxLayout;
    row->addWidget(a, stretchA);
    row->addWidget(b);
    return row;
}

} // namespace

ExportActions::ExportActions(QWidget* window, Session* session, Timeline* timeline, SceneView* scene,
                             LayerCharts* charts)
    : QObject(window), m_window(window), m_session(session), m_timeline(timeline), m_scene(scene), m_charts(charts)
{
    m_menu = new QMenu(QStringLiteral("&Export"), window);
    m_menu->addAction(QStringLiteral("&Animation (MP4, GIF, PNG frames)…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                      &ExportActions::animationDialog);
    m_menu->addAction(QStringLiteral("&Picture of the view (PNG)…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P),
                      this, &ExportActions::pictureDialog);
    m_chartsAction = m_menu->addAction(QStringLiteral("&Charts (PNG + SVG)…"), this, &ExportActions::chartsDialog);
    m_menu->addAction(QStringLiteral("&Data (JSON, CSV, trace, GraphML, DOT)…"), this, &ExportActions::dataDialog);
    connect(m_menu, &QMenu::aboutToShow, this, [this] {
        m_chartsAction->setEnabled(m_charts->chartCount() > 0);
        m_chartsAction->setToolTip(
            m_charts->chartCount() > 0 ? QString() : QStringLiteral("only divisible-load scenarios have charts"));
    });
}

ViewSettings ExportActions::currentView(QSize size) const
{
    ViewSettings view;
    view.size = size;
    view.mode = m_scene->choice().mode;
    view.cumulativeHeat = m_scene->choice().cumulativeHeat;
    view.highContrast = m_scene->choice().highContrast;
    view.explode = m_scene->shape().explode();
    view.camera = m_scene->camera().orbit().state();
    return view;
}

QString ExportActions::report(const QString& message)
{
    emit reported(message);
    return message;
}

QString ExportActions::exportAnimation(const AnimationSettings& settings)
{
    const SnapshotPtr snap = m_session->snapshot();
    const bool wasPlaying = m_timeline->playing();
    m_timeline->pause();
    QProgressDialog progress(
        QStringLiteral("Rendering %1 at %2…")
            .arg(QFileInfo(QString::fromStdString(settings.output.string())).fileName(), sizeText(settings.view.size)),
        QStringLiteral("Cancel"), 0, 1, m_window);
    progress.setWindowTitle(QStringLiteral("Export animation"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    QString status;  // the status bar's line
    QString outcome; // what the caller gets: empty (written), "cancelled", or the error
    try {
        ExportTimings t;
        const auto onFrame = [&](int done, int total) {
            progress.setMaximum(total);
            progress.setValue(done);
            progress.setLabelText(QStringLiteral("Rendering frame %1 of %2 (%3)…")
                                      .arg(done + 1)
                                      .arg(total)
                                      .arg(sizeText(settings.view.size)));
            emit animationProgress(done, total);
            return !progress.wasCanceled();
        };
        const auto compare = m_compareSource ? m_compareSource() : std::pair<CompareSnapshotPtr, OrbitCamera::State>{};
        AnimationSettings both = settings;
        if (compare.first)
            both.view.camera = compare.second;
        const auto result = compare.first ? exportCompareAnimation(compare.first, both, onFrame, &t)
                                          : app::exportAnimation(snap, settings, onFrame, &t);
        if (!result) {
            outcome = QStringLiteral("cancelled");
            status = QStringLiteral("animation export cancelled; nothing written");
        } else {
            status = QStringLiteral("wrote %1: %2 frames, %3 at %4 fps (%5 s), %6 — %7 frames/s")
                         .arg(QString::fromStdString(result->path.string()))
                         .arg(result->frames)
                         .arg(sizeText(settings.view.size))
                         .arg(settings.fps)
                         .arg(result->seconds, 0, 'f', 2)
                         .arg(QString::fromStdString(result->codec))
                         .arg(t.totalMs > 0 ? t.frames / (t.totalMs / 1000.0) : 0.0, 0, 'f', 1);
        }
    } catch (const Error& e) {
        outcome = status = QString::fromStdString(e.what());
    }
    progress.close();
    if (wasPlaying)
        m_timeline->play();
    report(status);
    return outcome;
}

QString ExportActions::exportPicture(const QString& path, QSize size)
{
    try {
        const auto compare = m_compareSource ? m_compareSource() : std::pair<CompareSnapshotPtr, OrbitCamera::State>{};
        ViewSettings view = currentView(size);
        if (compare.first)
            view.camera = compare.second;
        const QImage image =
            compare.first ? renderComparePicture(compare.first, view, m_timeline->step(), m_timeline->fraction())
                          : renderPicture(m_session->snapshot(), view, m_timeline->step(), m_timeline->fraction());
        savePng(image, path);
    } catch (const Error& e) {
        return report(QString::fromStdString(e.what()));
    }
    report(QStringLiteral("wrote %1 (%2)").arg(path, sizeText(size)));
    return {};
}

QString ExportActions::exportCharts(const QString& dir, const QString& stem)
{
    if (m_charts->chartCount() == 0)
        return report(QStringLiteral("this scenario has no charts (only divisible-load scenarios do)"));
    try {
        const QStringList files = m_charts->saveCharts(dir, stem);
        report(QStringLiteral("wrote %1 chart files in %2").arg(files.size()).arg(dir));
    } catch (const Error& e) {
        return report(QString::fromStdString(e.what()));
    }
    return {};
}

QString ExportActions::exportData(const QString& path, ExportFormat format, ExportGraph graph)
{
    const SnapshotPtr snap = m_session->snapshot();
    if (!snap)
        return report(QStringLiteral("nothing to export: no schedule has been computed"));
    try {
        exportToFile(path.toStdString(), snap->schedule, format, graph);
    } catch (const Error& e) {
        return report(QString::fromStdString(e.what()));
    }
    report(QStringLiteral("wrote %1").arg(path));
    return {};
}

namespace {

/// `path` with the suffix of an animation `format` ("mp4", "gif"; "png": a folder, no suffix).
QString withFormatSuffix(const QString& path, const QString& format)
{
    const QFileInfo info(path);
    const QString base = info.path() + QLatin1Char('/') + info.completeBaseName();
    return format == QStringLiteral("png") ? base : base + QLatin1Char('.') + format;
}

} // namespace

void ExportActions::animationDialog()
{
    const SnapshotPtr snap = m_session->snapshot();
    if (!snap || snap->stepCount() == 0) {
        QMessageBox::information(m_window, QStringLiteral("Export animation"),
                                 QStringLiteral("This schedule has no steps to animate."));
        return;
    }
    QDialog dialog(m_window);
    dialog.setWindowTitle(QStringLiteral("Export animation"));
    auto* form = new QFormLayout(&dialog);
    auto* format = new QComboBox;
    format->addItem(QStringLiteral("MP4 video (H.264)"), QStringLiteral("mp4"));
    format->addItem(QStringLiteral("Animated GIF"), QStringLiteral("gif"));
    format->addItem(QStringLiteral("PNG frames in a folder"), QStringLiteral("png"));
    form->addRow(QStringLiteral("Format"), format);
    auto* path = new QLineEdit(QDir::home().filePath(QStringLiteral("topocast.mp4")));
    auto* browse = new QPushButton(QStringLiteral("Browse…"));
    form->addRow(QStringLiteral("File"), pair(path, browse, 1));
    auto* width = spin(16, 8192, 1280, QStringLiteral(" px"));
    auto* height = spin(16, 8192, 720, QStringLiteral(" px"));
    form->addRow(QStringLiteral("Size (width, height)"), pair(width, height));
    auto* fps = spin(1, 240, 30, QStringLiteral(" fps"));
    form->addRow(QStringLiteral("Frame rate"), fps);
    // The default pace: kDefaultSecondsPerStep a step at whatever frame rate, until the user sets
    // the frames per step themselves.
    auto pace = [](int rate) { return static_cast<int>(std::ceil(kDefaultSecondsPerStep * rate - 1e-9)); };
    auto* perStep = spin(1, 1000, pace(30));
    form->addRow(QStringLiteral("Frames per step"), perStep);
    const int steps = static_cast<int>(snap->stepCount());
    auto* first = spin(1, steps, 1);
    auto* last = spin(1, steps, steps);
    form->addRow(QStringLiteral("Steps (first, last)"), pair(first, last));
    auto* hold = spin(0, 600, static_cast<int>(kDefaultHoldSeconds), QStringLiteral(" s"));
    form->addRow(QStringLiteral("Hold the end"), hold);
    auto* overlay = new QCheckBox(QStringLiteral("title line (step, narration) and legend in every frame"));
    overlay->setChecked(true);
    form->addRow(QStringLiteral("Words"), overlay);
    auto* captions = new QComboBox;
    captions->addItem(QStringLiteral("subtitle track and .vtt file (MP4)"), QStringLiteral("on"));
    captions->addItem(QStringLiteral("burned into the picture"), QStringLiteral("burn"));
    captions->addItem(QStringLiteral("none"), QStringLiteral("off"));
    form->addRow(QStringLiteral("Captions"), captions);
    auto* camera =
        new QCheckBox(QStringLiteral("as in the window (camera, %1)").arg(viewModeName(m_scene->choice().mode)));
    camera->setChecked(true);
    form->addRow(QStringLiteral("View"), camera);
    auto* frames = new QLabel;
    form->addRow(QStringLiteral("Frames"), frames);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Export"));
    form->addRow(buttons);

    auto update = [=] {
        const int n =
            std::max(0, last->value() - first->value() + 1) * perStep->value() + 1 + hold->value() * fps->value();
        frames->setText(QStringLiteral("%1 frames, %2 s").arg(n).arg(static_cast<double>(n) / fps->value(), 0, 'f', 1));
        const QString p = withFormatSuffix(path->text(), format->currentData().toString());
        if (p != path->text())
            path->setText(p);
    };
    for (QSpinBox* b : {fps, perStep, first, last, hold})
        connect(b, &QSpinBox::valueChanged, &dialog, update);
    connect(format, &QComboBox::currentIndexChanged, &dialog, update);
    // Until touched, the pace follows the frame rate and the words follow the format (on for a
    // video or GIF, off for PNG frames: defaultOverlay).
    auto perStepTouched = std::make_shared<bool>(false);
    auto overlayTouched = std::make_shared<bool>(false);
    connect(perStep, &QSpinBox::editingFinished, &dialog, [=] { *perStepTouched = true; });
    connect(fps, &QSpinBox::valueChanged, &dialog, [=](int rate) {
        if (!*perStepTouched)
            perStep->setValue(pace(rate));
    });
    connect(overlay, &QCheckBox::clicked, &dialog, [=] { *overlayTouched = true; });
    connect(format, &QComboBox::currentIndexChanged, &dialog, [=] {
        if (!*overlayTouched)
            overlay->setChecked(format->currentData().toString() != QStringLiteral("png"));
    });
    connect(browse, &QPushButton::clicked, &dialog, [&] {
        const bool folder = format->currentData().toString() == QStringLiteral("png");
        const QString chosen =
            folder ? QFileDialog::getExistingDirectory(&dialog, QStringLiteral("Folder for the frames"))
                   : QFileDialog::getSaveFileName(&dialog, QStringLiteral("Export animation"), path->text());
        if (!chosen.isEmpty()) {
            path->setText(chosen);
            update();
        }
    });
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    update();
    if (dialog.exec() != QDialog::Accepted)
        return;

    AnimationSettings settings;
    settings.output = path->text().toStdString();
    settings.format = video::VideoEncoder::parseFormat(format->currentData().toString().toStdString());
    settings.view = currentView(QSize(width->value(), height->value()));
    if (!camera->isChecked()) {
        settings.view.camera.reset();
        settings.view.mode = ViewMode::Plain;
    }
    settings.fps = fps->value();
    settings.framesPerStep = perStep->value();
    settings.firstStep = static_cast<std::uint32_t>(first->value());
    settings.lastStep = static_cast<std::uint32_t>(last->value());
    settings.holdFrames = hold->value() * fps->value();
    FrameOverlay words = defaultOverlay(settings.format, settings.view.mode);
    if (*overlayTouched)
        words.title = words.legend = overlay->isChecked();
    const QString captionChoice = captions->currentData().toString();
    words.captions = captionChoice == QStringLiteral("burn");
    settings.view.overlay = words;
    settings.captions = captionChoice == QStringLiteral("on");
    const QString error = exportAnimation(settings);
    if (!error.isEmpty() && error != QStringLiteral("cancelled"))
        QMessageBox::warning(m_window, QStringLiteral("Export animation"), error);
}

void ExportActions::pictureDialog()
{
    QDialog dialog(m_window);
    dialog.setWindowTitle(QStringLiteral("Export picture"));
    auto* form = new QFormLayout(&dialog);
    const QSizeF view = m_scene->camera().viewportSize();
    auto* width = spin(16, 8192, std::max(1920, static_cast<int>(view.width())), QStringLiteral(" px"));
    auto* height = spin(16, 8192, 1080, QStringLiteral(" px"));
    auto* keep = new QCheckBox(QStringLiteral("the window's aspect ratio"));
    keep->setChecked(true);
    auto sync = [=] {
        if (keep->isChecked() && view.width() > 0)
            height->setValue(static_cast<int>(width->value() * view.height() / view.width()));
    };
    connect(width, &QSpinBox::valueChanged, &dialog, sync);
    connect(keep, &QCheckBox::toggled, &dialog, sync);
    height->setEnabled(false);
    connect(keep, &QCheckBox::toggled, height, [height](bool on) { height->setEnabled(!on); });
    form->addRow(QStringLiteral("Width"), width);
    form->addRow(QStringLiteral("Height"), height);
    form->addRow(QString(), keep);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    sync();
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString path = QFileDialog::getSaveFileName(m_window, QStringLiteral("Export picture"),
                                                      QDir::home().filePath(QStringLiteral("topocast.png")),
                                                      QStringLiteral("PNG (*.png)"));
    if (path.isEmpty())
        return;
    const QString error = exportPicture(path, QSize(width->value(), height->value()));
    if (!error.isEmpty())
        QMessageBox::warning(m_window, QStringLiteral("Export picture"), error);
}

void ExportActions::chartsDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(m_window, QStringLiteral("Folder for the charts"));
    if (dir.isEmpty())
        return;
    const QString error = exportCharts(dir, QStringLiteral("topocast"));
    if (!error.isEmpty())
        QMessageBox::warning(m_window, QStringLiteral("Export charts"), error);
}

void ExportActions::dataDialog()
{
    QStringList filters;
    for (const DataChoice& c : kDataChoices)
        filters << QStringLiteral("%1 — %2").arg(QString::fromUtf8(c.label), QString::fromUtf8(c.filter));
    QString chosen;
    QString path = QFileDialog::getSaveFileName(m_window, QStringLiteral("Export data"),
                                                QDir::home().filePath(QStringLiteral("topocast.json")),
                                                filters.join(QStringLiteral(";;")), &chosen);
    if (path.isEmpty())
        return;
    const auto index = std::max<qsizetype>(0, filters.indexOf(chosen));
    const DataChoice& c = kDataChoices[static_cast<std::size_t>(index)];
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + QString::fromUtf8(c.suffix);
    const QString error = exportData(path, c.format, c.graph);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, QStringLiteral("Export data"), error);
}

} // namespace topocast::app
