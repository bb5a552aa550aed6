#version 150 core
// One instance per node mark (Predict mode): a flat shape facing the camera, centred on the node
// and pulled toward the camera so the node's sphere never hides it. The vertex buffer holds every
// shape, each vertex tagged with its shape (vertexPosition.z); the vertices of the other shapes
// are sent outside the clip volume, so their triangles are dropped.
in vec3 vertexPosition;
in vec3 instancePosition;
in vec4 instanceColor;
in float instanceShape;
in float instanceSize;

uniform mat4 modelView;
uniform mat4 projectionMatrix;
uniform float markRadius;

out vec4 color;
out vec3 viewNormal;

void main()
{
    color = instanceColor;
    viewNormal = vec3(0.0, 0.0, 1.0);
    if (abs(vertexPosition.z - instanceShape) > 0.5) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    vec4 view = modelView * vec4(instancePosition, 1.0);
    view.xy += vertexPosition.xy * (markRadius * instanceSize);
    view.z += markRadius;
    gl_Position = projectionMatrix * view;
}
