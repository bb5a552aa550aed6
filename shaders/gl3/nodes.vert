#version 150 core
// One instance per node: a unit sphere moved to the node and scaled.
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec3 instancePosition;
in vec4 instanceColor;
in float instanceScale;

uniform mat4 modelViewProjection;
uniform mat4 modelView;
uniform float nodeRadius;

out vec4 color;
out vec3 viewNormal;

void main()
{
    vec3 p = instancePosition + vertexPosition * (nodeRadius * instanceScale);
    color = instanceColor;
    viewNormal = mat3(modelView) * vertexNormal;
    gl_Position = modelViewProjection * vec4(p, 1.0);
}
