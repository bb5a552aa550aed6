// Benchmarks (hidden: run with  topocast_app_tests "[bench]"  under xvfb-run). They print
// numbers and check only loose bounds; timings never gate the normal suite.
#include "helpers.h"
#include "scene/sceneview.h"
#include "session.h"

#include <catch2/catch.hpp>

#include <Qt3DExtras/Qt3DWindow>

#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>

using namespace topocast;
using namespace topocast::app;

TEST_CASE("bench: click-to-new-schedule on a 16x16x16 mesh", "[.][bench]")
{
    SnapshotPtr prev = buildSnapshot(test::scenario("mesh:16x16x16", "cang-wu", 0));
    std::vector<double> ms;
    for (NodeId src : {100u, 1234u, 2048u, 3000u, 4095u, 777u, 1u}) {
        Scenario s = prev->scenario;
        s.source = src;
        QElapsedTimer t;
        t.start();
        prev = buildSnapshot(s, false, prev.get());
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("click-to-new-schedule 16x16x16 cang-wu: median %.2f ms, max %.2f ms (core build + metrics + states)\n",
                ms[ms.size() / 2], ms.back());
    CHECK(ms[ms.size() / 2] < 100.0);
}

TEST_CASE("bench: frame time 32x32x32 against 4x4x4 in one run", "[.][bench][gl]")
{
    auto frameMs = [](const char* topo, double& styleMs) {
        const SnapshotPtr snap = buildSnapshot(test::scenario(topo, "recursive-doubling", 0));
        SceneView scene;
        scene.window()->resize(1200, 800);
        scene.window()->show();
        scene.setSnapshot(snap);
        QElapsedTimer t;
        t.start();
        scene.setStep(static_cast<int>(snap->stepCount()) / 2);
        styleMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
        return scene.measureFrameMs(15);
    };
    double style4 = 0, style32 = 0;
    const double small = frameMs("mesh:4x4x4", style4);
    const double large = frameMs("mesh:32x32x32", style32);
    std::printf("frame time (Xvfb/llvmpipe, 1200x800): 4x4x4 %.1f ms, 32x32x32 %.1f ms, ratio %.1f; "
                "step change (colours+messages upload) 4x4x4 %.1f ms, 32x32x32 %.1f ms\n",
                small, large, large / std::max(small, 0.1), style4, style32);
    CHECK(large > 0);
}
