// Animation and picture export: frames on a deterministic clock, decoded back with
// libavformat; the source's colour where the source is; the same scenario twice gives the same
// frames; cancel and bad settings leave nothing behind; `topocast-cli render` in-process.
#include "cli_runner.h"
#include "commands.h"
#include "export/animationexport.h"
#include "helpers.h"
#include "scene/sceneview.h"

#include "decode.h"

#include "topocast/io/scenario_json.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace topocast;
using namespace topocast::app;
using topocast::testing::decodeFile;
using topocast::testing::Rgb;
using topocast::testing::TempDir;

namespace {

std::string scenarioFile(const char* name)
{
    return std::string(TOPOCAST_SOURCE_DIR) + "/resources/scenarios/" + name;
}

/// Cang-Wu 4×4 from (1,0) (paper mode): 4 steps (docs/papers/mesh-tcd.md §3.6).
SnapshotPtr cangWu4x4()
{
    return buildSnapshot(loadScenario(scenarioFile("cang-wu-4x4.json")));
}

AnimationSettings smallSettings(const std::filesystem::path& out, video::VideoFormat format)
{
    AnimationSettings s;
    s.output = out;
    s.format = format;
    s.view.size = QSize(320, 240);
    s.fps = 10;
    s.framesPerStep = 3;
    s.holdFrames = 2;
    return s;
}

/// Where node `v` is drawn in a `size` export of `snap` with the default view, its 3-D view in
/// the place `overlay` leaves it.
QPointF nodeInExport(const SnapshotPtr& snap, QSize size, NodeId v, const FrameOverlay& overlay = {})
{
    const OverlayLayout layout =
        overlayLayout(size, overlay, legendStrip(*snap, ViewMode::Plain, true, Palette::normal()));
    SceneView scene;
    scene.window()->resize(overlay.any() ? layout.view.size() : size);
    scene.setSnapshot(snap);
    scene.camera().resetView();
    return scene.camera().nodeOnScreen(v) + (overlay.any() ? QPointF(layout.view.topLeft()) : QPointF());
}

bool nearRgb(const Rgb& c, const Rgba& want, int tolerance)
{
    const int w[3] = {static_cast<int>(want.r * 255), static_cast<int>(want.g * 255), static_cast<int>(want.b * 255)};
    for (int i = 0; i < 3; ++i)
        if (std::abs(c[static_cast<std::size_t>(i)] - w[i]) > tolerance)
            return false;
    return true;
}

std::vector<QImage> readFrames(const std::filesystem::path& dir, int count)
{
    std::vector<QImage> frames;
    for (int i = 1; i <= count; ++i)
        frames.emplace_back(QString::fromStdString((dir / video::VideoEncoder::frameFileName(i)).string()));
    return frames;
}

} // namespace

TEST_CASE("export: the clock is steps × frames per step + 1 + hold, with fractions 0, 1/k, …", "[app][export]")
{
    const SnapshotPtr snap = cangWu4x4();
    REQUIRE(snap->stepCount() == 4);
    AnimationSettings s = smallSettings("unused.mp4", video::VideoFormat::Mp4);
    const auto frames = exportFrames(*snap, s);
    REQUIRE(frames.size() == 4 * 3 + 1 + 2);
    CHECK(frames[0] == FrameTime{1, 0.0});
    CHECK(frames[4].step == 2);
    CHECK(frames[4].fraction == Approx(1.0 / 3));
    CHECK(frames.back() == FrameTime{4, 1.0});
    s.firstStep = 2;
    s.lastStep = 3;
    s.holdFrames = -1; // two seconds at 10 fps
    CHECK(exportFrames(*snap, s).size() == 2 * 3 + 1 + 20);
}

TEST_CASE("export: bad settings are refused before anything is written", "[app][export]")
{
    const SnapshotPtr snap = cangWu4x4();
    TempDir dir;
    AnimationSettings s = smallSettings(dir.path / "a.mp4", video::VideoFormat::Mp4);
    s.lastStep = 9;
    CHECK_THROWS_WITH(exportAnimation(snap, s), Catch::Contains("1..4"));
    s.lastStep = 0;
    s.framesPerStep = 0;
    CHECK_THROWS_WITH(exportAnimation(snap, s), Catch::Contains("frames per step 0"));
    s.framesPerStep = 3;
    s.fps = 0;
    CHECK_THROWS_WITH(exportAnimation(snap, s), Catch::Contains("frame rate 0"));
    s.fps = 10;
    s.view.size = QSize(321, 240);
    CHECK_THROWS_WITH(exportAnimation(snap, s), Catch::Contains("even width and height; got 321×240"));
    const SnapshotPtr single = buildSnapshot(test::scenario("mesh:1", "bfs"));
    CHECK_THROWS_WITH(exportFrames(*single, smallSettings("x.gif", video::VideoFormat::Gif)),
                      Catch::Contains("no steps"));
    CHECK(dir.entries() == 0);
}

