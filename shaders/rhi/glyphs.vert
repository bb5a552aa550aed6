#version 450
// RHI version of shaders/gl3/glyphs.vert.
layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec3 instancePosition;
layout(location = 2) in vec4 instanceColor;
layout(location = 3) in vec4 instanceRect;
layout(location = 4) in float instanceLayer;

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
    float glyphLift;
};

layout(location = 0) out vec4 color;
layout(location = 1) out vec3 viewNormal;

void main()
{
    color = instanceColor;
    viewNormal = vec3(0.0, 0.0, 1.0);
    vec4 view = modelViewMatrix * vec4(instancePosition, 1.0);
    view.xy += instanceRect.xy + vertexPosition.xy * instanceRect.zw;
    view.z += glyphLift * (1.0 + 0.05 * instanceLayer);
    gl_Position = modelViewProjection * (inverseModelViewMatrix * view);
}
