#version 150 core
// Sphere impostors: one point per node, as large on screen as the node's sphere,
// moved to the sphere's front so what passes behind the sphere stays hidden.
in vec3 instancePosition;
in vec4 instanceColor;
in float instanceScale;

uniform mat4 modelView;
uniform mat4 projectionMatrix;
uniform float nodeRadius;
uniform float viewportHeight;  // device pixels

out vec4 color;

void main()
{
    float r = nodeRadius * instanceScale;
    vec4 view = modelView * vec4(instancePosition, 1.0);
    vec4 centre = projectionMatrix * view;
    view.z += r;
    gl_Position = projectionMatrix * view;
    color = instanceColor;
    // diameter in pixels: 2 r · (pixels per unit at the centre's depth); w = 1 when orthographic
    gl_PointSize = max(1.0, r * projectionMatrix[1][1] * viewportHeight / centre.w);
}
