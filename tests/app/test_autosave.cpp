// The last scenario goes to the settings once the user stops changing things: a
// scenario computed after a pause is on disk at once, a run of quick clicks is written
// once when it stops, and what is still waiting is written when the window goes.
#include "helpers.h"
#include "mainwindow.h"
#include "session/session.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>

using namespace topocast;
using namespace topocast::app;

namespace {

/// The source of the last scenario in the settings file itself (what a new process would read).
int sourceOnDisk(const QString& file)
{
    QSettings onDisk(file, QSettings::IniFormat);
    const QString saved = onDisk.value(QStringLiteral("lastScenario")).toString();
    if (saved.isEmpty())
        return -1;
    return static_cast<int>(scenarioFromJson(nlohmann::json::parse(saved.toStdString())).source);
}

} // namespace

TEST_CASE("autosave: quick clicks are written once when they stop, and the last one on close", "[app][window][robust]")
{
    static QTemporaryDir config; // for the rest of the process, like the other autosave test
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, config.path());
    const QString file = QSettings().fileName();
    REQUIRE(file.startsWith(config.path()));
    {
        MainWindow w(true);
        REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{1})));
        CHECK(sourceOnDisk(file) == 1); // the first scenario: at once

        QElapsedTimer burst;
        burst.start();
        for (NodeId source :
             {NodeId{2}, NodeId{3}, NodeId{4}, NodeId{5}}) // four clicks, each computed, in quick succession
            REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", source)));
        if (burst.elapsed() < MainWindow::kSettingsDelayMs - 100)
            CHECK(sourceOnDisk(file) == 1); // not yet: the clicks have not stopped
        else
            WARN("the clicks took " << burst.elapsed() << " ms; the machine is too slow to see them coalesce");
        REQUIRE(test::waitFor([&] { return sourceOnDisk(file) == 5; }, 5000)); // one write, the last

        REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:4x4", "binomial", NodeId{6}))); // soon after a write
        if (burst.elapsed() < 2 * MainWindow::kSettingsDelayMs)
            CHECK(sourceOnDisk(file) == 5);
    } // the window goes: what waits is written
    CHECK(sourceOnDisk(file) == 6);
}
