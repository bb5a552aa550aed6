// One of each: the colour modes listed once (core colour::kColourModes) for the app's menu, its
// --mode, scenario files and topocast-cli render; one key handler for the timeline of both views;
// one atomic save for every file the app writes; one way to name a picture's size.
#include "mainwindow.h"
#include "render_options.h"
#include "session/output.h"
#include "style/scenestyle.h"
#include "temp_dir.h"
#include "timeline/timeline.h"

#include "topocast/drawing/colour.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QFile>
#include <QImage>

#include <filesystem>
#include <fstream>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("one list of colour modes: the app's menu, its mode names and topocast-cli render read it", "[app][modes]")
{
    const auto& cli = cli::renderModeNames();
    REQUIRE(cli.size() == colour::kColourModes.size());
    MainWindow w(false);
    QComboBox* menu = nullptr;
    for (QComboBox* box : w.findChildren<QComboBox*>())
        if (box->count() > 0 && box->itemText(0) == QStringLiteral("Plain"))
            menu = box;
    REQUIRE(menu);
    REQUIRE(menu->count() == static_cast<int>(colour::kColourModes.size()));
    for (std::size_t i = 0; i < colour::kColourModes.size(); ++i) {
        const auto mode = static_cast<ViewMode>(i);
        INFO(colour::kColourModes[i].name);
        CHECK(viewModeName(mode).toStdString() == colour::kColourModes[i].name);
        CHECK(parseViewMode(viewModeName(mode).toUpper()) == mode);
        CHECK(cli[i] == colour::kColourModes[i].name);
        CHECK(menu->itemText(static_cast<int>(i)).toStdString() == colour::kColourModes[i].label);
        CHECK(menu->itemData(static_cast<int>(i)).toInt() == static_cast<int>(mode));
    }
    CHECK(menu->itemText(6) == QStringLiteral("Data held"));
    CHECK_FALSE(parseViewMode(QStringLiteral("rainbow")));
}

TEST_CASE("one timeline key handler: space, arrows, Home and End", "[app][timeline]")
{
    Timeline t;
    t.setStepCount(6);
    t.handleKey(Qt::Key_End);
    CHECK(t.step() == 6);
    t.handleKey(Qt::Key_Left);
    CHECK(t.step() == 5);
    CHECK_FALSE(t.playing());
    t.handleKey(Qt::Key_Home);
    CHECK(t.step() == 0);
    t.handleKey(Qt::Key_Right);
    CHECK(t.step() == 1);
    t.handleKey(Qt::Key_Space);
    CHECK(t.playing());
    t.handleKey(Qt::Key_Right); // a step by hand pauses
    CHECK_FALSE(t.playing());
    CHECK(t.step() == 2);
    t.handleKey(Qt::Key_A);
    CHECK(t.step() == 2);
}

TEST_CASE("one atomic save: a file is replaced only when all of it is written, errors name the path", "[app][export]")
{
    testing::TempDir dir;
    const QString path = QString::fromStdString((dir.path / "picture.png").string());
    QImage image(40, 30, QImage::Format_RGB32);
    image.fill(Qt::red);
    savePng(image, path);
    CHECK(QImage(path).size() == QSize(40, 30));
    // A write that fails leaves the old file as it was.
    CHECK_THROWS_WITH(saveAtomically(path, [](QIODevice& file) { return file.write("half") < 0; }),
                      Catch::StartsWith("cannot write " + path.toStdString() + ": "));
    CHECK(QImage(path).size() == QSize(40, 30));
    saveBytes(QByteArray("abc"), path);
    CHECK(std::filesystem::file_size(dir.path / "picture.png") == 3);
    const QString nowhere = QString::fromStdString((dir.path / "no" / "such" / "dir.png").string());
    CHECK_THROWS_WITH(savePng(image, nowhere), Catch::StartsWith("cannot write " + nowhere.toStdString() + ": "));
    CHECK(sizeText(QSize(1600, 1000)) == QStringLiteral("1600×1000"));
}
