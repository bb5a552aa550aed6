#version 450
// RHI version of shaders/gl3/links.vert.
layout(location = 0) in vec3 vertexPosition;
layout(location = 1) in vec3 vertexNormal;
layout(location = 2) in vec3 instanceA;
layout(location = 3) in vec3 instanceB;
layout(location = 4) in vec3 instanceBulge;
layout(location = 5) in vec4 instanceColor;

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
    float linkRadius;
    float channelOffset;
};

layout(location = 0) out vec4 color;
layout(location = 1) out vec3 viewNormal;

vec3 perpendicular(vec3 d)
{
    vec3 ref = abs(d.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    return normalize(cross(d, ref));
}

// The side a channel is shifted to: across the link as the camera sees it, so the two directions
// of a link lie side by side on the screen and neither hides the other (a fixed side would put
// one above the other in a top-down view). A link pointing at the camera keeps a fixed side.
vec3 beside(vec3 dn)
{
    vec3 toCamera = normalize((inverseModelViewMatrix * vec4(0.0, 0.0, 1.0, 0.0)).xyz);
    vec3 side = cross(dn, toCamera);
    return length(side) > 1e-3 ? normalize(side) : perpendicular(dn);
}

void main()
{
    float t = vertexPosition.y + 0.5;
    vec3 d = instanceB - instanceA;
    vec3 dn = normalize(d);
    vec3 tangent = normalize(d + instanceBulge * (4.0 - 8.0 * t));
    vec3 u = perpendicular(tangent);
    vec3 v = cross(u, tangent);  // (u, tangent, v) right-handed: the prism keeps its winding, front faces face out
    vec3 p = mix(instanceA, instanceB, t) + instanceBulge * (4.0 * t * (1.0 - t))
           + beside(dn) * channelOffset
           + (u * vertexPosition.x + v * vertexPosition.z) * linkRadius;
    color = instanceColor;
    viewNormal = mat3(modelViewMatrix) * (u * vertexNormal.x + v * vertexNormal.z + tangent * vertexNormal.y);
    gl_Position = modelViewProjection * vec4(p, 1.0);
}
