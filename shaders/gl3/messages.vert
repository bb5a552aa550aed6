#version 150 core
// One instance per hop of every message of the current step. The message's head has covered
// stepFraction of its route; only the hop that holds the head is drawn, at its place on that hop.
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec3 instanceA;
in vec3 instanceB;
in vec4 instanceColor;
in vec3 instanceHop;   // (hop index, hop count, thickness by the message's size)

uniform mat4 modelViewProjection;
uniform mat4 modelView;
uniform float messageRadius;
uniform float stepFraction;

out vec4 color;
out vec3 viewNormal;

void main()
{
    float head = stepFraction * instanceHop.y;
    float local = head - instanceHop.x;
    float visible = (local >= 0.0 && local <= 1.0) ? 1.0 : 0.0;
    vec3 centre = mix(instanceA, instanceB, clamp(local, 0.0, 1.0));
    vec3 p = centre + vertexPosition * messageRadius * instanceHop.z * visible;
    color = instanceColor;
    viewNormal = mat3(modelView) * vertexNormal;
    gl_Position = modelViewProjection * vec4(p, 1.0);
}
