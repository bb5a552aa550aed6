#pragma once

#include <cstddef>

namespace topocast::app {

/// Level of detail by size on screen: without multisampling (software OpenGL) a
/// prism thinner than a pixel breaks into dashes and a sphere a few pixels wide needs no 300
/// triangles. Plain functions, unit-tested without GL.

/// Pixels per world unit at the distance `distance` from a perspective camera of vertical field
/// of view `fovDegrees` drawing `viewportHeight` pixels.
float pixelsPerUnit(float viewportHeight, float distance, float fovDegrees);

/// Sphere detail for a node of `radiusPixels` on screen among `nodes` nodes: 0 (16 triangles)
/// under 4 px or above 4096 nodes, 1 (~100) under 10 px or above 512 nodes, else 2 (~300).
int sphereDetail(float radiusPixels, std::size_t nodes);

/// Whether nodes of `radiusPixels` among `nodes` nodes are drawn as sphere impostors (a point
/// sprite shaded as a sphere) rather than meshes: where sphereDetail() gives 0 (a 16-triangle
/// sphere, coarser than the impostor's disc) and the sprite stays within kMaxImpostorRadius
/// pixels (point sizes are capped: llvmpipe at 255 px, some drivers at 64).
bool nodeImpostors(float radiusPixels, std::size_t nodes);

inline constexpr float kMaxImpostorRadius = 30.0f;

/// An impostor's disc radius over the node's radius: the 16-triangle sphere it replaces (4
/// slices, 3 rings) covers about 1.7 r² on screen from any side, a disc of 0.75 r the same, so
/// the picture keeps its balance of nodes and links.
inline constexpr float kImpostorRadiusScale = 0.75f;

/// Whether a link of `radiusPixels` is drawn as a 1-pixel line rather than a prism: under 1 px
/// (a prism that thin breaks into dashes), or above `kLineChannels` channels.
bool linkAsLine(float radiusPixels, std::size_t channels);

inline constexpr std::size_t kLineChannels = 60000;

} // namespace topocast::app