TEST_CASE("export: MP4 and GIF decode to the expected frame count, size and duration", "[app][export][gl]")
{
    const SnapshotPtr snap = cangWu4x4();
    TempDir dir;
    for (const auto format : {video::VideoFormat::Mp4, video::VideoFormat::Gif}) {
        const auto path = dir.path / (format == video::VideoFormat::Mp4 ? "a.mp4" : "a.gif");
        ExportTimings t;
        int calls = 0;
        const auto result = exportAnimation(
            snap, smallSettings(path, format),
            [&](int, int total) {
                CHECK(total == 15);
                ++calls;
                return true;
            },
            &t);
        REQUIRE(result);
        CHECK(result->frames == 15);
        CHECK(result->seconds == Approx(1.5));
        CHECK(calls == 16); // before each frame and once before finishing
        CHECK(t.frames == 15);
        CHECK(t.renderMs > 0.0);
        const auto decoded = decodeFile(path);
        INFO(path.string() << " codec " << decoded.codec);
        CHECK(decoded.width == 320);
        CHECK(decoded.height == 240);
        CHECK(decoded.frames.size() == 15);
        CHECK(decoded.packetSeconds == Approx(1.5).margin(0.011));
        if (format == video::VideoFormat::Mp4) {
            // The source (1,0) shows the source colour in the first and the last frame.
            // MP4 frames carry the title line and legend by default: the view sits between them.
            const QPointF p = nodeInExport(snap, QSize(320, 240), snap->schedule.source(),
                                           defaultOverlay(video::VideoFormat::Mp4, ViewMode::Plain));
            const Rgba want = Palette::normal().source;
            for (std::size_t f : {std::size_t{0}, decoded.frames.size() - 1}) {
                bool found = false;
                for (int dy = -1; dy <= 1 && !found; ++dy)
                    for (int dx = -1; dx <= 1 && !found; ++dx)
                        found = nearRgb(decoded.pixel(f, static_cast<int>(p.x()) + dx, static_cast<int>(p.y()) + dy),
                                        want, 48);
                INFO("frame " << f << " at " << p.x() << "," << p.y());
                CHECK(found);
            }
        }
    }
}

TEST_CASE("export: the same scenario rendered twice gives byte-identical frames", "[app][export][gl]")
{
    // Two runs of `topocast-cli render` as a user would make them (separate processes), and a
    // third export inside this process: all byte-identical (the view draws its element types in a
    // fixed order and its labels as opaque plates; tests/app/render_twice.sh does every preset).
    TempDir dir;
    const QString cli = QStringLiteral(TOPOCAST_CLI_PATH);
    for (const char* out : {"one", "two"}) {
        QProcess p;
        p.start(cli, {QStringLiteral("render"), QStringLiteral("--scenario"),
                      QString::fromStdString(scenarioFile("cang-wu-4x4x4.json")), QStringLiteral("--out"),
                      QString::fromStdString((dir.path / out).string()), QStringLiteral("--width"),
                      QStringLiteral("320"), QStringLiteral("--height"), QStringLiteral("240"),
                      QStringLiteral("--frames-per-step"), QStringLiteral("2"), QStringLiteral("--hold-frames"),
                      QStringLiteral("0"), QStringLiteral("--mode"), QStringLiteral("heatmap")});
        REQUIRE(p.waitForFinished(120000));
        INFO(p.readAllStandardError().toStdString());
        REQUIRE(p.exitCode() == 0);
    }
    const auto a = readFrames(dir.path / "one", 13); // 6 steps × 2 + 1
    const auto b = readFrames(dir.path / "two", 13);
    int differing = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        REQUIRE_FALSE(a[i].isNull());
        if (a[i] != b[i])
            ++differing;
    }
    CHECK(differing == 0);
    // Frames move: the first and the last differ (messages in flight, nodes informed).
    CHECK(a.front() != a.back());

    // In-process: the same frames, and the source's colour.
    const SnapshotPtr snap = buildSnapshot(loadScenario(scenarioFile("cang-wu-4x4x4.json")));
    AnimationSettings s = smallSettings(dir.path / "three", video::VideoFormat::PngSequence);
    s.view.mode = ViewMode::Heatmap;
    s.framesPerStep = 2;
    s.holdFrames = 0;
    REQUIRE(exportAnimation(snap, s));
    const auto c = readFrames(dir.path / "three", 13);
    for (std::size_t i = 0; i < c.size(); ++i) {
        int pixels = 0;
        for (int y = 0; y < c[i].height(); ++y)
            for (int x = 0; x < c[i].width(); ++x)
                pixels += c[i].pixel(x, y) != a[i].pixel(x, y);
        INFO("frame " << i + 1);
        CHECK(pixels == 0);
    }
    const QPointF p = nodeInExport(snap, s.view.size, snap->schedule.source());
    CHECK(test::pixelNear(c.back(), p, 2, [](QColor col) {
        const Rgba want = Palette::normal().source;
        return std::abs(col.red() - static_cast<int>(want.r * 255)) <= 40 &&
               std::abs(col.green() - static_cast<int>(want.g * 255)) <= 40 &&
               std::abs(col.blue() - static_cast<int>(want.b * 255)) <= 40;
    }));
}

