// Exports that stand alone: a title line with the step's narration and a legend strip in bands of
// their own around the 3-D view, captions burned into the picture, a default pace a room can read
// (1.5 s a step, a hold at the end), and a source map's colour bar in its pictures.
#include "cli_runner.h"
#include "commands.h"
#include "export/animationexport.h"
#include "export/frameoverlay.h"
#include "helpers.h"
#include "launch/startup.h"
#include "words/narration.h"

#include "decode.h"

#include "topocast/io/captions.h"
#include "topocast/io/scenario_json.h"

#include <catch2/catch.hpp>

#include <QImage>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace topocast;
using namespace topocast::app;
using topocast::testing::TempDir;

namespace {

std::string preset(const char* name)
{
    return std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name;
}

/// Cang-Wu 4×4 from (1,0), paper mode: 4 steps.
SnapshotPtr cangWu4x4Snapshot()
{
    return buildSnapshot(loadScenario(preset("cang-wu-4x4.json")));
}

/// Light pixels (the overlay's words are near white on a dark band) in `r` of `img`.
int lightPixels(const QImage& img, const QRect& r)
{
    int n = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor c = img.pixelColor(x, y);
            n += c.red() > 190 && c.green() > 190 && c.blue() > 190;
        }
    return n;
}

/// Rows of `r` with light pixels, first to last: how tall the words are drawn.
int lightRowSpan(const QImage& img, const QRect& r)
{
    int first = -1, last = -1;
    for (int y = r.top(); y <= r.bottom(); ++y)
        if (lightPixels(img, QRect(r.left(), y, r.width(), 1)) > 0) {
            first = first < 0 ? y : first;
            last = y;
        }
    return first < 0 ? 0 : last - first + 1;
}

/// Pixels of `r` within `tolerance` of `want` in every channel.
int pixelsNear(const QImage& img, const QRect& r, const QColor& want, int tolerance)
{
    int n = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor c = img.pixelColor(x, y);
            n += std::abs(c.red() - want.red()) <= tolerance && std::abs(c.green() - want.green()) <= tolerance &&
                 std::abs(c.blue() - want.blue()) <= tolerance;
        }
    return n;
}

QImage decodedFrame(const testing::Decoded& d, std::size_t frame)
{
    QImage img(d.frames[frame].data(), d.width, d.height, d.width * 4, QImage::Format_RGBA8888);
    return img.copy();
}

double vttSeconds(const std::string& t) // "00:00:01.500"
{
    return std::stoi(t.substr(0, 2)) * 3600.0 + std::stoi(t.substr(3, 2)) * 60.0 + std::stod(t.substr(6));
}

/// Pixels of `r` in a saturated colour (a node's, a link's or a message's state; not the greys,
/// the black caption box or its white words): the largest and smallest channel 60 or more apart.
int saturatedPixels(const QImage& img, const QRect& r)
{
    int n = 0;
    for (int y = std::max(0, r.top()); y <= std::min(img.height() - 1, r.bottom()); ++y)
        for (int x = std::max(0, r.left()); x <= std::min(img.width() - 1, r.right()); ++x) {
            const QColor c = img.pixelColor(x, y);
            n += std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) >= 60;
        }
    return n;
}

} // namespace

