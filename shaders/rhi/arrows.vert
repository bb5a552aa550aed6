#version 450
// RHI version of shaders/gl3/arrows.vert.
layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec3 instanceTip;
layout(location = 2) in vec3 instanceFrom;
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
    float arrowLength;
    float arrowGap;
};

layout(location = 0) out vec4 color;
layout(location = 1) out vec3 viewNormal;

void main()
{
    color = instanceColor;
    viewNormal = vec3(0.0, 0.0, 1.0);
    vec4 tip = modelViewMatrix * vec4(instanceTip, 1.0);
    vec4 from = modelViewMatrix * vec4(instanceFrom, 1.0);
    vec2 d = tip.xy - from.xy;
    float len = length(d);
    vec2 dir = len > 1e-5 ? d / len : vec2(1.0, 0.0);
    vec2 side = vec2(-dir.y, dir.x);
    vec4 view = tip;
    view.xy += -dir * arrowGap + (dir * vertexPosition.x + side * vertexPosition.y) * arrowLength * instanceScale;
    view.z += arrowGap + 0.02;
    // projection = modelViewProjection · inverse(modelView)
    gl_Position = modelViewProjection * (inverseModelViewMatrix * view);
}
