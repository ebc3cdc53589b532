#version 330 core
// Instanced props: a unit mesh scaled by the instance's half-extents and moved to its centre.
// Attribute locations match src/render/prop_renderer.cpp.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 iCenter;
layout(location = 3) in vec3 iHalfExtents;
layout(location = 4) in vec4 iColor;

uniform mat4 uViewProj;

out vec3 vNormal;
out vec4 vColor;

void main() {
  vNormal = aNormal;  // axis-aligned scaling of a sphere or box keeps these normals right
  vColor = iColor;
  gl_Position = uViewProj * vec4(iCenter + aPosition * iHalfExtents, 1.0);
}
