#version 150 core
// One instance per transfer of the step shown: a flat arrowhead facing the camera, its tip on
// the receiving node's sphere (arrowGap from its centre), pointing along the route's last hop as
// seen on screen. Pulled toward the camera by arrowGap so the sphere and the channel never hide it.
in vec3 vertexPosition;   // arrow units: tip at the origin, pointing +x, length 1
in vec3 instanceTip;
in vec3 instanceFrom;
in vec4 instanceColor;
in float instanceScale;  // length and width by the message's size

uniform mat4 modelView;
uniform mat4 projectionMatrix;
uniform float arrowLength;
uniform float arrowGap;

out vec4 color;
out vec3 viewNormal;

void main()
{
    color = instanceColor;
    viewNormal = vec3(0.0, 0.0, 1.0);
    vec4 tip = modelView * vec4(instanceTip, 1.0);
    vec4 from = modelView * vec4(instanceFrom, 1.0);
    vec2 d = tip.xy - from.xy;
    float len = length(d);
    vec2 dir = len > 1e-5 ? d / len : vec2(1.0, 0.0);
    vec2 side = vec2(-dir.y, dir.x);
    vec4 view = tip;
    view.xy += -dir * arrowGap + (dir * vertexPosition.x + side * vertexPosition.y) * arrowLength * instanceScale;
    view.z += arrowGap + 0.02;
    gl_Position = projectionMatrix * view;
}
