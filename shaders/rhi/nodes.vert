#version 450
// RHI version of shaders/gl3/nodes.vert.
layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec3 vertexNormal;
layout(location = 2) in vec3 instancePosition;
layout(location = 3) in vec4 instanceColor;
layout(location = 4) in float instanceScale;

layout(std140, binding = 1) uniform qt3d_command_uniforms {
    mat4 modelMatrix;
    mat4 inverseModelMatrix;
    mat4 modelViewMatrix;
    mat3 modelNormalMatrix;
    mat4 inverseModelViewMatrix;
    mat4 modelViewProjection;
    mat4 inverseModelViewProjectionMatrix;
};

layout(std140, binding = 2) uniform topocast_uniforms {
    float nodeRadius;
};

layout(location = 0) out vec4 color;
layout(location = 1) out vec3 viewNormal;

void main()
{
    vec3 p = instancePosition + vertexPosition * (nodeRadius * instanceScale);
    color = instanceColor;
    viewNormal = mat3(modelViewMatrix) * vertexNormal;
    gl_Position = modelViewProjection * vec4(p, 1.0);
}
