// Colours for everyone (palettes from core, colour bars with numbers),
// algorithms that do not apply greyed out with their reason, presentation mode's 3-D view share.
#include "helpers.h"
#include "mainwindow.h"
#include "panels/legendwidget.h"
#include "panels/scenariopanel.h"
#include "scene/sceneview.h"
#include "session/session.h"
#include "session/snapshot.h"
#include "style/scenestyle.h"
#include "timeline/timeline.h"

#include "topocast/algorithms/registry.h"
#include "topocast/drawing/colour.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QStandardItemModel>
#include <QStatusBar>

using namespace topocast;
using namespace topocast::app;

namespace {

const QStandardItem* algorithmItem(const ScenarioPanel& panel, const char* name)
{
    auto* model = qobject_cast<QStandardItemModel*>(panel.algorithmBox()->model());
    const int i = panel.algorithmBox()->findText(QString::fromLatin1(name));
    return model && i >= 0 ? model->item(i) : nullptr;
}

} // namespace

TEST_CASE("scenario panel: algorithms that do not apply are greyed out with core's reason as tooltip",
          "[app][panel][colour]")
{
    ScenarioPanel panel;
    panel.setScenario(test::scenario("mesh:6x6", "binomial"));
    const Topology mesh66 = Topology::parse("mesh:6x6");
    for (const char* name : {"cang-wu", "tsay-wang"}) {
        CAPTURE(name);
        const QStandardItem* item = algorithmItem(panel, name);
        REQUIRE(item);
        CHECK_FALSE(item->isEnabled());
        const auto why = findAlgorithm(name).whyNot(mesh66);
        REQUIRE(why);
        CHECK(item->toolTip() == QStringLiteral("Not for this network: ") + QString::fromStdString(*why));
    }
    const QStandardItem* binomial = algorithmItem(panel, "binomial");
    REQUIRE(binomial);
    CHECK(binomial->isEnabled());
    CHECK(binomial->toolTip() == QString::fromStdString(findAlgorithm("binomial").summary));
    // The chosen algorithm applies: no paragraph of reasons, no message at all.
    CHECK_FALSE(panel.whyNotLabel()->isVisibleTo(&panel));
    CHECK(panel.whyNotLabel()->text().isEmpty());

    // A scenario whose algorithm does not apply: one short line, the reason in its tooltip.
    panel.setScenario(test::scenario("mesh:6x6", "cang-wu"));
    CHECK(panel.whyNotLabel()->isVisibleTo(&panel));
    CHECK(panel.whyNotLabel()->text() == QStringLiteral("cang-wu does not apply to this network"));
    CHECK(panel.whyNotLabel()->toolTip().contains(QString::fromStdString(*findAlgorithm("cang-wu").whyNot(mesh66))));

    // On an 8×8 mesh cang-wu applies (tsay-wang still needs a torus): the line goes away.
    panel.setScenario(test::scenario("mesh:8x8", "cang-wu"));
    CHECK(algorithmItem(panel, "cang-wu")->isEnabled());
    CHECK_FALSE(algorithmItem(panel, "tsay-wang")->isEnabled());
    CHECK_FALSE(panel.whyNotLabel()->isVisibleTo(&panel));
}

TEST_CASE("palette: the app draws core's colour-blind-safe palettes and colour maps", "[app][colour]")
{
    const Palette p = Palette::normal();
    CHECK(p.source == Rgba::from(colour::normalPalette().source));
    CHECK(p.contention == Rgba::from(colour::fromHex("#d55e00")));
    CHECK(Palette::highContrast().background == Rgba{0, 0, 0, 1});
    CHECK(sourceMapColour({20, 42}, 20) == Rgba::from(colour::mapColour(colour::ColourMap::Cividis, 0.0)));
    CHECK(sourceMapColour({20, 42}, 42) == Rgba::from(colour::mapColour(colour::ColourMap::Cividis, 1.0)));
    CHECK(heatColour(8, 8) == Rgba::from(colour::mapColour(colour::ColourMap::Viridis, 1.0)));
    // The not-yet-informed colour at the default fade of a 512-node network is the one the palette
    // test checks (fade 0.6 · recede 0.5).
    const Rgba faded = uninformedColour(p, 512);
    const colour::Srgb want = colour::mix(colour::normalPalette().uninformed, colour::normalPalette().background,
                                          colour::kMaxUninformedFade * 0.5);
    CHECK(faded.r == Approx(want.r).margin(1e-5));
    CHECK(faded.b == Approx(want.b).margin(1e-5));
}

