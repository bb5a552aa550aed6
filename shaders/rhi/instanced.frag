#version 450
// Shared fragment shader (RHI backend); see shaders/gl3/instanced.frag.
layout(location = 0) in vec4 color;
layout(location = 1) in vec3 viewNormal;
layout(location = 0) out vec4 fragColor;

void main()
{
    float light = 0.55 + 0.45 * abs(normalize(viewNormal).z);
    fragColor = vec4(color.rgb * light, 1.0);
}
