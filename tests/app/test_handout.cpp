// Handouts: a title page and one page per step with the step's picture,
// narration and figures, as a PDF (File ▸ Export ▸ Handout and `topocast-cli handout`).
#include "cli_runner.h"
#include "export/handout.h"
#include "helpers.h"
#include "style/scenestyle.h"
#include "temp_dir.h"

#include "topocast/analysis/grade.h"
#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

using namespace topocast;
using namespace topocast::app;
using topocast::testing::runCli;
using topocast::testing::TempDir;

namespace {

std::string handoutScenario(const char* name)
{
    return std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name;
}

/// Pages of a PDF by its page objects ("/Type /Page", not "/Pages"): Qt's PDF writer keeps
/// them uncompressed, so no PDF library is needed.
int pdfPageObjects(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QString text = QString::fromLatin1(f.readAll());
    return static_cast<int>(text.count(QRegularExpression(QStringLiteral("/Type\\s*/Page(?![a-zA-Z])"))));
}

/// `pdfinfo`'s "Pages:" (poppler-utils), or −1 when pdfinfo is not installed.
int pdfinfoPages(const QString& path)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    if (tool.isEmpty())
        return -1;
    QProcess p;
    p.start(tool, {path});
    if (!p.waitForFinished(30000))
        return -2;
    const auto m =
        QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(QString::fromLatin1(p.readAllStandardOutput()));
    return m.hasMatch() ? m.captured(1).toInt() : -3;
}

/// Grey-level standard deviation of `image` within `rect` (fractions of its size).
double stdDev(const QImage& image, QRectF rect)
{
    double sum = 0, sum2 = 0;
    int n = 0;
    const int x0 = static_cast<int>(rect.left() * image.width()), x1 = static_cast<int>(rect.right() * image.width());
    const int y0 = static_cast<int>(rect.top() * image.height()), y1 = static_cast<int>(rect.bottom() * image.height());
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            const double g = qGray(image.pixel(x, y));
            sum += g;
            sum2 += g * g;
            ++n;
        }
    const double mean = sum / n;
    return std::sqrt(std::max(0.0, sum2 / n - mean * mean));
}

} // namespace

TEST_CASE("handout: cang-wu-4x4x4-eye has 1 + steps pages, each with a picture that is not blank",
          "[app][handout][gl][cli]")
{
    TempDir dir;
    const QString out = QString::fromStdString((dir.path / "eye.pdf").string());
    const auto r =
        runCli({"handout", "--scenario", handoutScenario("cang-wu-4x4x4-eye.json"), "--out", out.toStdString()});
    INFO(r.err);
    REQUIRE(r.status == 0);
    // The eye schedule of the 4×4×4 mesh has d·k = 3·2 = 6 steps (docs/papers/mesh-tcd.md).
    CHECK_THAT(r.out, Catch::StartsWith("wrote " + out.toStdString() + ": 7 pages (a title page and steps 1-6), A4"));
    CHECK(pdfPageObjects(out) == 7);
    const int info = pdfinfoPages(out);
    if (info == -1)
        WARN("pdfinfo (poppler-utils) is not installed: the page count was checked by parsing only");
    else
        CHECK(info == 7);
    CHECK(dir.names() == std::set<std::string>{"eye.pdf"}); // no temporary left beside it

    // Every page as printed (pdftoppm at 30 dpi): the picture band of each page varies (the
    // network drawn on the dark background); the margin above the title is blank paper.
    const QString ppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    if (ppm.isEmpty()) {
        WARN("pdftoppm (poppler-utils) is not installed: the pictures are checked before they are drawn only");
    } else {
        QProcess p;
        p.start(ppm, {QStringLiteral("-r"), QStringLiteral("30"), QStringLiteral("-png"), out,
                      QString::fromStdString((dir.path / "page").string())});
        REQUIRE(p.waitForFinished(60000));
        REQUIRE(p.exitCode() == 0);
        for (int page = 1; page <= 7; ++page) {
            const QImage img(QString::fromStdString((dir.path / ("page-" + std::to_string(page) + ".png")).string()));
            REQUIRE_FALSE(img.isNull());
            INFO("page " << page);
            CHECK(stdDev(img, QRectF(0.0, 0.0, 1.0, 0.04)) < 1.0); // the top margin: white
            // Step pages: the picture sits below the heading, in the upper half of the page.
            const QRectF band = page == 1 ? QRectF(0.1, 0.55, 0.8, 0.3) : QRectF(0.15, 0.12, 0.7, 0.3);
            CHECK(stdDev(img, band) > 8.0);
        }
    }
}

