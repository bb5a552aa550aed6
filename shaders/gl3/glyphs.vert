#version 150 core
// One instance per cell of a Data held glyph: a rectangle facing the camera, placed from its
// node's centre along the screen's axes and lifted toward the camera so the node's sphere never
// hides it; what a node holds (layer 1) sits just in front of the cell's backing (layer 0).
in vec3 vertexPosition;
in vec3 instancePosition;
in vec4 instanceColor;
in vec4 instanceRect;
in float instanceLayer;

uniform mat4 modelView;
uniform mat4 projectionMatrix;
uniform float glyphLift;

out vec4 color;
out vec3 viewNormal;

void main()
{
    color = instanceColor;
    viewNormal = vec3(0.0, 0.0, 1.0);
    vec4 view = modelView * vec4(instancePosition, 1.0);
    view.xy += instanceRect.xy + vertexPosition.xy * instanceRect.zw;
    view.z += glyphLift * (1.0 + 0.05 * instanceLayer);
    gl_Position = projectionMatrix * view;
}
