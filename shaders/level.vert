#version 330 core
// Level geometry is already in world space (the loader applied every node transform).
// Attribute locations match src/render/level_renderer.cpp.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUv;
layout(location = 3) in vec4 aBaseColor;    // material factor, linear
layout(location = 4) in float aTextureLayer; // -1: untextured

uniform mat4 uViewProj;

out vec3 vWorldPos;
out vec3 vNormal;
out vec2 vUv;
out vec4 vBaseColor;
flat out float vTextureLayer;

void main() {
  vWorldPos = aPosition;
  vNormal = aNormal;
  vUv = aUv;
  vBaseColor = aBaseColor;
  vTextureLayer = aTextureLayer;
  gl_Position = uViewProj * vec4(aPosition, 1.0);
}