TEST_CASE("legend: heat map and source map show a colour bar with numbers", "[app][colour][legend]")
{
    const SnapshotPtr snap = buildSnapshot(test::scenario("mesh:4x4", "binomial", NodeId{5}));
    SECTION("heat map: 0 to the most uses of one channel, whole-number ticks")
    {
        const auto bar = legendBar(snap.get(), ViewMode::Heatmap, true);
        REQUIRE(bar);
        CHECK(bar->min == 0);
        CHECK(bar->max == snap->metrics.maxLinkLoad);
        REQUIRE(bar->labels.size() >= 2);
        CHECK(bar->labels.front() == std::pair<double, QString>{0.0, QStringLiteral("0")});
        CHECK(bar->labels.back().second == QString::number(snap->metrics.maxLinkLoad));
        CHECK(bar->stops.back() == heatColour(bar->max, bar->max).to<QColor>());
        for (const auto& [value, text] : bar->labels)
            CHECK(text == QString::number(static_cast<long long>(value)));
    }
    SECTION("source map: TCD above the best (20, the corners, a colour of their own) from 22 to 42")
    {
        const auto bar = legendBar(snap.get(), ViewMode::SourceMap, true);
        REQUIRE(bar);
        CHECK(bar->min == 22);
        CHECK(bar->max == 42);
        CHECK(bar->labels.front().second == QStringLiteral("22"));
        CHECK(bar->caption.contains(QStringLiteral("the best (20)")));
        CHECK(bar->labels.back().second == QStringLiteral("42"));
        CHECK(bar->labels.size() >= 3); // round ticks between the ends
        CHECK(bar->stops.front() == sourceMapColour({0, 1}, 0).to<QColor>());
        CHECK(bar->caption.startsWith(QStringLiteral("TCD")));
    }
    SECTION("plain mode has no bar")
    {
        CHECK_FALSE(legendBar(snap.get(), ViewMode::Plain, true));
        CHECK_FALSE(legendBar(nullptr, ViewMode::Heatmap, true));
    }
}

TEST_CASE("presentation mode: the 3-D view takes at least 75% of the window at 1600x1000 and 1280x720",
          "[app][window][gl][colour]")
{
    MainWindow w(false);
    REQUIRE(w.session()->setScenarioNow(test::scenario("mesh:8x8x8", "cang-wu", NodeId{0})));
    w.resize(1600, 1000);
    w.show();
    REQUIRE(test::waitFor([&] { return w.isVisible() && w.sceneView()->widget()->width() > 0; }));
    const double before =
        double(w.sceneView()->widget()->width()) * w.sceneView()->widget()->height() / (double(w.width()) * w.height());
    w.timeline()->last(); // the longest narration of this schedule (step 9: six moves and "… 250 more")
    w.setPresentationMode(true);
    CHECK(w.presentationMode());
    CHECK(w.sceneView()->choice().highContrast);
    CHECK(w.presentationLegend()->isVisibleTo(&w));
    for (const QSize size : {QSize(1600, 1000), QSize(1280, 720)}) {
        CAPTURE(size.width(), size.height());
        w.setWindowState(Qt::WindowNoState);
        w.resize(size);
        REQUIRE(test::waitFor([&] { return w.size() == size; }));
        QCoreApplication::processEvents();
        const QWidget* view = w.sceneView()->widget();
        const double share = double(view->width()) * view->height() / (double(w.width()) * w.height());
        INFO("3-D view " << view->width() << "x" << view->height() << " = " << share
                         << " of the window (before: " << before << ")");
        CHECK(share >= 0.75);
        CHECK(w.presentationLegend()->height() > 0);
    }
    w.setPresentationMode(false);
    CHECK_FALSE(w.sceneView()->choice().highContrast);
    CHECK_FALSE(w.presentationLegend()->isVisibleTo(&w));
    CHECK(w.findChild<QDockWidget*>(QStringLiteral("scenarioDock"))->isVisibleTo(&w));
    CHECK(w.statusBar()->isVisibleTo(&w));
}
