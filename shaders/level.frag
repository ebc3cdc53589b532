#version 330 core
// Directional light + hemispheric ambient; a world-space metre grid on untextured surfaces.
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
uniform float uFogDensity;
uniform int uGrid;
uniform float uAlphaCutoff;  // render/material_opacity.h's kAlphaCutoff
uniform vec4 uTint;          // rgb mixed in by a: debug colouring of a subset (0: none)

out vec4 fragColor;

// Anti-aliased grid lines of a given spacing, projected on the plane most facing the normal.
float gridLines(vec3 p, vec3 n, float spacing) {
  vec3 a = abs(n);
  vec2 uv = a.y >= a.x && a.y >= a.z ? p.xz : (a.x >= a.z ? p.zy : p.xy);
  vec2 g = abs(fract(uv / spacing - 0.5) - 0.5) / fwidth(uv / spacing);
  return 1.0 - clamp(min(g.x, g.y), 0.0, 1.0);
}

void main() {
  // Two-sided: collision is two-sided, so back faces are lit as front faces.
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  bool textured = vTextureLayer >= 0.0;
  vec4 albedo = vBaseColor;
  if (textured) albedo *= texture(uTextures, vec3(vUv, vTextureLayer));
  if (albedo.a < uAlphaCutoff) discard;

  if (!textured && uGrid != 0) {
    float fine = gridLines(vWorldPos, n, 1.0);
    float coarse = gridLines(vWorldPos, n, 10.0);
    albedo.rgb = mix(albedo.rgb, albedo.rgb * 0.55, max(fine * 0.6, coarse));
  }

  vec3 l = normalize(-uLightDir);
  float diffuse = max(dot(n, l), 0.0);
  vec3 sky = vec3(0.55, 0.62, 0.75);
  vec3 ground = vec3(0.30, 0.27, 0.24);
  vec3 ambient = mix(ground, sky, n.y * 0.5 + 0.5) * 0.45;
  vec3 color = albedo.rgb * (ambient + vec3(1.0, 0.96, 0.9) * diffuse * 0.85);

  // Gentle distance fog so large levels read in depth.
  float d = length(vWorldPos - uCameraPos);
  float fog = 1.0 - exp(-d * uFogDensity);
  color = mix(color, uFogColor, clamp(fog, 0.0, 0.6));
  if (uTint.a > 0.0) color = mix(color, uTint.rgb, uTint.a);
  fragColor = vec4(color, 1.0);
}
