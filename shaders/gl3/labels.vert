#version 150 core
// One instance per label: a plate of fixed pixel size beside the projection of its anchor,
// snapped to whole pixels so that each fragment samples exactly one atlas texel. The plate is
// pulled 0.35 units toward the camera so it stays in front of its own node's sphere. Node labels
// sit beside their node: the anchor moves anchorLift toward the plate's side, so the gap to the
// sphere grows and shrinks with the zoom as the sphere does.
in vec2 vertexCorner;     // (0,0) .. (1,1), y up
in vec3 instanceAnchor;
in vec4 instancePlate;    // lower-left offset from the anchor (x, y) and size (w, h), pixels
in vec4 instanceAtlas;    // atlas rectangle (u0, v0 top, u1, v1 bottom)

uniform mat4 modelView;
uniform mat4 projectionMatrix;
uniform vec2 viewportSize;
uniform float anchorLift;  // node labels: the plate starts this far (scene units) from its anchor

out vec2 texCoord;

void main()
{
    vec4 view = modelView * vec4(instanceAnchor, 1.0);
    view.xy += anchorLift * sign(instancePlate.xy + 0.5 * instancePlate.zw);
    view.z += 0.35;
    vec4 clip = projectionMatrix * view;
    vec2 pixel = floor((clip.xy / clip.w * 0.5 + 0.5) * viewportSize + instancePlate.xy + 0.5)
                 + vertexCorner * instancePlate.zw;
    vec2 ndc = pixel / viewportSize * 2.0 - 1.0;
    texCoord = vec2(mix(instanceAtlas.x, instanceAtlas.z, vertexCorner.x),
                    mix(instanceAtlas.w, instanceAtlas.y, vertexCorner.y));
    gl_Position = vec4(ndc * clip.w, clip.z, clip.w);
}