TEST_CASE("export: cancelling leaves no file and keeps an existing one", "[app][export][gl]")
{
    const SnapshotPtr snap = cangWu4x4();
    TempDir dir;
    const auto path = dir.path / "keep.gif";
    std::ofstream(path) << "the old file";
    const auto result =
        exportAnimation(snap, smallSettings(path, video::VideoFormat::Gif), [](int done, int) { return done < 5; });
    CHECK_FALSE(result);
    std::ifstream in(path);
    std::string text;
    std::getline(in, text);
    CHECK(text == "the old file");
    CHECK(dir.entries() == 1); // no temporary left beside it
}

TEST_CASE("export: a picture at any size, and a step past the last is refused", "[app][export][gl]")
{
    const SnapshotPtr snap = cangWu4x4();
    ViewSettings view;
    view.size = QSize(1000, 300);
    const QImage img = renderPicture(snap, view, 4);
    CHECK(img.size() == QSize(1000, 300));
    CHECK_THROWS_WITH(renderPicture(snap, view, 5), Catch::Contains("0..4"));
}

TEST_CASE("topocast-cli render writes the animation and reports it", "[app][export][gl][cli]")
{
    TempDir dir;
    const std::string out = (dir.path / "anim.gif").string();
    const auto r = topocast::testing::runCli({"render",
                                              "--scenario",
                                              scenarioFile("cang-wu-4x4.json"),
                                              "--out",
                                              out,
                                              "--width",
                                              "200",
                                              "--height",
                                              "150",
                                              "--fps",
                                              "5",
                                              "--frames-per-step",
                                              "2",
                                              "--steps",
                                              "2-3",
                                              "--hold-frames",
                                              "0",
                                              "--mode",
                                              "contention",
                                              "--timings"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::StartsWith("wrote " + out + ": 5 frames, 200x150 at 5 fps (1.00 s), GIF (gif)"));
    CHECK_THAT(r.out, Catch::Contains("time per frame: render+read-back"));
    const auto decoded = decodeFile(out);
    CHECK(decoded.frames.size() == 5);
    CHECK(decoded.width == 200);
}

TEST_CASE("topocast-cli render draws the scenario's own mode unless --mode says otherwise", "[app][export][gl][cli]")
{
    TempDir dir;
    const std::string out = (dir.path / "frames").string();
    const std::string sc = scenarioFile("ring-allreduce-torus-4x4.json"); // "view": {"mode": "data"}
    const std::vector<std::string> args{"render", "--scenario",        sc,    "--out",         out,   "--format",
                                        "png",    "--width",           "160", "--height",      "120", "--steps",
                                        "8",      "--frames-per-step", "1",   "--hold-frames", "0"};
    const auto own = topocast::testing::runCli(args);
    INFO(own.err);
    REQUIRE(own.status == 0);
    CHECK_THAT(own.out, Catch::Contains("mode data"));
    std::vector<std::string> plain = args;
    plain.insert(plain.end(), {"--mode", "plain"});
    CHECK_THAT(topocast::testing::runCli(plain).out, Catch::Contains("mode plain"));
}

TEST_CASE("topocast-cli render: bad options name the problem", "[app][export][cli]")
{
    const std::string sc = scenarioFile("cang-wu-4x4.json");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--mode", "sparkly"},
         "--mode sparkly is not one of plain, contention, heatmap, source-map, layers, trees, data"},
        {{"--steps", "3-9"}, "step range '3-9' is not all, N, A-B or A- within 1..4"},
        {{"--format", "avi"}, "unknown video format 'avi'; use mp4, gif or png"},
        {{"--width", "9000"}, "--width: Value 9000 not in range 16 to 8192"},
    };
    for (const auto& [extra, message] : cases) {
        std::vector<std::string> args = {"render", "--scenario", sc, "--out", "x.mp4"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = topocast::testing::runCli(args);
        INFO(extra.front() << " " << extra.back());
        CHECK(r.status == 2);
        CHECK_THAT(r.err, Catch::Contains(message));
    }
    const auto missing = topocast::testing::runCli({"render", "--scenario", "/nonexistent/s.json", "--out", "x.mp4"});
    CHECK(missing.status == 2);
    CHECK_THAT(missing.err, Catch::Contains("/nonexistent/s.json"));
}

