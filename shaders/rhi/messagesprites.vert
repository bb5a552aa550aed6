#version 450
// RHI version of shaders/gl3/messagesprites.vert.
layout(location = 0) in vec3 instanceA;
layout(location = 1) in vec3 instanceB;
layout(location = 2) in vec4 instanceColor;
layout(location = 3) in vec3 instanceHop;

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
    float messageRadius;
    float stepFraction;
    float viewportHeight;
};

layout(location = 0) out vec4 color;

void main()
{
    float local = (stepFraction - instanceHop.x) / max(instanceHop.y - instanceHop.x, 1e-6);
    bool visible = local >= 0.0 && local <= 1.0;
    float r = messageRadius * instanceHop.z;
    // projection = modelViewProjection · inverse(modelView)
    mat4 projection = modelViewProjection * inverseModelViewMatrix;
    vec4 view = modelViewMatrix * vec4(mix(instanceA, instanceB, clamp(local, 0.0, 1.0)), 1.0);
    vec4 centre = projection * view;
    view.z += r;
    gl_Position = visible ? projection * view : vec4(2.0, 2.0, 2.0, 1.0);
    color = instanceColor;
    gl_PointSize = visible ? max(1.0, r * abs(projection[1][1]) * viewportHeight / centre.w) : 0.0;
}
