#version 450
// RHI version of shaders/gl3/nodesprites.frag.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 fragColor;

void main()
{
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 > 1.0)
        discard;
    float light = 0.55 + 0.45 * sqrt(1.0 - r2);
    fragColor = vec4(color.rgb * light, 1.0);
}