TEST_CASE("topocast-cli render without a display says how to run it", "[app][export][cli]")
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TOPOCAST_CLI_PATH), {QStringLiteral("render"), QStringLiteral("--scenario"),
                                                QString::fromStdString(scenarioFile("cang-wu-4x4.json")),
                                                QStringLiteral("--out"), QStringLiteral("/tmp/never-written.mp4")});
    REQUIRE(p.waitForFinished(60000));
    CHECK(p.exitCode() == 2);
    CHECK(QString::fromUtf8(p.readAllStandardError())
              .contains(
                  QStringLiteral("render needs OpenGL and there is no display (DISPLAY and WAYLAND_DISPLAY are unset); "
                                 "run it under a virtual X server: xvfb-run")));
    CHECK_FALSE(QFileInfo::exists(QStringLiteral("/tmp/never-written.mp4")));
}

namespace {
/// Starts `topocast-cli render` on the default 8×8×8 scenario (a few seconds of frames) into
/// `out`, waits until `underway` holds, and kills it with SIGKILL. True if it died by the kill.
bool killRenderMidway(const std::filesystem::path& out, const std::function<bool(qint64 pid)>& underway)
{
    QProcess p;
    p.start(QStringLiteral(TOPOCAST_CLI_PATH),
            {QStringLiteral("render"), QStringLiteral("--scenario"),
             QString::fromStdString(scenarioFile("default.json")), QStringLiteral("--out"),
             QString::fromStdString(out.string()), QStringLiteral("--width"), QStringLiteral("320"),
             QStringLiteral("--height"), QStringLiteral("240"), QStringLiteral("--frames-per-step"),
             QStringLiteral("20"), QStringLiteral("--hold-frames"), QStringLiteral("0")});
    if (!p.waitForStarted(10000))
        return false;
    const bool seen = test::waitFor([&] { return p.state() != QProcess::Running || underway(p.processId()); }, 60000);
    if (!seen || p.state() != QProcess::Running)
        return false;
    ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    p.waitForFinished(10000);
    return p.exitStatus() == QProcess::CrashExit;
}

std::vector<std::string> entries(const std::filesystem::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}
} // namespace

TEST_CASE("export: SIGKILL in the middle of a render leaves the old file and nothing else", "[app][export][gl]")
{
    // An MP4 or GIF is written as an unnamed file (O_TMPFILE) that gets its name only when it is
    // finished, so a kill at any moment leaves the folder exactly as it was.
    TempDir dir;
    const auto target = dir.path / "anim.gif";
    std::ofstream(target) << "the old file";
    const std::string folder = std::filesystem::canonical(dir.path).string();
    // Underway: the renderer holds a file in the folder open for writing (the unnamed one).
    const bool killed = killRenderMidway(target, [&](qint64 pid) {
        std::error_code ec;
        for (const auto& fd : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
            const auto link = std::filesystem::read_symlink(fd.path(), ec).string();
            if (!ec && link.rfind(folder + "/", 0) == 0 && link.find("(deleted)") != std::string::npos)
                return true;
        }
        return false;
    });
    REQUIRE(killed);
    std::ifstream in(target);
    std::string text;
    std::getline(in, text);
    CHECK(text == "the old file");
    CHECK(entries(dir.path) == std::vector<std::string>{"anim.gif"});
}

TEST_CASE("export: a PNG folder left by a killed render is removed by the next render there", "[app][export][gl]")
{
    // PNG frames go into a hidden folder named after the process (".frames.tmp-PID-XXXXXX"); the
    // next export to the same place removes the folders of processes that no longer run.
    TempDir dir;
    const auto target = dir.path / "frames/";
    const bool killed = killRenderMidway(target, [&](qint64) {
        for (const auto& e : std::filesystem::directory_iterator(dir.path))
            if (e.path().filename().string().rfind(".frames.tmp-", 0) == 0 && !std::filesystem::is_empty(e.path()))
                return true;
        return false;
    });
    REQUIRE(killed);
    CHECK_FALSE(std::filesystem::exists(dir.path / "frames"));
    REQUIRE(entries(dir.path).size() == 1); // the dead process's hidden folder
    const auto r = testing::runCli({"render", "--scenario", scenarioFile("cang-wu-4x4.json"), "--out", target.string(),
                                    "--width", "64", "--height", "48", "--frames-per-step", "1", "--hold-frames", "0"});
    REQUIRE(r.status == 0);
    CHECK(entries(dir.path) == std::vector<std::string>{"frames"});
}