TEST_CASE("overlay: at 1280×720 the title is 24 px type, and the bands leave the view its own space", "[app][export]")
{
    const SnapshotPtr snap = cangWu4x4Snapshot();
    const Palette palette = Palette::normal();
    const LegendStrip legend = legendStrip(*snap, ViewMode::Plain, true, palette);
    const OverlayLayout l = overlayLayout(QSize(1280, 720), FrameOverlay{true, true, false}, legend);
    CHECK(l.fontPx >= 22);
    CHECK(l.legendPx >= 20);
    CHECK(l.title.top() == 0);
    CHECK(l.view.top() == l.title.bottom() + 1);
    CHECK(l.legend.top() == l.view.bottom() + 1);
    CHECK(l.legend.bottom() == 719);
    CHECK(l.view.width() == 1280);
    CHECK(l.view.height() >= 720 * 3 / 4); // the network keeps most of the frame
    // A thumbnail too small for legible bands drops them rather than squeeze the view.
    const OverlayLayout thumb = overlayLayout(QSize(128, 96), FrameOverlay{true, true, false}, legend);
    CHECK(thumb.view.height() >= 48);
    CHECK(thumb.fontPx >= 9);

    // What a person sees: the view untouched, the step's words in the title band in type at least
    // 22 px from the top of its tallest letter to the bottom of its lowest, a swatch of every
    // legend colour in the strip.
    QImage view(l.view.size(), QImage::Format_RGB32);
    view.fill(QColor(255, 0, 255));
    const FrameText text = frameText(*snap, 2, FrameOverlay{true, true, false}, l);
    CHECK(text.title == narrate(*snap, 2));
    const QImage frame = composeFrame(view, l, text, legend, palette);
    REQUIRE(frame.size() == QSize(1280, 720));
    CHECK(pixelsNear(frame, l.view, QColor(255, 0, 255), 0) == l.view.width() * l.view.height());
    CHECK(lightPixels(frame, l.title) > 500);
    CHECK(lightRowSpan(frame, l.title) >= 22);
    REQUIRE(legend.entries.size() >= 4);
    for (const auto& [colour, words] : legend.entries) {
        INFO(words.toStdString());
        CHECK(pixelsNear(frame, l.legend, colour, 0) >= 100); // a swatch of 10×10 px or more
    }
    CHECK(lightPixels(frame, l.legend) > 500); // and its words
}

TEST_CASE("overlay: a long narration spells out fewer transfers to fit its two lines", "[app][export]")
{
    const SnapshotPtr snap = buildSnapshot(loadScenario(preset("default.json")));
    const OverlayLayout l = overlayLayout(QSize(640, 360), FrameOverlay{true, false, false}, {});
    const std::uint32_t last = snap->stepCount();
    const QString full = narrate(*snap, static_cast<int>(last));
    const QString title = frameText(*snap, static_cast<int>(last), FrameOverlay{true, false, false}, l).title;
    INFO(title.toStdString());
    CHECK(title.startsWith(QStringLiteral("Step %1").arg(last)));
    CHECK(title.size() < full.size());
    CHECK(title.contains(QStringLiteral("more")));
    // With the captions burned in, the title is the heading only and the caption is the narration.
    const OverlayLayout both = overlayLayout(QSize(640, 360), FrameOverlay{true, false, true}, {});
    const FrameText t = frameText(*snap, 1, FrameOverlay{true, false, true}, both);
    INFO(t.title.toStdString());
    CHECK(t.title.startsWith(QStringLiteral("Step 1 of %1").arg(last))); // and the step's label
    CHECK_FALSE(t.title.contains(QStringLiteral("sends to")));
    CHECK(t.caption.startsWith(QStringLiteral("Step 1 ")));
    CHECK(t.caption.contains(QStringLiteral("sends to")));
    CHECK_FALSE(both.view.intersects(both.caption)); // the captions own a band under the view
    CHECK(both.caption.top() == both.view.bottom() + 1);
}

TEST_CASE("export: the default pace is 1.5 s a step at any frame rate, and the end is held 2 s", "[app][export]")
{
    const SnapshotPtr snap = cangWu4x4Snapshot();
    AnimationSettings s;
    CHECK(framesPerStepFor(s) == 45);
    CHECK(holdFramesFor(s) == 60);
    const auto frames = exportFrames(*snap, s);
    CHECK(frames.size() == 4 * 45 + 1 + 60);
    for (const CaptionCue& c : captionCues(frames)) {
        INFO("step " << c.step);
        CHECK(static_cast<double>(c.endFrame - c.firstFrame) / s.fps >= 1.5);
    }
    s.fps = 12;
    CHECK(framesPerStepFor(s) == 18);
    CHECK(holdFramesFor(s) == 24);
    s.fps = 25;
    CHECK(framesPerStepFor(s) * 1.0 / s.fps >= 1.5);
    s.framesPerStep = 3; // given: as given
    CHECK(framesPerStepFor(s) == 3);
}

