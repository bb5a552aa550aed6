#version 150 core
// Shared fragment shader of the instanced node, link and message renderers: the per-instance
// colour, lit by a head light so a face turned to the camera shows its colour unchanged.
in vec4 color;
in vec3 viewNormal;
out vec4 fragColor;

void main()
{
    float light = 0.55 + 0.45 * abs(normalize(viewNormal).z);
    fragColor = vec4(color.rgb * light, 1.0);
}
