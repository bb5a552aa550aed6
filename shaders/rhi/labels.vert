#version 450
// RHI version of shaders/gl3/labels.vert.
layout(location = 0) in vec2 vertexCorner;
layout(location = 1) in vec3 instanceAnchor;
layout(location = 2) in vec4 instancePlate;
layout(location = 3) in vec4 instanceAtlas;

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
    vec2 viewportSize;
    float anchorLift;
};

layout(location = 0) out vec2 texCoord;

void main()
{
    // projection = modelViewProjection · inverse(modelView)
    vec4 view = modelViewMatrix * vec4(instanceAnchor, 1.0);
    view.xy += anchorLift * sign(instancePlate.xy + 0.5 * instancePlate.zw);
    view.z += 0.35;
    vec4 clip = modelViewProjection * (inverseModelViewMatrix * view);
    vec2 pixel = floor((clip.xy / clip.w * 0.5 + 0.5) * viewportSize + instancePlate.xy + 0.5)
                 + vertexCorner * instancePlate.zw;
    vec2 ndc = pixel / viewportSize * 2.0 - 1.0;
    texCoord = vec2(mix(instanceAtlas.x, instanceAtlas.z, vertexCorner.x),
                    mix(instanceAtlas.w, instanceAtlas.y, vertexCorner.y));
    gl_Position = vec4(ndc * clip.w, clip.z, clip.w);
}