namespace {

/// Blobs of `want`'s colour (within 40 per channel, at least 6 pixels, 8-connected) inside the
/// dark picture of a printed page: the rows and columns that are mostly near-black (the
/// legend's swatches below it are not).
int colourBlobsInPicture(const QImage& page, const QColor& want)
{
    auto dark = [&](int x, int y) { return qGray(page.pixel(x, y)) < 40; };
    int top = -1, bottom = -1;
    for (int y = 0; y < page.height(); ++y) {
        int n = 0;
        for (int x = 0; x < page.width(); ++x)
            n += dark(x, y);
        if (n > page.width() * 3 / 10) {
            top = top < 0 ? y : top;
            bottom = y;
        }
    }
    int left = -1, right = -1;
    for (int x = 0; top >= 0 && x < page.width(); ++x) {
        int n = 0;
        for (int y = top; y <= bottom; ++y)
            n += dark(x, y);
        if (n > (bottom - top + 1) * 3 / 10) {
            left = left < 0 ? x : left;
            right = x;
        }
    }
    return test::colourBlobs(page, QRect(QPoint(left, top), QPoint(right, bottom)), want);
}

} // namespace

TEST_CASE("handout: each step's page shows its receivers in the receiving colour, no label over them",
          "[app][handout][gl]")
{
    // Issue: on the 4×4×4 handout the 64 labels covered the network and the step's one transfer
    // could not be seen. Pages 2–4 are steps 1–3 of the eye schedule: 1, 2 and 4 receivers (the
    // eye (1,1,1) sends to (2,1,1); then both to z = 2; then the four to y = 2 …).
    const SnapshotPtr snap = buildSnapshot(loadScenario(handoutScenario("cang-wu-4x4x4-eye.json")));
    const QString ppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    if (ppm.isEmpty()) {
        WARN("pdftoppm (poppler-utils) is not installed: the printed pictures are not checked");
        return;
    }
    TempDir dir;
    const QString out = QString::fromStdString((dir.path / "h.pdf").string());
    HandoutSettings settings;
    settings.firstStep = 1;
    settings.lastStep = 3;
    REQUIRE(writeHandout(snap, out, settings).pages == 4);
    QProcess p;
    p.start(ppm, {QStringLiteral("-r"), QStringLiteral("100"), QStringLiteral("-png"), out,
                  QString::fromStdString((dir.path / "page").string())});
    REQUIRE(p.waitForFinished(60000));
    REQUIRE(p.exitCode() == 0);
    const QColor receiving = Palette::normal().receiving.to<QColor>();
    for (int step = 1; step <= 3; ++step) {
        std::set<NodeId> receivers;
        for (const Transfer& t : snap->schedule.stepTransfers(StepNo{step}))
            receivers.insert(t.to);
        const QImage page(QString::fromStdString((dir.path / ("page-" + std::to_string(step + 1) + ".png")).string()));
        REQUIRE_FALSE(page.isNull());
        INFO("step " << step << ": " << receivers.size() << " receivers");
        CHECK(colourBlobsInPicture(page, receiving) == static_cast<int>(receivers.size()));
    }
}

TEST_CASE("handout: writeHandout renders each step at print resolution and writes atomically", "[app][handout][gl]")
{
    const SnapshotPtr snap = buildSnapshot(loadScenario(handoutScenario("cang-wu-4x4x4-eye.json")));
    TempDir dir;
    const QString out = QString::fromStdString((dir.path / "h.pdf").string());
    HandoutSettings settings;
    settings.pageSize = QPageSize::Letter;
    settings.firstStep = 2;
    settings.lastStep = 4;
    settings.dpi = 150;
    const HandoutResult r = writeHandout(snap, out, settings);
    CHECK(r.pages == 4);
    CHECK(pdfPageObjects(out) == 4);
    // Letter is 8.5 in wide; 16 mm margins each side leave 8.5 − 1.26 = 7.24 in ≈ 1086 px at
    // 150 dpi, the picture 4:5 of that.
    CHECK(std::abs(r.pictureSize.width() - 1086) <= 2);
    CHECK(r.pictureSize.height() == r.pictureSize.width() * 4 / 5);
    CHECK(r.minPictureStdDev > 8.0);

    // A bad range is refused before anything is written: the file from before stays as it was.
    QFile before(out);
    REQUIRE(before.open(QIODevice::ReadOnly));
    const QByteArray bytes = before.readAll();
    before.close();
    settings.lastStep = 9;
    CHECK_THROWS_WITH(writeHandout(snap, out, settings), "steps 2-9 are not within the schedule's steps 1..6");
    QFile after(out);
    REQUIRE(after.open(QIODevice::ReadOnly));
    CHECK(after.readAll() == bytes);
}

