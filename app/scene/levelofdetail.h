#pragma once

#include <cstddef>

namespace topocast::app {

/// Level of detail by size on screen (issue #19): without multisampling (software OpenGL) a
/// prism thinner than a pixel breaks into dashes and a sphere a few pixels wide needs no 300
/// triangles. Plain functions, unit-tested without GL.

/// Pixels per world unit at the distance `distance` from a perspective camera of vertical field
/// of view `fovDegrees` drawing `viewportHeight` pixels.
float pixelsPerUnit(float viewportHeight, float distance, float fovDegrees);

/// Sphere detail for a node of `radiusPixels` on screen among `nodes` nodes: 0 (16 triangles)
/// under 4 px or above 4096 nodes, 1 (~100) under 10 px or above 512 nodes, else 2 (~300).
int sphereDetail(float radiusPixels, std::size_t nodes);

/// Whether a link of `radiusPixels` is drawn as a 1-pixel line rather than a prism: under 1 px
/// (a prism that thin breaks into dashes), or above `kLineChannels` channels.
bool linkAsLine(float radiusPixels, std::size_t channels);

inline constexpr std::size_t kLineChannels = 60000;

} // namespace topocast::app
