#version 450
// RHI version of shaders/gl3/messages.vert.
layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec3 vertexNormal;
layout(location = 2) in vec3 instanceA;
layout(location = 3) in vec3 instanceB;
layout(location = 4) in vec4 instanceColor;
layout(location = 5) in vec3 instanceHop;

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
};

layout(location = 0) out vec4 color;
layout(location = 1) out vec3 viewNormal;

void main()
{
    float head = stepFraction * instanceHop.y;
    float local = head - instanceHop.x;
    float visible = (local >= 0.0 && local <= 1.0) ? 1.0 : 0.0;
    vec3 centre = mix(instanceA, instanceB, clamp(local, 0.0, 1.0));
    vec3 p = centre + vertexPosition * messageRadius * instanceHop.z * visible;
    color = instanceColor;
    viewNormal = mat3(modelViewMatrix) * vertexNormal;
    gl_Position = modelViewProjection * vec4(p, 1.0);
}