TEST_CASE("render with default options: ≥ 1.5 s a step in the VTT cues, a hold, and the words in the frames",
          "[app][export][captions][gl]")
{
    TempDir dir;
    const std::string out = (dir.path / "anim.mp4").string();
    const auto r = testing::runCli(
        {"render", "--scenario", preset("cang-wu-4x4.json"), "--out", out, "--width", "320", "--height", "180"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("45 frames per step"));
    std::ifstream in(dir.path / "anim.vtt");
    std::stringstream vtt;
    vtt << in.rdbuf();
    const std::string text = vtt.str();
    const std::regex cue(R"((\d\d:\d\d:\d\d\.\d\d\d) --> (\d\d:\d\d:\d\d\.\d\d\d)\n)");
    std::vector<std::pair<double, double>> cues;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), cue); it != std::sregex_iterator(); ++it)
        cues.emplace_back(vttSeconds((*it)[1]), vttSeconds((*it)[2]));
    REQUIRE(cues.size() == 4);
    for (std::size_t i = 0; i < cues.size(); ++i) {
        INFO("cue " << i + 1);
        CHECK(cues[i].second - cues[i].first >= 1.5 - 1e-9);
    }
    CHECK(cues.back().second - cues.back().first >= 1.5 + 2.0 - 1e-9); // the last step, then the hold

    // The last frame as a viewer sees it: the title band has words, the strip every legend colour.
    const SnapshotPtr snap = cangWu4x4Snapshot();
    const LegendStrip legend = legendStrip(*snap, ViewMode::Plain, true, Palette::normal());
    const OverlayLayout l = overlayLayout(QSize(320, 180), FrameOverlay{true, true, false}, legend);
    const auto decoded = testing::decodeFile(out);
    REQUIRE(decoded.frames.size() == 4 * 45 + 1 + 60);
    const QImage last = decodedFrame(decoded, decoded.frames.size() - 1);
    CHECK(lightPixels(last, l.title) > 40);
    for (const auto& [colour, words] : legend.entries) {
        INFO(words.toStdString());
        CHECK(pixelsNear(last, l.legend, colour, 40) >= 4);
    }
}