TEST_CASE("handout: the pictures take the scenario's own mode unless --mode says otherwise", "[app][handout][gl][cli]")
{
    TempDir dir;
    const std::string out = (dir.path / "ring.pdf").string();
    // The ring all-reduce preset opens in Data held ("view": {"mode": "data"}); so do its pages.
    const std::string sc = std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/ring-allreduce-torus-4x4.json";
    const auto own = runCli({"handout", "--scenario", sc, "--out", out, "--steps", "8", "--dpi", "72"});
    INFO(own.err);
    REQUIRE(own.status == 0);
    CHECK_THAT(own.out, Catch::EndsWith("mode data, theme light\n"));
    const auto plain =
        runCli({"handout", "--scenario", sc, "--out", out, "--steps", "8", "--dpi", "72", "--mode", "plain"});
    REQUIRE(plain.status == 0);
    CHECK_THAT(plain.out, Catch::EndsWith("mode plain, theme light\n"));
    // The title page shows the network before the first printed step, not after the last.
    const QString text = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (text.isEmpty()) {
        WARN("pdftotext (poppler-utils) is not installed: the title page's words were not read");
        return;
    }
    QProcess p;
    p.start(text, {QString::fromStdString(out), QStringLiteral("-")});
    REQUIRE(p.waitForFinished(60000));
    const QString words = QString::fromUtf8(p.readAllStandardOutput()).simplified();
    CHECK(words.contains(QStringLiteral("The picture below: the network before step 8.")));
}

TEST_CASE("handout: pictures print on white paper by default with each step's receivers in the print colour, and dark "
          "as a choice",
          "[app][handout][gl][cli]")
{
    // Issue: pages printed on a dark background. The class set's pictures are light now; --theme
    // dark keeps the window's look.
    const QString ppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    if (ppm.isEmpty()) {
        WARN("pdftoppm (poppler-utils) is not installed: the printed pictures are not checked");
        return;
    }
    TempDir dir;
    const std::string sc = handoutScenario("cang-wu-4x4x4-eye.json");
    auto pages = [&](const std::string& theme) {
        const std::string out = (dir.path / (theme + ".pdf")).string();
        const auto r =
            runCli({"handout", "--scenario", sc, "--out", out, "--steps", "1-3", "--dpi", "100", "--theme", theme});
        INFO(r.err);
        REQUIRE(r.status == 0);
        CHECK_THAT(r.out, Catch::EndsWith("theme " + theme + "\n"));
        QProcess p;
        p.start(ppm, {QStringLiteral("-r"), QStringLiteral("100"), QStringLiteral("-png"), QString::fromStdString(out),
                      QString::fromStdString((dir.path / theme).string())});
        REQUIRE(p.waitForFinished(60000));
        REQUIRE(p.exitCode() == 0);
        std::vector<QImage> images;
        for (int page = 2; page <= 4; ++page)
            images.emplace_back(
                QString::fromStdString((dir.path / (theme + "-" + std::to_string(page) + ".png")).string()));
        return images;
    };
    auto darkShare = [](const QImage& img) {
        int dark = 0, all = 0;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3, ++all)
                dark += qGray(img.pixel(x, y)) < 40;
        return static_cast<double>(dark) / all;
    };
    const auto light = pages("light"), dark = pages("dark");
    const SnapshotPtr snap = buildSnapshot(loadScenario(sc));
    for (std::uint32_t step = 1; step <= 3; ++step) {
        const QImage& page = light[step - 1];
        REQUIRE_FALSE(page.isNull());
        REQUIRE_FALSE(dark[step - 1].isNull());
        INFO("step " << step);
        CHECK(darkShare(page) < 0.12);          // white paper, dark label plates only
        CHECK(darkShare(dark[step - 1]) > 0.3); // the window's dark picture
        // The step's receivers, and the legend's swatch of "receiving now", in the print palette's
        // receiving colour.
        const auto receivers = static_cast<int>(stepReceivers(snap->schedule, StepNo{step}).size());
        CHECK(test::colourBlobs(page, page.rect(), Palette::print().receiving.to<QColor>()) == receivers + 1);
    }
}

