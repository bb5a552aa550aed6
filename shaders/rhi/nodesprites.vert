#version 450
// RHI version of shaders/gl3/nodesprites.vert.
layout(location = 0) in vec3 instancePosition;
layout(location = 1) in vec4 instanceColor;
layout(location = 2) in float instanceScale;

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
    float viewportHeight;
};

layout(location = 0) out vec4 color;

void main()
{
    float r = nodeRadius * instanceScale;
    // projection = modelViewProjection · inverse(modelView)
    mat4 projection = modelViewProjection * inverseModelViewMatrix;
    vec4 view = modelViewMatrix * vec4(instancePosition, 1.0);
    vec4 centre = projection * view;
    view.z += r;
    gl_Position = projection * view;
    color = instanceColor;
    gl_PointSize = max(1.0, r * abs(projection[1][1]) * viewportHeight / centre.w);
}
