#version 450
// RHI version of shaders/gl3/labels.frag.
layout(location = 0) in vec2 texCoord;
layout(binding = 3) uniform sampler2D labelAtlas;
layout(location = 0) out vec4 fragColor;

void main()
{
    vec4 texel = texture(labelAtlas, texCoord);
    if (texel.a < 0.5)
        discard;
    fragColor = vec4(texel.rgb, 1.0);
}
