// File ▸ Export from the window: data formats, charts as PNG + SVG, a picture at any
// size, and the animation with its progress dialog — cancelled through the dialog's own button.
#include "export/exportactions.h"
#include "helpers.h"
#include "mainwindow.h"
#include "panels/layercharts.h"
#include "session/session.h"
#include "timeline/timeline.h"

#include "topocast/io/schedule_json.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProgressDialog>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace topocast;
using namespace topocast::app;

namespace {

QString scenarioPath(const char* name)
{
    return QStringLiteral(TOPOCAST_SOURCE_DIR "/resources/scenarios/") + QString::fromLatin1(name);
}

/// Opens a scenario in the window and waits for its schedule.
void open(MainWindow& w, const char* name)
{
    QSignalSpy ready(w.session(), &Session::scheduleReady);
    REQUIRE(w.openScenario(scenarioPath(name)));
    REQUIRE((ready.count() > 0 || ready.wait(30000)));
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

TEST_CASE("File ▸ Export ▸ Data writes the schedule and graphs, a bad folder is named", "[app][export]")
{
    MainWindow w(false);
    open(w, "cang-wu-4x4.json");
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("s.json"));
    CHECK(w.exportActions()->exportData(json, ExportFormat::Json).isEmpty());
    const Schedule back = scheduleFromJson(nlohmann::json::parse(readAll(json).toStdString()));
    CHECK(back.stepCount() == 4);
    CHECK(back.transfers().size() == 15);
    const QString dot = dir.filePath(QStringLiteral("tree.dot"));
    CHECK(w.exportActions()->exportData(dot, ExportFormat::Dot, ExportGraph::Tree).isEmpty());
    CHECK(readAll(dot).startsWith("digraph"));
    CHECK(w.statusBar()->currentMessage() == QStringLiteral("wrote ") + dot);

    const QString bad = dir.filePath(QStringLiteral("no/such/folder/s.csv"));
    const QString error = w.exportActions()->exportData(bad, ExportFormat::Csv);
    CHECK(error.contains(QStringLiteral("no/such/folder")));
    CHECK_FALSE(QFileInfo::exists(bad));
    CHECK(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size() == 2); // no temporaries
}

TEST_CASE("File ▸ Export ▸ Charts writes every divisible-load chart as PNG and SVG", "[app][export]")
{
    MainWindow w(false);
    open(w, "divisible-scatter3.json");
    REQUIRE(w.layerCharts()->chartCount() == 3);
    CHECK(w.layerCharts()->chartNames() ==
          QStringList{QStringLiteral("load-shares"), QStringLiteral("gantt"), QStringLiteral("speedup")});
    QTemporaryDir dir;
    CHECK(w.exportActions()->exportCharts(dir.path(), QStringLiteral("fig")).isEmpty());
    for (const char* name : {"load-shares", "gantt", "speedup"}) {
        const QString base = dir.filePath(QStringLiteral("fig-") + QString::fromLatin1(name));
        const QImage png(base + QStringLiteral(".png"));
        INFO(name);
        REQUIRE_FALSE(png.isNull());
        CHECK(png.width() >= 400);
        const QByteArray svg = readAll(base + QStringLiteral(".svg"));
        CHECK(svg.contains("<svg"));
        CHECK(svg.contains("</svg>"));
    }
    CHECK(readAll(dir.filePath(QStringLiteral("fig-load-shares.svg"))).contains("Load per layer"));
    CHECK(readAll(dir.filePath(QStringLiteral("fig-speedup.svg"))).contains("Speedup against layers"));

    // A scenario without charts says so.
    open(w, "cang-wu-4x4.json");
    CHECK(w.exportActions()->exportCharts(dir.path(), QStringLiteral("x")).contains(QStringLiteral("no charts")));
}

TEST_CASE("File ▸ Export ▸ Picture renders the current view at the size asked", "[app][export][gl]")
{
    MainWindow w(false);
    w.show();
    open(w, "cang-wu-4x4x4.json");
    w.timeline()->setStep(2);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("view.png"));
    CHECK(w.exportActions()->exportPicture(path, QSize(1920, 1080)).isEmpty());
    CHECK(QImage(path).size() == QSize(1920, 1080));
}

TEST_CASE("File ▸ Export ▸ Animation: the progress dialog's Cancel stops it and writes nothing", "[app][export][gl]")
{
    MainWindow w(false);
    w.show();
    open(w, "cang-wu-4x4.json");
    QTemporaryDir dir;
    AnimationSettings s;
    s.output = dir.filePath(QStringLiteral("a.gif")).toStdString();
    s.format = video::VideoFormat::Gif;
    s.view = w.exportActions()->currentView(QSize(240, 160));
    s.fps = 10;
    s.framesPerStep = 2;
    s.holdFrames = 0;

    bool sawDialog = false;
    auto connection = QObject::connect(w.exportActions(), &ExportActions::animationProgress, [&](int done, int total) {
        CHECK(total == 9);
        if (done == 3) {
            auto* dialog = w.findChild<QProgressDialog*>();
            sawDialog = dialog && dialog->isVisible() && dialog->maximum() == 9 && dialog->value() == 3;
            if (dialog)
                dialog->cancel();
        }
    });
    CHECK(w.exportActions()->exportAnimation(s) == QStringLiteral("cancelled"));
    CHECK(sawDialog);
    CHECK_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("a.gif"))));
    CHECK(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    QObject::disconnect(connection);

    CHECK(w.exportActions()->exportAnimation(s).isEmpty());
    CHECK(QFileInfo(dir.filePath(QStringLiteral("a.gif"))).size() > 0);
    CHECK(w.statusBar()->currentMessage().startsWith(QStringLiteral("wrote ")));
    CHECK(w.statusBar()->currentMessage().contains(QStringLiteral("9 frames, 240×160 at 10 fps")));
}
