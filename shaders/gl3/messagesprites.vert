#version 150 core
// Messages in flight as sphere impostors: one point per hop of every message of the current step
// (a non-instanced draw of per-vertex records). Each hop says when, in fractions of the step's
// window, the message's head enters and leaves it; only the hop that holds the head is drawn, a point as large on screen as the message's
// sphere at its place on that hop; the other hops' points get no size and are clipped away.
in vec3 instanceA;
in vec3 instanceB;
in vec4 instanceColor;
in vec3 instanceHop;   // (when the head enters the hop, when it leaves it, thickness by the message's size)

uniform mat4 modelView;
uniform mat4 projectionMatrix;
uniform float messageRadius;
uniform float stepFraction;
uniform float viewportHeight;  // device pixels

out vec4 color;

void main()
{
    // The times are fractions of the step's window: hop k of n is k/n … (k+1)/n in steps, the
    // simulated interval of the hop in simulated time (before 0 or past 1 for messages of other steps).
    float local = (stepFraction - instanceHop.x) / max(instanceHop.y - instanceHop.x, 1e-6);
    bool visible = local >= 0.0 && local <= 1.0;
    float r = messageRadius * instanceHop.z;
    vec4 view = modelView * vec4(mix(instanceA, instanceB, clamp(local, 0.0, 1.0)), 1.0);
    vec4 centre = projectionMatrix * view;
    view.z += r;  // the sphere's front: what passes behind the message stays hidden
    gl_Position = visible ? projectionMatrix * view : vec4(2.0, 2.0, 2.0, 1.0);
    color = instanceColor;
    gl_PointSize = visible ? max(1.0, r * projectionMatrix[1][1] * viewportHeight / centre.w) : 0.0;
}
