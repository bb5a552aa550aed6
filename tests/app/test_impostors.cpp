// Sphere impostors: on 32×32×32 the nodes are drawn as point sprites shaded as
// spheres, and they reach the screen in the nodes' colours.
#include "helpers.h"
#include "scene/linkinstances.h"
#include "scene/nodeinstances.h"
#include "scene/sceneview.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QImage>
#include <QWheelEvent>

#include <cstdio>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("impostors: 32x32x32 draws its nodes as sphere impostors in their colours, 4x4x4 as meshes",
          "[app][scene][gl]")
{
    SceneView scene;
    scene.window()->resize(1280, 720);
    scene.window()->show();
    scene.setSnapshot(buildSnapshot(test::scenario("mesh:4x4x4", "binomial", NodeId{0})));
    CHECK_FALSE(scene.layers().nodes->impostors());

    const SnapshotPtr snap = buildSnapshot(test::towerScenario("mesh:32x32x32", "binomial", NodeId{0}));
    scene.setSnapshot(snap);
    scene.setStep(snap->stepCount());
    REQUIRE(scene.layers().nodes->impostors());
    CHECK(scene.layers().nodes->instanceCount() == 32768);
    // Lines, with each row of unused links one instance: far fewer than the 95,232 links.
    REQUIRE(scene.layers().links->usesLines());
    const auto lines = scene.layers().links->lineBuffer().data().size() / LinkInstances::kFloatsPerInstance;
    CHECK(lines * 4 < static_cast<std::size_t>(scene.layers().links->instanceCount()));

    // Zoomed in (the wheel: 0.999^1200 = 0.30 of the distance) the nodes are a few pixels wide
    // and still impostors; their discs show the informed colour at the centre, darker at the rim.
    QWheelEvent wheel(QPointF(640, 360), QPointF(640, 360), QPoint(), QPoint(0, 1200), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(scene.window(), &wheel);
    REQUIRE(scene.layers().nodes->impostors());
    const QImage img = scene.capture().frame();
    REQUIRE_FALSE(img.isNull());
    auto near = [](const Rgba& want) {
        return [want](QColor c) {
            return std::abs(c.redF() - want.r) < 0.1 && std::abs(c.greenF() - want.g) < 0.1 &&
                   std::abs(c.blueF() - want.b) < 0.1;
        };
    };
    const auto informed = near(scene.choice().palette().informed);
    const Rgba rim{scene.choice().palette().informed.r * 0.6f, scene.choice().palette().informed.g * 0.6f,
                   scene.choice().palette().informed.b * 0.6f, 1.0f};
    const auto darker = near(rim);
    int pixels = 0, rims = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            pixels += informed(img.pixelColor(x, y));
            rims += darker(img.pixelColor(x, y));
        }
    std::printf("impostors at 32x32x32, zoomed: %d pixels in the informed colour, %d darker\n", pixels, rims);
    CHECK(pixels > 2000);
    CHECK(rims > 200);
}
