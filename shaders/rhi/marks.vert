#version 450
// RHI version of shaders/gl3/marks.vert.
layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec3 instancePosition;
layout(location = 2) in vec4 instanceColor;
layout(location = 3) in float instanceShape;
layout(location = 4) in float instanceSize;

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
    float markRadius;
};

layout(location = 0) out vec4 color;
layout(location = 1) out vec3 viewNormal;

void main()
{
    color = instanceColor;
    viewNormal = vec3(0.0, 0.0, 1.0);
    if (abs(vertexPosition.z - instanceShape) > 0.5) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    // projection = modelViewProjection · inverse(modelView)
    vec4 view = modelViewMatrix * vec4(instancePosition, 1.0);
    view.xy += vertexPosition.xy * (markRadius * instanceSize);
    view.z += markRadius;
    gl_Position = modelViewProjection * (inverseModelViewMatrix * view);
}
