#include "scene/levelofdetail.h"

#include <cmath>
#include <numbers>

namespace topocast::app {

float pixelsPerUnit(float viewportHeight, float distance, float fovDegrees)
{
    const float halfFov = fovDegrees * 0.5f * std::numbers::pi_v<float> / 180.0f;
    return viewportHeight / (2.0f * distance * std::tan(halfFov));
}

int sphereDetail(float radiusPixels, std::size_t nodes)
{
    const int byPixels = radiusPixels < 4.0f ? 0 : (radiusPixels < 10.0f ? 1 : 2);
    const int byCount = nodes > 4096 ? 0 : (nodes > 512 ? 1 : 2);
    return byPixels < byCount ? byPixels : byCount;
}

bool nodeImpostors(float radiusPixels, std::size_t nodes)
{
    return sphereDetail(radiusPixels, nodes) == 0 && radiusPixels <= kMaxImpostorRadius;
}

bool linkAsLine(float radiusPixels, std::size_t channels)
{
    return radiusPixels < 1.0f || channels > kLineChannels;
}

} // namespace topocast::app
