#version 330 core
// Hemisphere ambient + a directional key light + a weak fill from the other side, so every wall
// orientation reads differently; on untextured surfaces a tint by orientation (floors warm,
// walls cool) and a world-space grid (1 m lines, 10 m lines stronger, both fading with distance
// before they alias) so scale and slopes read; linear fog between distances set from the level's
// size, so a large level does not drown in it.
// Output is linear; GL_FRAMEBUFFER_SRGB converts it when the framebuffer is sRGB-capable.
in vec3 vWorldPos;
in vec3 vNormal;
in vec2 vUv;
in vec4 vBaseColor;
flat in float vTextureLayer;

uniform sampler2DArray uTextures;
uniform vec3 uLightDir;   // direction the light travels
uniform vec3 uCameraPos;
uniform vec3 uFogColor;   // linear
uniform float uFogStart;  // m: fog begins
uniform float uFogEnd;    // m: fog reaches its most
uniform int uGrid;
uniform float uAlphaCutoff;  // render/material_opacity.h's kAlphaCutoff
uniform vec4 uTint;          // rgb mixed in by a: debug colouring of a subset (0: none)

out vec4 fragColor;

const float kFogMost = 0.65;  // far geometry keeps its shape against the sky

// Anti-aliased grid lines of a given spacing on the plane most facing the normal, faded out
// where a line would be thinner than about a third of a pixel apart from the next (moire).
float gridLines(vec3 p, vec3 n, float spacing) {
  vec3 a = abs(n);
  vec2 uv = (a.y >= a.x && a.y >= a.z ? p.xz : (a.x >= a.z ? p.zy : p.xy)) / spacing;
  vec2 w = fwidth(uv);
  vec2 g = abs(fract(uv - 0.5) - 0.5) / max(w, vec2(1e-5));
  float line = 1.0 - clamp(min(g.x, g.y), 0.0, 1.0);
  float density = max(w.x, w.y);
  return line * (1.0 - smoothstep(0.08, 0.3, density));
}

void main() {
  // Two-sided: collision is two-sided, so back faces are lit as front faces.
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  bool textured = vTextureLayer >= 0.0;
  vec4 albedo = vBaseColor;
  if (textured) albedo *= texture(uTextures, vec3(vUv, vTextureLayer));
  if (albedo.a < uAlphaCutoff) discard;

  if (!textured) {
    float floorness = smoothstep(0.35, 0.85, abs(n.y));
    albedo.rgb *= mix(vec3(0.80, 0.86, 0.95), vec3(1.05, 0.97, 0.86), floorness);
    if (uGrid != 0) {
      float fine = gridLines(vWorldPos, n, 1.0);
      float coarse = gridLines(vWorldPos, n, 10.0);
      albedo.rgb = mix(albedo.rgb, albedo.rgb * 0.45, max(fine * 0.55, coarse * 0.9));
    }
  }

  vec3 l = normalize(-uLightDir);
  float key = max(dot(n, l), 0.0);
  // The fill comes from the opposite side, level with the horizon.
  vec3 fillDir = normalize(vec3(-l.x, 0.0, -l.z) + vec3(0.0, 0.2, 0.0));
  float fill = max(dot(n, fillDir), 0.0);
  vec3 sky = vec3(0.55, 0.62, 0.78);
  vec3 ground = vec3(0.28, 0.25, 0.22);
  vec3 ambient = mix(ground, sky, n.y * 0.5 + 0.5) * 0.42;
  vec3 light = ambient + vec3(1.0, 0.95, 0.86) * key * 0.9 + vec3(0.45, 0.55, 0.7) * fill * 0.25;
  vec3 color = albedo.rgb * light;

  float d = length(vWorldPos - uCameraPos);
  float fog = clamp((d - uFogStart) / max(uFogEnd - uFogStart, 1e-3), 0.0, 1.0);
  color = mix(color, uFogColor, fog * fog * kFogMost);
  if (uTint.a > 0.0) color = mix(color, uTint.rgb, uTint.a);
  fragColor = vec4(color, 1.0);
}
