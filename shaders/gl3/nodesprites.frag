#version 150 core
// Sphere impostors: the point's disc shaded as the sphere it stands for, with the head light of
// instanced.frag (0.55 + 0.45 · |normal.z|); outside the disc nothing is drawn.
in vec4 color;
out vec4 fragColor;

void main()
{
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 > 1.0)
        discard;
    float light = 0.55 + 0.45 * sqrt(1.0 - r2);
    fragColor = vec4(color.rgb * light, 1.0);
}
