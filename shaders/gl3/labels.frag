#version 150 core
// Label plates are opaque: the atlas texel as it is, the transparent rounded corners discarded
// (no blending, so the picture does not depend on the order of draw calls).
in vec2 texCoord;
uniform sampler2D labelAtlas;
out vec4 fragColor;

void main()
{
    vec4 texel = texture(labelAtlas, texCoord);
    if (texel.a < 0.5)
        discard;
    fragColor = vec4(texel.rgb, 1.0);
}