TEST_CASE("render --captions burn: the captions own a band under the view, words in it and nothing of the network",
          "[app][export][captions][gl]")
{
    // Issue: burned captions covered the bottom row of the 4×4 torus and, on the 8×8×8, the planes
    // holding the step's receivers. Now the view is rendered above a band of their own.
    TempDir dir;
    const QSize size(320, 180);
    const auto frames = [&](const char* name, std::vector<std::string> extra) {
        std::vector<std::string> args = {"render",
                                         "--scenario",
                                         preset("cang-wu-4x4.json"),
                                         "--out",
                                         (dir.path / name).string() + "/",
                                         "--width",
                                         "320",
                                         "--height",
                                         "180",
                                         "--steps",
                                         "2",
                                         "--frames-per-step",
                                         "1",
                                         "--hold-frames",
                                         "0"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = testing::runCli(args);
        INFO(r.err);
        REQUIRE(r.status == 0);
        return QImage(QString::fromStdString((dir.path / name / video::VideoEncoder::frameFileName(2)).string()));
    };
    for (const char* overlay : {"off", "on"}) {
        INFO("--overlay " << overlay);
        const bool on = std::string(overlay) == "on";
        const QImage burnt =
            frames((std::string("burnt-") + overlay).c_str(), {"--overlay", overlay, "--captions", "burn"});
        REQUIRE(burnt.size() == size);
        const SnapshotPtr snap = cangWu4x4Snapshot();
        const OverlayLayout l =
            overlayLayout(size, FrameOverlay{on, on, true},
                          on ? legendStrip(*snap, ViewMode::Plain, true, Palette::normal()) : LegendStrip{});
        REQUIRE_FALSE(l.caption.isEmpty());
        CHECK_FALSE(l.view.intersects(l.caption));
        CHECK_FALSE(l.legend.intersects(l.caption));
        CHECK(lightPixels(burnt, l.caption) > 40);     // words
        CHECK(saturatedPixels(burnt, l.caption) == 0); // no node, link or message under them
        CHECK(saturatedPixels(burnt, l.view) > 20);    // the network is drawn above
    }
}

TEST_CASE("captions: on every preset's frame the burned captions cover no node, link or message",
          "[app][export][captions][gl]")
{
    int presets = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios")) {
        if (entry.path().extension() != ".json")
            continue;
        Scenario sc = loadScenario(entry.path());
        sc.compare.reset(); // each side is drawn as a scenario of its own
        const SnapshotPtr snap = buildSnapshot(sc);
        ViewSettings view;
        view.size = QSize(640, 360);
        view.mode = parseViewMode(QString::fromStdString(scenarioViewMode(sc))).value_or(ViewMode::Plain);
        view.overlay = FrameOverlay{true, true, true};
        const int step = static_cast<int>(snap->stepCount()); // the busiest picture: every node holds data
        const QImage frame = renderPicture(snap, view, step);
        const OverlayLayout l =
            overlayLayout(view.size, *view.overlay, legendStrip(*snap, view.mode, true, Palette::normal()));
        INFO(entry.path().filename().string() << " step " << step);
        REQUIRE(frame.size() == view.size);
        CHECK_FALSE(l.view.intersects(l.caption));
        CHECK(lightPixels(frame, l.caption) > 40);
        CHECK(saturatedPixels(frame, l.caption) == 0);
        ++presets;
    }
    CHECK(presets >= 30);
}

TEST_CASE("a source-map picture carries its colour bar with numbers", "[app][export][gl]")
{
    TempDir dir;
    const std::string out = (dir.path / "map.png").string();
    QString error;
    ScreenshotOptions o;
    o.scenarioFile = QString::fromStdString(preset("cang-wu-4x4.json"));
    o.step = 0;
    o.mode = ViewMode::SourceMap;
    o.output = QString::fromStdString(out);
    o.size = QSize(640, 360);
    REQUIRE(renderScreenshot(o, error) == 0);
    const QImage img(QString::fromStdString(out));
    REQUIRE(img.size() == o.size);
    const SnapshotPtr snap = cangWu4x4Snapshot(); // the TCD source map comes with a small network
    REQUIRE_FALSE(snap->sourceMap.empty());
    const LegendStrip legend = legendStrip(*snap, ViewMode::SourceMap, true, Palette::normal());
    REQUIRE(legend.bar);
    REQUIRE(legend.bar->labels.size() >= 2);
    const OverlayLayout l = overlayLayout(o.size, defaultPictureOverlay(ViewMode::SourceMap), legend);
    REQUIRE(l.title.isEmpty());
    REQUIRE_FALSE(l.legend.isEmpty());
    // The bar's low and high ends and its numbers (light words) are in the strip under the view.
    CHECK(pixelsNear(img, l.legend, legend.bar->stops.front(), 6) >= 20);
    CHECK(pixelsNear(img, l.legend, legend.bar->stops.back(), 6) >= 20);
    CHECK(lightPixels(img, l.legend) > 200);
    // Without it (a plain picture) the strip is not there: the view fills the picture.
    o.mode = ViewMode::Plain;
    REQUIRE(renderScreenshot(o, error) == 0);
    const QImage plain(QString::fromStdString(out));
    CHECK(pixelsNear(plain, l.legend, legend.bar->stops.back(), 6) < 20);
}
