#version 330 core
in vec3 vNormal;
in vec4 vColor;
uniform vec3 uLightDir;  // direction the light travels
out vec4 fragColor;
void main() {
  vec3 n = normalize(vNormal);
  float diffuse = max(dot(n, normalize(-uLightDir)), 0.0);
  vec3 ambient = mix(vec3(0.30, 0.27, 0.24), vec3(0.55, 0.62, 0.75), n.y * 0.5 + 0.5) * 0.5;
  fragColor = vec4(vColor.rgb * (ambient + vec3(1.0, 0.96, 0.9) * diffuse * 0.85), vColor.a);
}