TEST_CASE("topocast-cli handout: bad options are refused naming what is allowed", "[app][handout][cli]")
{
    TempDir dir;
    const std::string out = (dir.path / "x.pdf").string();
    {
        std::ofstream keep(out);
        keep << "old";
    }
    const std::string sc = handoutScenario("cang-wu-4x4x4-eye.json");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--size", "A5"}, "--size A5 is not a page size topocast knows; use A4 or letter"},
        {{"--steps", "3-9"}, "step range '3-9' is not all, N, A-B or A- within 1..6"},
        {{"--steps", "0"}, "within 1..6"},
        {{"--dpi", "1000"}, "--dpi: Value 1000 not in range 72 to 600"},
        {{"--mode", "sparkly"},
         "--mode sparkly is not one of plain, contention, heatmap, source-map, layers, trees, data"},
        {{"--theme", "sepia"},
         "--theme sepia is not a theme topocast knows; use light (white paper) or dark (as the window)"},
    };
    for (const auto& [extra, message] : cases) {
        std::vector<std::string> args = {"handout", "--scenario", sc, "--out", out};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = runCli(args);
        INFO(extra.front() << " " << extra.back());
        CHECK(r.status == 2);
        CHECK_THAT(r.err, Catch::Contains(message));
    }
    std::ifstream in(out);
    std::string kept;
    in >> kept;
    CHECK(kept == "old"); // nothing the user had is lost
    CHECK(parseHandoutPageSize(QStringLiteral("letter")) == QPageSize::Letter);
    CHECK(parseHandoutPageSize(QStringLiteral(" a4 ")) == QPageSize::A4);
    CHECK_FALSE(parseHandoutPageSize(QStringLiteral("A3")));
}

TEST_CASE("topocast-cli handout without a display says how to run it", "[app][handout][cli]")
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TOPOCAST_CLI_PATH),
            {QStringLiteral("handout"), QStringLiteral("--scenario"),
             QString::fromStdString(handoutScenario("cang-wu-4x4x4-eye.json")), QStringLiteral("--out"),
             QStringLiteral("/tmp/never-written-handout.pdf")});
    REQUIRE(p.waitForFinished(60000));
    CHECK(p.exitCode() == 2);
    CHECK_THAT(QString::fromLocal8Bit(p.readAllStandardError()).toStdString(),
               Catch::Contains("handout needs OpenGL for its pictures and there is no display") &&
                   Catch::Contains("xvfb-run -a"));
    CHECK_FALSE(QFile::exists(QStringLiteral("/tmp/never-written-handout.pdf")));
}

TEST_CASE("handout exercise: steps to fill in show the network before the step and an empty table and the key names "
          "the receivers",
          "[app][handout][gl]")
{
    const SnapshotPtr snap = buildSnapshot(loadScenario(handoutScenario("cang-wu-8x8-corner.json")));
    TempDir dir;
    const QString out = QString::fromStdString((dir.path / "ex.pdf").string());
    HandoutSettings settings;
    settings.firstStep = 1;
    settings.lastStep = 3;
    settings.dpi = 100;
    settings.exercise = true;
    const HandoutResult r = writeHandout(snap, out, settings);
    CHECK(r.answerKeyPages == 1);
    CHECK(r.pages == 5); // title, steps 1-3, the key
    CHECK(pdfPageObjects(out) == 5);
    const QString ppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    const QString totext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (ppm.isEmpty() || totext.isEmpty()) {
        WARN("poppler-utils is not installed: the printed exercise is not read back");
        return;
    }
    const auto pageText = [&](int page) {
        QProcess p;
        p.start(totext, {QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"), QString::number(page), out,
                         QStringLiteral("-")});
        REQUIRE(p.waitForFinished(30000));
        return QString::fromUtf8(p.readAllStandardOutput());
    };
    QProcess p;
    p.start(ppm, {QStringLiteral("-r"), QStringLiteral("100"), QStringLiteral("-png"), out,
                  QString::fromStdString((dir.path / "page").string())});
    REQUIRE(p.waitForFinished(60000));
    REQUIRE(p.exitCode() == 0);
    const QColor receiving = Palette::normal().receiving.to<QColor>();
    for (std::uint32_t k = 1; k <= 3; ++k) {
        INFO("step " << k);
        const QString text = pageText(static_cast<int>(k) + 1);
        CHECK(text.contains(QStringLiteral("Step %1 of 6 — your turn").arg(k)));
        CHECK(text.contains(QStringLiteral("Sender")));
        CHECK_FALSE(text.contains(QStringLiteral("sends to"))); // no narration: it would give the answer away
        // The picture is the network before the step: the receiving colour marks the step before's receivers.
        const QImage page(QString::fromStdString((dir.path / ("page-" + std::to_string(k + 1) + ".png")).string()));
        REQUIRE_FALSE(page.isNull());
        const int before = k == 1 ? 0 : static_cast<int>(stepReceivers(snap->schedule, StepNo{k - 1}).size());
        CHECK(colourBlobsInPicture(page, receiving) == before);
    }
    const QString key = pageText(5);
    CHECK(key.contains(QStringLiteral("Answer key")));
    CHECK(key.contains(QStringLiteral("Receive (1): (5,2)")));
    CHECK(key.contains(QStringLiteral("Receive (2): (1,5), (5,5)")));
    CHECK(key.contains(QStringLiteral("(0,0) → (5,2) (7)")));
}
