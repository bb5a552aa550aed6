#version 150 core
// One instance per directed channel: a unit prism (y in -0.5..0.5) stretched from A to B,
// bent by a quadratic bulge (torus wrap-around arcs) and shifted to one side so the two
// directions of a link are told apart.
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec3 instanceA;
in vec3 instanceB;
in vec3 instanceBulge;
in vec4 instanceColor;

uniform mat4 modelViewProjection;
uniform mat4 modelView;
uniform mat4 inverseModelView;
uniform float linkRadius;
uniform float channelOffset;

out vec4 color;
out vec3 viewNormal;

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
    vec3 toCamera = normalize((inverseModelView * vec4(0.0, 0.0, 1.0, 0.0)).xyz);
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
    viewNormal = mat3(modelView) * (u * vertexNormal.x + v * vertexNormal.z + tangent * vertexNormal.y);
    gl_Position = modelViewProjection * vec4(p, 1.0);
}
